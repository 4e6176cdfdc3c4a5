import Testing
@testable import HtlintSimulation

/// Hunt 39: multi-hop stories across edges and nested directories, recorded with Apache 2.4.
struct Hunt39BrowserRegressionTests {
    /// fixtures/apache/https-redirect-userinfo-kept-by-browser: a Location with user information
    /// is followed with it in the URL (the recording client and browsers keep it); `Host` and loop
    /// identity leave it out, and a relative Location resolves against it.
    @Test func userInformationStaysInTheURL() {
        let u = URLParts("https://user:XXXXXXXX@example.org/y.html")!
        #expect(u.text == "https://user:XXXXXXXX@example.org/y.html")
        #expect(u.host == "example.org")
        #expect(u.userInfo == "user:XXXXXXXX")
        #expect(u.hostHeader == "example.org")
        #expect(u.loopKey == URLParts("https://example.org/y.html")!.loopKey)
        #expect(u.resolve("/z.html") == "https://user:XXXXXXXX@example.org/z.html")
        #expect(URLParts("https://@example.org/y")!.text == "https://@example.org/y")
    }

    /// The same fixture: a port no integer holds is no URL the browser stays on (offsite), as a
    /// port with other characters already was; `host:` is the default port.
    @Test func portTooLargeForAnyInteger() {
        #expect(URLParts("https://example.org:99999999999999999999/y.html") == nil)
        #expect(URLParts("https://example.org:/y.html")?.hasDefaultPort == true)
    }
}

extension Hunt39BrowserRegressionTests {
    /// fixtures/apache/https-redirect-port-as-written-by-browser: an empty port or one with a
    /// leading zero stays in the URL as written; `Host` and loop identity use the number.
    @Test func portAsWritten() {
        let empty = URLParts("https://example.org:/y.html")!
        #expect(empty.text == "https://example.org:/y.html")
        #expect(empty.hostHeader == "example.org")
        #expect(empty.resolve("z.html") == "https://example.org:/z.html")
        let zero = URLParts("https://example.org:0443/y.html")!
        #expect(zero.text == "https://example.org:0443/y.html")
        #expect(zero.port == 443 && zero.hasDefaultPort)
        #expect(zero.loopKey == URLParts("https://example.org/y.html")!.loopKey)
        #expect(zero.upgradedToHTTPS.text == "https://example.org/y.html")
    }
}
