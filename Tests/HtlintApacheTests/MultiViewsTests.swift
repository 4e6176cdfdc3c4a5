import Testing
@testable import HtlintApache

/// mod_negotiation's MultiViews, as recorded in fixtures/apache/negotiation-multiviews-variants.
struct MultiViewsTests {
    func respond(_ target: String, _ files: [(String, Int)], htaccess: String = "Options +MultiViews\n",
                 method: String = "GET", headers: [HTTPHeader] = []) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for (path, size) in files { fs.addFile(path, size: size) }
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: htaccess)
        return Origin(site: Site(serverName: "shop.example", files: fs))
            .respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
    }

    @Test func theSmallestKnownVariantWinsWithoutAnAcceptHeader() {
        #expect(respond("/b", [("/b.html", 13), ("/b.txt", 3)]).served == "/b.txt")
        #expect(respond("/a", [("/a.html", 6), ("/a.txt", 13)]).served == "/a.html")
        // No `php` in Debian's mime.types: never a variant (MultiviewsMatch NegotiatedOnly).
        #expect(respond("/d", [("/d.html", 6), ("/d.php", 1)]).served == "/d.html")
        #expect(respond("/e", [("/e.html.bak", 5)]).served == "/e.html.bak")
    }

    /// fixtures/apache/negotiation-vary-only-with-variants.
    @Test func varyOnlyWithVariantsAndAnEscapedContentLocation() {
        let vary = { (r: OriginResponse) in r.headers.first { $0.name == "Vary" }?.value }
        #expect(vary(respond("/wp-login", [("/wp-login.php", 1)])) == nil)
        #expect(vary(respond("/nothing", [("/other.txt", 1)])) == nil)
        let page = respond("/my%20page", [("/my page.html", 1)])
        #expect(vary(page) == "negotiate")
        #expect(page.headers.first { $0.name == "Content-Location" }?.value == "my%20page.html")
    }

    @Test func acceptQualityComesBeforeSize() {
        let files = [("/b.html", 13), ("/b.txt", 3)]
        #expect(respond("/b", files, headers: [HTTPHeader("Accept", "text/html,*/*;q=0.8")]).served == "/b.html")
        // Variants, none acceptable: 406 (fixtures/apache/negotiation-vary-content-location-406).
        #expect(respond("/b", files, headers: [HTTPHeader("Accept", "image/png")]).status == 406)
    }

    @Test func onlyAMissingFileInAnExistingDirectoryIsNegotiated() {
        #expect(respond("/A", [("/a.html", 6)]).status == 404)
        #expect(respond("/a.", [("/a.html", 6)]).status == 404)
        #expect(respond("/a", [("/a.html", 6)], htaccess: "Options -MultiViews\n").status == 404)
        let withPathInfo = respond("/a/extra", [("/a.html", 6)])
        #expect(withPathInfo.status == 404)
        #expect(withPathInfo.final.uri == "/a.html/extra")
    }

    @Test func itRunsBeforeTheDirectorysRewrites() {
        let wordpress = "Options +MultiViews\nRewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . /index.php [L]\nRewriteRule ^doc$ about.html [L]\n"
        let files = [("/index.php", 1), ("/about.html", 1), ("/doc.txt", 1)]
        #expect(respond("/about", files, htaccess: wordpress).served == "/about.html")
        #expect(respond("/doc", files, htaccess: wordpress).served == "/doc.txt")
        #expect(respond("/missing", files, htaccess: wordpress).served == "/index.php")
        // `login.php` has no type on Debian: a match none can serve is a 404 before any rewrite.
        let login = respond("/login", files + [("/login.php", 1)], htaccess: wordpress)
        #expect(login.status == 404)
        #expect(login.errorCodes == ["AH00687"])
    }

    @Test func aVariantItsOwnAccessCheckRefusesIsSkipped() {
        let guarded = "Options +MultiViews\n<Files \"*.bak\">\nRequire all denied\n</Files>\n"
        #expect(respond("/e", [("/e.html.bak", 5), ("/e.txt", 9)], htaccess: guarded).served == "/e.txt")
        let refused = respond("/e", [("/e.html.bak", 5)], htaccess: guarded)
        #expect(refused.status == 404)
        #expect(refused.errorCodes == ["AH01630", "AH00687"])
    }
}
