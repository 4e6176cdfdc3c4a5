import Testing
@testable import HtlintApache

// `[CO]` fields are split with apr_strtok, which skips empty fields: later fields move left
// (fixtures/apache/rewrite-flags-cookie-empty-*).
struct RewriteCookieFieldTests {
    func cookie(_ spec: String) -> String? {
        let r = respond("/c", access: [("/", "RewriteEngine On\nRewriteRule ^c$ show.html [CO=\(spec),L]")], files: ["/show.html"])
        return r.headers.first { $0.name == "Set-Cookie" }?.value
    }

    @Test func emptyDomainTakesTheNextField() {
        #expect(cookie("a:1::0:/") == "a=1; path=/; domain=0")
        #expect(cookie(";a;1;;0;/q") == "a=1; path=/; domain=0")
    }

    @Test func emptyLifetimeMakesThePathTheLifetime() {
        #expect(cookie("a:1:shop.example::/p") == "a=1; path=/; domain=shop.example")
    }

    @Test func emptyValueLeavesNoDomain() {
        #expect(cookie("a::shop.example") == nil)
    }
}
