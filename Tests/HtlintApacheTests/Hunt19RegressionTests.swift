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
        #expect(r.served == "/page.html")
    }

    /// fixtures/apache/access-limit-head-is-get, access-limitexcept-covers-every-other-method:
    /// HEAD is GET's method number; `<LimitExcept>` reaches WebDAV and unknown methods.
    @Test func limitMethodNumbers() {
        let head = site("<Limit HEAD>\nRequire all denied\n</Limit>\n", files: [("/a.html", 0)])
        #expect(respond(head, "/a.html").status == 403)
        #expect(respond(head, "/a.html", method: "POST").status == 200)
        let except = site("<LimitExcept GET POST>\nRequire all denied\n</LimitExcept>\n", files: [("/a.html", 0)])
        #expect(respond(except, "/a.html", method: "MOVE").status == 403)
        #expect(respond(except, "/a.html", method: "FOO").status == 403)
        #expect(respond(except, "/a.html").status == 200)
    }

    /// fixtures/apache/syntax-error-limit-method-names: names are looked up as written.
    @Test func limitMethodNamesAsWritten() {
        for text in ["<Limit get>\nRequire all denied\n</Limit>\n", "<Limit TRACE>\nRequire all denied\n</Limit>\n",
                     "<Limit PURGE>\nRequire all denied\n</Limit>\n", "Require method GET PURGE\n"] {
            #expect(respond(site(text, files: [("/a.html", 0)]), "/a.html").status == 500)
        }
    }

    /// fixtures/apache/header-content-type-change-seen-by-later-conditions.
    @Test func contentTypeChangeIsSeenByLaterLines() {
        let o = site("Header always unset Content-Type\nHeader set X-1 b \"expr=%{CONTENT_TYPE} =~ m#text#\"\nHeader set X-2 \"expr=[%{CONTENT_TYPE}]\"\n",
                     files: [("/a.html", 0)])
        let r = respond(o, "/a.html")
        #expect(header(r, "X-1") == nil)
        #expect(header(r, "X-2") == "[]")
    }

    /// fixtures/apache/errordoc-recursive-error-past-rewrite-answer.
    @Test func recursiveErrorAfterARewriteAnswerSendsTheFirstError() {
        let o = site("ErrorDocument 404 /f\nErrorDocument 403 /missing.html\nRewriteEngine On\nRewriteRule ^f$ - [F]\n",
                     files: [("/a.html", 0)])
        #expect(respond(o, "/nope").status == 404)
    }

    /// fixtures/apache/conditional-last-modified-epoch-before-handler.
    @Test func lastModifiedIsTheEpochBeforeTheHandler() {
        let o = site("<If \"%{LAST_MODIFIED} == '19700101000000'\">\nHeader always set X-A epoch\n</If>\n", files: [("/a.html", 0)])
        #expect(header(respond(o, "/a.html"), "X-A") == "epoch")
    }

    /// fixtures/apache/negotiation-variant-if-sees-variant-file.
    @Test func multiViewsVariantConfigurationIsAdopted() {
        let o = site("Options +MultiViews\n<If \"-f %{REQUEST_FILENAME}\">\nHeader set X-F file\n</If>\n",
                     files: [("/doc.txt", 3)], modules: ["negotiation"])
        #expect(header(respond(o, "/doc"), "X-F") == "file")
    }
}
