import Testing
@testable import HtlintSimulation

/// Differential round 25: the recording client's URLs.
struct Hunt25URLTests {
    /// fixtures/apache/https-odd-redirect-targets: a Location `HTTPS://site.example/x` is
    /// requested and recorded with its scheme as written; the scheme compares lower case.
    @Test func locationSchemeKeepsItsCase() {
        let u = URLParts("HTTPS://site.example/x")!
        #expect(u.scheme == "https")
        #expect(u.text == "HTTPS://site.example/x")
        #expect(u.loopKey == URLParts("https://site.example/x")!.loopKey)
        #expect(u.loopKey != URLParts("https://site.example/y")!.loopKey)
        var upgraded = URLParts("HTTP://site.example/x")!
        upgraded.scheme = "https"
        #expect(upgraded.text == "https://site.example/x")
        #expect(URLParts("https://site.example/x")!.text == "https://site.example/x")
    }
}
