import Testing
import HtlintApache
import HtlintDiagnostics
@testable import HtlintSimulation

/// A site described by a configuration file with `<VirtualHost>` sections: each hop is answered
/// by the section its port and `Host` pick, as two servers would answer a browser.
struct VirtualHostChainTests {
    static let conf = """
        <VirtualHost *:80>
        ServerName example.com
        ServerAlias www.example.com
        Redirect permanent / https://www.example.com/
        </VirtualHost>
        <VirtualHost *:443>
        ServerName example.com
        Redirect permanent / https://www.example.com/
        </VirtualHost>
        <VirtualHost *:443>
        ServerName www.example.com
        ServerAlias static.example.com
        </VirtualHost>
        """

    func simulator(_ layers: [any Layer] = []) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let source = SiteSource(serverName: "www.example.com", files: fs, vhostFile: SourceFile(path: "site.conf", text: Self.conf))
        return ChainSimulator(source: source, layers: layers)
    }

    @Test func theRedirectOfThePlainSectionDoesNotAnswerTLS() {
        let r = simulator().run("http://example.com/")
        #expect(r.outcome == .final)
        #expect(r.hops.map(\.status) == [301, 200])
        #expect(r.hops.last?.served == "/index.html")
    }

    @Test func theBareDomainIsRedirectedByItsOwnSection() {
        let r = simulator().run("https://example.com/index.html")
        #expect(r.hops.map(\.url) == ["https://example.com/index.html", "https://www.example.com/index.html"])
        #expect(r.hops.map(\.status) == [301, 200])
    }

    @Test func aTLSTerminatingEdgeReachesOnlyThePlainSection() {
        // Flexible: every request arrives on port 80, whose section redirects to https again.
        let r = simulator([Edge(mode: .cloudflareFlexible)]).run("https://www.example.com/")
        #expect(r.outcome == .loop)
        #expect(r.cycle == ["https://www.example.com/"])
        // Full: https reaches the TLS section that serves.
        #expect(simulator([Edge(mode: .cloudflareFull)]).run("https://www.example.com/").hops.map(\.status) == [200])
    }

    /// httpd drops a trailing dot (and the port) of the Host before matching names (fixture
    /// vhost-host-trailing-dot).
    @Test func aHostWithATrailingDotNamesTheSameSection() {
        let r = simulator().run("https://www.example.com/", headers: [HTTPHeader("Host", "WWW.Example.com.:443")])
        #expect(r.hops.map(\.status) == [200])
    }

    @Test func everySectionsNamesAreTheSites() {
        let s = simulator()
        #expect(s.origin.site.canonicalHost == "example.com")
        #expect(s.tlsOrigin.site.canonicalHost == "www.example.com")
        // An alias only the TLS section has is still this site's.
        #expect(s.isOnSite(URLParts("https://static.example.com/")!))
        #expect(!s.isOnSite(URLParts("https://example.org/")!))
    }

    @Test func aRebuiltSiteKeepsItsSections() {
        let s = simulator()
        let rebuilt = s.with(source: s.source!)
        #expect(rebuilt.run("http://example.com/").hops.map(\.status) == [301, 200])
        let untraced = s.with(origins: { Origin(site: $0.site, tracing: false) })
        #expect(untraced.run("http://example.com/").hops.map(\.status) == [301, 200])
        #expect(!untraced.tlsOrigin.tracing)
        // The site's own origins are the table's, not copies of them.
        #expect(untraced.virtualHosts?.all.contains { $0 === untraced.origin } == true)
        #expect(untraced.virtualHosts?.all.contains { $0 === untraced.tlsOrigin } == true)
    }

    /// Recorded by hand on Apache 2.4.71 (`Listen 18080`, `<VirtualHost *:18080>`, a relative
    /// `[R=301]`, `Host: example.com`): a section without a ServerName of its own takes its
    /// address's port, so Apache's own URLs name it (spec S11); its own port-less ServerName
    /// means no port; a ServerName with a port names that one; the main server's ServerName
    /// alone leaves the section's port.
    @Test("a section's port in Apache's own URLs", arguments: [
        ("", "http://example.com:8080/Web/page"),
        ("ServerName example.com\n", "http://example.com/Web/page"),
        ("ServerName example.com:8080\n", "http://example.com:8080/Web/page"),
    ])
    func sectionPortInSelfReferentialURLs(_ serverName: String, _ location: String) {
        for mainServerName in ["", "ServerName example.com\n"] {
            var fs = SiteFileSystem(root: "/var/www/html")
            fs.addFile("/Web/index.html")
            fs.addAccessFile("/", file: SourceFile(path: ".htaccess", text: "RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/Web(/|$)\nRewriteRule ^(.*)$ /Web/$1 [R=301,L]\n"))
            let conf = mainServerName + "<VirtualHost *:8080>\n" + serverName + "DocumentRoot /var/www/html\n</VirtualHost>\n"
            let source = SiteSource(serverName: "example.com", files: fs, vhostFile: SourceFile(path: "site.conf", text: conf))
            let nginx = NginxProxy(httpServer: .redirect, upstreamPort: 8080, hostHeader: .host)
            let r = ChainSimulator(source: source, layers: [nginx]).run("https://example.com/page")
            #expect(r.hops.first?.location == location, "\(mainServerName)\(serverName)")
        }
    }
}
