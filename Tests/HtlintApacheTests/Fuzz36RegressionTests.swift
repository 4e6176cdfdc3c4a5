import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Fuzz 36: mutated copies of the shared corpus and the fixtures (tools/realistic/mutate.py),
/// each disagreement recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz36RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)], modules: [String] = []) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "ex.test", modules: modules)
    }

    func values(_ r: OriginResponse, _ name: String) -> [String] {
        r.headers.filter { $0.name == name }.map(\.value)
    }

    /// fixtures/apache/negotiation-none-negotiable-last-modified-epoch: files named `doc.*` none
    /// of which can be negotiated (AH00687) end the scan before r->mtime is set, so
    /// %{LAST_MODIFIED} stays the epoch; a name with no files at all goes on and sets it.
    @Test func noNegotiableVariantKeepsTheEpoch() {
        let o = site("Options +MultiViews\nHeader always set X-E epoch \"expr=%{LAST_MODIFIED} == '19700101000000'\"\n",
                     files: [("/doc.php", 0), ("/page.html", 0)], modules: ["negotiation"])
        let none = respond(o, "/doc")
        #expect(none.status == 404)
        #expect(none.errorCodes == ["AH00687"])
        #expect(header(none, "X-E") == "epoch")
        #expect(header(respond(o, "/doc", method: "OPTIONS"), "X-E") == "epoch")
        #expect(header(respond(o, "/missing"), "X-E") == nil)
        #expect(header(respond(o, "/page"), "X-E") == nil)
    }

    /// fixtures/apache/header-early-always-shared-across-internal-redirects: every request of an
    /// internal-redirect chain runs post_read_request on the one shared error table, so an
    /// `early` add line is sent once per request, each with its own REDIRECT_ variables; a
    /// recursive error keeps what the page request's `early set` wrote.
    @Test func earlyAlwaysLinesAccumulateOverInternalRedirects() {
        let o = site("ErrorDocument 404 /e.html\nErrorDocument 403 /nope.html\nRewriteEngine On\nRewriteRule ^r$ p.html [L]\nRewriteRule ^d$ - [F]\n",
                     vhost: ["SetEnvIf Request_URI \"^\" SE=1", "Header always add X-A \"a%{REDIRECT_SE}e\" early",
                             "Header always set X-R \"%{REDIRECT_SE}e\" early", "Header always add X-B \"b%{REDIRECT_SE}e\""],
                     files: [("/p.html", 0), ("/e.html", 0)])
        let plain = respond(o, "/p.html")
        #expect(values(plain, "X-A") == ["a(null)"])
        for target in ["/missing", "/r"] {
            let r = respond(o, target)
            #expect(values(r, "X-A") == ["a(null)", "a1"], "\(target)")
            #expect(values(r, "X-R") == ["1"], "\(target)")
            #expect(values(r, "X-B") == ["b1"], "\(target)")
        }
        let recursive = respond(o, "/d")
        #expect(recursive.status == 403)
        #expect(values(recursive, "X-A") == ["a(null)", "a1"])
        #expect(values(recursive, "X-R") == ["1"])
        #expect(values(recursive, "X-B") == ["b(null)"])
    }

    /// fixtures/apache/env-setenvifexpr-stale-group-ends-value: a failed regex leaves the source
    /// "" but the offsets of the last match; a group from offset 0 copies the NUL and ends the
    /// value there.
    @Test func staleGroupFromTheEmptySourceEndsTheValue() {
        let o = site("""
            SetEnvIfExpr "%{QUERY_STRING} =~ /^(x)/ || true" A=v$1w
            SetEnvIfExpr "%{REQUEST_URI} =~ m#^/(zzz)#" B=v$1w
            SetEnvIfExpr "-n %{REQUEST_URI}" C=v$1w E=c$0d
            Header always set X-C "%{C}e"
            Header always set X-E "%{E}e"

            """, files: [("/page.html", 0)])
        #expect(header(respond(o, "/page.html"), "X-C") == "vw")
        #expect(header(respond(o, "/page.html"), "X-E") == "cd")
        #expect(header(respond(o, "/page.html?x=1"), "X-C") == "v")
        #expect(header(respond(o, "/page.html?x=1"), "X-E") == "c")
    }

    /// fixtures/apache/header-deflate-compressed-body-not-recognised: a body DEFLATE compresses
    /// (gzip accepted, over 68 bytes) is not the file's bytes, which the oracle's `served` reads.
    @Test func deflatedBodyIsMarkedCompressed() {
        let o = site("SetOutputFilter DEFLATE\n", files: [("/a.png", 311), ("/small.txt", 5)], modules: ["filter", "deflate"])
        let gzip = [HTTPHeader("Accept-Encoding", "gzip")]
        #expect(respond(o, "/a.png", headers: gzip).compressed)
        #expect(respond(o, "/a.png", method: "POST", headers: gzip).compressed)
        #expect(!respond(o, "/a.png").compressed)
        #expect(!respond(o, "/small.txt", headers: gzip).compressed)
        #expect(!respond(o, "/a.png", method: "HEAD", headers: [HTTPHeader("Accept-Encoding", "gzip;q=0")]).compressed)
    }
}
