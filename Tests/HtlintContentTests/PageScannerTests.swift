import Testing
import HtlintDiagnostics
@testable import HtlintContent

// The scanner's job is to find every URL a page makes the browser fetch or navigate to, and
// to point at each URL's first character exactly, whatever the markup looks like.

@Test func everyElementKindIsFoundAtTheURLsFirstCharacter() {
    let html = """
    <!DOCTYPE html>
    <html><head>
    <base href="https://cdn.example.com/base/">
    <meta http-equiv="refresh" content="30; url=http://example.com/next">
    <link rel="stylesheet" href="http://example.com/site.css">
    <link rel="icon" href="http://example.com/favicon.ico">
    <link rel="preload" as="font" href="http://example.com/f.woff2" crossorigin>
    <link rel="modulepreload" href="http://example.com/m.js">
    <link rel="manifest" href="/app.webmanifest">
    <script src="http://example.com/app.js"></script>
    </head><body>
    <img src="http://example.com/a.png" alt="">
    <picture><source srcset="http://example.com/p.webp"><img src="http://example.com/p.jpg"></picture>
    <video src="http://example.com/v.mp4" poster="http://example.com/poster.jpg"><track src="http://example.com/subs.vtt"></video>
    <audio><source src="http://example.com/a.mp3"></audio>
    <iframe src="http://example.com/frame.html"></iframe>
    <object data="http://example.com/movie.swf"></object><embed src="http://example.com/e.swf">
    <form action="http://example.com/subscribe"><input type="image" src="http://example.com/go.png"><button formaction="http://example.com/alt">x</button></form>
    <a href="http://example.com/about">about</a>
    </body></html>
    """
    let (file, scan) = scanPage(html)
    #expect(described(scan.references, in: file) == [
        "3:13 base href base https://cdn.example.com/base/",
        "4:45 meta content refresh http://example.com/next",
        "5:30 link href style http://example.com/site.css",
        "6:24 link href icon http://example.com/favicon.ico",
        "7:37 link href font http://example.com/f.woff2",
        "8:33 link href script http://example.com/m.js",
        "9:28 link href manifest /app.webmanifest",
        "10:14 script src script http://example.com/app.js",
        "12:11 img src image http://example.com/a.png",
        "13:26 source srcset imageSet http://example.com/p.webp",
        "13:63 img src imageSet http://example.com/p.jpg",
        "14:13 video src video http://example.com/v.mp4",
        "14:47 video poster image http://example.com/poster.jpg",
        "14:90 track src track http://example.com/subs.vtt",
        "15:21 source src audio http://example.com/a.mp3",
        "16:14 iframe src frame http://example.com/frame.html",
        "17:15 object data object http://example.com/movie.swf",
        "17:66 embed src embed http://example.com/e.swf",
        "18:15 form action form http://example.com/subscribe",
        "18:70 input src image http://example.com/go.png",
        "18:117 button formaction form http://example.com/alt",
    ])
    #expect(described(scan.links, in: file) == ["19:10 a href link http://example.com/about"])
    #expect(scan.references.first { $0.kind == .font }?.isCORS == true)
    #expect(scan.references.first { $0.kind == .manifest }?.resolvedURL == "https://cdn.example.com/app.webmanifest")
}

@Test func linkRelAndPreloadAsDecideTheKind() {
    let scan = expectReferencesAtMarkers("""
    <link rel="Shortcut Icon" href="↓/favicon.ico">
    <link rel=apple-touch-icon href=↓/touch.png>
    <link rel="alternate stylesheet" href="↓/alt.css">
    <link rel=preload as=image href="↓/hero.jpg" imagesrcset="↓/hero-1x.jpg 1x, ↓/hero-2x.jpg 2x">
    <link rel=preload as=script href="↓/s.js"><link rel=preload as=style href="↓/s.css">
    <link rel=preload href="/no-as.js"><link rel=preload as=bogus href="/bogus.js">
    <link rel=prefetch href="↓/next.html">
    <link rel=canonical href="http://example.com/"><link rel=pingback href="http://example.com/xmlrpc.php">
    <link rel=preconnect href="http://fonts.example.com">
    """)
    #expect(scan.references.map(\.kind) == [.icon, .icon, .style, .imageSet, .imageSet, .imageSet, .script, .style, .fetch])
    #expect(scan.references.map(\.detail) == ["shortcut icon", "apple-touch-icon", "alternate stylesheet",
                                              "preload as=image", "preload as=image", "preload as=image",
                                              "preload as=script", "preload as=style", "prefetch"])
}

@Test func formsCarryTheirSubmissionMethod() {
    let scan = expectReferencesAtMarkers("""
    <form method=POST action="↓/a"><button formaction="↓/b">b</button><button formmethod=get formaction="↓/c">c</button></form>
    <form action="↓/d"></form><form method=put action="↓/e"></form><form method=dialog action="↓/f"></form>
    <input type=submit formmethod=Post formaction="↓/g">
    """)
    // A button without formmethod submits with its form's method, which the scanner does not follow.
    #expect(scan.references.map(\.detail) == ["method=post", nil, "method=get", "method=get", "method=get", "method=dialog", "method=post"])
}

@Test func srcsetCandidatesAreEachLocated() {
    // A comma inside a URL does not split it ("x.png,y.png" is one URL, as the HTML algorithm
    // reads it); a trailing comma ends a candidate; commas in descriptor parentheses do not.
    let scan = expectReferencesAtMarkers("""
    <img src="↓a.png" srcset="↓a.png 1x, ↓http://example.com/a@2x.png 2x,↓a-3x.png 3x">
    <img srcset="↓x.png,y.png 100w ,  ↓z(1).png (max-width: 10px, 20px) 50w, ↓last.png,">
    <picture>
      <source media="(min-width: 800px)" srcset="↓wide.webp 1x, ↓wide@2x.webp 2x" type="image/webp">
      <source srcset="↓narrow.webp">
      <img src="↓fallback.jpg">
    </picture>
    """)
    #expect(scan.references.map(\.url) == ["a.png", "a.png", "http://example.com/a@2x.png", "a-3x.png",
                                           "x.png,y.png", "z(1).png", "last.png",
                                           "wide.webp", "wide@2x.webp", "narrow.webp", "fallback.jpg"])
    #expect(scan.references.allSatisfy { $0.kind == .imageSet })
}

@Test func uppercaseTagsAndAttributesAreFound() {
    let (file, scan) = scanPage("""
    <HTML><BODY>
    <IMG SRC="http://example.com/A.PNG"><SCRIPT SRC=http://example.com/B.JS></SCRIPT>
    <A HREF="HTTP://EXAMPLE.COM/">x</A><Link REL=StyleSheet HREF='/c.css'>
    """)
    #expect(described(scan.references, in: file) == [
        "2:11 img src image http://example.com/A.PNG",
        "2:49 script src script http://example.com/B.JS",
        "3:63 link href style /c.css",
    ])
    #expect(described(scan.links, in: file) == ["3:10 a href link HTTP://EXAMPLE.COM/"])
    #expect(scan.links[0].resolvedURL == "http://example.com/")
}

@Test func unquotedSingleQuotedAndSpacedValuesAreLocated() {
    expectReferencesAtMarkers("""
    <img src=↓http://example.com/u.png alt=x><img src = '↓s.png'><img src="  ↓spaced.png  ">
    <img src=↓self-closing.png/><img
       alt="multi
    line"
       src=
         "↓later.png">
    """)
}

@Test func entitiesAreDecodedButThePositionIsTheRawText() {
    let (file, scan) = scanPage(#"<p><img src="/a?x=1&amp;y=2&#38;z=3&#x26;w"> <img srcset="/b?p=1&amp;q=2 1x, &#104;ttp://e.example/c 2x">"#)
    #expect(scan.references.map(\.url) == ["/a?x=1&y=2&z=3&w", "/b?p=1&q=2", "http://e.example/c"])
    #expect(scan.references.map(\.rawText) == ["/a?x=1&amp;y=2&#38;z=3&#x26;w", "/b?p=1&amp;q=2", "&#104;ttp://e.example/c"])
    #expect(described(scan.references, in: file).map { $0.prefix(5) } == ["1:14 ", "1:59 ", "1:78 "])
}

@Test func unknownEntitiesAndMissingSemicolonsStayLiteral() {
    let (_, scan) = scanPage(#"<img src="/a?b=1&copy=2&bogus;&amp"><img src="/c?&lt;d&gt;">"#)
    // libxml2 needs the `;`; `&copy=2` stays literal as in browsers (attribute value rule).
    #expect(scan.references.map(\.url) == ["/a?b=1&copy=2&bogus;&amp", "/c?<d>"])
}

@Test func repeatedIdenticalURLsOnOneLineGetDistinctPositions() {
    let scan = expectReferencesAtMarkers("""
    <img src="↓http://x.example/i.png"><img src="↓http://x.example/i.png"><img src="↓http://x.example/i.png" srcset="↓http://x.example/i.png 1x, ↓http://x.example/i.png 2x">
    """)
    #expect(Set(scan.references.map(\.range.start)).count == 5)
}

@Test func attributeValuesThatContainTheTagAreNotMistakenForIt() {
    expectReferencesAtMarkers("""
    <img alt="<img src=x.png>" src="↓real.png"><a title='<a href="fake">' href="↓real.html">r</a>
    """)
}

@Test func positionsCountCharactersAfterMultiByteTextTabsAndCRLF() {
    let html = "<p>été → 😀</p>\t<img src=\"http://example.com/x.png\">\r\n<p>ü</p><img\r\n src='y.png'>"
    let (file, scan) = scanPage(html)
    #expect(described(scan.references, in: file) == [
        "1:26 img src image http://example.com/x.png",
        "3:7 img src image y.png",
    ])
}

@Test func aByteOrderMarkIsNotAColumn() {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("<img src=\"a.png\">".utf8)
    let file = SourceFile(path: "bom.html", bytes: bytes)
    let scan = PageScanner.scanHTML(file, pageURL: nil)
    #expect(scan.references.map(\.range.start) == [13])
    #expect(file.lines.position(of: 13) == SourcePosition(line: 1, column: 11))
}

@Test func invalidUTF8DoesNotShiftPositions() {
    // A Latin-1 "é" (0xE9) before the tag and inside the URL.
    let bytes = Array("<p>caf".utf8) + [0xE9] + Array("</p><img src=\"/caf".utf8) + [0xE9] + Array(".png\"><img src=\"/b.png\">".utf8)
    let file = SourceFile(path: "latin1.html", bytes: bytes)
    let scan = PageScanner.scanHTML(file, pageURL: nil)
    #expect(scan.references.map(\.range.start) == [21, 42])
    #expect(scan.references.map(\.url) == ["/caf\u{FFFD}.png", "/b.png"])
    #expect(scan.references[0].rawText == "/caf\u{FFFD}.png")
}

@Test func brokenMarkupNeverCrashesAndStillYieldsURLs() {
    let html = """
    <html><head><title>broken</head>
    <body><div><p><table><tr><td><img src="↓http://example.com/1.png"
    <span>unclosed <b><i></b></i> &nbsp &#xZZ; &#0; <<<>>> </// <!-- never closed
    """
    let (text, offsets) = stripMarkers(html)
    let (_, scan) = scanPage(text)
    // The comment never closes, so everything after it is comment; the first image is found.
    #expect(scan.references.map(\.range.start) == offsets)

    let garbage: [[UInt8]] = [
        [], [0], Array("<".utf8), Array("<img".utf8), Array("<img src=".utf8), Array("<img src=\"".utf8),
        Array("<img src='x".utf8), Array("</img>".utf8), Array("<!DOCTYPE".utf8), Array("<script>".utf8),
        Array("<style>a{background:url(".utf8), (0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 7919) },
        Array(repeating: UInt8(ascii: "<"), count: 5000), Array("<img src=a.png\0<img src=b.png>".utf8),
    ]
    for bytes in garbage {
        let scan = PageScanner.scanHTML(SourceFile(path: "g.html", bytes: bytes), pageURL: "https://example.com/")
        for r in scan.references { #expect(r.range.start >= 0 && r.range.end <= bytes.count) }
    }
    let nul = PageScanner.scanHTML(SourceFile(path: "n.html", bytes: Array("<img src=a.png>\0<img src=b.png>".utf8)), pageURL: nil)
    #expect(nul.references.map(\.url) == ["a.png", "b.png"])
}

@Test func unclosedTagsAndStrayEndTagsKeepLaterURLs() {
    expectReferencesAtMarkers("""
    <div><p><ul><li><img src="↓1.png"><li><img src="↓2.png"></p></div></span></table>
    <table><tr><td background="↓bg.gif"><form action="↓/post"><td><img src=↓3.png>
    <p><b>bold <i>both</b> italic</i> <a href="↓/x">x</a>
    """)
}

@Test func anUnterminatedQuoteSwallowsTheRestAsInBrowsers() {
    let (_, scan) = scanPage("<img src=\"a.png>\n<img src=\"b.png\">")
    #expect(scan.references.map(\.url) == ["a.png>\n<img src="])
    #expect(scan.references[0].range.start == 10)
}

@Test func textOnlyElementsCommentsAndTextAreNotReferences() {
    let (_, scan) = scanPage("""
    <p>Visit http://example.com/ or see <code>&lt;img src="http://example.com/x.png"&gt;</code></p>
    <!-- <img src="http://example.com/commented.png"> -->
    <textarea><img src="http://example.com/in-textarea.png"></textarea>
    <title><img src="http://example.com/in-title.png"></title>
    <iframe src="about:blank"><img src="http://example.com/fallback.png"></iframe>
    <script type="application/ld+json">{"logo": "http://example.com/logo.png", "x": fetch("http://no")}</script>
    <style>p::after { content: "http://example.com/quoted.png"; }</style>
    """)
    #expect(scan.references.map(\.url) == ["about:blank"])
}

@Test func noscriptAndTemplateContentIsScanned() {
    // Visitors without JavaScript load <noscript> content; templates are usually instantiated.
    expectReferencesAtMarkers("<noscript><img src=\"↓n.png\"></noscript><template><img src=\"↓t.png\"></template>")
}

@Test func svgImagesLinksAndUseTakeHrefOrXlinkHref() {
    let scan = expectReferencesAtMarkers("""
    <svg><image xlink:href="↓http://example.com/s.png"/><image href="↓h.png" xlink:href="ignored.png"/>
    <use href="↓sprite.svg#icon"/><a xlink:href="↓http://example.com/svg-link">x</a></svg>
    <image src="↓outside-svg.png">
    """)
    #expect(scan.references.map(\.kind) == [.image, .image, .fetch, .image])
    #expect(scan.links.map(\.kind) == [.link])
}

@Test func mediaSourcesTakeTheirParentsKindAndCORSMode() {
    let scan = expectReferencesAtMarkers("""
    <video crossorigin><source src="↓v1.webm"><source src="↓v2.mp4"><track src="↓t.vtt"></video>
    <audio><source src="↓a.ogg"><source src="↓a.mp3"></audio>
    <source src="orphan.mp4">
    <img crossorigin src="↓cors.png">
    """)
    #expect(scan.references.map(\.kind) == [.video, .video, .track, .audio, .audio, .image])
    #expect(scan.references.map(\.isCORS) == [true, true, false, false, false, true])
}

@Test func downloadLinksAndAreasAreLinks() {
    let scan = expectReferencesAtMarkers("""
    <a download href="↓http://example.com/f.zip">f</a><map><area href="↓http://example.com/area" alt=""></map>
    <a href="↓#top">top</a><a href="↓mailto:x@example.com">m</a><a name="anchor">no href</a>
    """)
    #expect(scan.links.map(\.kind) == [.download, .link, .link, .link])
    #expect(scan.references.isEmpty)
}

@Test func metaRefreshURLVariants() {
    let scan = expectReferencesAtMarkers("""
    <meta http-equiv="refresh" content="0;URL='↓http://example.com/a'">
    <meta http-equiv="Refresh" content="5, url=↓/b">
    <meta http-equiv="refresh" content="0; ↓http://example.com/c">
    <meta http-equiv="refresh" content="10">
    <meta http-equiv="refresh" content="soon; url=/d">
    <meta name="refresh" content="0; url=/e">
    """)
    #expect(scan.references.map(\.url) == ["http://example.com/a", "/b", "http://example.com/c"])
}

@Test func legacyBackgroundAttributesAreImages() {
    let scan = expectReferencesAtMarkers("<body background=\"↓bg.png\"><table background='↓t.png'><tr><th background=↓th.png>")
    #expect(scan.references.allSatisfy { $0.kind == .image })
}

@Test func styleAttributesAndElementsAreScannedAsCSS() {
    let scan = expectReferencesAtMarkers("""
    <style>
      @import url("↓http://example.com/i.css");
      body { background: #fff url(↓bg.png) no-repeat; cursor: url('↓c.cur'), auto }
      @font-face { font-family: X; src: url(↓http://example.com/x.woff2) format("woff2") }
    </STYLE>
    <div style="background-image: url(&quot;↓http://example.com/d.png&quot;); color: red"></div>
    <p STYLE='list-style-image:url(↓l.png)'>
    """)
    #expect(scan.references.map(\.kind) == [.style, .image, .cursor, .font, .image, .image])
    #expect(scan.references.map(\.source) == [.styleElement, .styleElement, .styleElement, .styleElement,
                                              .styleAttribute, .styleAttribute])
    #expect(scan.references[4].url == "http://example.com/d.png")
    #expect(scan.references[4].rawText == "http://example.com/d.png")
    #expect(scan.references[4].element == "div")
}

@Test func inlineScriptRequestLiteralsAreFound() {
    let scan = expectReferencesAtMarkers("""
    <script>
      // fetch("http://example.com/commented")
      fetch("↓http://example.com/api"); window.fetch('↓/rel');
      const ws = new WebSocket('↓ws://example.com/socket');
      const es = new EventSource("↓http://example.com/events"), w = new Worker("↓/w.js");
      navigator.sendBeacon("↓http://example.com/beacon", data);
      xhr.open("GET", "↓http://example.com/xhr"); window.open("http://example.com/popup", "_blank");
      const s = "fetch('http://example.com/in-a-string')"; const r = /fetch\\("x"\\)/;
      fetch(`http://example.com/${id}`); other.fetch("http://example.com/not-global");
    </script>
    <script src="↓/external.js">fetch("http://example.com/ignored")</script>
    """)
    #expect(scan.references.map(\.kind) == [.fetch, .fetch, .websocket, .fetch, .script, .fetch, .fetch, .script])
    #expect(scan.references.map(\.detail) == ["fetch()", "fetch()", "new WebSocket()", "new EventSource()",
                                              "new Worker()", "navigator.sendBeacon()", "XMLHttpRequest.open()", nil])
}

@Test func baseHrefChangesResolution() {
    let (_, scan) = scanPage("""
    <head><base href="http://static.example.com/assets/"><base href="https://ignored.example/"></head>
    <img src="img/a.png"><img src="/root.png"><img src="//cdn.example.net/c.png"><img src="https://secure.example/s.png">
    <a href="../up.html">up</a>
    """, pageURL: "https://example.com/blog/post/")
    #expect(scan.baseURL == "http://static.example.com/assets/")
    #expect(scan.base?.url == "http://static.example.com/assets/")
    #expect(scan.references.filter { $0.kind == .image }.map(\.resolvedURL) == [
        "http://static.example.com/assets/img/a.png", "http://static.example.com/root.png",
        "http://cdn.example.net/c.png", "https://secure.example/s.png",
    ])
    #expect(scan.references.filter { $0.kind == .image }.map(\.resolvedThroughBase) == [true, true, true, false])
    #expect(scan.links.map(\.resolvedURL) == ["http://static.example.com/up.html"])
}

@Test func relativeBaseResolvesAgainstThePageAndWithoutPageURLStaysUnresolved() {
    let (_, scan) = scanPage("<base href=\"/static/\"><img src=\"a.png\">", pageURL: "https://example.com/x/y")
    #expect(scan.baseURL == "https://example.com/static/")
    #expect(scan.references.last?.resolvedURL == "https://example.com/static/a.png")

    let (_, unknown) = scanPage("<base href=\"/static/\"><img src=\"a.png\"><img src=\"http://e.example/b.png\">", pageURL: nil)
    #expect(unknown.baseURL == nil)
    #expect(unknown.references.map(\.resolvedURL) == [nil, nil, "http://e.example/b.png"])
}

@Test func upgradeInsecureRequestsMetaIsDetected() {
    let (_, on) = scanPage(#"<meta http-equiv="Content-Security-Policy" content="default-src https:; Upgrade-Insecure-Requests">"#)
    #expect(on.upgradesInsecureRequests)
    let (_, reportOnly) = scanPage(#"<meta http-equiv="Content-Security-Policy-Report-Only" content="upgrade-insecure-requests">"#)
    #expect(!reportOnly.upgradesInsecureRequests)
}

@Test func emptyURLsAreNotReferences() {
    let (_, scan) = scanPage(#"<img src=""><img src="   "><script src></script><form action=""></form><img srcset=" , ">"#)
    #expect(scan.references.isEmpty)
}

@Test func aJavascriptOrDataBaseIsIgnored() {
    let (_, scan) = scanPage("<base href=\"javascript:alert(1)\"><img src=\"a.png\">", pageURL: "https://example.com/d/")
    #expect(scan.baseURL == "https://example.com/d/")
    #expect(scan.references.last?.resolvedURL == "https://example.com/d/a.png")
    #expect(scan.references.last?.resolvedThroughBase == false)
}

@Test func moduleImportsAreScriptFetches() {
    let scan = expectReferencesAtMarkers("""
    <script type="module">
      import { a } from "↓http://cdn.example.net/a.mjs";
      import "↓./side-effect.mjs";
      export * from '↓http://cdn.example.net/re.mjs';
      const m = await import("↓http://cdn.example.net/lazy.mjs");
      const x = Array.from("http://not-a-module"), y = obj.import("http://no");
    </script>
    """)
    #expect(scan.references.map(\.kind) == [.script, .script, .script, .script])
    #expect(scan.references.map(\.detail) == ["import", "import", "import", "import"])
}
