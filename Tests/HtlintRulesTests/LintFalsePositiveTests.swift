import Testing
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Severities and messages the rule examples cannot show (they check codes and positions).
struct LintFalsePositiveTests {
    static func run(_ id: String, _ code: String, edge: String? = nil) -> [Diagnostic] {
        let context = LintContext(htaccess: code, edge: edge.flatMap(Edge.init(name:)) ?? Edge(mode: .none))
        return Linter(rules: [rule(named: id)!]).run(context)
    }

    /// Behind Cloudflare Full with Always Use HTTPS, SERVER_PORT is always 443: the rule is defence in depth, a note.
    @Test func edgeOnlyDeadConditionIsANote() {
        let found = Self.run("HT215", "RewriteEngine On\nRewriteCond %{SERVER_PORT} ^80$\nRewriteRule ^(.*)$ https://%{SERVER_NAME}/$1 [R,L]",
                             edge: "cloudflare-full+always-https")
        #expect(found.count == 1)
        #expect(found.first?.severity == .note)
        #expect(found.first?.message.contains("redundant behind the cloudflare-full edge") == true)
    }

    /// Two exact hosts that cannot both hold stay a warning.
    @Test func contradictionStaysAWarning() {
        let found = Self.run("HT215", "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^a\\.example$\nRewriteCond %{HTTP_HOST} ^b\\.example$\nRewriteRule ^ /x [R,L]")
        #expect(found.map(\.severity) == [.warning])
    }

    /// `ErrorDocument 404 "custom text` — Apache answers normally: a warning.
    @Test func unterminatedQuoteIsAWarning() {
        let found = Self.run("HT103", "ErrorDocument 404 \"custom text\n")
        #expect(found.map(\.severity) == [.warning])
    }

    /// HT303 names ErrorDocument as the producer and points at it, not at line 1:1.
    @Test func downgradeByErrorDocumentNamesIt() {
        let found = Self.run("HT303", "RewriteEngine On\nErrorDocument 404 http://example.com/nf.html\nRewriteRule ^missing$ /nothere.html [L]\n")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.message.contains("`ErrorDocument` with a full URL") && !$0.message.contains("DirectorySlash") })
        #expect(found.allSatisfy { $0.range.start == 17 })
    }
}
