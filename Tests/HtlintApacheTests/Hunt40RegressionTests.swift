import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Hunt 40: mod_rewrite across contexts (options, maps, flags, mod_alias/mod_dir), each
/// checked against Apache 2.4.
struct Hunt40RegressionTests {
    func errors(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    /// `RewriteMap` with one word (or four): Apache 2.4's TAKE23 usage text is "a mapname and a
    /// filename and options" (apache2 -t), not the older "optional DBM type".
    @Test func rewriteMapArgumentCount() {
        for line in ["RewriteMap x", "RewriteMap a int:tolower b c"] {
            let read = ConfigReader.read(SourceFile(path: "site.conf", text: line), context: .server)
            #expect(errors(read.diagnostics) == ["RewriteMap takes two or three arguments, a mapname and a filename and options"])
        }
    }
}
