import Testing
import HtlintDiagnostics
@testable import HtlintContent

/// Removes every `↓` and returns the text with the UTF-8 offset each marker stood at
/// (house style: `↓` marks where a finding must start).
func stripMarkers(_ marked: String) -> (text: String, offsets: [Int]) {
    var bytes: [UInt8] = []
    var offsets: [Int] = []
    let marker = Array("↓".utf8)
    let input = Array(marked.utf8)
    var i = 0
    while i < input.count {
        if input[i...].starts(with: marker) {
            offsets.append(bytes.count)
            i += marker.count
        } else {
            bytes.append(input[i])
            i += 1
        }
    }
    return (String(decoding: bytes, as: UTF8.self), offsets)
}

/// "line:column element attribute kind url" for each reference, after checking the invariant
/// that `rawText` is exactly the file's text at `range`.
func described(_ references: [ResourceReference], in file: SourceFile,
               sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    references.map { r in
        #expect(file.text(r.range.start..<r.range.end) == r.rawText, sourceLocation: sourceLocation)
        let p = file.lines.position(of: r.range.start)
        return "\(p.line):\(p.column) \(r.element ?? "-") \(r.attribute ?? "-") \(r.kind.rawValue) \(r.url)"
    }
}

/// Scans `marked` HTML and checks that the references (and links) start exactly at the markers.
@discardableResult
func expectReferencesAtMarkers(_ marked: String, pageURL: String? = "https://example.com/dir/page.html",
                               sourceLocation: SourceLocation = #_sourceLocation) -> PageScan {
    let (text, offsets) = stripMarkers(marked)
    let file = SourceFile(path: "page.html", text: text)
    let scan = PageScanner.scanHTML(file, pageURL: pageURL)
    let all = (scan.references + scan.links).sorted { $0.range.start < $1.range.start }
    #expect(all.map(\.range.start) == offsets, "\(described(all, in: file))", sourceLocation: sourceLocation)
    _ = described(all, in: file, sourceLocation: sourceLocation)
    return scan
}

/// Scans HTML text as `page.html`.
func scanPage(_ html: String, pageURL: String? = "https://example.com/dir/page.html") -> (SourceFile, PageScan) {
    let file = SourceFile(path: "page.html", text: html)
    return (file, PageScanner.scanHTML(file, pageURL: pageURL))
}
