import Testing
import HtlintApache
@testable import HtlintSimulation

/// Layers spec §13 and §16: the browser's redirect limit, HSTS and method changes (L30–L32).
struct BrowserScenarioTests {
    static let firstRule = "RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"

    @Test func l30HSTSUpgradeIsASynthetic307() {
        let s = Scenario.simulator(Self.firstRule)
        let chrome = s.withHSTS(["example.com"]).run("http://example.com/page")
        #expect(chrome.statuses == [307, 200])
        #expect(chrome.hops[0].answerer == .browser)
        #expect(chrome.hops[0].location == "https://example.com/page")
        #expect(chrome.hops[0].origin == nil)
        #expect(chrome.codes == ["OK"])
        var curl = s
        curl.browser = .curl
        #expect(curl.run("http://example.com/page").statuses == [301, 200])
    }

    @Test func l31ForceHTTPPathWithHSTS() {
        let htaccess = """
            Header always set Strict-Transport-Security "max-age=31536000"
            RewriteEngine On
            RewriteCond %{HTTPS} =on
            RewriteRule ^legacy/ http://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let s = Scenario.simulator(htaccess, files: ["/legacy/x"])
        let chrome = s.withHSTS(["example.com"]).run("https://example.com/legacy/x")
        #expect(chrome.codes.first == "LOOP(2)")
        #expect(chrome.statuses == [301, 307])
        var curl = s
        curl.browser = .curl
        let c = curl.run("https://example.com/legacy/x")
        #expect(c.statuses == [301, 200])
        #expect(c.codes == ["OK", "DOWNGRADE"])
        #expect(s.isHSTSDependent("https://example.com/legacy/x"))
        // A browser without prior HSTS learns it from the first https answer, then loops too.
        let learning = s.run("https://example.com/legacy/x")
        #expect(learning.verdict == .loop)
        #expect(learning.loopStart == 2)
    }

    @Test func l32PostAcrossRedirects() {
        let s = Scenario.simulator(Self.firstRule, files: ["/subscribe"])
        let r = s.run("http://example.com/subscribe", method: "POST")
        #expect(r.hops.map(\.method) == ["POST", "GET"])
        #expect(r.codes.contains("METHOD_CHANGED"))
        let hsts = s.withHSTS(["example.com"]).run("http://example.com/subscribe", method: "POST")
        #expect(hsts.hops.map(\.method) == ["POST", "POST"])
        let permanent = Scenario.simulator(Self.firstRule.replacingOccurrences(of: "R=301", with: "R=308"), files: ["/subscribe"])
        #expect(permanent.run("http://example.com/subscribe", method: "POST").hops.map(\.method) == ["POST", "POST"])
    }

    @Test func methodChangesFollowFetch() {
        #expect(Browser.methodAfter(status: 301, method: "POST") == "GET")
        #expect(Browser.methodAfter(status: 302, method: "PUT") == "PUT")
        #expect(Browser.methodAfter(status: 303, method: "PUT") == "GET")
        #expect(Browser.methodAfter(status: 303, method: "HEAD") == "HEAD")
        #expect(Browser.methodAfter(status: 307, method: "POST") == "POST")
    }

    @Test func redirectLimitEndsANonRepeatingChain() {
        let s = Scenario.simulator("RewriteEngine On\nRewriteRule ^(.*)$ /$1/more [R=302,L]")
        let r = s.run("http://example.com/start")
        #expect(r.verdict == .tooManyRedirects)
        #expect(r.hops.count == 20)
        var safari = Scenario.simulator("RewriteEngine On\nRewriteRule ^(.*)$ /$1/more [R=302,L]", browser: .safari)
        #expect(safari.run("http://example.com/start").hops.count == 16)
        safari.maxHops = 3
        #expect(safari.run("http://example.com/start").hops.count == 3)
    }

    @Test func hstsStoreFollowsRFC6797() {
        var store = HSTSStore()
        store.learn("max-age=31536000; includeSubDomains", host: "Example.com")
        #expect(store.covers("example.com"))
        #expect(store.covers("www.example.com"))
        #expect(!store.covers("otherexample.com"))
        store.learn("max-age=0", host: "example.com")
        #expect(!store.covers("example.com"))
        store.learn("max-age=100", host: "203.0.113.10")
        #expect(!store.covers("203.0.113.10"))
        store.learn("includeSubDomains", host: "example.com")
        #expect(!store.covers("example.com"))
        #expect(URLParts("http://example.com:80/a")!.upgradedToHTTPS.text == "https://example.com/a")
        #expect(URLParts("http://example.com:8080/a")!.upgradedToHTTPS.text == "https://example.com:8080/a")
    }

    @Test func directConnectionFailuresAreErrors() {
        let r = Scenario.simulator(nil, tls: .none).run("https://example.com/")
        #expect(r.verdict == .error)
        #expect(r.hops.first?.error?.hasPrefix("ERR_CONNECTION_REFUSED") == true)
        let cert = Scenario.simulator(nil, tls: .selfSigned).run("https://example.com/")
        #expect(cert.hops.first?.error?.hasPrefix("ERR_CERT_INVALID") == true)
    }
}
