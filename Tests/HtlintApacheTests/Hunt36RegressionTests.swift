import Testing
@testable import HtlintApache

/// Differential round 36 (mutations of the shared corpus), each against its recorded fixture.
struct Hunt36RegressionTests {
    private func respond(_ target: String, vhost: [String] = [], host: String = "example.org",
                         files: [String] = ["/x.html"]) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        let origin = Origin(site: Site(serverName: "example.org", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", host)]))
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

    /// fixtures/apache/vhost-http-protocol-options-unsafe-host: `HttpProtocolOptions Unsafe` skips
    /// the strict host-name check; apr_parse_addr_port's and fix_hostname_non_v6's refusals stay,
    /// and a name keeping a `:` is bracketed in self-referential URLs.
    @Test func unsafeProtocolOptionsAcceptOddHosts() {
        let unsafe = ["HttpProtocolOptions Unsafe"]
        for host in ["example.org:", "ex ample.org", "1234", "example.org:80:80"] {
            #expect(respond("/x.html", host: host).status == 400, "\(host)")
            #expect(respond("/x.html", vhost: unsafe, host: host).status == 200, "\(host)")
        }
        for host in ["a..b", "x/y", "example.org:99999", "[::g]", ":80", "example.org:0"] {
            #expect(respond("/x.html", vhost: unsafe, host: host).status == 400, "\(host)")
        }
        #expect(splitHostHeader("example.org:80:80").host == "[example.org:80]")
        #expect(splitHostHeader("example.org:80:80").port == 80)
        #expect(splitHostHeader("Example.org:").host == "[example.org:]")
        #expect(splitHostHeader("[::1]:8080") == ("[::1]", 8080))
    }

    /// fixtures/apache/rewrite-escape-nul-after-dot-segment: the segments are resolved before
    /// `%00` is decoded: `.%00` is no dot segment, and `a%00/..` goes with its `%00`.
    @Test func nulResolvedAfterSegments() {
        let files = ["/c/x/a.html"]
        let dot = respond("/c/x/.%00", files: files)
        #expect(dot.status == 404)
        #expect(dot.final.uri == "/c/x/.")
        #expect(respond("/c/x/..%00", files: files).final.uri == "/c/x/..")
        let gone = respond("/c/x/a.html%00/../a.html", files: files)
        #expect(gone.status == 200)
        #expect(gone.final.uri == "/c/x/a.html")
    }
}
