import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 26 (generated mod_rewrite configurations in
/// `.htaccess`, virtual-host and `<Directory>` context); every expected value was recorded
/// from Apache 2.4 (the fixtures named on each test).
struct Hunt26RegressionTests {
    func respond(_ target: String, vhost: [String], access: [(String, String)], files: [String],
                 headers: [HTTPHeader] = []) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
        }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
    }

    /// fixtures/apache/rewrite-server-dot-segments: directory_walk canonicalises a server-context
    /// result with apr_filepath_merge; `/..` exists (it is `/`), so `/../a.html` is a filesystem path.
    @Test func serverSubstitutionDotSegments() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/s1$ ./b.html [L]", "RewriteRule ^/s2$ /../a.html [L]",
                     "RewriteRule ^/s7$ /dir/nothing/../x.html [L]"]
        let files = ["/a.html", "/b.html", "/dir/x.html"]
        let s1 = respond("/s1", vhost: vhost, access: [], files: files)
        #expect(s1.served == "/b.html")
        #expect(s1.final.filename == "/b.html")
        let s2 = respond("/s2", vhost: vhost, access: [], files: files)
        #expect(s2.status == 403)
        #expect(s2.final.filename == "/a.html")
        #expect(respond("/s7", vhost: vhost, access: [], files: files).served == "/dir/x.html")
    }
}
