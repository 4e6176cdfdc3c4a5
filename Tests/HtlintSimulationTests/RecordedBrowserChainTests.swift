import HtlintBytes
import Testing
import HtlintApache
import HtlintRegex
@testable import HtlintSimulation

/// How the recorded browser and edge walk a chain (fixtures/apache/www-add-explicit-port-80-url,
/// rewrite-flags-r303-self-loop-ignores-method, https-edge-host-trailing-dot).
struct RecordedBrowserChainTests {
    /// `recording`: walk as the recordings' client does (`ChainSimulator.recordingClient`).
    func simulator(_ htaccess: String, edge: String = "none", files: [String] = ["/a.html", "/form.php"],
                   recording: Bool = false) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        let site = Site(serverName: "shop.example", aliases: ["www.shop.example"], files: fs)
        var simulator = ChainSimulator(origin: Origin(site: site), edge: Edge(name: edge)!)
        simulator.recordingClient = recording
        return simulator
    }

    @Test func anExplicitDefaultPortStaysInTheURLButNotInHost() {
        let u = URLParts("http://www.shop.example:80/dir")!
        #expect(u.text == "http://www.shop.example:80/dir")
        #expect(u.hostHeader == "www.shop.example")
        #expect(u.loopKey == URLParts("http://www.shop.example/dir")!.loopKey)
        #expect(u.loopKey != URLParts("http://www.shop.example:8080/dir")!.loopKey)
        #expect(u.resolve("/dir/") == "http://www.shop.example:80/dir/")
        #expect(URLParts("http://shop.example/a")!.text == "http://shop.example/a")
    }

    /// URLs are the same request only with the same bytes: a name with a precomposed é and one
    /// with `e` and a combining accent are two requests (two memo entries, no loop between them).
    @Test func urlsDifferByBytesNotByCanonicalEquivalence() {
        let precomposed = URLParts("http://shop.example/caf\u{E9}.html")!
        let decomposed = URLParts("http://shop.example/cafe\u{301}.html")!
        #expect(precomposed != decomposed)
        #expect(precomposed.loopKey != decomposed.loopKey)
        #expect(Set([precomposed, decomposed]).count == 2)
        #expect(precomposed == URLParts("http://shop.example/caf\u{E9}.html")!)
        #expect(precomposed.loopKey == URLParts("http://SHOP.example:80/caf\u{E9}.html")!.loopKey)
    }

    /// The recording client requests `http://host:80/x` as written; a browser drops the port.
    @Test func wwwRuleCopyingAPortKeepsItInTheNextHopURLForTheRecordingClient() {
        let www = "RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\. [NC]\nRewriteRule ^ http://www.%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let recording = simulator(www, recording: true)
        let r = recording.run("http://shop.example/a.html", headers: [HTTPHeader("Host", "shop.example:80")])
        #expect(r.hops.map(\.url) == ["http://shop.example/a.html", "http://www.shop.example:80/a.html"])
        #expect(r.finalStatus == 200)
        let browser = simulator(www).run("http://shop.example/a.html", headers: [HTTPHeader("Host", "shop.example:80")])
        #expect(browser.hops.map(\.url) == ["http://shop.example/a.html", "http://www.shop.example/a.html"])
        #expect(browser.finalStatus == 200)
    }

    /// The recording client stops at a URL it requested before, whatever the method; a browser
    /// (htlint's own model) follows a post/redirect/get to the same URL and loads the page.
    @Test func aURLSeenBeforeIsALoopForTheRecordingClientOnly() {
        let selfRedirect = "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} =POST\nRewriteRule ^form\\.php$ /form.php [R=303,L]"
        let recording = simulator(selfRedirect, recording: true)
        let r = recording.run("http://shop.example/form.php", method: "POST")
        #expect(r.outcome == .loop)
        #expect(r.hops.count == 1)
        let browser = simulator(selfRedirect).run("http://shop.example/form.php", method: "POST")
        #expect(browser.outcome == .final)
        #expect(browser.hops.map(\.method) == ["POST", "GET"])
        #expect(browser.finalStatus == 200)
    }

    /// fixtures/apache/www-uppercase-location-host-sent-lowercase: the next hop's Host is lower-case.
    /// fixtures/apache/rewrite-escape-non-utf8-bytes: `[NE]` sends the byte 0xE9 in `Location`;
    /// the client reads a header that is not UTF-8 as Latin-1, so the next URL has `%C3%A9`.
    @Test func aLocationWithARawByteIsReadAsLatin1() {
        let location = "http://example.org/new/caf" + String(preservingBytes: [0xE9])
        #expect(URLParts.browserEncoded(location) == "http://example.org/new/caf%C3%A9")
        #expect(URLParts.browserEncoded("http://example.org/caf\u{E9}") == "http://example.org/caf%C3%A9")
    }

    @Test func anUpperCaseLocationHostIsSentLowerCase() {
        #expect(URLParts("https://WWW.Shop.Example:8443/x")!.hostHeader == "www.shop.example:8443")
        let rule = "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^WWW\\.\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let recording = simulator(rule, recording: true)
        let r = recording.run("http://www.shop.example/a.html", headers: [HTTPHeader("Host", "WWW.SHOP.EXAMPLE")])
        #expect(r.hops.map(\.url) == ["http://www.shop.example/a.html", "https://WWW.SHOP.EXAMPLE/a.html"])
        #expect(r.finalStatus == 200)
    }

    /// fixtures/apache/https-hsts-recording-client-no-upgrade: the conformance client keeps no HSTS.
    @Test func theConformanceClientIgnoresStrictTransportSecurity() throws {
        let c = try ConformanceCase.load(ConformanceTests.ownCorpus + "/https-hsts-recording-client-no-upgrade")
        let r = try c.simulator().run("https://example.org/old")
        #expect(r.hops.map(\.url) == ["https://example.org/old", "http://example.org/page.html"])
        #expect(r.hops.map(\.status) == [302, 200])
    }

    /// fixtures/apache/https-location-without-path: `https://host` is requested as `/` and
    /// recorded as written; a browser writes the `/`.
    @Test func aLocationWithoutAPathKeepsItsSpellingForTheRecordingClient() {
        let u = URLParts("https://shop.example?x=1")!
        #expect(u.target == "/?x=1")
        #expect(u.text == "https://shop.example?x=1")
        #expect(u.loopKey == URLParts("https://shop.example/?x=1")!.loopKey)
        let rule = "RewriteEngine On\nRewriteRule ^q$ https://shop.example?x=1 [R=302,L]"
        let recording = simulator(rule, recording: true)
        let r = recording.run("http://shop.example/q", headers: [])
        #expect(r.hops.map(\.url) == ["http://shop.example/q", "https://shop.example?x=1"])
        let browser = simulator(rule).run("http://shop.example/q")
        #expect(browser.hops.map(\.url) == ["http://shop.example/q", "https://shop.example/?x=1"])
    }

    /// fixtures/apache/https-edge-origin-header-too-big: nginx's 4096-byte proxy_buffer_size.
    @Test func theRecordingEdgeAnswers502WhenApachesHeadersDoNotFit() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "RewriteEngine On\nRewriteRule ^r$ https://example.org/page.html [R=302,L]")
        let origin = Origin(site: Site(serverName: "example.org", files: fs))
        var edge = Edge(name: "flexible")!
        edge.originHeaderLimit = 4096
        var recording = ChainSimulator(origin: origin, edge: edge)
        recording.recordingClient = true
        let fits = recording.run("https://example.org/r?" + String(repeating: "q", count: 3861))
        #expect(fits.hops.map(\.status) == [302, 200])
        let tooBig = recording.run("https://example.org/r?" + String(repeating: "q", count: 3863))
        #expect(tooBig.hops.map(\.status) == [502])
        #expect(tooBig.hops.first?.location == nil)
        // Cloudflare's own edge model keeps no such limit.
        let cloudflare = ChainSimulator(origin: origin, edge: Edge(name: "flexible")!).run("https://example.org/r?" + String(repeating: "q", count: 3863))
        #expect(cloudflare.hops.first?.status == 302)
    }

    /// fixtures/apache/www-location-port-not-digits: `https://HOST:443a b.html` is no URL.
    @Test func aLocationWhosePortIsNotDigitsIsOffsite() {
        #expect(URLParts("https://EXAMPLE.ORG:443a b.html") == nil)
        #expect(URLParts("https://example.org:/x")?.port == nil)
        let rule = "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^(.*)$ https://%1$1 [R=301,L]"
        let recording = simulator(rule, recording: true)
        let r = recording.run("https://www.shop.example/a.html", headers: [HTTPHeader("Host", "www.shop.example:443")])
        #expect(r.outcome == .offsite)
        #expect(r.offsiteURL == "https://shop.example:443a.html")
    }

    @Test func edgeHostDropsATrailingDot() {
        let request = HopRequest(scheme: "http", port: 80, host: "WWW.Shop.Example.:80", method: "GET", target: "/", headers: [])
        #expect(request.hostName == "www.shop.example")
        let r = simulator("", edge: "flexible+always-https").run("http://shop.example/a.html", headers: [HTTPHeader("Host", "www.shop.example.")])
        #expect(r.hops.first?.location == "https://www.shop.example/a.html")
    }

    @Test func recordingClientLeavesTheSiteOnAnyNonDefaultPort() {
        var sim = simulator("RewriteEngine On\nRewriteRule ^old$ /a.html [R=301,L]", edge: "flexible")
        let start = "http://shop.example/old"
        let hostWithPort = [HTTPHeader("Host", "shop.example:8080")]
        // Cloudflare listens on 8080: the general model follows the Location there.
        #expect(sim.run(start, headers: hostWithPort).outcome == .final)
        sim.recordingClient = true
        let r = sim.run(start, headers: hostWithPort)
        #expect(r.outcome == .offsite)
        #expect(r.offsiteURL == "http://shop.example:8080/a.html")
    }

    @Test func recordingEdgeReplacesForwardedFor() {
        var edge = Edge(name: "flexible")!
        let request = HopRequest(scheme: "https", port: 443, host: "shop.example", method: "GET", target: "/",
                                 headers: [HTTPHeader("X-Forwarded-For", "1.2.3.4")])
        func forwardedFor() -> String? {
            guard case .forward(let next, _) = edge.receive(request) else { return nil }
            return next.headers.first { $0.name == "X-Forwarded-For" }?.value
        }
        #expect(forwardedFor() == "1.2.3.4, 127.0.0.1")
        edge.replacesForwardedFor = true
        #expect(forwardedFor() == "127.0.0.1")
    }

    /// fixtures/apache/https-edge-refuses-malformed-paths: the recordings' nginx answers 400
    /// itself for a malformed escape, an encoded NUL or a `..` above `/`, before Always Use HTTPS.
    @Test func theRecordedEdgeRefusesMalformedPaths() {
        var edge = Edge(name: "flexible+always-https")!
        edge.rejectsMalformedPaths = true
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        let simulator = ChainSimulator(origin: Origin(site: Site(serverName: "shop.example", files: fs)), edge: edge)
        for url in ["http://shop.example/page.html%zz", "https://shop.example/page.html%00",
                    "https://shop.example/dir/%2e%2e/%2e%2e/page.html", "https://shop.example/dir/%2"] {
            let r = simulator.run(url)
            #expect(r.hops.count == 1, "\(url)")
            #expect(r.finalStatus == 400, "\(url)")
            #expect(r.hops.first?.answerer == .edge, "\(url)")
        }
        #expect(simulator.run("https://shop.example/dir/%2e%2e/page.html").finalStatus == 200)
        #expect(simulator.run("https://shop.example/page.html?q=%zz").finalStatus == 200)
        #expect(!Edge.nginxRefusesPath("/a/../b"))
    }

    /// fixtures/apache/header-recording-client-user-agent: conformance sends the oracle's User-Agent.
    @Test func theConformanceClientSendsTheOraclesUserAgent() throws {
        let c = try ConformanceCase.load(ConformanceTests.ownCorpus + "/header-recording-client-user-agent")
        let r = try c.simulator().run("http://example.org/ua")
        #expect(r.hops.map(\.status) == [302, 200])
        #expect(r.hops.last?.headers.first { $0.name == "X-UA" }?.value == "Mozilla/5.0 (compatible; htlint-oracle/1.0)")
    }

    /// fixtures/apache/header-edit-star-empty-match-crashes, https-edge-origin-crash-502: a
    /// crashed Apache child gives no response (the recording client records no hop); the nginx
    /// edge answers 502 for it.
    @Test func aCrashedOriginGivesNoResponseOrTheEdges502() throws {
        let direct = try ConformanceCase.load(ConformanceTests.ownCorpus + "/header-edit-star-empty-match-crashes")
        let r = try direct.simulator().run("http://example.org/crash/page.html")
        #expect(r.outcome == .error)
        #expect(r.hops.count == 1 && r.hops[0].status == 0)
        #expect(ConformanceComparison.compare(direct, simulator: try direct.simulator(), strict: true).disagreements.isEmpty)
        let edge = try ConformanceCase.load(ConformanceTests.ownCorpus + "/https-edge-origin-crash-502")
        let e = try edge.simulator().run("https://example.org/crash/page.html")
        #expect(e.finalStatus == 502)
        #expect(e.hops.last?.answerer == .edge)
    }

    /// fixtures/apache/https-edge-too-big-header-nginx-page: nginx's own 502 page replaces
    /// Apache's headers.
    @Test func theEdges502ForATooBigHeaderHasNginxsHeaders() throws {
        let c = try ConformanceCase.load(ConformanceTests.ownCorpus + "/https-edge-too-big-header-nginx-page")
        let r = try c.simulator().run("https://example.org/old?q=" + String(repeating: "y", count: 4000))
        #expect(r.finalStatus == 502)
        #expect(r.hops.last?.origin?.combinedHeader("Content-Type") == "text/html")
        #expect(r.hops.last?.origin?.combinedHeader("X-A") == nil)
    }
}
