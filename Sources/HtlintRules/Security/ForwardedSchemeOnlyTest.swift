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
        `Require ip` of the proxy's ranges), which is the fix. A note, not a warning: the client \
        who skips the redirect only exposes its own request, and the header test is the standard \
        way to see the visitor's scheme behind a proxy. AND-ing `%{HTTPS}` to it does not help \
        (the forged header still skips the redirect); an `[OR]` with the connection's own scheme \
        (`%{HTTPS}`, `%{SERVER_PORT}`, `%{REQUEST_SCHEME}`) or a condition on the client address \
        (`%{REMOTE_ADDR}`) is not reported.
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
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteCond %{HTTPS} !=on
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
        ],
        nonTriggering: [
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
            let conditions = rule.conditions
            let forwarded = conditions.filter { $0.variables.contains(where: ForwardedHeaders.isForwarded(variable:)) }
            // The connection's own scheme protects only in an [OR] group (AND-ed, the forged
            // header still skips the redirect); a test of the client address always does.
            let orGrouped = conditions.indices.filter { i in conditions[i].orNext || (i > 0 && conditions[i - 1].orNext) }
            let connectionInOr = orGrouped.contains { !ForwardedHeaders.connectionVariables.isDisjoint(with: conditions[$0].variables) }
            let address = conditions.contains { !ForwardedHeaders.addressVariables.isDisjoint(with: $0.variables) }
            guard !forwarded.isEmpty, !connectionInOr, !address else { return [] }
            return forwarded.map { c in
                finding("the https redirect trusts `\(c.rawTestString)`, which a client reaching the origin directly can "
                        + "send to skip it; safe only when the origin accepts connections from the proxy alone", at: c.range)
            }
        }
    }
}
