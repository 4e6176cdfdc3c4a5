import Testing
@testable import HtlintApache

private func get(_ origin: Origin, _ target: String) -> OriginResponse {
    origin.respond(to: OriginRequest(method: "GET", target: target, headers: [HTTPHeader("Host", "open.example")]))
}

// fixtures/apache/access-htaccess-symlink-read-through-link: ap_pcfg_openfile opens a
// `.htaccess` that is a link like any file, whatever Options say about links.
struct LinkedAccessFileTests {
    private func origin() -> Origin {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/a.html", "/sub/b.html", "/deep/c.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: "Options -FollowSymLinks\n")
        fs.addTextFile("/rules.txt", displayPath: "rules.txt", text: "Redirect /sub/x /a.html\n")
        fs.addSymlink("/sub/.htaccess", target: "../rules.txt")
        fs.addAccessFile("/real", displayPath: "real/.htaccess", text: "Redirect /deep/y /a.html\n")
        fs.addSymlink("/deep/.htaccess", target: "../real/.htaccess")
        return Origin(site: Site(serverName: "open.example", files: fs))
    }

    @Test func aLinkedFileIsReadThroughTheLink() {
        let o = origin()
        #expect(get(o, "/sub/x").status == 302)
        #expect(get(o, "/sub/b.html").status == 200)
        #expect(get(o, "/deep/y").status == 302)
    }
}
