import Testing
@testable import HtlintApache

// When a `.htaccess` cannot be read Apache never installs the walk's per-directory
// configuration, so the 500 uses the virtual host's ErrorDocument only (recorded in
// fixtures/apache/syntax-error-errordoc-500-*).
struct BrokenHtaccessErrorDocumentTests {
    static func respond(_ target: String, vhost: [String], access: [(String, String)], files: [String]) -> OriginResponse {
        respondOnSite(target, vhost: vhost, access: access, files: files)
    }

    @Test func vhostPageServedWithStatus500() {
        // The vhost's own <Directory> ErrorDocument is not installed either.
        let vhost = ["ErrorDocument 500 /ok/e500.html", "<Directory ${DOCROOT}/c>", "ErrorDocument 500 /ok/d500.html", "</Directory>"]
        let r = Self.respond("/c/x", vhost: vhost, access: [("/c", "Bogus directive")],
                             files: ["/c/x", "/ok/e500.html", "/ok/d500.html"])
        #expect(r.status == 500)
        #expect(r.served == "/ok/e500.html")
        #expect(r.final.uri == "/ok/e500.html")
        #expect(r.original.filename == "/c/")
    }

    @Test func fiveHundredCarriesOnlyTheVirtualHostsHeaders() {
        // fixtures/apache/syntax-error-500-vhost-headers-only
        let vhost = ["Header always set X-V vhost", "<Directory ${DOCROOT}>", "Header always set X-D dir", "</Directory>"]
        let access = [("/", "Header always set X-Parent parent"), ("/bad", "Bogus")]
        let r = Self.respond("/bad/b.html", vhost: vhost, access: access, files: ["/bad/b.html"])
        #expect(r.status == 500)
        #expect(r.combinedHeader("X-V") == "vhost")
        #expect(r.combinedHeader("X-D") == nil)
        #expect(r.combinedHeader("X-Parent") == nil)
    }

    @Test func parentHtaccessErrorDocumentIsNotUsed() {
        let access = [("/d", "ErrorDocument 500 /ok/d500.html"), ("/d/e", "Bogus")]
        let files = ["/ok/e500.html", "/ok/d500.html"]
        let withVhost = Self.respond("/d/e/x", vhost: ["ErrorDocument 500 /ok/e500.html"], access: access, files: files)
        #expect(withVhost.status == 500)
        #expect(withVhost.served == "/ok/e500.html")
        let without = Self.respond("/d/e/x", vhost: [], access: access, files: files)
        #expect(without.status == 500)
        #expect(without.served == nil)
        #expect(without.final.uri == "/d/e/x")
        #expect(without.internalRedirects == 0)
    }

    @Test func errorPageBelowTheBrokenFileFailsToo() {
        let r = Self.respond("/x", vhost: ["ErrorDocument 500 /e500.html"], access: [("/", "Bogus directive")],
                             files: ["/e500.html"])
        #expect(r.status == 500)
        #expect(r.served == nil)
        #expect(r.final.uri == "/e500.html")
        #expect(r.final.filename == "/")
        // The broken file is reported for the request and again for its error page.
        #expect(r.errors.count == 2)
        #expect(r.errors.allSatisfy { $0.hasPrefix("alert: ") && $0.contains("Invalid command 'Bogus'") })
    }
}
