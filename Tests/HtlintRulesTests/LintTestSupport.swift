import HtlintDiagnostics
@testable import HtlintRules

/// Findings of one rule on a `.htaccess` of the in-memory example site: the root's, or with
/// `parent` the one of `/sub/` below that root file.
func findings(of id: String, in htaccess: String, parent: String? = nil) -> [Diagnostic] {
    let r = rule(named: id)!
    return Linter(rules: [r], configuration: LintConfiguration(enabling: [r.description])).run(LintContext(htaccess: htaccess, parent: parent))
}

/// Line and column of a finding's start in `text`.
func position(in text: String, _ d: Diagnostic) -> SourcePosition {
    SourceFile(path: "", text: text).lines.position(of: d.range.start)
}
