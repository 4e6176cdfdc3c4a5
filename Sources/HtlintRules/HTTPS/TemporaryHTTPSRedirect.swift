import HtlintDiagnostics

/// The move to https is permanent; a 302 keeps browsers and search engines on http.
struct TemporaryHTTPSRedirect: LintRule {
    let description = RuleDescription(
        id: "HT304", name: "temporary-https-redirect", family: .https,
        summary: "an http→https redirect with a temporary status (302)",
        rationale: """
        `[R]` alone is a 302. For the move to https that is almost never meant: search engines keep \
        the http URL, and browsers do not remember the redirect. Use `[R=301]` once the site works \
        over https (308 if POST bodies must survive).
        """,
        severity: .warning,
        triggering: [Example("RewriteCond %{HTTPS} off\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 ↓[R,L]")],
        nonTriggering: [Example("RewriteCond %{HTTPS} off\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        let schemeSignals = ["HTTPS", "SERVER_PORT", "REQUEST_SCHEME", "HTTP:X-FORWARDED-PROTO", "HTTP:CF-VISITOR", "ENV:HTTPS"]
        return context.files.flatMap { $0.rules }.compactMap { rule in
            guard rule.flags.redirect == 302, rule.rawSubstitution.lowercased().hasPrefix("https://"),
                  rule.testedVariables.contains(where: schemeSignals.contains) else { return nil }
            return finding("the https redirect is temporary (302)", at: rule.flagsRange ?? rule.substitutionRange)
        }
    }
}
