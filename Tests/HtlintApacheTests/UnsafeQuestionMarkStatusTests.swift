import Testing
@testable import HtlintApache

/// mod_rewrite refuses a `?` that an expansion put into a rewritten URL (AH10508) and, unlike
/// [F], leaves its 403 in r->status. ap_internal_redirect hands ap_die the request's own
/// status, so the refusal is a recursive error there: canned, without ErrorDocument. Recorded
/// in fixtures/apache/rewrite-escape-unsafe-3f-in-internal-redirect-no-errordocument and
/// rewrite-escape-unsafe-3f-server-rules-in-internal-redirect.
struct UnsafeQuestionMarkStatusTests {
    static let root = """
        ErrorDocument 403 /403.html
        RewriteEngine On
        RewriteRule ^a$ index.php [L]
        RewriteCond %{THE_REQUEST} \\s/([^.]+)\\.html[\\s?]
        RewriteRule ^(index\\.php|b)$ /%1 [R=301,L]
        """
    static let files = ["/index.php", "/403.html", "/d/e.html"]

    @Test func refusedInAnInternalRedirectGoesOutWithoutErrorDocument() {
        let r = respondOnSite("/a?x.html", serverName: "example.org", access: [("/", Self.root)], files: Self.files)
        #expect(r.status == 403)
        #expect(r.served == nil)
        #expect(r.final.uri == "/index.php")
        #expect(r.errorCodes == ["AH10508"])
        #expect(r.internalRedirects == 1)
    }

    @Test func refusedInTheFirstRequestUsesErrorDocument() {
        let r = respondOnSite("/b?x.html", serverName: "example.org", access: [("/", Self.root)], files: Self.files)
        #expect(r.status == 403)
        #expect(r.served == "/403.html")
        #expect(r.errorCodes == ["AH10508"])
    }

    @Test func refusedErrorDocumentPageEndsTheChain() {
        // [F] on the page would redirect to it again until AH00124; this 403 is a recursive error.
        let d = """
            ErrorDocument 403 /d/e.html
            RewriteEngine On
            RewriteCond %{THE_REQUEST} \\s/([^.]+)\\.html[\\s?]
            RewriteRule ^(c|e\\.html)$ /%1 [R=301,L]
            """
        let r = respondOnSite("/d/c?x.html", serverName: "example.org", access: [("/", Self.root), ("/d", d)], files: Self.files)
        #expect(r.status == 403)
        #expect(r.served == nil)
        #expect(r.final.uri == "/d/e.html")
        #expect(r.errorCodes == ["AH10508", "AH10508"])
        #expect(!r.recursionLimitExceeded)
    }

    @Test func serverRulesInAnInternalRedirectToo() {
        let vhost = ["ErrorDocument 403 /403.html", "RewriteEngine On",
                     "RewriteCond %{THE_REQUEST} \\s/([^.]+)\\.html[\\s?]", "RewriteRule ^/(index\\.php|b)$ /%1 [R=301,L]"]
        let access = [("/", "RewriteEngine On\nRewriteRule ^a$ index.php [L]")]
        let inRedirect = respondOnSite("/a?x.html", serverName: "example.org", vhost: vhost, access: access, files: Self.files)
        #expect(inRedirect.status == 403)
        #expect(inRedirect.served == nil)
        #expect(inRedirect.final.uri == "/index.php")
        let first = respondOnSite("/b?x.html", serverName: "example.org", vhost: vhost, access: access, files: Self.files)
        #expect(first.status == 403)
        #expect(first.served == "/403.html")
    }
}
