import Testing
@testable import HtlintApache

/// Differential round 36 (mutations of the shared corpus), each against its recorded fixture.
struct Hunt36RegressionTests {
    private func respond(_ target: String, vhost: [String] = []) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/x.html")
        let origin = Origin(site: Site(serverName: "example.org", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org")]))
    }

    /// fixtures/apache/rewrite-escape-above-root-logs-encoded-path: the 400 for a `..` above `/`
    /// comes before ap_unescape_url, so the logged URI keeps its escapes (but unreserved ones).
    @Test func aboveRootLogsEncodedPath() {
        for (target, uri) in [("/../search/x%2By", "/search/x%2By"), ("/../a%2Fb", "/a%2Fb"),
                              ("/a/../../caf%C3%A9%7e", "/caf%C3%A9~"), ("/../a%2Fb/..%2F..", "/a%2Fb/..%2F..")] {
            let r = respond(target)
            #expect(r.status == 400, "\(target)")
            #expect(r.final.uri == uri, "\(target)")
            #expect(r.errorCodes == ["AH10244"], "\(target)")
        }
    }

    /// fixtures/apache/rewrite-escape-encoded-slash-dotdot-renormalized: with AllowEncodedSlashes
    /// On a `..` made by decoding `%2F` is resolved, its climb above `/` ignored.
    @Test func decodedSlashDotDotIsResolved() {
        let vhost = ["AllowEncodedSlashes On"]
        for target in ["/..%2Fx.html", "/a/..%2F..%2Fx.html"] {
            let r = respond(target, vhost: vhost)
            #expect(r.status == 200, "\(target)")
            #expect(r.final.uri == "/x.html", "\(target)")
        }
        let literal = respond("/../x%41%2F", vhost: vhost)
        #expect(literal.status == 400)
        #expect(literal.final.uri == "/xA%2F")
    }
}
