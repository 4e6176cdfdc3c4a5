import Testing
@testable import HtlintApache

private func linkedSite(vhost: [String], access: [(String, String)] = []) -> Origin {
    var fs = SiteFileSystem(root: "/var/www/html")
    for f in ["/index.html", "/page.html", "/sub/index.html", "/sub/a.html"] { fs.addFile(f) }
    fs.addSymlink("/link", target: "sub")
    fs.addSymlink("/lnk.html", target: "page.html")
    for (dir, text) in access {
        fs.addAccessFile(dir, displayPath: "/var/www/html\(dir)/.htaccess", text: text)
    }
    return Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
}

private func get(_ origin: Origin, _ target: String) -> OriginResponse {
    origin.respond(to: OriginRequest(method: "GET", target: target, headers: [HTTPHeader("Host", "shop.example")]))
}

// fixtures/apache/section-symlinked-directory-htaccess, access-symlink-without-followsymlinks.
struct SymlinkWalkTests {
    @Test func linkedDirectoryReadsTheTargetsHtaccess() {
        let origin = linkedSite(vhost: [], access: [("/sub", "DirectorySlash Off\nDirectoryIndex a.html\n")])
        // DirectorySlash Off from sub/.htaccess: no 301 to /link/.
        #expect(get(origin, "/link").location == nil)
        // The directory itself without its slash: Debian's mod_autoindex without `Indexes` refuses
        // it (the recording, without mod_autoindex, answered 404).
        #expect(get(origin, "/link").status == 403)
        let r = get(origin, "/link/")
        #expect(r.status == 200)
        #expect(r.final.uri == "/link/a.html")
    }

    @Test func linkedDirectoryUsesTheLinksAllowOverride() {
        let origin = linkedSite(vhost: ["<Directory /var/www/html/sub>", "AllowOverride FileInfo", "</Directory>"],
                                access: [("/sub", "DirectorySlash Off\n")])
        #expect(get(origin, "/sub/a.html").status == 500)
        #expect(get(origin, "/link/a.html").status == 200)
    }

    /// A directory below a link reads its target's `.htaccess` only where the path walked allows
    /// it: `AllowOverride None` on the link's path leaves `sub/inner/.htaccess` unread there.
    @Test func aDirectoryBelowALinkKeepsTheLinkPathsAllowOverride() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/sub/inner/a.html")
        fs.addSymlink("/link", target: "sub")
        fs.addAccessFile("/sub/inner", displayPath: "sub/inner/.htaccess", text: "Require all denied\n")
        let origin = Origin(site: Site(serverName: "shop.example", files: fs,
                                       vhostLines: ["<Directory /var/www/html/link>", "AllowOverride None", "</Directory>"]))
        #expect(get(origin, "/sub/inner/a.html").status == 403)
        #expect(get(origin, "/link/inner/a.html").status == 200)
    }

    @Test func linksAreRefusedWithoutFollowSymLinks() {
        let origin = linkedSite(vhost: ["<Directory /var/www/html>", "Options -FollowSymLinks", "</Directory>"])
        for target in ["/link", "/link/a.html", "/lnk.html"] {
            let r = get(origin, target)
            #expect(r.status == 403, "\(target)")
            #expect(r.errorCodes == ["AH00037"], "\(target)")
        }
        #expect(get(origin, "/link/a.html").final.filename == "/link")
        #expect(get(origin, "/page.html").status == 200)
    }
}

// ErrorDocument in <Location>/<Files> (fixtures/apache/errordoc-location-and-files-sections).
struct SectionErrorDocumentTests {
    @Test func locationErrorDocumentServesTheMissingFile() {
        let r = respond("/sub/missing.html", vhost: ["<Location \"/sub\">", "ErrorDocument 404 /about.html", "</Location>"],
                        files: ["/about.html", "/sub/a.html"])
        #expect(r.status == 404)
        #expect(r.final.uri == "/about.html")
    }

    @Test func filesErrorDocumentForPathInfo() {
        let r = respond("/news/", vhost: ["<Files \"news\">", "ErrorDocument 404 /e404.html", "</Files>"],
                        files: ["/news", "/e404.html"])
        #expect(r.status == 404)
        #expect(r.final.uri == "/e404.html")
    }
}
