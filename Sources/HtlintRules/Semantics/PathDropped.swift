import HtlintApache
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
        the pattern without a group (`^ index.php`). An internal rewrite to a script \
        (`index.php`, `app.cgi`) is taken for such a front controller and not reported.
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\nRewriteRule ↓^(.*)$ blog [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [L]"),
                        Example("RewriteEngine On\nRewriteRule ^ index.php [L]"),
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} ^/(.*)$\nRewriteRule ^ /new/%1 [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^(.*)$ - [F]"),
                        // A front controller reads the path from REQUEST_URI itself.
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*)$ index.php [L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard !rule.isDash, rule.flags.statusOverride == nil, rule.regex.captureCount > 0, !rule.negated,
                  rule.usedCaptures.isEmpty, isCatchAll(rule.pattern) else { return nil }
            let usesCondition = rule.substitution.parts.contains { if case .conditionCapture = $0 { true } else { false } }
            let usesURI = rule.substitution.parts.contains {
                if case .variable(let v) = $0 { ["REQUEST_URI", "THE_REQUEST"].contains(v.uppercased()) } else { false }
            }
            guard !usesCondition, !usesURI, !Self.isFrontController(rule) else { return nil }
            return finding("`\(rule.pattern)` captures the path but `\(rule.rawSubstitution)` never uses `$1`: every URL goes to the same place",
                           at: rule.patternRange)
        }
    }

    /// An internal rewrite to a script (`index.php`, `/app.php?x=1`): the script reads the
    /// original path from `REQUEST_URI`, so the unused group loses nothing.
    static func isFrontController(_ rule: RewriteRule) -> Bool {
        guard !rule.redirects else { return false }
        let path = rule.rawSubstitution.prefix { $0 != "?" }.lowercased()
        return [".php", ".cgi", ".fcgi", ".pl", ".py", ".jsp", ".asp", ".aspx"].contains { path.hasSuffix($0) }
    }
}
