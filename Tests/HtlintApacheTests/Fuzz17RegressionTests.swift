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
}
