import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-12 differential fuzz (awkward requests on realistic
/// configurations, mod_headers / mod_setenvif / mod_mime); every expected value was recorded
/// from Apache 2.4 (the fixtures named on each test).
struct Fuzz12RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [String] = ["/page.html", "/dir/index.html"]) -> Origin {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
        return Origin(site: Site(serverName: "shop.example", aliases: ["www.shop.example"], files: fs, vhostLines: vhost))
    }

    func respond(_ origin: Origin, _ target: String, method: String = "GET", headers: [HTTPHeader] = [], tls: Bool = false) -> OriginResponse {
        origin.respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")] + headers, tls: tls))
    }

    /// fixtures/apache/rewrite-escape-dotdot-above-root: a `..` (or `%2e%2e`) above `/` is 400
    /// AH10244 before any rewrite; inside the tree it resolves.
    @Test func dotDotAboveTheRootIsABadRequest() {
        let o = site("RewriteEngine On\nRewriteRule ^old$ /page.html [R=302,L]\n")
        for t in ["/dir/%2e%2e/%2e%2e/page.html", "/%2E%2E/old", "/dir/../../old"] {
            let r = respond(o, t)
            #expect(r.status == 400, "\(t)")
            #expect(r.errorCodes == ["AH10244"], "\(t)")
        }
        #expect(respond(o, "/dir/%2e%2e/page.html").status == 200)
        #expect(respond(o, "/dir/%2e%2e/old?x=1").status == 302)
    }

    /// fixtures/apache/syntax-error-defaulttype-ignored: DefaultType is accepted and ignored.
    @Test func defaultTypeIsAcceptedAndIgnored() {
        let o = site("DefaultType text/plain\nHeader set X-Seen yes\n", files: ["/page.html", "/noext"])
        let r = respond(o, "/noext")
        #expect(r.status == 200)
        #expect(r.headers.first { $0.name == "Content-Type" } == nil)
        #expect(r.headers.contains { $0.name == "X-Seen" && $0.value == "yes" })
    }
}
