import HtlintDiagnostics
@testable import HtlintRules

/// Findings of one rule on a root `.htaccess` of the in-memory example site.
func findings(of id: String, in htaccess: String) -> [Diagnostic] {
    Linter(rules: [rule(named: id)!]).run(LintContext(htaccess: htaccess))
}

/// Line and column of a finding's start in `text`.
func position(in text: String, _ d: Diagnostic) -> SourcePosition {
    SourceFile(path: "", text: text).lines.position(of: d.range.start)
}
