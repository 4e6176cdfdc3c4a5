import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 23 (mod_rewrite in virtual-host context and
/// sections with `.htaccess` files at two levels); every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt23RegressionTests {
    /// fixtures/apache/rewrite-base-vhost-mergebase-drops-merged-base: the `.htaccess` files
    /// merge among themselves before the virtual host's defaults; sub's own RewriteBase is
    /// merged there without MergeBase, so the vhost's MergeBase drops it and the document root
    /// is stripped instead (a redirect keeps the filesystem path). The root file alone keeps its base.
    @Test func vhostMergeBaseDropsABaseMergedWithoutIt() {
        let vhost = ["RewriteOptions MergeBase"]
        let access = [("/", "RewriteEngine On\nRewriteBase /pb/\nRewriteRule ^x$ y.html [L]\n"),
                      ("/sub", "RewriteEngine On\nRewriteBase /sb/\nRewriteRule ^x$ y.html [L]\nRewriteRule ^r$ y.html [R=302,L]\n")]
        let files = ["/sub/y.html", "/pb/y.html", "/sb/y.html"]
        #expect(respond("/x", vhost: vhost, access: access, files: files).served == "/pb/y.html")
        let x = respond("/sub/x", vhost: vhost, access: access, files: files)
        #expect(x.served == "/sub/y.html")
        #expect(x.original.filename == "redirect:/sub/y.html")
        let r = respond("/sub/r", vhost: vhost, access: access, files: files)
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/var/www/html/sub/y.html")
    }

    /// fixtures/apache/rewrite-base-mergebase-dropped-after-plain-merge: the root `.htaccess`'s
    /// RewriteBase /b/ merged over `<Directory>`'s /a/ without MergeBase is not "set", so
    /// MergeBase in sub/.htaccess inherits no base: the document root is stripped.
    @Test func mergeBaseIgnoresABaseMergedWithoutIt() {
        let vhost = ["<Directory ${DOCROOT}>", "RewriteBase /a/", "</Directory>"]
        let access = [("/", "RewriteBase /b/\n"),
                      ("/sub", "RewriteEngine On\nRewriteOptions MergeBase\nRewriteRule ^x$ y.html [L]\nRewriteRule ^r$ y.html [R=302,L]\n")]
        let files = ["/sub/y.html", "/a/y.html", "/b/y.html"]
        #expect(respond("/sub/x", vhost: vhost, access: access, files: files).served == "/sub/y.html")
        #expect(respond("/sub/r", vhost: vhost, access: access, files: files).location
                == "http://shop.example/var/www/html/sub/y.html")
        // Without the <Directory> base the root file's base is the first one, set: MergeBase keeps it.
        #expect(respond("/sub/x", vhost: [], access: access, files: files).served == "/b/y.html")
    }

    /// fixtures/apache/section-location-rewriteengine-off-server-rules: hook_uri2file checks the
    /// engine the location walk merged, so `RewriteEngine Off` in `<Location /sub>` turns the
    /// virtual host's rules off there and only there.
    @Test func locationEngineOffStopsTheServerRules() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/sub/(.*)$ /y.html [R=302,L]", "RewriteRule ^/old$ /y.html [R=302,L]",
                     "<Location /sub>", "RewriteEngine Off", "</Location>"]
        let files = ["/y.html", "/sub/x.html"]
        #expect(respond("/old", vhost: vhost, access: [], files: files).location == "http://shop.example/y.html")
        let x = respond("/sub/x.html", vhost: vhost, access: [], files: files)
        #expect(x.status == 200)
        #expect(x.served == "/sub/x.html")
        #expect(respond("/sub/nothing", vhost: vhost, access: [], files: files).status == 404)
    }

    /// fixtures/apache/section-location-rewriteengine-on-server-rules: the virtual host's rules
    /// without `RewriteEngine On` run where a `<Location>` turns the engine on.
    @Test func locationEngineOnRunsTheServerRules() {
        let vhost = ["RewriteRule ^/on/(.*)$ /y.html [R=302,L]", "RewriteRule ^/old$ /y.html [R=302,L]",
                     "<Location /on>", "RewriteEngine On", "</Location>"]
        let files = ["/y.html", "/on/x.html"]
        #expect(respond("/old", vhost: vhost, access: [], files: files).status == 404)
        let on = respond("/on/x.html", vhost: vhost, access: [], files: files)
        #expect(on.status == 302)
        #expect(on.location == "http://shop.example/y.html")
    }

    /// fixtures/apache/section-files-rewrite-directory-is-the-pattern: a `<Files>` section's
    /// rules have the section's pattern plus a slash as per-directory prefix, which a relative
    /// substitution gets: y.html/z.html (no leading slash: 400), ^w\.html$/z.html in a redirect.
    @Test func filesSectionRulesArePrefixedWithThePattern() {
        let vhost = ["<Files y.html>", "RewriteEngine On", "RewriteRule ^/var/www/html/(a)/ z.html [L]", "</Files>",
                     "<FilesMatch ^w\\.html$>", "RewriteEngine On", "RewriteRule ^ z.html [R=302,L]", "</FilesMatch>"]
        let files = ["/a/y.html", "/a/w.html", "/z.html"]
        let y = respond("/a/y.html", vhost: vhost, access: [], files: files)
        #expect(y.status == 400)
        #expect(y.final.filename == "y.html/z.html")
        #expect(respond("/a/w.html", vhost: vhost, access: [], files: files).location
                == "http://shop.example/%5ew%5c.html$/z.html")
    }

    /// fixtures/apache/rewrite-base-absolute-path-outside-directory: with a RewriteBase, a
    /// filesystem path under the document root but outside the directory loses the root and its
    /// slash; the internal redirect to `a/y.html` fails ap_normalize_path: 400, AH10244.
    @Test func baseLeavesAFilesystemPathOutsideTheDirectoryWithoutItsSlash() {
        let vhost = ["<Directory ${DOCROOT}/sub>", "RewriteEngine On", "RewriteBase /a/",
                     "RewriteRule q$ ${DOCROOT}/a/y.html [L]", "RewriteRule r$ y.html [L]",
                     "RewriteRule s$ /sub/y.html [L]", "</Directory>"]
        let files = ["/a/y.html", "/sub/y.html"]
        let q = respond("/sub/q", vhost: vhost, access: [], files: files)
        #expect(q.status == 400)
        #expect(q.final.uri == "a/y.html")
        #expect(q.original.filename == "redirect:a/y.html")
        #expect(q.errorCodes == ["AH10244"])
        #expect(respond("/sub/r", vhost: vhost, access: [], files: files).served == "/a/y.html")
        #expect(respond("/sub/s", vhost: vhost, access: [], files: files).served == "/sub/y.html")
    }
}
