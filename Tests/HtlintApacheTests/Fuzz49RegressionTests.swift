import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Fuzz 49: seeds 4870–4899 against Apache 2.4.
struct Fuzz49RegressionTests {
    private let access = [("/", """
        <If "req('') == 'x'">
        </If>
        <Files "two.html">
        <If "req('') . req('') == 'x'">
        </If>
        </Files>
        """)]

    private func varyLines(_ target: String) -> [String] {
        respond(target, access: access, files: ["/index.html", "/page.html", "/two.html"])
            .headers.filter { $0.name == "Vary" }.map(\.value)
    }

    /// fixtures/apache/header-expression-vary-empty-names-lines-behind-edge: the index
    /// subrequest's Vary line and the request's stay two lines (apr_table_overlay), while the
    /// evaluations of one request merge into its first line.
    @Test func fastRedirectKeepsVaryLinesApart() {
        #expect(varyLines("/") == ["", ""])
        #expect(varyLines("/page.html") == [""])
        #expect(varyLines("/two.html") == [", , "])
    }
}
