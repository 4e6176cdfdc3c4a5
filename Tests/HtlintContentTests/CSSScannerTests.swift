import Testing
import HtlintDiagnostics
@testable import HtlintContent

// CSS files and style blocks: every url() and @import, nothing that merely looks like a URL.

private func scanCSS(_ marked: String, baseURL: String? = "https://example.com/css/site.css",
                     sourceLocation: SourceLocation = #_sourceLocation) -> [ResourceReference] {
    let (text, offsets) = stripMarkers(marked)
    let file = SourceFile(path: "site.css", text: text)
    let found = CSSScanner.scan(file, baseURL: baseURL)
    #expect(found.map(\.range.start) == offsets, "\(found.map(\.url))", sourceLocation: sourceLocation)
    for r in found { #expect(file.text(r.range.start..<r.range.end) == r.rawText, sourceLocation: sourceLocation) }
    return found
}

@Test func urlFunctionWithAndWithoutQuotes() {
    let found = scanCSS("""
    a { background: url(↓http://example.com/a.png) }
    b { background: url( "↓b.png" ) } c { background: URL('↓c.png') }
    d { background: url(  ↓d.png  ) } e{background:url(↓e\\(1\\).png)}
    """)
    #expect(found.map(\.url) == ["http://example.com/a.png", "b.png", "c.png", "d.png", "e(1).png"])
    #expect(found.map(\.rawText) == ["http://example.com/a.png", "b.png", "c.png", "d.png", "e\\(1\\).png"])
    #expect(found.map(\.resolvedURL) == ["http://example.com/a.png", "https://example.com/css/b.png",
                                         "https://example.com/css/c.png", "https://example.com/css/d.png",
                                         "https://example.com/css/e(1).png"])
}

@Test func importWithStringOrURL() {
    let found = scanCSS("""
    @charset "utf-8";
    @import "↓http://example.com/one.css";
    @import url(↓two.css) screen;
    @IMPORT url("↓three.css") layer(base) supports(display: grid);
    @import '↓four.css' print;
    """)
    #expect(found.map(\.kind) == [.style, .style, .style, .style])
    #expect(found.map(\.detail) == ["@import", "@import", "@import", "@import"])
}

@Test func fontFaceSourcesAreFonts() {
    let found = scanCSS("""
    @font-face {
      font-family: "Open Sans";
      src: local("Open Sans"), url(↓http://example.com/os.woff2) format("woff2"),
           url("↓os.woff") format("woff");
    }
    h1 { font-family: "Open Sans"; background-image: url(↓h1.png) }
    """)
    #expect(found.map(\.kind) == [.font, .font, .image])
    #expect(found.map(\.detail) == ["@font-face src", "@font-face src", "background-image"])
}

@Test func propertiesGiveTheKind() {
    let found = scanCSS("""
    .a { cursor: url(↓c.cur), pointer; list-style-image: url(↓l.png); border-image: url(↓b.png) 30 }
    .b { content: url(↓content.svg); mask-image: url(↓m.svg); --hero: url(↓custom.png) }
    .c { background-image: image-set("↓a-1x.png" 1x, url(↓a-2x.png) 2x); }
    """)
    #expect(found.map(\.kind) == [.cursor, .image, .image, .image, .image, .image, .image, .image])
    #expect(found.map(\.detail) == ["cursor", "list-style-image", "border-image", "content", "mask-image",
                                    "--hero", "background-image", "background-image"])
}

@Test func commentsStringsAndNamespacesAreNotURLs() {
    let found = scanCSS("""
    /* background: url(http://example.com/commented.png) */
    @namespace svg url(http://www.w3.org/2000/svg);
    p::before { content: "url(http://example.com/in-string.png)"; }
    q::after { content: 'http://example.com/quoted'; font-family: "http://x" }
    .myurl(x) {} .u { background: myurl(http://example.com/not-url-function); }
    .ok { background: url(↓ok.png) /* url(no.png) */ }
    """)
    #expect(found.map(\.url) == ["ok.png"])
}

@Test func escapesAndBadURLs() {
    let found = scanCSS("""
    .e { background: url(↓\\68 ttp://example.com/escaped.png) }
    .s { background: url("↓a\\"b.png") }
    .bad { background: url(a b.png) } .bad2 { background: url(a"b.png) }
    .after { background: url(↓after.png) }
    .nl { content: "unterminated
    ; background: url(↓next-line.png) }
    """)
    #expect(found.map(\.url) == ["http://example.com/escaped.png", "a\"b.png", "after.png", "next-line.png"])
}

@Test func emptyURLsAreSkippedAndEndOfFileIsSafe() {
    #expect(scanCSS("a { background: url() } b { background: url('') } c { background: url(   ) }").isEmpty)
    for truncated in ["url(", "url(\"", "@import", "@import '", "/*", "a { background: url(x", "\\", "url(\\"] {
        _ = CSSScanner.scan(SourceFile(path: "t.css", text: truncated))
    }
    let tail = scanCSS("a{background:url(↓x.png")
    #expect(tail.map(\.url) == ["x.png"])
}

@Test func aRangeOfAFileIsScannedInPlace() {
    let text = "ignored url(a.png) {} | .x { background: url(b.png) } | url(c.png)"
    let file = SourceFile(path: "page.html", text: text)
    let block = ".x { background: url(b.png) }"
    let start = 24
    #expect(file.text(start..<(start + block.utf8.count)) == block)
    let found = CSSScanner.scan(file, range: start..<(start + block.utf8.count))
    #expect(found.map(\.url) == ["b.png"])
    #expect(found.map(\.range.start) == [start + 21])
    #expect(found.first?.resolvedURL == nil)
}

@Test func positionsInAStyleSheetAreLineAndColumn() {
    let text = "/* é */\n@import url(\"http://example.com/a.css\");\n\n  .x {\n\tbackground: url(http://example.com/b.png)\n}\n"
    let file = SourceFile(path: "site.css", text: text)
    #expect(described(CSSScanner.scan(file), in: file) == [
        "2:14 - - style http://example.com/a.css",
        "5:18 - - image http://example.com/b.png",
    ])
}
