import HtlintDiagnostics

/// `RewriteRule ^(.*)$ blog [L]`: every URL becomes the same target, the path is lost.
struct PathDropped: LintRule {
    let description = RuleDescription(
        id: "HT205", name: "captured-path-dropped", family: .semantics,
        summary: "the pattern captures the path but the substitution never uses it",
        rationale: """
        A catch-all such as `^(.*)$` that rewrites to a fixed target (`blog`, `/blog/`) sends every \
        deep link to the same page: `/2024/post` lands on the blog's front page. Use the capture \
        (`blog/$1`) — or, for a front controller that reads the path from `REQUEST_URI`, write \
        the pattern without a group (`^ index.php`).
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\nRewriteRule ↓^(.*)$ blog [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [L]"),
                        Example("RewriteEngine On\nRewriteRule ^ index.php [L]"),
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} ^/(.*)$\nRewriteRule ^ /new/%1 [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^(.*)$ - [F]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard !rule.isDash, rule.flags.statusOverride == nil, rule.regex.captureCount > 0, !rule.negated,
                  rule.usedCaptures.isEmpty, isCatchAll(rule.pattern) else { return nil }
            let usesCondition = rule.substitution.parts.contains { if case .conditionCapture = $0 { true } else { false } }
            let usesURI = rule.substitution.parts.contains {
                if case .variable(let v) = $0 { ["REQUEST_URI", "THE_REQUEST"].contains(v.uppercased()) } else { false }
            }
            guard !usesCondition, !usesURI else { return nil }
            return finding("`\(rule.pattern)` captures the path but `\(rule.rawSubstitution)` never uses `$1`: every URL goes to the same place",
                           at: rule.patternRange)
        }
    }
}
