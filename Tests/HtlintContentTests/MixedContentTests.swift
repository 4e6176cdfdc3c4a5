import Testing
import HtlintDiagnostics
@testable import HtlintContent

// Spec §14.2's classification table, one row at a time, and §14.3's browser timeline.

private let page = "https://example.com/blog/"

/// The findings for an HTML snippet served at `page`.
private func findings(_ html: String, pageURL: String = page) -> [MixedContentFinding] {
    let file = SourceFile(path: "page.html", text: html)
    return MixedContent.classify(PageScanner.scanHTML(file, pageURL: pageURL))
}

/// "VERDICT chrome/firefox/safari" for each finding.
private func table(_ html: String) -> [String] {
    findings(html).map { f in
        "\(f.verdict.rawValue) " + f.behaviour.map(\.action.rawValue).joined(separator: "/")
    }
}

@Test(arguments: [
    // Upgradeable: plain images, media, image-like elements, CSS images, favicons.
    ("<img src='http://cdn.example.net/a.png'>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<video src='http://cdn.example.net/v.mp4'></video>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<audio><source src='http://cdn.example.net/a.mp3'></audio>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<video poster='http://cdn.example.net/p.jpg'></video>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<input type=image src='http://cdn.example.net/go.png'>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<svg><image href='http://cdn.example.net/s.png'/></svg>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<div style='background-image:url(http://cdn.example.net/bg.png)'></div>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<style>li{list-style-image:url(http://cdn.example.net/l.png)}</style>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<link rel=icon href='http://cdn.example.net/favicon.ico'>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    ("<link rel=preload as=image href='http://cdn.example.net/hero.jpg'>", "MIXED_UPGRADED upgraded/upgraded/loaded"),
    // Upgradeable kinds made blockable by Level 2's exceptions.
    ("<img srcset='http://cdn.example.net/a.png 2x'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<picture><source srcset='http://cdn.example.net/a.webp'></picture>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<picture><img src='http://cdn.example.net/in-picture.png'></picture>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<img crossorigin src='http://cdn.example.net/c.png'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<img src='http://203.0.113.7/ip.png'>", "MIXED_BLOCKED blocked/blocked/loaded"),
    // Blockable.
    ("<track src='http://cdn.example.net/t.vtt'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<script src='http://cdn.example.net/app.js'></script>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<link rel=modulepreload href='http://cdn.example.net/m.js'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<link rel=stylesheet href='http://cdn.example.net/s.css'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<style>@import 'http://cdn.example.net/i.css';</style>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<style>@font-face{src:url(http://cdn.example.net/f.woff2)}</style>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<style>a{cursor:url(http://cdn.example.net/c.cur),auto}</style>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<link rel=preload as=script href='http://cdn.example.net/p.js'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<link rel=manifest href='http://cdn.example.net/app.webmanifest'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<iframe src='http://cdn.example.net/f.html'></iframe>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<frameset><frame src='http://cdn.example.net/f.html'></frameset>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<object data='http://cdn.example.net/o.swf'></object>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<embed src='http://cdn.example.net/e.swf'>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<script>fetch('http://api.example.net/x')</script>", "MIXED_BLOCKED blocked/blocked/blocked"),
    ("<script>new WebSocket('ws://live.example.net/s')</script>", "MIXED_BLOCKED blocked/blocked/blocked"),
    // Not subresources.
    ("<form method=post action='http://example.com/subscribe'></form>", "MIXED_FORM warned/warned/warned"),
    ("<button formaction='http://example.com/alt'>x</button>", "MIXED_FORM warned/warned/warned"),
    ("<a href='http://example.com/about'>a</a>", "INSECURE_LINK allowed/allowed/allowed"),
    ("<a download href='http://example.com/f.zip'>f</a>", "MIXED_DOWNLOAD blocked/blocked/allowed"),
    ("<meta http-equiv=refresh content='0; url=http://example.com/'>", "DOWNGRADE allowed/allowed/allowed"),
])
func classificationTableRow(_ html: String, _ expected: String) {
    #expect(table(html) == [expected])
}

@Test(arguments: [
    "<img src='https://cdn.example.net/a.png'>", "<img src='//cdn.example.net/a.png'>",
    "<img src='/a.png'>", "<img src='a.png'>", "<a href='#top'>t</a>", "<a href='?q=1'>q</a>",
    "<img src='data:image/png;base64,AAAA'>", "<img src='blob:https://example.com/uuid'>",
    "<iframe src='about:blank'></iframe>", "<a href='javascript:void(0)'>j</a>",
    "<a href='mailto:me@example.com'>m</a>", "<a href='tel:+100'>t</a>",
    "<script>new WebSocket('wss://live.example.net/s')</script>",
    "<img src='http://localhost:8080/dev.png'>", "<img src='http://127.0.0.1/x.png'>",
    "<img src='http://app.localhost/x.png'>", "<script src='http://[::1]/x.js'></script>",
    "<base href='http://cdn.example.net/'>",
    "<p>http://example.com/plain-text.png</p>",
    "<style>p::after{content:'http://example.com/x.png'}</style>",
])
func secureLocalAndNonFetchingReferencesAreNotReported(_ html: String) {
    #expect(findings(html).isEmpty)
}

@Test func nothingIsMixedOnAnHTTPPage() {
    #expect(findings("<script src='http://cdn.example.net/app.js'></script>", pageURL: "http://example.com/").isEmpty)
    // …but http://localhost is a potentially trustworthy origin, so it does prohibit mixed content.
    #expect(findings("<script src='http://cdn.example.net/app.js'></script>", pageURL: "http://localhost:3000/").count == 1)
}

@Test func anHTTPBaseMakesRelativeReferencesMixed() {
    let found = findings("""
    <base href="http://static.example.com/">
    <script src="js/app.js"></script><img src="//img.example.net/a.png"><img src="https://ok.example/b.png">
    """)
    #expect(found.map(\.insecureURL) == ["http://static.example.com/js/app.js", "http://img.example.net/a.png"])
    #expect(found.allSatisfy { $0.reference.resolvedThroughBase && $0.fix == nil })
    #expect(found[0].message == "`<script src>` loads `js/app.js` (`http://static.example.com/js/app.js` through `<base href>`) over http: blockable mixed content, blocked by all browsers")
}

@Test func protocolRelativeInheritsHTTPSWithoutABase() {
    let file = SourceFile(path: "p.html", text: "<script src='//cdn.example.net/x.js'></script>")
    let scan = PageScanner.scanHTML(file, pageURL: nil)
    #expect(MixedContent.classify(scan.references[0], pageURL: "https://example.com/") == nil)
}

@Test func linkedStyleSheetsResolveAgainstTheirOwnURL() {
    let css = SourceFile(path: "theme.css", text: "@import 'print.css'; body { background: url(/bg.png) }")
    let found = CSSScanner.scan(css, baseURL: "http://old.example.com/theme/theme.css")
    let classified = found.compactMap { MixedContent.classify($0, pageURL: page) }
    #expect(classified.map(\.insecureURL) == ["http://old.example.com/theme/print.css", "http://old.example.com/bg.png"])
    #expect(classified.map(\.verdict) == [.blocked, .upgraded])
}

@Test func reasonsAndExclusionsNameTheRule() {
    let found = findings("""
    <img srcset="http://e.example/a.png"><img crossorigin src="http://e.example/b.png"><img src="http://[2001:db8::1]/c.png">
    """)
    #expect(found.map(\.exclusion) == [.imageSet, .corsMode, .ipAddressHost])
    #expect(found.map(\.specClass) == [.blockable, .blockable, .blockable])
    #expect(found[2].assumptions.contains(.ipLiteralBlocked))
}

@Test func assumptionsAreListed() {
    #expect(findings("<img src='http://e.example/a.png'>")[0].assumptions == [.safariLoadsUpgradeable])
    #expect(findings("<link rel=icon href='http://e.example/f.ico'>")[0].assumptions == [.cssAndIconImages, .safariLoadsUpgradeable])
    #expect(findings("<video poster='http://e.example/p.png'></video>")[0].assumptions == [.imageLikeElements, .safariLoadsUpgradeable])
    #expect(findings("<script src='http://e.example/a.js'></script>")[0].assumptions.isEmpty)
    #expect(findings("<form action='http://e.example/f'></form>")[0].assumptions == [.formWarnings])
}

@Test func severitiesFollowH22() {
    let found = findings("""
    <script src="http://e.example/a.js"></script><img src="http://e.example/a.png">
    <form action="http://e.example/f"></form><a href="http://e.example/">x</a>
    """)
    #expect(found.map(\.severity) == [.error, .warning, .error, .note])
}

@Test func messagesNameTheURLAsWritten() {
    let found = findings("""
    <img src="http://cdn.example.net/a.png?x=1&amp;y=2"><a href="http://example.com/p">p</a><a href="http://other.example/">o</a>
    """)
    #expect(found.map(\.message) == [
        "`<img src>` loads `http://cdn.example.net/a.png?x=1&y=2` over http: upgradeable mixed content, upgraded to https by Chrome and Firefox, loaded over http by Safari",
        "`<a href>` links to `http://example.com/p` over http on the same site",
        "`<a href>` links to `http://other.example/` over http",
    ])
}

@Test func fixRewritesTheSchemeInPlace() {
    let text = "<p>\n  <img src=\"  HTTP://cdn.example.net:8080/a.png\"><script>new WebSocket('ws://e.example/s')</script>"
    let file = SourceFile(path: "page.html", text: text)
    let found = MixedContent.classify(PageScanner.scanHTML(file, pageURL: page))
    #expect(found.map(\.secureURL) == ["https://cdn.example.net:8080/a.png", "wss://e.example/s"])
    var bytes = file.bytes
    for edit in found.flatMap({ $0.fix?.edits ?? [] }).sorted(by: { $0.range.start > $1.range.start }) {
        bytes.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.replacement.utf8))
    }
    #expect(String(decoding: bytes, as: UTF8.self)
        == "<p>\n  <img src=\"  https://cdn.example.net:8080/a.png\"><script>new WebSocket('wss://e.example/s')</script>")
    #expect(found.allSatisfy { $0.fix?.applicability == .unsafe })
}

@Test func upgradeInsecureRequestsSilencesSubresourcesAndOwnHostNavigations() {
    let found = findings("""
    <meta http-equiv="Content-Security-Policy" content="upgrade-insecure-requests">
    <script src="http://cdn.example.net/a.js"></script><form action="http://example.com/f"></form>
    <a href="http://example.com/same">s</a><a href="http://other.example/">o</a>
    """)
    #expect(found.map(\.insecureURL) == ["http://other.example/"])
}

@Test(arguments: [
    // (kind of reference, browser, version, expected action) — spec §14.3.
    ("<img src='http://e.example/a.png'>", Browser.chrome, 85, BrowserAction.loaded),
    ("<img src='http://e.example/a.png'>", .chrome, 86, .upgraded),
    ("<img src='http://e.example/a.png'>", .firefox, 126, .loaded),
    ("<img src='http://e.example/a.png'>", .firefox, 127, .upgraded),
    ("<img srcset='http://e.example/a.png'>", .chrome, 85, .loaded),
    ("<img srcset='http://e.example/a.png'>", .chrome, 86, .blocked),
    ("<video src='http://e.example/v.mp4'></video>", .chrome, 79, .loaded),
    ("<video src='http://e.example/v.mp4'></video>", .chrome, 80, .upgraded),
    ("<script src='http://e.example/a.js'></script>", .chrome, 40, .blocked),
    ("<style>@font-face{src:url(http://e.example/f.woff)}</style>", .chrome, 78, .loaded),
    ("<style>@font-face{src:url(http://e.example/f.woff)}</style>", .chrome, 79, .blocked),
    ("<a download href='http://e.example/f.zip'>f</a>", .chrome, 91, .allowed),
    ("<a download href='http://e.example/f.zip'>f</a>", .chrome, 92, .blocked),
    ("<a download href='http://e.example/f.zip'>f</a>", .firefox, 90, .blocked),
    ("<form action='http://e.example/f'></form>", .chrome, 86, .allowed),
    ("<form action='http://e.example/f'></form>", .chrome, 87, .warned),
])
func browserVersionsFollowTheTimeline(_ html: String, _ browser: Browser, _ version: Int, _ expected: BrowserAction) {
    let finding = findings(html)[0]
    #expect(MixedContent.behaviour(of: finding, in: BrowserProfile(browser, version: version)).action == expected)
}

@Test func potentialTrustworthinessFollowsSecureContexts() {
    for url in ["https://e.example/", "wss://e.example/", "file:///x", "data:,x", "about:blank",
                "http://localhost/", "http://127.0.0.5/", "http://[::1]/", "http://a.localhost/"] {
        #expect(MixedContent.isPotentiallyTrustworthy(url), "\(url)")
    }
    for url in ["http://e.example/", "ws://e.example/", "http://128.0.0.1/", "http://localhost.example/", "ftp://e.example/"] {
        #expect(!MixedContent.isPotentiallyTrustworthy(url), "\(url)")
    }
}
