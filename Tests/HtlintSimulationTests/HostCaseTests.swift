import Testing
import HtlintApache
@testable import HtlintSimulation

// fixtures/apache/www-location-host-case: the browser lower-cases a URL's host before it
// writes `Host`, so a Location naming the host in capitals is followed with a lower-case Host.
struct HostCaseTests {
    @Test func followedLocationSendsALowerCaseHost() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: """
            RewriteEngine On
            RewriteRule ^up$ http://EXAMPLE.ORG/new [R=302,L]
            RewriteRule ^new$ http://%{HTTP_HOST}/page.html [R=302,L]
            """)
        let site = Site(serverName: "example.org", aliases: ["www.example.org"], files: fs)
        let r = ChainSimulator(origin: Origin(site: site), edge: Edge(name: "none")!).run("http://example.org/up")
        #expect(r.hops.map(\.status) == [302, 302, 200])
        #expect(r.hops[1].originRequest?.header("Host") == "example.org")
        #expect(r.hops[1].location == "http://example.org/page.html")
    }
}
