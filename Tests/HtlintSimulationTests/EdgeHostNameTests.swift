import Testing
import HtlintApache
@testable import HtlintSimulation

/// nginx's `$host` folds the Host header's case with ngx_tolower, which changes ASCII letters
/// only, and cuts it at the first `:` (or after a bracketed IPv6 literal's `]`).
struct EdgeHostNameTests {
    private func hostName(_ host: String) -> String {
        HopRequest(scheme: "http", port: 80, host: host, method: "GET", target: "/", headers: [HTTPHeader("Host", host)]).hostName
    }

    @Test func hostNameIsFoldedInASCIIOnly() {
        #expect(hostName("WWW.Example.ORG") == "www.example.org")
        #expect(hostName("ÉTÉ.Example.org") == "ÉtÉ.example.org")
    }

    @Test func hostNameEndsAtThePortOrTheLiteral() {
        #expect(hostName("Example.org:8080") == "example.org")
        #expect(hostName("[::1]:80") == "[::1]")
        #expect(hostName("example.org.") == "example.org")
    }
}
