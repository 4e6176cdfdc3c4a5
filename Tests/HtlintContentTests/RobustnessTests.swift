import Testing
import CLibXML2
#if canImport(Glibc)
import Glibc
#endif
import HtlintDiagnostics
@testable import HtlintContent

// Big and hostile inputs: the scanner must finish, count right and stay silent.

@Test func aFiveMegabytePageIsScannedCompletely() {
    var html = "<!DOCTYPE html><html><head><link rel=stylesheet href=\"http://cdn.example.net/site.css\"></head><body>\n"
    var posts = 0
    while html.utf8.count < 5_000_000 {
        html += """
        <article id="p\(posts)"><h2><a href="/posts/\(posts)">Post \(posts)</a></h2>
        <img src="http://cdn.example.net/i/\(posts).jpg" srcset="/i/\(posts)-1x.jpg 1x, /i/\(posts)-2x.jpg 2x" alt="">
        <p style="background: url(/bg/\(posts).png)">Lorem ipsum dolor sit amet, consectetur adipiscing elit &amp; more.</p>
        </article>

        """
        posts += 1
    }
    html += "<script src=\"http://cdn.example.net/last.js\"></script></body></html>\n"
    let file = SourceFile(path: "big.html", text: html)
    let scan = PageScanner.scanHTML(file, pageURL: "https://example.com/")
    #expect(file.bytes.count >= 5_000_000)
    #expect(scan.references.count == 2 + posts * 4)
    #expect(scan.links.count == posts)
    // Far beyond line 65535, where libxml2's own line numbers saturate.
    let last = scan.references.last!
    #expect(last.url == "http://cdn.example.net/last.js")
    #expect(file.lines.position(of: last.range.start) == SourcePosition(line: 2 + posts * 4, column: 14))
    #expect(posts * 4 > 65_535)
    let findings = MixedContent.classify(scan)
    #expect(findings.filter { $0.verdict == .upgraded }.count == 0)   // each <img> has a srcset
    #expect(findings.filter { $0.verdict == .blocked }.count == posts + 2)
}

@Test func deeplyNestedUnclosedElementsDoNotOverflowTheStack() {
    let depth = 100_000
    let html = String(repeating: "<div><span>", count: depth) + "<img src=\"http://e.example/deep.png\">"
    let (_, scan) = scanPage(html)
    #expect(scan.references.map(\.url) == ["http://e.example/deep.png"])
    #expect(scan.references[0].range.start == depth * 11 + 10)
}

@Test func manyAttributesABigScriptAndAHugeTextNodeAreFine() {
    let attributes = (0..<5000).map { "data-a\($0)=\"\($0)\"" }.joined(separator: " ")
    let script = "<script>" + String(repeating: "var x = '<img src=no.png>';\n", count: 40_000) + "fetch('http://e.example/api')</script>"
    // Past 10 MB of text libxml2 2.9 stops parsing unless XML_PARSE_HUGE is set: the image
    // after it would silently disappear.
    let text = "<p>" + String(repeating: "lorem ipsum ", count: 900_000) + "</p>"
    let (_, scan) = scanPage("<img \(attributes) src=\"http://e.example/a.png\">" + script + text + "<img src=\"after.png\">")
    #expect(scan.references.map(\.url) == ["http://e.example/a.png", "http://e.example/api", "after.png"])
}

/// Counts libxml2 errors delivered to a structured handler someone installed globally.
nonisolated(unsafe) private var globalHandlerCalls = 0

@Test(.serialized, arguments: [0, 1])
func libxml2PrintsNothingAndReachesNoGlobalHandler(_ round: Int) {
    // The same markup makes libxml2 without NOERROR print "HTML parser error : …" lines.
    let broken = "<html><body><p><b></p>&bogus; <img src=\"a.png\" src=\"b.png\"><div<<>> </x></y><?pi <!DOCTYPE"
        + String(repeating: "<b><i>", count: 300) + "\u{0}\u{1}</body>"
    // A handler on this thread's libxml2 error state: our parses must not call it.
    xmlSetStructuredErrorFunc(nil) { _, _ in globalHandlerCalls += 1 }
    defer { xmlSetStructuredErrorFunc(nil, nil) }
    globalHandlerCalls = 0

    // Capture file descriptor 2 around the parses. Tests running in parallel may write their
    // own progress lines meanwhile, so only libxml2's message formats count.
    var pipeEnds: [Int32] = [0, 0]
    #expect(pipe(&pipeEnds) == 0)
    fflush(nil)   // all C streams
    let saved = dup(2)
    dup2(pipeEnds[1], 2)
    for _ in 0..<3 { _ = PageScanner.scanHTML(SourceFile(path: "x.html", text: broken), pageURL: nil) }
    fflush(nil)
    dup2(saved, 2)
    close(saved)
    close(pipeEnds[1])
    var captured: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(pipeEnds[0], &buffer, buffer.count)
        if count <= 0 { break }
        captured += buffer.prefix(count)
    }
    close(pipeEnds[0])
    let text = String(decoding: captured, as: UTF8.self)
    for marker in ["parser error", "parser warning", "encoding error", "namespace error"] {
        #expect(!text.contains(marker), "stderr got: \(text)")
    }
    #expect(globalHandlerCalls == 0)
}
