import Testing
@testable import HtlintApache

// fixtures/apache/alias-redirect-status-zero-in-htaccess-goes-on: fixup_redir returns a
// matching Redirect's status, and 0 is OK, so the request goes on.
struct RedirectStatusZeroTests {
    private func get(_ htaccess: String, _ target: String) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/b/x.html", "/t.html"] { fs.addFile(f) }
        fs.addAccessFile("/b", displayPath: "b/.htaccess", text: htaccess)
        let origin = Origin(site: Site(serverName: "zero.example", files: fs))
        return origin.respond(to: OriginRequest(method: "GET", target: target, headers: [HTTPHeader("Host", "zero.example")]))
    }

    @Test func aZeroStatusMatchServesAndHidesLaterRedirects() {
        #expect(get("Redirect 0\n", "/b/x.html").status == 200)
        let r = get("Redirect 0x /b/x.html\nRedirect /b/x.html /t.html\n", "/b/x.html")
        #expect(r.status == 200)
        #expect(r.errorCodes.isEmpty)
        #expect(get("Redirect /b/x.html /t.html\n", "/b/x.html").status == 302)
    }
}
