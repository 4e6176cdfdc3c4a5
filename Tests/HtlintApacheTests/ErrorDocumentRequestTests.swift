import Testing
@testable import HtlintApache

/// What happens inside the internal request for a local ErrorDocument; each expectation was
/// recorded from Apache 2.4 (fixtures/apache/errordoc-page-*, errordoc-403-page-same-config,
/// header-onsuccess-on-errordocument-page).
struct ErrorDocumentRequestTests {
    /// set_error_document classifies the configured text, not its expansion
    /// (errordoc-url-expanding-to-a-blank).
    @Test func aURLExpandingToABlankRedirectsAndALocalPathWithABlankIsAMessage() {
        let url = respond("/missing%20page", access: [("/", "ErrorDocument 404 https://shop.example/a.html?from=%{REQUEST_URI}")])
        #expect(url.status == 302)
        #expect(url.location == "https://shop.example/a.html?from=/missing page")
        let message = respond("/missing", access: [("/", "ErrorDocument 404 \"/a.html x\"")], files: ["/a.html x"])
        #expect(message.status == 404)
        #expect(message.served == nil)
    }

    @Test func aRewriteRedirectOnTheErrorPageIsSentAsIs() {
        // mod_rewrite resets r->status before answering: no recursive error.
        let r = respond("/missing", access: [("/", "ErrorDocument 404 /e.html\nRewriteEngine On\nRewriteRule ^e\\.html$ /nf.html [R,L]")],
                        files: ["/nf.html"])
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/nf.html")
        #expect(r.original.status == 404)
    }

    @Test func anAliasRedirectOnTheErrorPageIsARecursiveError() {
        let r = respond("/missing", access: [("/", "ErrorDocument 404 /e.html\nRedirect /e.html /nf.html")], files: ["/nf.html"])
        #expect(r.status == 404)
        #expect(r.location == nil)
        #expect(r.served == nil)
    }

    @Test func aRuleForbiddingTheErrorPageAnswersWithItsOwnStatusAndErrorDocument() {
        let forbidden = respond("/missing", access: [("/", "ErrorDocument 404 /e.html\nRewriteEngine On\nRewriteRule ^e\\.html$ - [F]")],
                                files: ["/e.html"])
        #expect(forbidden.status == 403)
        #expect(forbidden.served == nil)
        let gone = respond("/missing", access: [("/", "ErrorDocument 404 /e.html\nErrorDocument 410 /g.html\nRewriteEngine On\nRewriteRule ^e\\.html$ - [G]")],
                           files: ["/e.html", "/g.html"])
        #expect(gone.status == 410)
        #expect(gone.served == "/g.html")
    }

    @Test func theErrorPageUnderTheSameConfigurationSkipsAuthorization() {
        let lock = "Require ip 10.9.9.9\nErrorDocument 403 /e403.html"
        let same = respond("/x.html", access: [("/", lock)], files: ["/x.html", "/e403.html"])
        #expect(same.status == 403)
        #expect(same.served == "/e403.html")
        // Its own .htaccess makes another configuration: checked again, denied, canned 403.
        let other = respond("/x.html", access: [("/", "Require ip 10.9.9.9\nErrorDocument 403 /err/e403.html"), ("/err", "Require all denied")],
                            files: ["/x.html", "/err/e403.html"])
        #expect(other.status == 403)
        #expect(other.served == nil)
    }

    @Test func aRewriteIntoADeniedFilesSectionIsStillChecked() {
        let r = respond("/a", access: [("/", "RewriteEngine On\nRewriteRule ^a$ secret.html [L]\n<Files secret.html>\nRequire all denied\n</Files>")],
                        files: ["/secret.html"])
        #expect(r.status == 403)
    }

    @Test func theErrorPageKeepsPlainHeaderSet() {
        let page = respond("/missing", access: [("/", "ErrorDocument 404 /e.html\nHeader set X-A a")], files: ["/e.html"])
        #expect(page.status == 404)
        #expect(page.combinedHeader("X-A") == "a")
        let canned = respond("/missing", access: [("/", "Header set X-A a")])
        #expect(canned.combinedHeader("X-A") == nil)
    }

    @Test func setEnvIfHasNoQueryStringAttribute() {
        let r = respond("/a.html?preview=1", access: [("/", "SetEnvIf Query_String preview=1 PREVIEW\nHeader set X-P yes env=PREVIEW")],
                        files: ["/a.html"])
        #expect(r.status == 200)
        #expect(r.combinedHeader("X-P") == nil)
    }

    @Test func setEnvIfReadsHeaderNamePatternsVariablesInAnyCaseAndExpressions() {
        let header = "Header set X-E \"%{F}e|%{Q}e|%{I}e\""
        let direct = respond("/a.html?a=1", access: [("/", "SetEnvIf ^X-Fo yes F\nSetEnvIfExpr \"%{QUERY_STRING} =~ /a=1/\" Q\n" + header)],
                             files: ["/a.html"], headers: [HTTPHeader("X-Foo-Bar", "yes")])
        #expect(direct.combinedHeader("X-E") == "1|1|(null)")
        let rewritten = respond("/p", access: [("/", "RewriteEngine On\nRewriteRule ^p$ a.html [L]\nSetEnvIf redirect_status ^200$ I\n" + header)],
                                files: ["/a.html"])
        #expect(rewritten.combinedHeader("X-E") == "(null)|(null)|1")
    }

    /// mod_setenvif keeps the value of the last header whose name matches (names compare without
    /// case in every form) and reads a missing header as "" (fixtures/apache/env-setenvif-last-header-and-missing).
    @Test func setEnvIfHeaderNamePatternTestsTheLastMatchingHeader() {
        let header = "Header set X-E \"%{L}e|%{C}e|%{M}e\""
        let rules = "SetEnvIf ^X-Test yes L\nSetEnvIf ^x-test . C\nSetEnvIf X-Missing ^$ M\n" + header
        let r = respond("/a.html", access: [("/", rules)], files: ["/a.html"],
                        headers: [HTTPHeader("X-Test-A", "no"), HTTPHeader("X-Test-B", "yes")])
        #expect(r.combinedHeader("X-E") == "1|1|1")
        let first = respond("/a.html", access: [("/", rules)], files: ["/a.html"],
                            headers: [HTTPHeader("X-Test-A", "yes"), HTTPHeader("X-Test-B", "no")])
        #expect(first.combinedHeader("X-E") == "(null)|1|1")
    }

    @Test func setEnvIfHeaderNamePatternThatDoesNotCompileFailsTheFile() {
        let r = respond("/a.html", access: [("/", "SetEnvIf ^X-(Test yes L")], files: ["/a.html"])
        #expect(r.status == 500)
    }

    @Test func alwaysUnsetCannotRemoveARewriteCookieFromARedirect() {
        let r = respond("/a", access: [("/", "RewriteEngine On\nRewriteRule ^a$ /b.html [R,L,CO=x:1:shop.example]\nHeader always unset Set-Cookie\nHeader always set X-Always yes")],
                        files: ["/b.html"])
        #expect(r.status == 302)
        #expect(r.combinedHeader("Set-Cookie") == "x=1; path=/; domain=shop.example")
        #expect(r.combinedHeader("X-Always") == "yes")
    }

    @Test func aStaticPHPFileHasNoContentType() {
        let r = respond("/index.php", files: ["/index.php"])
        #expect(r.status == 200)
        #expect(r.combinedHeader("Content-Type") == nil)
    }
}
