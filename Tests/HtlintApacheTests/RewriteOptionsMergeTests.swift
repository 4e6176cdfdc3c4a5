import Testing
@testable import HtlintApache

// config_perdir_merge decides inheritance on the merged options: a child .htaccess with rules
// but no RewriteOptions keeps the parent's Inherit (fixtures/apache/nested-rewriteoptions-inherited-by-child).
struct RewriteOptionsMergeTests {
    private let access = [
        ("/", "RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^(.*/)?(a|b)$ /page.html?from=root [R=302,L]\n"),
        ("/sub", "RewriteEngine On\nRewriteRule ^a$ /about.html?from=sub [R=302,L]\n"),
    ]

    @Test func childWithoutOptionsInheritsTheParentsInherit() {
        let files = ["/page.html", "/about.html", "/sub/index.html"]
        #expect(respond("/sub/a", access: access, files: files).location == "http://shop.example/about.html?from=sub")
        #expect(respond("/sub/b", access: access, files: files).location == "http://shop.example/page.html?from=root")
    }

    @Test func childOptionsReplaceTheParents() {
        let own = [access[0], ("/sub", "RewriteEngine On\nRewriteOptions AllowNoSlash\nRewriteRule ^a$ /about.html [R=302,L]\n")]
        #expect(respond("/sub/b", access: own, files: ["/page.html", "/sub/index.html"]).status == 404)
    }
}
