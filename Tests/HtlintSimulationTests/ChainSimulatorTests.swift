import Testing
import HtlintApache
@testable import HtlintSimulation

/// Chains through the edge layers, on small in-memory sites.
struct ChainSimulatorTests {
    func simulator(_ htaccess: String, edge: String = "none", files: [String] = ["/index.html"]) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        let site = Site(serverName: "example.org", aliases: ["www.example.org"], files: fs)
        return ChainSimulator(origin: Origin(site: site), edge: Edge(name: edge)!)
    }

    let httpsRedirect = """
        RewriteEngine On
        RewriteCond %{HTTPS} !=on
        RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]
        """

    @Test func httpsRedirectBehindFlexibleEdgeLoopsOnItself() {
        let r = simulator(httpsRedirect, edge: "cloudflare-flexible").run("https://example.org/")
        #expect(r.outcome == .loop)
        #expect(r.cycle == ["https://example.org/"])
        #expect(r.hops.first?.originRequest?.tls == false)
        #expect(r.hops.first?.originRequest?.header("X-Forwarded-Proto") == "https")
    }

    @Test func httpsRedirectWithFullEdgeEndsOnTheFile() {
        let r = simulator(httpsRedirect, edge: "cloudflare-full").run("http://example.org/")
        #expect(r.outcome == .final)
        #expect(r.hops.map(\.status) == [301, 200])
        #expect(r.hops.last?.served == "/index.html")
    }

    @Test func alwaysHTTPSIsAnsweredByTheEdge() {
        let r = simulator("", edge: "cloudflare-flexible+always-https").run("http://example.org/index.html")
        #expect(r.hops.first?.answeredBy == "edge")
        #expect(r.hops.first?.location == "https://example.org/index.html")
        #expect(r.outcome == .final)
    }

    @Test func redirectToAnotherHostIsOffsite() {
        let r = simulator("Redirect 301 / https://elsewhere.example/").run("http://example.org/x")
        #expect(r.outcome == .offsite)
        #expect(r.offsiteURL == "https://elsewhere.example/x")
    }

    @Test func httpsOnThePlainHTTPPortCannotConnect() {
        // `https://%{HTTP_HOST}` with `Host: example.org:80` keeps the port: no TLS listener there.
        let rules = "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let r = simulator(rules).run("http://example.org/x", headers: [HTTPHeader("Host", "example.org:80")])
        #expect(r.outcome == .error)
        #expect(r.offsiteURL == "https://example.org:80/x")
        #expect(r.errorMessage == "Apache speaks plain HTTP on port 80 of example.org, not TLS: the browser cannot connect (ERR_SSL_PROTOCOL_ERROR)")
        let viaEdge = simulator(rules, edge: "cloudflare-full").run("http://example.org/x", headers: [HTTPHeader("Host", "example.org:80")])
        #expect(viaEdge.outcome == .error)
        // A port Cloudflare does not proxy.
        let closed = simulator("Redirect 301 /x https://example.org:9443/y", edge: "cloudflare-full").run("https://example.org/x")
        #expect(closed.errorMessage == "Cloudflare (Full) does not listen on port 9443 of example.org: the browser cannot connect")
        // Another site on any port stays offsite.
        #expect(simulator("Redirect 301 /x https://elsewhere.example:80/y").run("http://example.org/x").outcome == .offsite)
    }

    @Test func reachabilityIsJudgedOnlyWhereThePortsAreKnown() {
        // Apache's own Listen ports are not part of the site: :8080 may be served, so it stays offsite.
        #expect(simulator("Redirect 301 /x http://example.org:8080/y").run("http://example.org/x").outcome == .offsite)
        // Plain HTTP to the TLS port is answered there (mod_ssl's 400), not refused.
        let tlsPort = simulator("Redirect 301 /x http://example.org:443/y").run("http://example.org/x")
        #expect(tlsPort.statuses == [301, 400])
        // The recording client never follows a non-default port.
        var recording = simulator("Redirect 301 /x https://example.org:80/y")
        recording.recordingClient = true
        #expect(recording.run("http://example.org/x").outcome == .offsite)
    }

    @Test func anHSTSHostIsJudgedAsTheBrowserWillRequestIt() {
        // nginx without a port-80 listener: the http Location is unreachable, unless the browser
        // holds HSTS for the host and goes to https instead.
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/b")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "Redirect 301 /a http://example.org/b")
        let site = Site(serverName: "example.org", aliases: [], files: fs)
        let nginx = NginxProxy(httpServer: .none, upstreamPort: 80, hostHeader: .host)
        let plain = ChainSimulator(origin: Origin(site: site), layers: [nginx])
        #expect(plain.run("https://example.org/a").outcome == .offsite)
        let known = plain.withHSTS(["example.org"])
        let upgraded = known.run("https://example.org/a")
        #expect(upgraded.statuses == [301, 307, 200])
        #expect(upgraded.outcome == .final)
    }

    /// nginx's defaults drop a request header whose name holds `_`: the origin never sees it.
    @Test func nginxDropsUnderscoredRequestHeaders() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "RewriteEngine On\nRewriteCond %{HTTP:X_Token} =secret\nRewriteRule ^ - [F]")
        let site = Site(serverName: "example.org", aliases: [], files: fs)
        let direct = ChainSimulator(origin: Origin(site: site), edge: Edge(mode: .none))
        #expect(direct.run("http://example.org/index.html", headers: [HTTPHeader("X_Token", "secret")]).statuses == [403])
        let behindNginx = ChainSimulator(origin: Origin(site: site), layers: [NginxProxy(httpServer: .proxy)])
        let result = behindNginx.run("http://example.org/index.html", headers: [HTTPHeader("X_Token", "secret")])
        #expect(result.statuses == [200])
        #expect(result.hops[0].path.contains { $0.notes.contains { $0.contains("nginx does not pass X_Token") } })
        // And it answers a Host it cannot accept itself.
        let badHost = behindNginx.run("http://example.org/index.html", headers: [HTTPHeader("Host", "example..org")])
        #expect(badHost.statuses == [400] && badHost.hops[0].answerer == .edge)
    }

    @Test func postBecomesGetAfter302() {
        let s = simulator("RewriteEngine On\nRewriteRule ^form$ /index.html [R=302,L]")
        let r = s.run("http://example.org/form", method: "POST")
        #expect(r.hops.map(\.method) == ["POST", "GET"])
    }

    @Test func rootToSubfolderWithoutGuardExceedsTheRecursionLimit() {
        let r = simulator("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [L]", files: ["/blog/index.html"]).run("http://example.org/post")
        #expect(r.finalStatus == 500)
        #expect(r.hops.first?.origin?.recursionLimitExceeded == true)
        #expect(r.hops.first?.origin?.internalRedirects == 10)
    }

    @Test func relativeLocationIsResolvedAgainstTheCurrentURL() {
        let u = URLParts("https://example.org/a/b?x=1")!
        #expect(u.resolve("c") == "https://example.org/a/c")
        #expect(u.resolve("/d") == "https://example.org/d")
        #expect(u.resolve("?y=2") == "https://example.org/a/b?y=2")
    }

    @Test func locationIsSentAsABrowserEncodesIt() {
        let u = URLParts("http://example.org/")!
        #expect(u.resolve("/x y.html") == "http://example.org/x%20y.html")
        #expect(u.resolve("/caf\u{E9}.html?q=a b&c=\"{}\"") == "http://example.org/caf%C3%A9.html?q=a%20b&c=%22{}%22")
        #expect(u.resolve("/a{b}?x#frag ment") == "http://example.org/a%7Bb%7D?x#frag ment")
        #expect(u.resolve("/already%20encoded") == "http://example.org/already%20encoded")
        // Any scheme makes a Location absolute: `mailto:` is not a path under the site.
        #expect(u.resolve("mailto:me@example.org") == "mailto:me@example.org")
        #expect(URLParts.hasScheme("tel:+1") && URLParts.hasScheme("x-y.z+1:") && !URLParts.hasScheme("/a:b") && !URLParts.hasScheme("1a:b"))
    }

    @Test func mailtoLocationEndsTheChainOffsite() {
        let r = simulator("Redirect 302 /mail mailto:me@example.org").run("http://example.org/mail")
        #expect(r.outcome == .offsite)
        #expect(r.offsiteURL == "mailto:me@example.org")
        #expect(r.hops.count == 1)
    }

    @Test func edgeNamesParse() {
        #expect(Edge(name: "flexible") == Edge(mode: .cloudflareFlexible))
        #expect(Edge(name: "full+always-https") == Edge(mode: .cloudflareFull, alwaysHTTPS: true))
        #expect(Edge(name: "bogus") == nil)
    }
}
