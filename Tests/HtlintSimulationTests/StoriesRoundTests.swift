import Testing
@testable import HtlintApache
@testable import HtlintSimulation

/// Round r10 of tools/realistic/stories.py (odd requests), recorded from the oracle.
struct StoriesRoundTests {
    /// fixtures/apache/https-edge-refuses-bad-content-length: nginx answers a repeated or
    /// non-numeric Content-Length 400 and an unknown Transfer-Encoding 501, before Always Use HTTPS.
    @Test func nginxEdgeRefusesBadBodyHeaders() {
        var edge = Edge(name: "full+always-https")!
        edge.rejectsBadBodyHeaders = true
        func status(_ headers: [HTTPHeader]) -> Int? {
            let request = HopRequest(scheme: "http", port: 80, host: "example.org", method: "POST", target: "/a.html",
                                     headers: [HTTPHeader("Host", "example.org")] + headers)
            guard case .answer(let r) = edge.receive(request) else { return nil }
            return r.status
        }
        #expect(status([HTTPHeader("Content-Length", "0"), HTTPHeader("Content-Length", "8")]) == 400)
        #expect(status([HTTPHeader("Content-Length", "+0")]) == 400)
        #expect(status([HTTPHeader("Transfer-Encoding", "gzip")]) == 501)
        #expect(status([HTTPHeader("Content-Length", "00")]) == 301)
    }

    /// fixtures/apache/header-invalid-content-length-refused: ap_parse_strict_length takes
    /// decimal digits only.
    @Test func apacheStrictLength() {
        #expect(Origin.isStrictLength("00"))
        #expect(Origin.isStrictLength("8"))
        #expect(!Origin.isStrictLength("0, 8"))
        #expect(!Origin.isStrictLength("-1"))
        #expect(!Origin.isStrictLength(""))
        #expect(!Origin.isStrictLength("99999999999999999999"))
    }
}
