import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// A `.htaccess` saved with a UTF-8 byte-order mark: Apache reads the mark as part of the first
/// directive's name and answers 500 (fixtures/apache/syntax-utf8-bom). HT110 keeps Apache's
/// message, explains the invisible mark and offers to remove it.
struct ByteOrderMarkTests {
    static func run(_ code: String) -> [Diagnostic] {
        Linter(rules: [rule(named: "HT110")!]).run(LintContext(htaccess: code))
    }

    @Test func markIsExplainedAndRemovable() throws {
        let code = "\u{FEFF}RewriteEngine On\nRewriteRule ^a$ /b [R=301,L]\n"
        let d = try #require(Self.run(code).first)
        #expect(d.message == "Invalid command '\\xef\\xbb\\xbfRewriteEngine', perhaps misspelled or defined by a module not included in the server configuration")
        #expect(d.range.start == 0)
        #expect(d.notes.map(\.message).first?.contains("byte-order mark (BOM)") == true)
        let edit = try #require(d.fixIts.first?.edits.first)
        #expect(d.fixIts.first?.applicability == .safe)
        var bytes = Array(code.utf8)
        bytes.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.replacement.utf8))
        let fixed = String(decoding: bytes, as: UTF8.self)
        #expect(fixed == "RewriteEngine On\nRewriteRule ^a$ /b [R=301,L]\n")
        #expect(Self.run(fixed).isEmpty)
    }

    @Test func misspellingGetsNoByteOrderMarkNote() throws {
        let d = try #require(Self.run("RewriteEngien On").first)
        #expect(d.notes.isEmpty)
        #expect(d.fixIts.isEmpty)
    }
}
