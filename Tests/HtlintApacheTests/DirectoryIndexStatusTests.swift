import Testing
@testable import HtlintApache

// mod_dir remembers an index subrequest that answered other than 200/404 and returns it when
// no candidate is served (fixtures/apache/dirindex-forbidden-candidate).
struct DirectoryIndexStatusTests {
    static let denyIndex = "<Files index.html>\nRequire all denied\n</Files>"

    @Test func forbiddenOnlyCandidateIs403() {
        let r = respond("/g/", access: [("/g", "DirectoryIndex index.html\n" + Self.denyIndex)], files: ["/g/index.html"])
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH01630"])
        #expect(r.final.uri == "/g/")
        #expect(r.final.handler == "httpd/unix-directory")
    }

    @Test func nextCandidateIsServed() {
        let r = respond("/f/", access: [("/f", "DirectoryIndex index.html other.html\n" + Self.denyIndex)],
                        files: ["/f/index.html", "/f/other.html"])
        #expect(r.status == 200)
        #expect(r.served == "/f/other.html")
    }

    @Test func missingCandidatesStay404() {
        // With mod_autoindex (standard modules) and no `Options Indexes` it would be 403.
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/e/x")
        fs.addAccessFile("/e", displayPath: "/var/www/html/e/.htaccess", text: "DirectoryIndex index.html")
        let site = Site(serverName: "shop.example", files: fs, modules: AutoindexTests.without)
        let r = Origin(site: site).respond(to: OriginRequest(target: "/e/", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(r.status == 404)
    }
}

// ap_internal_fast_redirect overlays the index subrequest's environment on the main request
// (fixtures/apache/dirindex-subrequest-env-and-cookie).
struct DirectoryIndexEnvironmentTests {
    @Test func subrequestEnvironmentReachesHeader() {
        let access = "RewriteEngine On\nRewriteRule ^index\\.html$ - [E=IDX:1]\nHeader set X-I \"%{IDX}e\""
        let r = respond("/", access: [("/", access)], files: ["/index.html"])
        #expect(r.status == 200)
        #expect(r.headers.first { $0.name == "X-I" }?.value == "1")
    }
}
