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

    /// fixtures/apache/header-if-match-and-if-unmodified-since-412: apr_date_parse_http's three
    /// formats give the same instant; impossible days and the wrong case are APR_DATE_BAD.
    @Test func httpDateFormats() {
        #expect(Origin.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(Origin.parseHTTPDate("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(Origin.parseHTTPDate("Sun Nov  6 08:49:37 1994") == 784_111_777)
        #expect(Origin.parseHTTPDate("x 6 Nov 1994 08:49:37 UTC") == 784_111_777)
        #expect(Origin.parseHTTPDate("Thu, 01 Jan 1970 00:00:00 GMT") == 0)
        #expect(Origin.parseHTTPDate("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        #expect(Origin.parseHTTPDate("Sat, 31 Apr 2000 00:00:00 GMT") == nil)
        #expect(Origin.parseHTTPDate("Sat, 01 jan 2000 00:00:00 GMT") == nil)
        #expect(Origin.parseHTTPDate("Sat, 01 Jan 2000 00:00:00") == nil)
    }

    /// fixtures/apache/header-edge-drops-expect: nginx's proxy module passes no Expect, TE,
    /// Keep-Alive or Upgrade to Apache; other headers go through.
    @Test func nginxEdgeDropsProxyDefaultHeaders() {
        var edge = Edge(name: "flexible")!
        edge.dropsProxyDefaultHeaders = true
        let request = HopRequest(scheme: "http", port: 80, host: "example.org", method: "GET", target: "/a.html",
                                 headers: [HTTPHeader("Host", "example.org"), HTTPHeader("Expect", "foo"), HTTPHeader("TE", "trailers"),
                                           HTTPHeader("Upgrade", "h2c"), HTTPHeader("X-Token", "c")])
        guard case .forward(let next, _) = edge.receive(request) else {
            Issue.record("the request was answered by the edge")
            return
        }
        #expect(next.header("Expect") == nil)
        #expect(next.header("TE") == nil)
        #expect(next.header("Upgrade") == nil)
        #expect(next.header("X-Token") == "c")
    }
}
