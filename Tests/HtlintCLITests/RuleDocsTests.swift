import Foundation
import Testing
import HtlintRules
@testable import HtlintCLI

/// docs/rules/ holds the same pages as `htlint rules CODE`; regenerate with HTLINT_RECORD=1.
struct RuleDocsTests {
    static let docs = packageRoot + "/docs/rules"

    @Test("docs/rules page matches the rule", arguments: builtInRules.map(\.description.id))
    func page(_ id: String) throws {
        let d = rule(named: id)!.description
        let path = Self.docs + "/\(id).md"
        let expected = RulePage.markdown(d)
        if ProcessInfo.processInfo.environment["HTLINT_RECORD"] != nil || !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: Self.docs, withIntermediateDirectories: true)
            try expected.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded docs/rules/\(id).md")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    }

    @Test func indexListsEveryRule() throws {
        let path = Self.docs + "/README.md"
        var index = "# Rules\n\n| code | name | severity | what it flags |\n|---|---|---|---|\n"
        for r in builtInRules {
            let d = r.description
            index += "| [\(d.id)](\(d.id).md) | `\(d.name)` | \(d.severity.rawValue)\(d.optIn ? ", opt-in" : "") | \(d.summary.replacingOccurrences(of: "|", with: "\\|")) |\n"
        }
        if ProcessInfo.processInfo.environment["HTLINT_RECORD"] != nil || !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: Self.docs, withIntermediateDirectories: true)
            try index.write(toFile: path, atomically: true, encoding: .utf8)
            Issue.record("recorded docs/rules/README.md")
            return
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == index)
    }
}
