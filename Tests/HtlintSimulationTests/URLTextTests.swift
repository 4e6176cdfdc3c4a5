import Testing
@testable import HtlintSimulation

/// `URLParts.text` writes a URL back as it was written, every part in place, so it can stand for
/// the URL in hops, loop reports and the hop memo's keys.
struct URLTextTests {
    @Test(arguments: [
        "http://example.com/a",
        "HTTPS://Example.com/a?b=1",
        "https://user:pw@example.com:0443/x%20y?q#frag",
        "http://example.com:/x",
        "https://example.com",
        "https://example.com?only=query",
        "http://[::1]:8080/é/ü?ß#ä",
        "http://example.com/#",
    ])
    func textIsTheURLAsWritten(_ written: String) throws {
        let url = try #require(URLParts(written))
        #expect(url.text == written)
        #expect(URLParts(url.text) == url)
    }

    @Test func changedPartsAreWrittenAsTheyNowAre() throws {
        var url = try #require(URLParts("HTTP://example.com:0080"))
        url.scheme = "https"
        url.port = 8443
        url.target = "/new?x"
        #expect(url.text == "https://example.com:8443/new?x")
    }
}
