import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 17; every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Fuzz17RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)]) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "example.org")
    }

    /// fixtures/apache/header-edit-content-type-and-ssl-lookups: `Header edit` acts on
    /// r->content_type, the canned page's type too (always table).
    @Test func headerEditActsOnTheContentType() {
        let o = site("Header edit Content-Type ^text/html text/plain\nHeader always edit Content-Type iso-8859-1 utf-8\n",
                     files: [("/page.html", 0)])
        #expect(header(respond(o, "/page.html"), "Content-Type") == "text/plain")
        #expect(header(respond(o, "/missing"), "Content-Type") == "text/html; charset=utf-8")
    }

    /// fixtures/apache/header-edit-content-type-and-ssl-lookups: `%{NAME}s`, `%{SSL:NAME}` and
    /// ap_expr's `SSL_*` go to ssl_var_lookup (names case-insensitive); API_VERSION is the
    /// major number there and in ap_expr, major:minor in mod_rewrite.
    @Test func sslVariableLookups() {
        let o = site("""
            Header set X-S "%{https}s|%{SSL_PROTOCOL}s|%{SERVER_SOFTWARE}s|%{API_VERSION}s|%{QUERY_STRING}s|%{ENV:LANG}s|%{SSL_VERSION_LIBRARY}s"
            Header set X-E "expr=%{API_VERSION}|%{SSL_PROTOCOL}"
            RewriteEngine On
            RewriteRule ^w$ /page.html?a=%{SSL:SSL_PROTOCOL}&c=%{API_VERSION}&d=%{SSL:HTTPS} [R=302,L]

            """, files: [("/page.html", 0)])
        let banner = "Apache/2.4.71 (Debian) OpenSSL/3.0.19"
        #expect(header(respond(o, "/page.html"), "X-S") == "off|(null)|\(banner)|20120211|(null)|C|OpenSSL/3.0.19")
        #expect(header(respond(o, "/page.html", tls: true), "X-S") == "on|TLSv1.3|\(banner)|20120211|(null)|C|OpenSSL/3.0.19")
        #expect(header(respond(o, "/page.html", tls: true), "X-E") == "20120211|TLSv1.3")
        #expect(respond(o, "/w").location == "http://example.org/page.html?a=&c=20120211:142&d=off")
    }

    /// fixtures/apache/access-require-method-get-allows-head: HEAD is GET's method number.
    @Test func requireMethodGetLetsHeadIn() {
        let o = site("Require method GET\n", files: [("/page.html", 0)])
        #expect(respond(o, "/page.html", method: "HEAD").status == 200)
        #expect(respond(o, "/page.html", method: "POST").status == 403)
    }

    /// fixtures/apache/errordoc-unknown-status-codes: a status without a line in httpd's table
    /// goes out as 500 and %>s logs it; 600 and up log AH01579 and 500.
    @Test func statusesWithoutALineGoOutAs500() {
        let o = site("Redirect 399 /m399 http://example.org/page.html\nRedirect 418 /t418\nRedirect 600 /t600\nRedirect 226 /t226\n",
                     files: [("/page.html", 0)])
        let r399 = respond(o, "/m399")
        #expect(r399.status == 500)
        #expect(r399.final.status == 399)
        #expect(r399.location == "http://example.org/page.html")
        #expect(respond(o, "/t418").status == 500)
        #expect(respond(o, "/t226").status == 226)
        let r600 = respond(o, "/t600")
        #expect(r600.status == 500)
        #expect(r600.final.status == 500)
        #expect(r600.errorCodes == ["AH01579"])
    }

    /// fixtures/apache/errordoc-invalid-redirect-status: ErrorDocument takes 3xx codes; a local
    /// page is served with the redirect's status and Location, and an unknown status takes
    /// ErrorDocument 500's page.
    @Test func errorDocumentsForRedirects() {
        let o = site("""
            ErrorDocument 301 /moved.html
            ErrorDocument 500 /err500.html
            ErrorDocument 303 http://example.org/other.html
            RewriteEngine On
            RewriteRule ^r301$ /page.html [R=301,L]
            RewriteRule ^r303$ /page.html [R=303,L]
            Redirect 399 /m399 http://example.org/page.html

            """, files: [("/page.html", 0), ("/moved.html", 0), ("/err500.html", 0), ("/other.html", 0)])
        let moved = respond(o, "/r301")
        #expect(moved.status == 301)
        #expect(moved.served == "/moved.html")
        #expect(moved.location == "http://example.org/page.html")
        #expect(respond(o, "/r303").location == "http://example.org/other.html")
        let unknown = respond(o, "/m399")
        #expect(unknown.status == 500)
        #expect(unknown.served == "/err500.html")
        #expect(unknown.location == "http://example.org/page.html")
    }

    /// fixtures/apache/errordoc-invalid-redirect-status: a `Header` Location goes out on any
    /// answer; on a redirect `Header always set` adds a second line before the redirect's own.
    @Test func headerLocationLines() {
        let o = site("""
            Header add Location /page.html
            Header always set Location http://example.org/other.html "expr=%{REQUEST_URI} == '/r'"
            RewriteEngine On
            RewriteRule ^r$ /page.html [R=302,L]

            """, files: [("/page.html", 0)])
        let page = respond(o, "/page.html")
        #expect(page.status == 200)
        #expect(page.location == "/page.html")
        #expect(respond(o, "/r").location == "http://example.org/other.html, http://example.org/page.html")
    }

    /// fixtures/apache/rewrite-flags-r-non-redirect-status: a 2xx a hook answers is sent as
    /// Apache's canned page (its type), a 204 without type or body, ErrorDocument applying.
    @Test func nonRedirectStatusesAreCannedAnswers() {
        let o = site("""
            ErrorDocument 204 /page.html
            RewriteEngine On
            RewriteRule ^a$ /page.html [R=200]
            RewriteRule ^b$ - [R=204]
            Redirect 226 /m226

            """, files: [("/page.html", 0)])
        let a = respond(o, "/a")
        #expect(a.status == 200)
        #expect(a.served == nil)
        #expect(header(a, "Content-Type") == "text/html; charset=iso-8859-1")
        #expect(header(respond(o, "/m226"), "Content-Type") == "text/html; charset=iso-8859-1")
        let b = respond(o, "/b")
        #expect(b.status == 204)
        #expect(b.served == nil)
        #expect(b.final.uri == "/page.html")
        #expect(header(b, "Content-Type") == nil)
    }

    /// fixtures/apache/vhost-rewrite-in-location-sections: per-directory rules in a `<Location>`
    /// see the whole file path; a relative substitution starts with the section's argument.
    @Test func rewriteRulesInLocationSections() {
        let o = site("", vhost: [
            "<Location /loc>", "RewriteEngine On", "RewriteRule a\\.html$ target.html [L]",
            "RewriteRule ^/var/www/html/loc/b$ /loc/target.html [L]", "RewriteRule ^loc/d$ /target.html [L]", "</Location>",
            "<LocationMatch ^/lm>", "RewriteEngine On", "RewriteRule a\\.html$ target.html [L]", "</LocationMatch>",
        ], files: [("/loc/a.html", 0), ("/loc/target.html", 0), ("/lm/a.html", 0), ("/lm/target.html", 0), ("/target.html", 0)])
        #expect(respond(o, "/loc/a.html").served == "/loc/target.html")
        #expect(respond(o, "/loc/b").served == "/loc/target.html")
        #expect(respond(o, "/loc/d").status == 404)
        let lm = respond(o, "/lm/a.html")
        #expect(lm.status == 400)
        #expect(lm.final.filename == "^/lm/target.html")
    }

    /// fixtures/apache/rewrite-map-toupper-crlf-rnd: int:toupper/tolower change ASCII letters
    /// only; a CRLF txt: file reads as an LF one; rnd: takes the first alternative (Apache picks
    /// at random).
    @Test func rewriteMapsAsApacheReadsThem() {
        #expect(RewriteMapTable.internalFunction("toupper").lookup("caf\u{e9}") == "CAF\u{e9}")
        #expect(RewriteMapTable.internalFunction("tolower").lookup("CAF\u{c9}") == "caf\u{c9}")
        let crlf = RewriteMapTable.parseText("k1 v1\r\nk3\r\nk5 v5 extra\r\n k6 v6\r\nk7\tv7\r\n")
        #expect(crlf == ["k1": "v1", "k5": "v5", "k7": "v7"])
        let rnd = RewriteMapTable.random(["a": "one|two", "d": "|y"])
        #expect(rnd.lookup("a") == "one")
        #expect(rnd.lookup("d") == nil)
    }

    /// fixtures/apache/alias-redirect-expression-and-escaped-target: an expression target is an
    /// ap_expr string (`%20` is literal, then escaped whole), not a mod_rewrite template.
    @Test func redirectExpressionTargetsKeepPercentEscapes() {
        let o = site("", vhost: [
            "<Location /e1>", "Redirect http://example.org/a%20b", "</Location>",
            "<Location /e2>", "Redirect 301 \"http://example.org/t.html?u=%{REQUEST_URI}&s=a%20b\"", "</Location>",
        ], files: [("/t.html", 0)])
        #expect(respond(o, "/e1/z").location == "http://example.org/a%2520b")
        #expect(respond(o, "/e2/q").location == "http://example.org/t.html?u=/e2/q&s=a%20b")
    }

    /// fixtures/apache/header-vary-from-if-expressions: the request headers `<If>` conditions
    /// read (not Host, not req_novary, not after a short circuit) join the normal table's Vary,
    /// which fixup_vary merges with Header's lines into one.
    @Test func ifConditionsAddTheirHeadersToVary() {
        let o = site("""
            <If "%{HTTP:X-Flag} == 'on'">
            Header set X-A yes
            </If>
            <ElseIf "%{HTTP_USER_AGENT} =~ /bot/ || req('X-B') == '1'">
            Header set X-A bot
            </ElseIf>
            <If "req_novary('X-C') == '1' && %{HTTP_HOST} != ''">
            </If>
            Header merge Vary Accept-Encoding
            Header always append Vary Cookie

            """, files: [("/page.html", 0)])
        #expect(header(respond(o, "/page.html"), "Vary") == "Cookie,X-Flag,User-Agent,X-B,Accept-Encoding")
        #expect(header(respond(o, "/page.html", headers: [HTTPHeader("User-Agent", "a bot")]), "Vary")
                == "Cookie,X-Flag,User-Agent,Accept-Encoding")
        #expect(header(respond(o, "/missing"), "Vary") == "Cookie")
    }
}
