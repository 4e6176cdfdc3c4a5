import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT322 when the site has its own 404 page: the `ErrorDocument` page is served (with 404), the
/// rewrite's target is still missing, and the finding names the target, not the page.
struct RewriteToMissingFileTests {
    static let rules = "RewriteEngine On\nRewriteRule ^app\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . /app.php [L]\n"

    static func messages(_ htaccess: String, pages: [String: String] = [:]) -> [String] {
        Linter(rules: [RewriteToMissingFile()]).run(LintContext(htaccess: htaccess, pages: pages)).map(\.message)
    }

    @Test func withoutErrorDocument() {
        #expect(Self.messages(Self.rules) == [
            "http://example.com/x is rewritten to /app.php, which the site does not have: the URLs this rule catches answer 404 (and 7 more probe requests)"])
    }

    @Test func siteErrorPageServedForTheMissingTarget() {
        let found = Self.messages("ErrorDocument 404 /404.html\n" + Self.rules, pages: ["/404.html": "<p>Not found</p>"])
        #expect(found == ["http://example.com/x is rewritten to /app.php, which the site does not have: the URLs this rule catches answer 404 "
                          + "(with the `ErrorDocument 404` page /404.html) (and 11 more probe requests)"], "\(found)")
    }

    /// The page missing too: the rewrite is still the cause (HT320 reports the page).
    @Test func siteErrorPageMissingToo() {
        let found = Self.messages("ErrorDocument 404 /404.html\n" + Self.rules)
        #expect(found == ["http://example.com/x is rewritten to /app.php, which the site does not have: the URLs this rule catches answer 404 "
                          + "(with the `ErrorDocument 404` page /404.html) (and 11 more probe requests)"], "\(found)")
    }

    /// The target exists: the 404 page answers only for what the script does not serve.
    @Test func existingTargetIsNotReported() {
        #expect(Self.messages("ErrorDocument 404 /404.html\n" + Self.rules, pages: ["/404.html": "x", "/app.php": "<?php"]).isEmpty)
    }
}
