import Testing
import HtlintApache
@testable import HtlintSimulation

/// Differential round 25, the layer in front (recorded from the oracle's nginx edge).
struct Hunt25EdgeTests {
    /// fixtures/apache/https-edge-refuses-connect: nginx answers CONNECT 405 itself, like TRACE,
    /// before its Always Use HTTPS redirect and whatever Apache would have answered.
    @Test func nginxEdgeRefusesConnect() {
        var edge = Edge(name: "full+always-https")!
        edge.rejectsTrace = true
        for (scheme, port) in [("http", 80), ("https", 443)] {
            let request = HopRequest(scheme: scheme, port: port, host: "example.org", method: "CONNECT",
                                     target: "/old", headers: [HTTPHeader("Host", "example.org")])
            guard case .answer(let r) = edge.receive(request) else {
                Issue.record("CONNECT was passed on")
                continue
            }
            #expect(r.status == 405)
            #expect(r.answerer == .edge)
        }
        let patch = HopRequest(scheme: "https", port: 443, host: "example.org", method: "PATCH",
                               target: "/old", headers: [HTTPHeader("Host", "example.org")])
        guard case .forward = edge.receive(patch) else {
            Issue.record("PATCH was answered by the edge")
            return
        }
    }
}

/// fixtures/apache/header-edge-drops-underscore-request-header-names: the recordings' nginx
/// passes no request header whose name holds `_` or `.`; `X-Token` reaches Apache.
struct EdgeInvalidHeaderNameTests {
    @Test func nginxEdgeDropsUnderscoreAndDotHeaderNames() {
        var edge = Edge(name: "flexible")!
        edge.dropsInvalidHeaderNames = true
        let request = HopRequest(scheme: "http", port: 80, host: "example.org", method: "GET", target: "/x.html",
                                 headers: [HTTPHeader("Host", "example.org"), HTTPHeader("Query_String", "preview=1"),
                                           HTTPHeader("X.Dot", "b"), HTTPHeader("X-Token", "c")])
        guard case .forward(let next, _) = edge.receive(request) else {
            Issue.record("the request was answered by the edge")
            return
        }
        let names = next.headers.map(\.name)
        #expect(!names.contains("Query_String"))
        #expect(!names.contains("X.Dot"))
        #expect(names.contains("X-Token"))
        #expect(names.contains("Host"))
    }
}

/// fixtures/apache/https-edge-refuses-invalid-host: nginx answers 400 for a Host with `..`,
/// `/`, a blank or no name, before TRACE's 405; other odd hosts reach the origin.
struct EdgeInvalidHostTests {
    @Test func nginxValidatesTheHostHeader() {
        for host in ["a..b", "shop.example:8..0", "bad host", "x/y", ":80", "."] {
            #expect(!Edge.nginxAcceptsHost(host), "\(host)")
        }
        for host in ["shop.example.", ".shop.example", "shop.example:", "[::g]", "[::1]:80"] {
            #expect(Edge.nginxAcceptsHost(host), "\(host)")
        }
        var edge = Edge(name: "flexible")!
        edge.rejectsInvalidHost = true
        edge.rejectsTrace = true
        let trace = HopRequest(scheme: "https", port: 443, host: "bad host", method: "TRACE", target: "/a.html", headers: [])
        guard case .answer(let r) = edge.receive(trace) else {
            Issue.record("the request was passed on")
            return
        }
        #expect(r.status == 400)
    }
}
