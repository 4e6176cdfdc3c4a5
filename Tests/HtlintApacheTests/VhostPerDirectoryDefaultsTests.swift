import Testing
@testable import HtlintApache

// Per-directory directives at vhost level are the defaults every <Directory> and .htaccess
// merges onto (fixtures/apache/dirindex-vhost-level*, fallback-vhost-level, dirslash-vhost-level-off,
// alias-redirect-relative-vhost).
struct VhostPerDirectoryDefaultsTests {
    @Test func directoryIndexReplacesTheServerDefault() {
        let files = ["/index.html", "/start.html", "/x/index.html"]
        let root = respond("/", vhost: ["DirectoryIndex start.html"], files: files)
        #expect(root.status == 200)
        #expect(root.final.filename == "/start.html")
        // No index: the standard modules include mod_autoindex, which answers 403 without
        // `Options Indexes` (404 when it is not loaded, as in the recordings).
        #expect(respond("/x/", vhost: ["DirectoryIndex start.html"], files: files).status == 403)
    }

    @Test func directoryBlockAndHtaccessStillOverrideIt() {
        let vhost = ["<Directory /var/www/html/d>", "DirectoryIndex home.html", "</Directory>", "DirectoryIndex start.html"]
        let files = ["/d/home.html", "/d/k/home.html", "/d/k/main.html"]
        #expect(respond("/d/", vhost: vhost, files: files).final.filename == "/d/home.html")
        #expect(respond("/d/k/", vhost: vhost, access: [("/d/k", "DirectoryIndex main.html")], files: files)
            .final.filename == "/d/k/main.html")
    }

    @Test func fallbackResource() {
        let r = respond("/missing", vhost: ["FallbackResource /fc.html"], files: ["/fc.html"])
        #expect(r.status == 200)
        #expect(r.final.filename == "/fc.html")
    }

    @Test func directorySlashOff() {
        let r = respond("/d", vhost: ["DirectorySlash Off"], files: ["/d/index.html"])
        #expect(r.status == 403)   // mod_autoindex (standard modules), no Indexes: AH01276
        #expect(r.errorCodes == ["AH01276"])
        #expect(r.location == nil)
    }

    @Test func redirectRelativeKeepsAVhostRedirectPathAsWritten() {
        let on = respond("/a", vhost: ["RedirectRelative On", "Redirect 302 /a /x.html"], files: ["/x.html"])
        #expect(on.status == 302)
        #expect(on.location == "/x.html")
        // Inside <Directory> it cannot reach a vhost Redirect: translate_name runs before the walk.
        let inDir = respond("/a", vhost: ["<Directory /var/www/html>", "RedirectRelative On", "</Directory>",
                                          "Redirect 302 /a /x.html"], files: ["/x.html"])
        #expect(inDir.location == "http://shop.example/x.html")
        // <Location> is merged before translate_name, so it does (alias-redirect-relative-location).
        let inLocation = respond("/a", vhost: ["<Location /a>", "RedirectRelative On", "</Location>",
                                               "Redirect 302 /a /x.html"], files: ["/x.html"])
        #expect(inLocation.location == "/x.html")
    }
}
