import Testing
@testable import HtlintApache

// Vhost <Location>, <LocationMatch>, <Files> and <If> merge over the directory walk in Apache's
// order (Directory/.htaccess, Files, Location, If); a one-argument Redirect in <Location>/<If>
// answers in translate_name (fixtures/apache/section-*).
struct VhostSectionTests {
    @Test func locationRequireDeniesPathAndBelowOnly() {
        let vhost = ["<Location /private>", "Require all denied", "</Location>"]
        let files = ["/private/a.html", "/privateer.html"]
        let denied = respond("/private/a.html", vhost: vhost, files: files)
        #expect(denied.status == 403)
        #expect(denied.errorCodes == ["AH01630"])
        #expect(respond("/privateer.html", vhost: vhost, files: files).status == 200)
    }

    @Test func accessIsCheckedBeforeHtaccessRewrite() {
        let r = respond("/secret/x", vhost: ["<Location /secret>", "Require all denied", "</Location>"],
                        access: [("/", "RewriteEngine On\nRewriteRule ^secret open.html [L]")], files: ["/open.html"])
        #expect(r.status == 403)
        #expect(r.final.filename == "/secret")
    }

    @Test func locationMatchIsRewalkedAfterInternalRedirect() {
        let r = respond("/go", vhost: ["<LocationMatch ^/private/>", "Require all denied", "</LocationMatch>"],
                        access: [("/", "RewriteEngine On\nRewriteRule ^go$ private/a.html [L]")],
                        files: ["/private/a.html"])
        #expect(r.status == 403)
        #expect(r.final.uri == "/private/a.html")
    }

    @Test func locationMergesAfterDirectory() {
        let r = respond("/lk/a.html", vhost: ["<Directory /var/www/html/lk>", "Require all denied", "</Directory>",
                                              "<Location /lk>", "Require all granted", "</Location>"],
                        files: ["/lk/a.html"])
        #expect(r.status == 200)
        #expect(r.served == "/lk/a.html")
    }

    @Test func locationRedirectAnswersBeforeFilename() {
        let vhost = ["<Location /old>", "Redirect 301 /new.html", "</Location>"]
        let r = respond("/old/x?q=1", vhost: vhost, files: ["/new.html"])
        #expect(r.status == 301)
        #expect(r.location == "http://shop.example/new.html?q=1")
        #expect(r.final.filename == nil)
        #expect(respond("/oldish", vhost: vhost).status == 404)
    }

    @Test func wildcardLocationStarStaysInSegment() {
        let vhost = ["<Location /d*/deep>", "Redirect 302 /new.html", "</Location>"]
        #expect(respond("/dir/deep", vhost: vhost).status == 302)
        #expect(respond("/dir/sub/deep", vhost: vhost).status == 404)
    }

    @Test func vhostFilesAppliesThroughRewrite() {
        let r = respond("/go", vhost: ["<Files secret.html>", "Require all denied", "</Files>"],
                        access: [("/", "RewriteEngine On\nRewriteRule ^go$ secret.html [L]")],
                        files: ["/secret.html"])
        #expect(r.status == 403)
        #expect(r.final.filename == "/secret.html")
    }

    @Test func vhostIfRedirect() {
        let vhost = ["<If \"%{HTTP:X-Go} == '1'\">", "Redirect 302 /t.html", "</If>"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a")
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        let r = origin.respond(to: OriginRequest(method: "GET", target: "/a",
                                                 headers: [HTTPHeader("Host", "shop.example"), HTTPHeader("X-Go", "1")]))
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/t.html")
        #expect(r.final.filename == nil)
        #expect(respond("/a", vhost: vhost, files: ["/a"]).status == 200)
    }

    @Test func oneArgumentRedirectIsValidInSectionsOnly() {
        let inSection = Site(serverName: "s", files: SiteFileSystem(root: "/var/www/html"),
                             vhostLines: ["<Location /a>", "Redirect 301 /b", "</Location>"])
        #expect(inSection.vhost.fatal == nil)
        let atTop = Site(serverName: "s", files: SiteFileSystem(root: "/var/www/html"), vhostLines: ["Redirect 301 /b"])
        #expect(atTop.vhost.fatal?.message == "URL to redirect to is missing")
    }

    @Test func locationPrefixMatching() {
        #expect(locationMatches(.prefix("/old"), "/old"))
        #expect(locationMatches(.prefix("/old"), "/old/x"))
        #expect(!locationMatches(.prefix("/old"), "/oldish"))
        #expect(locationMatches(.prefix("/old/"), "/old/x"))
        #expect(!locationMatches(.prefix("/old/"), "/old"))
    }
}
