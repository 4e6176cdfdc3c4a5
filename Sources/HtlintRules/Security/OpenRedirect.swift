import HtlintApache
import HtlintDiagnostics

/// A redirect whose destination host comes from the request.
struct OpenRedirect: LintRule {
    let description = RuleDescription(
        id: "HT402", name: "open-redirect", family: .security,
        summary: "a redirect whose destination is taken from the request (path or query)",
        rationale: """
        A target built from `%{QUERY_STRING}` (`RewriteRule ^out$ %1 [R]` after a condition on the \
        query) or a host taken from the path (`https://$1`) lets anyone make your \
        site redirect to any other site — a favourite of phishing links. Restrict the destination to \
        your own hosts (a literal `https://example.com/` prefix) or use a map of allowed targets.
        """,
        severity: .error,
        triggering: [Example("RewriteRule ^out$ ↓%{QUERY_STRING} [R=302,L]"),
                     Example("RewriteCond %{QUERY_STRING} ^url=(.+)$\nRewriteRule ^out$ ↓%1 [R,L]"),
                     Example("RewriteRule ^go/(.*)$ ↓https://$1 [R=302,L]")],
        nonTriggering: [Example("RewriteRule ^go/(.*)$ https://example.com/$1 [R=302,L]"),
                        Example("RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^(.*)$ https://%1/$1 [R=301,L]"),
                        Example("RewriteCond %{REQUEST_URI} (.+)/$\nRewriteRule ^ %1 [L,R=301]"),
                        Example("RewriteRule ^([a-z]+/)?wp-admin$ $1wp-admin/ [R=301,L]")])

    /// Variables whose value a visitor chooses freely (the path is not among them: Apache
    /// prefixes or fully qualifies a path, so it cannot name another host).
    static let untrusted: Set<String> = ["QUERY_STRING", "THE_REQUEST", "HTTP_REFERER", "HTTP_USER_AGENT", "HTTP_COOKIE"]
    /// Host variables: reflecting them is host canonicalisation, not an open redirect.
    static let hostVariables: Set<String> = ["HTTP_HOST", "SERVER_NAME", "HTTP:HOST"]

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard rule.redirects || rule.targetsURL else { return nil }
            var parts = rule.substitution.parts[...]
            var afterScheme = false
            // Skip a literal scheme (`https://`): what follows is the host.
            if case .literal(let s)? = parts.first {
                if equalsIgnoringASCIICase(s, "http://") || equalsIgnoringASCIICase(s, "https://") || s == "//" {
                    parts = parts.dropFirst(); afterScheme = true
                }
                else { return nil }   // literal host or path: the destination is fixed
            }
            guard let first = parts.first else { return nil }
            // Variables of the last regex condition, which is where `%N` comes from.
            let conditionSource = rule.conditions.last { if case .regex = $0.test { !$0.negated } else { false } }?.variables ?? []
            switch first {
            case .ruleCapture:
                // A path capture names a host only after a literal scheme.
                guard afterScheme else { return nil }
            case .conditionCapture:
                if conditionSource.contains(where: Self.hostVariables.contains) { return nil }
                guard afterScheme || conditionSource.contains(where: { Self.untrusted.contains($0) || $0.hasPrefix("HTTP:") }) else { return nil }
            case .variable(let v):
                let name = v.uppercased()
                if Self.hostVariables.contains(name) { return nil }
                guard Self.untrusted.contains(name) || name.hasPrefix("HTTP:") else { return nil }
            default:
                return nil
            }
            return finding("the redirect destination `\(rule.rawSubstitution)` comes from the request: an open redirect",
                           at: rule.substitutionRange)
        }
    }
}
