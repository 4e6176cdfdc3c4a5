import Testing
@testable import HtlintCLI

/// HT320 on sites recorded from Apache: errordoc-403-page-same-config (the page exists; it is
/// served for a denied file of the root, refused again for the root's directory URLs and under
/// `locked/.htaccess`, whose page is missing) and errordoc-missing-page-logged-status.
struct ErrorDocumentPageMissingTests {
    static func lint(_ fixture: String, host: String = "shop.example") -> [String] {
        let o = runCLI(["lint", "--format", "concise", "--only", "HT320", "--host", host, "fixtures/apache/\(fixture)/site"])
        return o.stdout.split(separator: "\n").map(String.init)
    }

    @Test func pageThatExistsButIsDeniedAgain() {
        let found = Self.lint("errordoc-403-page-same-config")
        #expect(found == [
            "fixtures/apache/errordoc-403-page-same-config/site/.htaccess:2:1: warning: http://shop.example/err gets Apache's default 403 page "
                + "instead of `ErrorDocument 403 /e403.html`: /e403.html answers an error itself there [HT320]",
            "fixtures/apache/errordoc-403-page-same-config/site/locked/.htaccess:2:1: warning: http://shop.example/locked gets Apache's default "
                + "403 page instead of `ErrorDocument 403 /err/e403.html`: /err/e403.html answers an error itself there [HT320]",
        ], "\(found)")
    }

    @Test func missingPage() {
        #expect(Self.lint("errordoc-missing-page-logged-status") == [
            "fixtures/apache/errordoc-missing-page-logged-status/site/.htaccess:1:1: warning: http://shop.example/ gets Apache's default 403 "
                + "page instead of `ErrorDocument 403 /missing.html`: /missing.html does not exist [HT320]",
        ])
    }
}
