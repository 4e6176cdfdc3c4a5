import Testing
@testable import HtlintApache

// fixtures/apache/errordoc-rewrite-forbidden-recursion: an ErrorDocument page refused again by
// a server [F] is redirected to until the 11th internal redirect is refused (AH00124); the
// first request's 403 goes out with that request's headers.
struct ErrorDocumentRecursionTests {
    @Test func rewriteRefusedErrorPageEndsInAH00124() {
        let r = respond("/plain", vhost: ["RewriteEngine On", "RewriteRule \\.html$ - [F]", "ErrorDocument 403 /about.html",
                                          "<Files \"plain\">", "Require all denied", "</Files>"],
                        access: [("/", "Header always set X-Ht always\n")], files: ["/about.html", "/plain"])
        #expect(r.status == 403)
        #expect(r.recursionLimitExceeded)
        #expect(r.final.status == 500)
        #expect(r.final.uri == "/about.html")
        #expect(r.errorCodes == ["AH01630", "AH00124"])
        #expect(r.headers.contains { $0.name == "X-Ht" && $0.value == "always" })
    }
}

// fixtures/apache/access-ht-files-overridden-by-location: the server's `^\.ht` <FilesMatch>
// merges first among the <Files> sections; a later Require replaces its `all denied`.
struct HtFilesOverrideTests {
    @Test func locationGrantLetsAMissingHtmlNameAnswer404() {
        let vhost = ["<LocationMatch \"\\.html$\">", "Require all granted", "</LocationMatch>"]
        #expect(respond("/.html", vhost: vhost, files: ["/index.html"]).status == 404)
        #expect(respond("/.html", files: ["/index.html"]).status == 403)
    }

    @Test func vhostFilesGrantServesTheFile() {
        let r = respond("/.htpasswd", vhost: ["<Files \".htpasswd\">", "Require all granted", "</Files>"], files: ["/.htpasswd"])
        #expect(r.status == 200)
    }
}

// fixtures/apache/errordoc-url-after-fallback-recursion-limit: a FallbackResource look-up past
// the internal-redirect limit fails with 500; a full-URL ErrorDocument needs no internal
// redirect, so ap_die still answers 302 to it.
struct ErrorDocumentURLAfterRecursionLimitTests {
    @Test func fallbackPastTheLimitRedirectsToTheURL() {
        let htaccess = "ErrorDocument 500 https://shop.example/e500\nRewriteEngine On\n"
            + "RewriteCond %{REQUEST_URI} !^/blog/\nRewriteRule ^(.*)$ /blog/$1 [L]\nFallbackResource /index.html\n"
        let r = respond("/legacy", access: [("/", htaccess)], files: ["/index.html", "/blog/post.html"])
        #expect(r.recursionLimitExceeded)
        #expect(r.status == 302)
        #expect(r.location == "https://shop.example/e500")
    }
}

// fixtures/apache/errordoc-401-full-url-ignored: a full-URL ErrorDocument 401 is ignored when
// read, so the parent's local page stays; a value with a blank is text, never a URL.
struct ErrorDocument401URLTests {
    @Test func fullURLFor401IsIgnoredAndTextWithSchemeIsNoURL() {
        #expect(ConfigReader.isFullURL("https://shop.example/login"))
        #expect(ConfigReader.isFullURL("mailto:x"))
        #expect(!ConfigReader.isFullURL("http://not-a-url here"))
        #expect(!ConfigReader.isFullURL("/e401.html"))
        let auth = "AuthType Basic\nAuthName \"U\"\nAuthUserFile /var/www/html/.htpasswd\nRequire valid-user\n"
        var modules = ModuleSet.standard
        for m in ["auth_basic", "authn_core", "authn_file", "authz_user"] { modules.insert(m) }
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/e401.html", "/u/x.html", "/k/x.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: "ErrorDocument 401 /e401.html\n")
        fs.addAccessFile("/u", displayPath: "/var/www/html/u/.htaccess", text: auth + "ErrorDocument 401 https://shop.example/login\n")
        fs.addAccessFile("/k", displayPath: "/var/www/html/k/.htaccess", text: auth + "ErrorDocument 401 \"http://not-a-url here\"\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [], modules: modules))
        let u = respond(o, "/u/x.html")
        #expect(u.status == 401)
        #expect(u.served == "/e401.html")
        let k = respond(o, "/k/x.html")
        #expect(k.status == 401)
        #expect(k.location == nil)
    }
}

// fixtures/apache/rewrite-flags-cookie-control-character-header-always: the 500 that replaces
// a response with a control character in a header (AH02430) keeps `Header always` lines only.
struct RefusedHeaderFilterTests {
    @Test func headerAlwaysSurvivesTheRefusedHeader500() {
        let htaccess = "Header always set X-Robots-Tag noindex\nHeader set X-On yes\nRewriteEngine On\n"
            + "RewriteRule ^c/(.*)$ - [CO=v:$1:shop.example]\n"
        let r = respond("/c/a%0Ab", access: [("/", htaccess)], files: ["/page.html"])
        #expect(r.status == 500)
        #expect(r.errorCodes.contains("AH02430"))
        #expect(header(r, "X-Robots-Tag") == "noindex")
        #expect(header(r, "X-On") == nil)
        #expect(header(r, "Set-Cookie") == nil)
    }
}
