import HtlintDiagnostics

/// In `.htaccess` the pattern never sees a leading slash.
struct LeadingSlashPattern: LintRule {
    let description = RuleDescription(
        id: "HT209", name: "leading-slash-in-htaccess-pattern", family: .semantics,
        summary: "a `.htaccess` pattern anchored on `^/` never matches",
        rationale: """
        In per-directory context the directory prefix is stripped before matching: `/old` is \
        matched as `old` (apache-semantics §4.6). `^/old` never matches there. Write `^old`, or `^/?old` \
        for rules shared with the server configuration.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ↓^/old$ /new [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^/?old$ /new [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard rule.pattern.hasPrefix("^/"), !rule.pattern.hasPrefix("^/?"), !rule.pattern.hasPrefix("^/*"),
                      !rule.negated else { return nil }
                var fixes: [FixIt] = []
                let raw = Array(file.text(rule.patternRange).utf8)
                if let caret = raw.firstIndex(of: UInt8(ascii: "^")), caret + 1 < raw.count, raw[caret + 1] == UInt8(ascii: "/") {
                    let at = rule.patternRange.start + caret + 1
                    fixes.append(FixIt(title: "Remove the leading slash",
                                       edits: [TextEdit(range: SourceRange(file: rule.patternRange.file, start: at, end: at + 1),
                                                        replacement: "")],
                                       applicability: .safe))
                }
                return finding("`\(rule.pattern)` never matches in .htaccess: the path is matched without its leading slash",
                               at: rule.patternRange, fixes: fixes)
            }
        }
    }
}
