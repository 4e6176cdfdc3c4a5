import Testing
@testable import HtlintApache

/// Order/Allow/Deny and Require are merged separately (fixtures/apache/access-compat-inherited-below-require).
struct AccessCompatMergeTests {
    let root = "SetEnvIf X-K ^yes$ LETIN\nOrder deny,allow\nDeny from all\nAllow from env=LETIN\n"
    let files = ["/a.html", "/sub/a.html", "/sub/deep/a.html", "/open/a.html"]

    @Test func requireBelowDoesNotLiftAnInheritedDeny() {
        let access = [("/", root), ("/sub", "Require all granted\n"), ("/open", "Order allow,deny\nAllow from all\n")]
        #expect(respond("/sub/a.html", access: access, files: files).status == 403)
        #expect(respond("/sub/deep/a.html", access: access, files: files).status == 403)
        #expect(respond("/open/a.html", access: access, files: files).status == 200)
    }

    @Test func allowFromEnvTestsTheEnvironment() {
        #expect(respond("/a.html", access: [("/", root)], files: files).status == 403)
        #expect(respond("/a.html", access: [("/", root)], files: files, headers: [HTTPHeader("X-K", "yes")]).status == 200)
        let negated = "SetEnvIf X-K ^yes$ KEEPOUT\nOrder allow,deny\nAllow from env=!KEEPOUT\n"
        #expect(respond("/a.html", access: [("/", negated)], files: files, headers: [HTTPHeader("X-K", "yes")]).status == 403)
        #expect(respond("/a.html", access: [("/", negated)], files: files).status == 200)
    }
}
