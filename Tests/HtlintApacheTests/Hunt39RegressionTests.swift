import Testing
@testable import HtlintApache

/// Hunt 39: multi-hop stories across edges and nested directories, recorded with Apache 2.4.
struct Hunt39RegressionTests {
    func respond(_ target: String, htaccess: String, files: [String] = ["/y.html"]) -> OriginResponse {
        respondOnSite(target, serverName: "example.org", access: [("/", htaccess)], files: files)
    }

    /// fixtures/apache/alias-redirectmatch-target-apr-uri-parse: mod_alias runs a RedirectMatch
    /// target through apr_uri_parse (status ignored) and apr_uri_unparse. A port strtol does not
    /// read whole ends the parse (no path, query or fragment); port 0, an empty port and one that
    /// wraps to 443 in 16 bits are omitted; the port follows the first colon; a password is hidden.
    @Test(arguments: [
        ("https://%{HTTP_HOST}:%{SERVER_PORT}/y.html", "/x?q=1", "https://%25%7bHTTP_HOST%7d?q=1"),
        ("https://example.org:443abc/y.html?q#f", "/x?k=1", "https://example.org?k=1"),
        ("https://example.org:0/y.html", "/x", "https://example.org/y.html"),
        ("https://example.org:/y.html", "/x", "https://example.org/y.html"),
        ("https://example.org:65979/y.html", "/x", "https://example.org/y.html"),
        ("https://example.org:8443/y.html?a#b", "/x", "https://example.org:8443/y.html?a#b"),
        ("https://user:pw@example.org/y.html", "/x", "https://user:XXXXXXXX@example.org/y.html"),
        ("https://:pw@example.org/y", "/x", "https://:XXXXXXXX@example.org/y"),
        ("https://a:443:1/y.html?z", "/x", "https://a"),
        ("http://example.org:80/y.html#f?g", "/x", "http://example.org/y.html#f?g"),
        ("https://[::1]:443/y.html", "/x", "https://%5b::1%5d/y.html"),
        ("https://a:b@[::1]x/y", "/x", "https://a:XXXXXXXX@%5b::1%5d%5d/y"),
        ("https://[::1/y.html?q", "/x", "https:"),
        ("//example.org:80/y.html", "/x", "http://example.org//example.org:80/y.html"),
    ])
    func redirectMatchTargetThroughAprURI(_ target: String, _ request: String, _ location: String) {
        #expect(respond(request, htaccess: "RedirectMatch 302 ^/x$ \(target)\n").location == location)
    }

    /// fixtures/apache/errordoc-backslash-escapes: set_error_document parses every value as an
    /// ap_expr string, so backslash escapes are read without any `%{…}`; a bad one fails the file.
    @Test func errorDocumentBackslashEscapes() {
        let files = ["/y.html", "/z.html", "/sub/a.html"]
        #expect(respond("/missing", htaccess: "ErrorDocument 404 https://example.org/y\\.html\n", files: files).location
                == "https://example.org/y.html")
        let local = respond("/missing", htaccess: "ErrorDocument 404 /z\\.html\n", files: files)
        #expect(local.status == 404)
        #expect(local.served == "/z.html")
        #expect(respond("/sub/a.html", htaccess: "ErrorDocument 404 /z\\9.html\n", files: files).status == 500)
    }

    /// fixtures/apache/alias-redirect-expression-backslash-escapes: the expression form of
    /// Redirect parses its URL as an ap_expr string, so backslash escapes are read without `%{…}`.
    @Test func redirectExpressionBackslashEscapes() {
        let htaccess = "<If \"%{REQUEST_URI} == '/x'\">\nRedirect 302 \"https://example.org/y\\.html?a\\tb\"\n</If>\n"
        #expect(respond("/x", htaccess: htaccess).location == "https://example.org/y.html?a\tb")
        let plain = "<If \"true\">\nRedirect 302 https://example.org/y.html\n</If>\n"
        #expect(respond("/x", htaccess: plain).location == "https://example.org/y.html")
    }

    /// fixtures/apache/alias-redirect-expression-backreference-empty: `$1` in a string
    /// expression is empty (no match data reaches ap_expr_str_exec), even under an `<If>` whose
    /// regex captured; in an ErrorDocument as well.
    @Test func stringExpressionBackReferenceIsEmpty() {
        let htaccess = "<If \"%{REQUEST_URI} =~ m#^/old/(.*)#\">\nRedirect 302 \"https://example.org/new/$1\"\n</If>\n"
        #expect(respond("/old/page", htaccess: htaccess).location == "https://example.org/new/")
        let missing = respond("/missing", htaccess: "ErrorDocument 404 /y$1.html\n")
        #expect(missing.status == 404)
        #expect(missing.served == "/y.html")
        #expect(ApExpression.stringHasSyntax("a$b") && ApExpression.stringHasSyntax("%{X}") && !ApExpression.stringHasSyntax("a%20b"))
    }

    /// fixtures/apache/access-authname-expression: AuthName is an ap_expr string (set_authname);
    /// one that does not parse fails the `.htaccess`.
    @Test func authNameIsAnExpression() {
        func challenge(_ htaccess: String) -> OriginResponse {
            let origin = testOrigin(htaccess, files: [("/x.html", 0)], serverName: "example.org",
                                    modules: ["auth_basic", "authn_file", "authn_core", "authz_user"])
            return HtlintApacheTests.respond(origin, "/x.html")
        }
        let ok = challenge("AuthType Basic\nAuthName \"Area %{HTTP_HOST} \\\\q $1\"\nRequire valid-user\n")
        #expect(ok.status == 401)
        #expect(ok.headers.first { $0.name == "WWW-Authenticate" }?.value == "Basic realm=\"Area example.org q \"")
        #expect(challenge("AuthType Basic\nAuthName \"Area %{HTTP_HOST\"\nRequire valid-user\n").status == 500)
    }
}
