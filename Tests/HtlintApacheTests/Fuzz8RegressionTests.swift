import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-8 random differential fuzz; every expected value was
/// recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz8RegressionTests {
    func respond(_ files: [String], _ access: [String: String], _ target: String) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            let path = dir == "/" ? ".htaccess" : String(dir.dropFirst()) + "/.htaccess"
            fs.addAccessFile(dir, file: SourceFile(path: path, bytes: Array(text.utf8)))
        }
        return Origin(site: Site(serverName: "shop.example", files: fs))
            .respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    /// fixtures/apache/fallback-relative-name: `FallbackResource index.php` is looked up
    /// relative to the request's directory (ap_sub_req_lookup_uri).
    @Test func relativeFallbackResolvesAgainstTheRequestDirectory() {
        let files = ["/app/index.php", "/page.html", "/shop/index.php"]
        let access = ["/": "FallbackResource index.php\n"]
        let r = respond(files, access, "/app/x?q=1")
        #expect(r.status == 200)
        #expect(r.served == "/app/index.php")
        #expect(respond(files, access, "/missing").status == 500)
    }

    /// fixtures/apache/nested-options-inherited-inherit: a configuration without
    /// RewriteOptions keeps its parent's (config_perdir_merge), so InheritBefore carries down.
    @Test func rewriteOptionsAreInheritedByAChildWithoutThem() {
        let files = ["/page.html", "/blog/page.html"]
        let access = [
            "/": "RewriteEngine On\nRewriteOptions InheritBefore\nRewriteRule ^old$ /page.html [R=301,L]\n",
            "/blog": "RewriteEngine On\nRewriteRule ^page$ page.html [L]\n",
            "/blog/x": "RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^page$ /page.html [R=302,L]\n",
        ]
        let r = respond(files, access, "/blog/x/old")
        #expect(r.status == 301)
        #expect(r.location == "http://shop.example/page.html")
        #expect(respond(files, access, "/blog/old").status == 301)
    }
}
