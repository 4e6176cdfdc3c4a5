import Foundation
import Testing
import HtlintApache
@testable import HtlintSimulation

/// Differential round 36, the layer in front (recorded from the oracle's nginx edge).
struct Hunt36EdgeTests {
    /// fixtures/apache/https-edge-host-ends-at-first-colon: nginx's `$host` is the Host header up
    /// to its first `:`, so Always Use HTTPS sends `example.org:80:80` to `https://example.org/…`.
    @Test func edgeHostEndsAtFirstColon() {
        let edge = Edge(name: "flexible+always-https")!
        let request = HopRequest(scheme: "http", port: 80, host: "WWW.example.org:8080:1", method: "GET",
                                 target: "/a.html", headers: [HTTPHeader("Host", "WWW.example.org:8080:1")])
        #expect(request.hostName == "www.example.org")
        guard case .answer(let r) = edge.receive(request) else {
            Issue.record("the edge passed the http request on")
            return
        }
        #expect(r.status == 301)
        #expect(r.location == "https://www.example.org/a.html")
    }

    /// fixtures/apache/vhost-serveralias-offsite-to-client: the recording client stays on the
    /// case's host and aliases only, not on a `ServerAlias` among its `vhost` lines.
    @Test func vhostServerAliasIsOffsiteToClient() throws {
        let c = try ConformanceCase.load(ConformanceTests.ownCorpus + "/vhost-serveralias-offsite-to-client")
        let simulator = try c.simulator()
        #expect(simulator.clientHosts == ["example.org", "www.example.org"])
        #expect(!simulator.namesThisSite("other.example"))
        #expect(simulator.namesThisSite("WWW.example.org"))
    }
}
