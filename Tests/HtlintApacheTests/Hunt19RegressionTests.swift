import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 19; every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt19RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)], modules: [String] = []) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "shop.example", modules: modules)
    }

    /// fixtures/apache/section-nested-if-after-all-top-level: nested `<If>` sections merge after
    /// every top-level one.
    @Test func nestedIfMergesAfterTheTopLevel() {
        let o = site("""
            <If "true">
              <If "true">
                Header set X-A "nested"
              </If>
              Header set X-A "outer"
            </If>
            <If "true">
              Header set X-A "second"
            </If>

            """, files: [("/a.html", 0)])
        #expect(header(respond(o, "/a.html"), "X-A") == "nested")
    }

    /// fixtures/apache/header-vary-from-expr-conditions: a `Header … expr=` condition's headers
    /// join Vary as the response goes out, a 404 included.
    @Test func headerConditionVaries() {
        let o = site("Header always set X-C c \"expr=%{HTTP:X-C} == 'c' || true\"\n", files: [("/a.html", 0)])
        #expect(header(respond(o, "/nope"), "Vary") == "X-C")
    }

    /// fixtures/apache/header-vary-kept-by-rewrite-internal-redirect: a matching rule's true
    /// conditions add the headers they read; the internal redirect keeps them.
    @Test func rewriteConditionVaryIsKept() {
        let o = site("RewriteEngine On\nRewriteCond %{HTTP_ACCEPT} image/webp\nRewriteRule ^b\\.html$ c.html [L]\n",
                     files: [("/b.html", 0), ("/c.html", 0)])
        #expect(header(respond(o, "/b.html", headers: [HTTPHeader("Accept", "image/webp")]), "Vary") == "Accept")
        #expect(header(respond(o, "/b.html"), "Vary") == nil)
    }

    /// fixtures/apache/vhost-trace-echoed-before-htaccess: TRACE is echoed in map_to_storage,
    /// without reading `.htaccess`; `TraceEnable Off` makes it a 405.
    @Test func traceIsAnsweredBeforeHtaccess() {
        let on = site("Require all denied\n", files: [("/a.html", 0)])
        let echoed = respond(on, "/a.html", method: "TRACE")
        #expect(echoed.status == 200)
        #expect(header(echoed, "Content-Type") == "message/http")
        let off = site("", vhost: ["TraceEnable Off"], files: [("/a.html", 0)])
        let refused = respond(off, "/a.html", method: "TRACE")
        #expect(refused.status == 405)
        #expect(header(refused, "Allow") == "")
    }

    /// fixtures/apache/env-setenvif-plain-string-keeps-dollar: a pattern without metacharacters
    /// sets its values as written.
    @Test func plainStringPatternKeepsDollar() {
        #expect(SetEnvIfDirective.isPlainString("page\\.html"))
        #expect(!SetEnvIfDirective.isPlainString("pag(e)"))
        #expect(!SetEnvIfDirective.isPlainString("p\\age"))
        let o = site("SetEnvIf Request_URI page A=v$0w\nSetEnvIf Request_URI pag(e) B=v$1w\nHeader set X-A \"%{A}e|%{B}e\"\n",
                     files: [("/page.html", 0)])
        #expect(header(respond(o, "/page.html"), "X-A") == "v$0w|vew")
    }

    /// fixtures/apache/negotiation-vary-accept-charset: variants differing only in their charset
    /// vary by accept-charset, and the one naming a charset wins over a smaller one.
    @Test func negotiationComparesCharsets() {
        let o = site("Options +MultiViews\nAddCharset UTF-8 .html\n", files: [("/page.html", 40), ("/page.htm", 21)],
                     modules: ["negotiation"])
        let r = respond(o, "/page")
        #expect(header(r, "Vary") == "negotiate,accept-charset")
        #expect(r.served == "/var/www/html/page.html" || r.served == "/page.html")
    }
}
