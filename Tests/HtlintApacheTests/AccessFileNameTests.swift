import Testing
@testable import HtlintApache

// `AccessFileName` in the vhost: per directory the first listed name that is a file is read, and a
// `.htaccess` beside it is ignored (fixtures/apache/allowoverride-accessfilename-*).
struct AccessFileNameTests {
    private func respond(_ target: String, vhost: [String]) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/t1.html", "/t2.html", "/sub/s1.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: "RewriteEngine On\nRewriteRule ^a$ t1.html [L]")
        fs.addTextFile("/.config", displayPath: "/var/www/html/.config", text: "RewriteEngine On\nRewriteRule ^b$ t2.html [L]")
        fs.addAccessFile("/sub", displayPath: "/var/www/html/sub/.htaccess", text: "RewriteEngine On\nRewriteRule ^c$ s1.html [L]")
        let site = Site(serverName: "shop.example", files: fs, vhostLines: vhost)
        return Origin(site: site).respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    @Test func readsTheNamedFileOnly() {
        #expect(respond("/a", vhost: ["AccessFileName .config"]).status == 404)
        let b = respond("/b", vhost: ["AccessFileName .config"])
        #expect(b.status == 200)
        #expect(b.final.filename == "/t2.html")
    }

    @Test func firstExistingNameWinsPerDirectory() {
        let vhost = ["AccessFileName .config .htaccess"]
        #expect(respond("/a", vhost: vhost).status == 404)
        #expect(respond("/b", vhost: vhost).final.filename == "/t2.html")
        #expect(respond("/sub/c", vhost: vhost).final.filename == "/sub/s1.html")
    }

    @Test func defaultIsHtaccess() {
        #expect(respond("/a", vhost: []).final.filename == "/t1.html")
        #expect(respond("/b", vhost: []).status == 404)
    }
}
