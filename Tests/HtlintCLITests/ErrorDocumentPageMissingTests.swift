import Foundation
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

    /// Several lines name the same missing page: each URL's finding is on the line Apache used
    /// for it, the virtual host's for the root's URLs and `/blog/.htaccess`'s under /blog/
    /// (the first line in the files was reported once, for both).
    @Test func lineUsedForTheURL() throws {
        let scratch = try ScratchSite(files: ["index.html": "", "blog/index.html": "", "blog/.htaccess": "ErrorDocument 404 /404.html\n"],
                                      vhost: "ErrorDocument 404 /404.html\n")
        defer { scratch.remove() }
        let (site, vhost) = (scratch.site, scratch.vhost)
        let o = runCLI(["lint", "--format", "concise", "--only", "HT320", "--host", "shop.example", "--docroot", site.path, "--vhost", vhost.path])
        let found = o.stdout.split(separator: "\n").map(String.init)
        #expect(found == [
            "\(site.path)/blog/.htaccess:1:1: warning: http://shop.example/blog/no-such-page gets Apache's default 404 page instead of "
                + "`ErrorDocument 404 /404.html`: /404.html does not exist [HT320]",
            "\(vhost.path):1:1: warning: http://shop.example/no-such-page gets Apache's default 404 page instead of "
                + "`ErrorDocument 404 /404.html`: /404.html does not exist [HT320]",
        ], "\(found)")
    }
}
