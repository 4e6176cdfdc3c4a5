import Testing
import HtlintApache
@testable import HtlintSimulation

/// The edge's own 414: the recordings' nginx when the request line and its CRLF overflow its
/// 8 KiB buffer (fixtures/apache/https-edge-refuses-long-request-line), Cloudflare past a
/// 32 KB URI (its documented limit).
struct EdgeURITooLongTests {
    private func status(_ edge: Edge, targetLength: Int, method: String = "GET") -> Int? {
        let target = "/" + String(repeating: "a", count: targetLength - 1)
        let request = HopRequest(scheme: "https", port: 443, host: "example.org", method: method,
                                 target: target, headers: [HTTPHeader("Host", "example.org")])
        guard case .answer(let r) = edge.receive(request) else { return nil }
        #expect(r.answerer == .edge)
        return r.status
    }

    @Test func nginxBufferHoldsEightThousandOneHundredNinetyBytes() {
        var edge = Edge(name: "flexible")!
        edge.requestLineBuffer = 8192
        // `GET ` + 8177 + ` HTTP/1.1` + CRLF is 8192 bytes: passed on.
        #expect(status(edge, targetLength: 8177) == nil)
        #expect(status(edge, targetLength: 8178) == 414)
        #expect(status(edge, targetLength: 8177, method: "POST") == 414)
    }

    @Test func cloudflareRefusesURIsPastThirtyTwoKilobytes() {
        let edge = Edge(name: "flexible")!
        #expect(status(edge, targetLength: 32 * 1024) == nil)
        #expect(status(edge, targetLength: 32 * 1024 + 1) == 414)
        // A generic TLS-terminating proxy has no such limit modelled.
        #expect(status(Edge(name: "proxy")!, targetLength: 40_000) == nil)
    }
}
