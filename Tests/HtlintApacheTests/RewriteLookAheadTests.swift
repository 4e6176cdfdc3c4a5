import Testing
@testable import HtlintApache

// `%{LA-U:NAME}` / `%{LA-F:NAME}` read NAME from a look-ahead subrequest
// (fixtures/apache/rewrite-cond-la-*).
struct RewriteLookAheadTests {
    @Test func serverContextURLLookAheadRunsTheServerRules() {
        let vhost = ["RewriteEngine On",
                     "RewriteRule ^/la$ /show.html?u=%{LA-U:REQUEST_FILENAME}&r=%{LA-U:REQUEST_URI}&f=%{REQUEST_FILENAME} [L]"]
        let r = respond("/la", vhost: vhost, files: ["/show.html"])
        // Inside the subrequest the look-ahead is refused (same URI), so no nesting.
        #expect(r.final.query == "?u=/var/www/html/show.html&r=/la&f=/la")
        #expect(r.errorCodes.isEmpty)
    }

    @Test func perDirectoryURLLookAheadTakesTheFilenameAsAURL() {
        let access = "RewriteEngine On\nRewriteRule ^la$ show.html?u=%{LA-U:REQUEST_FILENAME} [L]"
        let r = respond("/la", access: [("/", access)], files: ["/show.html"])
        #expect(r.final.query == "?u=/var/www/html/var")
    }

    @Test func perDirectoryFileLookAheadRunsTheSameRules() {
        let access = "RewriteEngine On\nRewriteRule ^la$ show.html?f=%{LA-F:REQUEST_FILENAME} [L]"
        let r = respond("/la", access: [("/", access)], files: ["/show.html"])
        #expect(r.final.query == "?f=redirect:/show.html")
    }

    @Test func lookAheadInAConditionForAnUnrewrittenURL() {
        let vhost = ["RewriteEngine On", "RewriteCond %{LA-U:REQUEST_FILENAME} (.*)",
                     "RewriteRule ^/x\\.html$ /show.html?u=%1 [L]"]
        let r = respond("/x.html", vhost: vhost, files: ["/show.html", "/x.html"])
        #expect(r.final.query == "?u=/var/www/html/show.html")
    }
}
