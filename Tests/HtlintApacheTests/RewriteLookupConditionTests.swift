import Testing
@testable import HtlintApache

// `RewriteCond … -U` / `-F` run a look-up subrequest and read its status
// (fixtures/apache/rewrite-cond-U-lookup-*, rewrite-cond-F-lookup-denied-directory).
struct RewriteLookupConditionTests {
    static func rules(_ cond: String, _ pattern: String = "^u/(.*)$") -> String {
        "RewriteEngine On\nRewriteCond \(cond)\nRewriteRule \(pattern) show.html?yes [L]\nRewriteRule \(pattern) show.html?no [L]"
    }

    @Test func goneTargetIsFalse() {
        let r = respond("/u", access: [("/", "Redirect gone /g\n" + Self.rules("/g -U", "^u$"))], files: ["/show.html"])
        #expect(r.final.query == "?no")
    }

    @Test func missingFileIsTrueDeniedFileFalse() {
        let access = "<Files secret.html>\nRequire all denied\n</Files>\n" + Self.rules("/$1 -U")
        let files = ["/show.html", "/secret.html"]
        #expect(respond("/u/missing.html", access: [("/", access)], files: files).final.query == "?yes")
        let denied = respond("/u/secret.html", access: [("/", access)], files: files)
        #expect(denied.final.query == "?no")
        #expect(denied.errorCodes == ["AH01630"])
    }

    @Test func forbiddingRuleIsFalse() {
        let access = "RewriteEngine On\nRewriteRule ^blocked$ - [F]\n" + Self.rules("/$1 -U").dropFirst("RewriteEngine On\n".count)
        #expect(respond("/u/blocked", access: [("/", access)], files: ["/show.html"]).final.query == "?no")
    }

    @Test func temporaryRedirectIsTrue() {
        let r = respond("/u/old", access: [("/", "Redirect /old /show.html\n" + Self.rules("/$1 -U"))], files: ["/show.html"])
        #expect(r.final.query == "?yes")
    }

    @Test func fileLookupNeedsAccessAndAFile() {
        let access = "<Files secret.html>\nRequire all denied\n</Files>\n" + Self.rules("%{DOCUMENT_ROOT}/$1 -F", "^f/(.*)$")
        let files = ["/show.html", "/secret.html", "/ok.html", "/docs/index.html"]
        #expect(respond("/f/ok.html", access: [("/", access)], files: files).final.query == "?yes")
        #expect(respond("/f/secret.html", access: [("/", access)], files: files).final.query == "?no")
        // The directory look-up gets mod_dir's 301 (no trailing slash).
        #expect(respond("/f/docs", access: [("/", access)], files: files).final.query == "?no")
        #expect(respond("/f/none.html", access: [("/", access)], files: files).final.query == "?no")
    }

    @Test func directoryWithItsSlashRunsItsOwnRulesInTheLookup() {
        // fixtures/apache/rewrite-cond-lookup-file-directory-slash-runs-rules: with DirectorySlash
        // Off mod_dir lets the look-up of `guarded/` through, but its [F] rule answers 403.
        let access = Self.rules("%{DOCUMENT_ROOT}/$1/ -F", "^f/(.*)$")
        let files = ["/show.html", "/guarded/x.html", "/open/x.html"]
        let dirs = [("/guarded", "DirectorySlash Off\nRewriteEngine On\nRewriteRule ^$ - [F]"), ("/open", "DirectorySlash Off")]
        #expect(respond("/f/guarded", access: [("/", access)] + dirs, files: files).final.query == "?no")
        #expect(respond("/f/open", access: [("/", access)] + dirs, files: files).final.query == "?yes")
        #expect(Origin.fileLookupPath("/var/www/html/open//") == "/var/www/html/open/")
        #expect(Origin.fileLookupPath("/var/www/html/open") == "/var/www/html/open")
        // fixtures/apache/rewrite-cond-lookup-file-double-slash-same-directory
        #expect(Origin.fileLookupPath("/var/www/html//index.html") == "/var/www/html/index.html")
        #expect(Origin.fileLookupPath("/var/www/html/none/./../sub/index.html") == "/var/www/html/sub/index.html")
    }

    @Test func doubleSlashAfterADirectoryIsTheFileBesideIt() {
        // fixtures/apache/rewrite-cond-lookup-file-double-slash-same-directory
        let access = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME}/index.html -F\nRewriteRule ^(.*)$ /show.html?dir=$1 [L]\n"
        let r = respond("/sub/", access: [("/", access)], files: ["/show.html", "/sub/index.html"])
        #expect(r.final.query == "?dir=sub/")
    }

    @Test func relativeLookupEscapesTheDirectoryAgain() {
        // fixtures/apache/rewrite-cond-lookup-uri-relative-escaped-directory: `/c%25d/` is
        // `/c%d/` decoded; the look-up's URL is `/c%25d/a.html`, no bad escape.
        let vhost = ["RewriteEngine On", "RewriteCond ../a.html -U", "RewriteRule ^/s/(.*)/x$ /show.html?server=$1 [L]"]
        let r = respond("/s/c%25d/x", vhost: vhost, files: ["/show.html"])
        #expect(r.final.query == "?server=c%d")
    }

    @Test func lookupOfTheSameURIDoesNotNest() {
        // Inside the subrequest for /x the condition is false (subreq_ok), so no AH00125.
        let r = respond("/x", access: [("/", Self.rules("%{REQUEST_URI} -U", "^x$"))], files: ["/show.html"])
        #expect(r.final.query == "?yes")
        #expect(r.errorCodes.isEmpty)
    }

    @Test func lookupsPastTheNestingLimitOnlyFailTheirCondition() {
        // fixtures/apache/rewrite-cond-lookup-nesting-limit-fails-condition: each look-up runs
        // the rules again, ten levels deep; the 6,144 look-ups past the limit fail (AH00125)
        // without costing work, so the budget lasts and Apache's 404 for b.php is reached.
        let access = """
            RewriteEngine On
            RewriteCond %{DOCUMENT_ROOT}/blog/ -U
            RewriteCond %{DOCUMENT_ROOT}/blog/ -F
            RewriteRule ^(.*)$ - [G,NC,QSD]
            RewriteCond /blog/ !-U [OR]
            RewriteRule ^(.*)$ b.php?from=%{REQUEST_URI} [QSD]
            """
        let r = respond("/user/abc", access: [("/", access)], files: ["/index.html"])
        #expect(r.status == 404)
        #expect(r.errorCodes.count == 6144 && r.errorCodes.allSatisfy { $0 == "AH00125" })
    }
}
