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
