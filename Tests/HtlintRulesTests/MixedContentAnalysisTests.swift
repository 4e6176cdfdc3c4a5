import Testing
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

// The shared mixed-content analysis behind HT501–HT507, and the helpers of the HTTPS hygiene
// rules, beyond what the rules' own examples show.

/// All content findings of an in-memory site.
private func findings(_ htaccess: String = "DirectoryIndex index.html", pages: [String: String],
                      edge: Edge = Edge(mode: .none)) -> [Diagnostic] {
    let context = LintContext(htaccess: htaccess, edge: edge, pages: pages)
    return Linter(rules: builtInRules.filter { $0.description.family == .mixedContent }).run(context)
}

@Test func rewritingIsSafeOnlyWhenTheHTTPSFormIsServed() {
    let found = findings(pages: [
        "/index.html": "<img src='http://example.com/logo.png'><img src='http://example.com/gone.png'><img src='http://cdn.example.net/x.png'>",
        "/logo.png": "x",
    ])
    #expect(found.map { $0.fixIts.first?.applicability } == [.safe, .unsafe, .unsafe])
    #expect(found[0].notes.map(\.message) == ["`https://example.com/logo.png` is served (200), so the reference can use it"])
    #expect(found[1].notes.map(\.message) == ["Chrome and Firefox request it instead, but `https://example.com/gone.png` is not served: 404"])
    #expect(found[2].notes.isEmpty, "other hosts are not simulated")
}

@Test func aStyleSheetSharedByTwoPagesIsReportedOnceAgainstTheFirstPage() {
    let found = findings(pages: [
        "/index.html": "<link rel=stylesheet href='/css/a.css'><a href='/b.html'>b</a>",
        "/b.html": "<link rel=stylesheet href='css/a.css'>",
        "/css/a.css": "@import 'more.css';\nbody { background: url(http://cdn.example.net/bg.png) }",
        "/css/more.css": "@font-face { src: url(http://cdn.example.net/f.woff2) }",
    ])
    #expect(found.map { "\($0.code) \($0.range.file):\($0.range.start)" } == ["HT502 css/a.css:43", "HT501 css/more.css:22"])
    #expect(found.allSatisfy { $0.notes.first?.message == "the style sheet is loaded by the page `https://example.com/b.html`" })
}

@Test func pagesTheConfigurationHidesOrDowngradesAreNotHTTPSPages() {
    let page = "<script src='http://cdn.example.net/a.js'></script>"
    #expect(findings("RewriteEngine On\nRewriteRule ^private/ - [F]", pages: ["/private/p.html": page]).isEmpty)
    #expect(findings("RewriteEngine On\nRewriteCond %{HTTPS} on\nRewriteRule ^old\\.html$ http://example.com/old.html [R=301,L]",
                     pages: ["/old.html": page]).isEmpty)
    #expect(findings("RewriteEngine On", pages: ["/ok.html": page]).map(\.code) == ["HT501"])
}

@Test func withoutASimulatorEveryHTMLFileIsAPage() {
    var context = LintContext(files: [LintFile(source: SourceFile(path: ".htaccess", text: "RewriteEngine On"))],
                              hosts: ["example.com"])
    context.content = SiteContent(files: ["/a.html": "<script src='http://cdn.example.net/a.js'></script>",
                                          "/notes.txt": "<script src='http://cdn.example.net/b.js'></script>"])
    let found = Linter(rules: builtInRules.filter { $0.description.family == .mixedContent }).run(context)
    #expect(found.map { "\($0.code) \($0.range.file)" } == ["HT501 a.html"])
}

@Test func aDowngradedFormActionNamesTheRedirect() {
    let found = findings("Redirect 302 /send http://example.com/send.php",
                         pages: ["/index.html": "<form method=post action='/send'></form>"])
    #expect(found.map(\.message) == ["`<form action>` submits to `/send` (`https://example.com/send`), which redirects to `http://example.com/send.php`: browsers warn at the submission"])
    #expect(found.first?.notes.first?.range?.file == ".htaccess")
}

@Test func aDowngradeThatComesBackToHTTPSStillWarnsForImages() {
    // https → http → https: blockable requests are blocked at the http hop; images are upgraded
    // there and reach the final https URL.
    let htaccess = """
        RewriteEngine On
        RewriteCond %{HTTPS} on
        RewriteRule ^old/(.*)$ http://example.com/new/$1 [R=301,L]
        RewriteCond %{HTTPS} !=on
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        """
    let found = findings(htaccess, pages: ["/index.html": "<img src='/old/a.png'><script src='/old/a.js'></script>",
                                            "/new/a.png": "x", "/new/a.js": "x"])
    #expect(found.map(\.code) == ["HT504", "HT504"])
    #expect(found.map(\.severity) == [.warning, .error])
    #expect(found[0].message.hasSuffix("upgraded back to `https://example.com/new/a.png` by Chrome and Firefox, loaded over http by Safari"))
    #expect(found.allSatisfy { $0.fixIts.first?.title.hasPrefix("Use the final URL `https://example.com/new/a.") == true })
}

@Test func contentSuppressionNeedsAFileWideList() {
    let page = ["/index.html": "<img src='http://cdn.example.net/a.png'>"]
    #expect(findings("# htlint disable-file=HT502\nDirectoryIndex index.html", pages: page).isEmpty)
    #expect(findings("# htlint disable-file=upgraded-mixed-content\nDirectoryIndex index.html", pages: page).isEmpty)
    #expect(findings("# htlint disable=HT502\nDirectoryIndex index.html", pages: page).count == 1)
}

@Test func wordPressConfigSkipsCommentsAndComparisons() {
    let file = SourceFile(path: "wp-config.php", text: """
        <?php
        /* define('WP_HOME', 'http://a.example'); */
        # define('WP_SITEURL', 'http://b.example');
        define ( "WP_SITEURL" , 'http://c.example/wp' ) ;
        if ($_SERVER['HTTPS'] == 'on') { echo 'x // not a comment'; }
        require_once ABSPATH . 'wp-settings.php';
        """)
    let config = WordPressConfig(file)
    #expect(config.constants.map(\.name) == ["WP_SITEURL"])
    #expect(config.constants.map { file.text($0.range.start..<$0.range.end) } == ["http://c.example/wp"])
    #expect(!config.setsHTTPS)
    #expect(config.settingsLine.map { file.lines.position(of: $0).line } == 6)
    #expect(WordPressConfig(SourceFile(path: "w", text: "<?php $_SERVER[\"HTTPS\"]=1;")).setsHTTPS)
}

@Test func hstsPoliciesAreReadAsBrowsersReadThem() {
    let p = HSTSPolicy("Max-Age=\"31536000\" ; IncludeSubDomains;preload")
    #expect(p.maxAge == 31_536_000 && p.includeSubDomains && p.preload)
    #expect(HSTSPolicy("max-age=abc").maxAge == nil && HSTSPolicy("max-age=abc").hasMaxAge)
    #expect(!HSTSPolicy("includeSubDomains").hasMaxAge)
}
