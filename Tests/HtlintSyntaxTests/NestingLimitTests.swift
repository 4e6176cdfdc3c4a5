import Testing
import HtlintDiagnostics
@testable import HtlintSyntax

/// Section nesting is bounded (issue 9): every consumer of the tree walks it recursively, and
/// 1,000 nested sections already overflowed the stack of a debug build.
struct NestingLimitTests {
    func nested(_ depth: Int, closed: Bool = true) -> String {
        String(repeating: "<IfModule mod_rewrite.c>\n", count: depth) + "RewriteEngine On\n"
            + (closed ? String(repeating: "</IfModule>\n", count: depth) : "")
    }

    func depth(_ nodes: [ConfigNode]) -> Int {
        var d = 0
        var level = nodes
        while let s = level.compactMap({ if case .section(let s) = $0 { s } else { nil } }).first {
            d += 1
            level = s.children
        }
        return d
    }

    @Test func atTheLimitNothingIsReported() {
        let tree = parse(nested(Parser.sectionNestingLimit))
        #expect(tree.diagnostics.isEmpty)
        #expect(depth(tree.nodes) == Parser.sectionNestingLimit)
    }

    @Test func beyondTheLimitOneErrorAtTheFirstDeeperSection() {
        let tree = parse(nested(10_000))
        #expect(tree.diagnostics.map(\.code) == [SyntaxCode.section])
        #expect(tree.file.lines.position(of: tree.diagnostics[0].range.start).line == Parser.sectionNestingLimit + 1)
        #expect(depth(tree.nodes) == Parser.sectionNestingLimit)
        // The directive inside is kept (in the deepest section read), and the closers of the
        // skipped sections are consumed without "without matching" errors.
        let after = parse(nested(200) + "RewriteRule ^a$ /b [L]\n")
        #expect(after.diagnostics.count == 1)
        #expect(after.nodes.count == 2)
    }

    @Test func unclosedDeepSectionsStayBounded() {
        let tree = parse(nested(10_000, closed: false))
        #expect(tree.diagnostics.map(\.code) == [SyntaxCode.section])
        #expect(depth(tree.nodes) == Parser.sectionNestingLimit)
    }
}
