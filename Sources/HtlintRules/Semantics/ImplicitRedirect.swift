import HtlintDiagnostics

/// An absolute URL substitution without `[R]` becomes an implicit 302.
struct ImplicitRedirect: LintRule {
    let description = RuleDescription(
        id: "HT204", name: "implicit-redirect", family: .semantics,
        summary: "a substitution to an absolute URL without `[R=…]` redirects with an implicit 302",
        rationale: """
        Unless scheme, host and port name this very virtual host — and with the usual `ServerName` \
        without a port they never do — an absolute URL in the substitution is an external redirect \
        with status 302 (apache-semantics §4.8). State the status: `[R=301,L]` for a permanent move.
        """,
        severity: .warning,
        triggering: [Example("RewriteRule ^old$ ↓https://example.com/new [L]")],
        nonTriggering: [Example("RewriteRule ^old$ https://example.com/new [R=301,L]"),
                        Example("RewriteRule ^old$ /new [L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard rule.targetsURL, rule.flags.redirect == nil, !rule.flags.proxy else { return nil }
            return finding("`\(rule.rawSubstitution)` redirects with an implicit 302", at: rule.substitutionRange,
                           fixes: [rule.addingFlags("R=302", title: "Add `R=302` to make the status explicit")])
        }
    }
}
