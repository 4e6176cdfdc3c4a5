import Testing
@testable import HtlintApache

// A vhost Redirect answers in translate_name, before any filename is set: `%f` logs nothing,
// unless server rewrite rules ran and declined, which leaves the URI there
// (fixtures/apache/alias-redirect-vhost-filename, alias-redirect-server-context).
struct VhostRedirectFilenameTests {
    @Test func noFilenameWithoutServerRules() {
        let r = respond("/a/x", vhost: ["Alias /a /var/www/html/real", "Redirect 302 /a/x /show.html"],
                        files: ["/show.html", "/real/x"])
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/show.html")
        #expect(r.final.filename == nil)
    }

    /// fixtures/apache/alias-redirect-vhost-engine-on-no-rules: the engine alone runs the hook.
    @Test func uriWhenTheServerEngineIsOnWithoutRules() {
        let r = respond("/b", vhost: ["RewriteEngine On", "RedirectMatch 301 ^/(.*)$ https://shop.example/$1"], files: ["/show.html"])
        #expect(r.status == 301)
        #expect(r.location == "https://shop.example/b")
        #expect(r.final.filename == "/b")
    }

    @Test func uriWhenServerRulesDeclined() {
        let r = respond("/b", vhost: ["RewriteEngine On", "RewriteRule ^/nomatch /x [R,L]", "Redirect 301 /b /show.html"],
                        files: ["/show.html"])
        #expect(r.status == 301)
        #expect(r.final.filename == "/b")
    }

    /// fixtures/apache/vhost-pt-then-server-redirect: [PT] leaves `passthrough:` in r->filename.
    @Test func passThroughPrefixWhenAPTRuleFedTheRedirect() {
        let r = respond("/main", vhost: ["RewriteEngine On", "RewriteRule ^/main$ /main.html [PT]", "Redirect / https://www.shop.example/"],
                        files: ["/main.html"])
        #expect(r.location == "https://www.shop.example/main.html")
        #expect(r.final.filename == "passthrough:/main.html")
    }
}
