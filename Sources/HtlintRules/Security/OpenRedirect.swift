import HtlintDiagnostics

/// A redirect whose destination host comes from the request.
struct OpenRedirect: LintRule {
    let description = RuleDescription(
        id: "HT402", name: "open-redirect", family: .security,
        summary: "a redirect whose destination is taken from the request (path or query)",
        rationale: """
        `RewriteRule ^go/(.*)$ $1 [R]` or a target built from `%{QUERY_STRING}` lets anyone make your \
        site redirect to any other site — a favourite of phishing links. Restrict the destination to \
        your own hosts (a literal `https://example.com/` prefix) or use a map of allowed targets.
        """,
        severity: .error,
        triggering: [Example("RewriteRule ^go/(.*)$ ↓$1 [R=302,L]"),
                     Example("RewriteCond %{QUERY_STRING} ^url=(.+)$\nRewriteRule ^out$ ↓%1 [R,L]"),
                     Example("RewriteRule ^go/(.*)$ ↓https://$1 [R=302,L]")],
        nonTriggering: [Example("RewriteRule ^go/(.*)$ https://example.com/$1 [R=302,L]"),
                        Example("RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard rule.redirects || rule.targetsURL else { return nil }
            var parts = rule.substitution.parts[...]
            // Skip a literal scheme (`https://`): what follows is the host.
            if case .literal(let s)? = parts.first {
                let lower = s.lowercased()
                if lower == "http://" || lower == "https://" || lower == "//" { parts = parts.dropFirst() }
                else { return nil }   // literal host or path: the destination is fixed
            }
            guard let first = parts.first else { return nil }
            switch first {
            case .ruleCapture, .conditionCapture: break
            case .variable(let v) where v.uppercased() == "QUERY_STRING": break
            default: return nil
            }
            return finding("the redirect destination `\(rule.rawSubstitution)` comes from the request: an open redirect",
                           at: rule.substitutionRange)
        }
    }
}
