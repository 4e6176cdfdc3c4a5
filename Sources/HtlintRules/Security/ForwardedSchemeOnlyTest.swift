import HtlintApache
import HtlintDiagnostics

/// The https redirect decided by `X-Forwarded-Proto` (or `CF-Visitor`, …) alone.
struct ForwardedSchemeOnlyTest: LintRule {
    let description = RuleDescription(
        id: "HT407", name: "forwarded-scheme-only-https-test", family: .security,
        summary: "an https redirect that tests only `X-Forwarded-Proto` (or `CF-Visitor`, `X-Forwarded-SSL`), a header any client can send",
        rationale: """
        Behind a proxy that ends TLS, `%{HTTP:X-Forwarded-Proto}` is how the origin learns the \
        visitor's scheme, and the proxy overwrites what the client sent. But Apache reads the \
        header from whoever connects: a client that reaches the origin directly (its address is \
        rarely secret) sends `X-Forwarded-Proto: https` over plain http and is never redirected. \
        This is only safe when the origin accepts connections from the proxy alone (firewall, \
        `Require ip` of the proxy's ranges). A note, not a warning: the client who skips the \
        redirect only exposes its own request, and the header test is the standard fix behind a \
        proxy. Add `RewriteCond %{HTTPS} !=on` (the connection's own scheme) to the block, or \
        restrict the origin to the proxy. Not reported when the conditions also test `%{HTTPS}`, \
        `%{SERVER_PORT}`, `%{REQUEST_SCHEME}` or `%{REMOTE_ADDR}`.
        """,
        severity: .note,
        triggering: [
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:CF-Visitor} '"scheme":"http"'
                RewriteRule ^(.*)$ https://example.com/$1 [R=301,L]
                """),
        ],
        nonTriggering: [
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteCond %{HTTPS} !=on
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} off [OR]
                RewriteCond %{HTTP:X-Forwarded-Proto} =http
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                RewriteCond %{REMOTE_ADDR} ^10\\.
                RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap(\.rules).flatMap { rule -> [Diagnostic] in
            guard rule.redirects || (rule.targetsURL && !rule.flags.proxy),
                  rule.rawSubstitution.lowercased().hasPrefix("https://") else { return [] }
            let forwarded = rule.conditions.filter { $0.variables.contains(where: ForwardedHeaders.isForwarded(variable:)) }
            let others = Set(rule.conditions.flatMap(\.variables))
            guard !forwarded.isEmpty, others.isDisjoint(with: ForwardedHeaders.connectionVariables),
                  others.isDisjoint(with: ForwardedHeaders.addressVariables) else { return [] }
            return forwarded.map { c in
                finding("the https redirect trusts `\(c.rawTestString)`, which a client reaching the origin directly can "
                        + "send to skip it; safe only when the origin accepts connections from the proxy alone", at: c.range)
            }
        }
    }
}
