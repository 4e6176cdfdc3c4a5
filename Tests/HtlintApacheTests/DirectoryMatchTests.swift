import Testing
@testable import HtlintApache

// <DirectoryMatch> / <Directory ~>: merged after the walk and its .htaccess files, matched
// against the walked filename, fewer slashes first (fixtures/apache/section-directorymatch).
struct DirectoryMatchTests {
    private func value(_ r: OriginResponse, _ name: String) -> String? {
        r.headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    @Test func mergesOverHtaccessInSlashOrder() {
        let vhost = ["<DirectoryMatch \"^/var/www/html/sub/k\">", "Header set X-B deep", "</DirectoryMatch>",
                     "<DirectoryMatch \"^/var/www/html/sub\">", "Header set X-A dirmatch", "Header set X-B shallow", "</DirectoryMatch>",
                     "<Directory ~ \"\\.html$\">", "Header set X-C html-file", "</Directory>"]
        let access = [("/", "Header set X-A htaccess\nHeader set X-B htaccess\n")]
        let files = ["/page.html", "/sub/a.html", "/sub/k/c.html"]
        let a = respond("/sub/a.html", vhost: vhost, access: access, files: files)
        #expect(value(a, "X-A") == "dirmatch")
        #expect(value(a, "X-B") == "shallow")
        #expect(value(a, "X-C") == "html-file")
        let c = respond("/sub/k/c.html", vhost: vhost, access: access, files: files)
        #expect(value(c, "X-B") == "deep")
        let p = respond("/page.html", vhost: vhost, access: access, files: files)
        #expect(value(p, "X-A") == "htaccess")
        #expect(value(p, "X-C") == "html-file")
    }

    @Test func headerAlwaysOnAnHtaccessDenial() {
        let r = respond("/deny/x.html", vhost: ["<DirectoryMatch \"^/var/www/html/deny\">", "Header always set X-E always", "</DirectoryMatch>"],
                        access: [("/deny", "Require all denied\n")], files: ["/deny/x.html"])
        #expect(r.status == 403)
        #expect(value(r, "X-E") == "always")
    }

    @Test func familiarWalkCacheKeepsTheDirectorysMatch() {
        // The index subrequest (and an ErrorDocument page) in the directory the walk cached
        // reuses that walk: sections matched against /sub/, not against index.html.
        let vhost = ["<Directory ~ \"\\.html$\">", "Header set X-C html-file", "</Directory>",
                     "<DirectoryMatch \"/$\">", "Header set X-D slash", "</DirectoryMatch>",
                     "<Directory /var/www/html/deny>", "ErrorDocument 403 /deny/x.html", "</Directory>"]
        let files = ["/sub/index.html", "/deny/x.html"]
        let index = respond("/sub/", vhost: vhost, files: files)
        #expect(index.final.uri == "/sub/index.html")
        #expect(value(index, "X-D") == "slash")
        #expect(value(index, "X-C") == nil)
        let denied = respond("/deny/", vhost: vhost, access: [("/deny", "Require all denied\n")], files: files)
        #expect(denied.status == 403)
        #expect(denied.served == "/deny/x.html")
    }
}
