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
        (`%{REMOTE_ADDR}`) is not reported. The same holds for `<If "%{HTTP:X-Forwarded-Proto} != 'https'">` \
        (or its `<Else>`) around a `Redirect`, `RedirectMatch` or `RewriteRule` to `https://`, reported at \
        the `<If>`; an `||` with the connection's scheme or a `-R`/`-ipmatch`/`%{REMOTE_ADDR}` test \
        (in it or in an enclosing `<If>`) is not reported.
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
            Example("""
                ↓<If "%{HTTP:X-Forwarded-Proto} != 'https'">
                Redirect 301 / https://example.com/
                </If>
                """),
            Example("""
                ↓<If "req('X-Forwarded-Proto') == 'https'">
                Header always set Strict-Transport-Security "max-age=31536000"
                </If>
                <Else>
                RedirectMatch 301 ^/(.*)$ https://example.com/$1
                </Else>
                """),
        ],
        nonTriggering: [
            Example("""
                <If "%{HTTP:X-Forwarded-Proto} != 'https' && -R '203.0.113.0/24'">
                Redirect 301 / https://example.com/
                </If>
                """),
            Example("""
                <If "%{HTTP:X-Forwarded-Proto} != 'https' || %{HTTPS} != 'on'">
                Redirect 301 / https://example.com/
                </If>
                """),
            Example("""
                <If "%{HTTP:X-Forwarded-Proto} == 'https'">
                Header always set Strict-Transport-Security "max-age=31536000"
                </If>
                """),
            Example("""
                RewriteEngine On
                RewriteCond %{REMOTE_ADDR} ^10\\.
                RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        rewriteFindings(context) + context.files.flatMap(ifFindings)
    }

    /// `<If "%{HTTP:X-Forwarded-Proto} != 'https'">` (or its `<Else>`) around a `Redirect`,
    /// `RedirectMatch` or redirecting `RewriteRule` to `https://`: the same test as a `RewriteCond`.
    private func ifFindings(_ file: LintFile) -> [Diagnostic] {
        var reported = Set<SourceRange>()
        return IfBranchContext.all(in: file.config.block).compactMap { branch -> Diagnostic? in
            guard let test = branch.forwardedTest, Self.redirectsToHTTPS(branch.block),
                  reported.insert(test.range).inserted else { return nil }
            let opening = file.section(at: test.range)?.openRange ?? SourceRange(file: test.range.file, start: test.range.start, end: test.range.start)
            return finding("the https redirect trusts the `\(test.header)` header tested by this `<If>`, which a client reaching the origin "
                           + "directly can send to skip it; safe only when the origin accepts connections from the proxy alone", at: opening)
        }
    }

    /// Whether a block redirects to an `https://` URL: a `Redirect*` with a 3xx status, or a
    /// `RewriteRule` whose own conditions do not already test a forwarded header (those are
    /// reported at the condition).
    static func redirectsToHTTPS(_ block: ConfigBlock) -> Bool {
        block.redirects.contains { r in
            (300...399).contains(r.status) && r.target.map { hasPrefixIgnoringASCIICase($0, "https://") } == true
        } || (block.rewrite?.rules ?? []).contains { rule in
            (rule.redirects || (rule.targetsURL && !rule.flags.proxy)) && hasPrefixIgnoringASCIICase(rule.rawSubstitution, "https://")
                && !rule.conditions.contains { $0.variables.contains(where: ForwardedHeaders.isForwarded(variable:)) }
        }
    }

    private func rewriteFindings(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap(\.rules).flatMap { rule -> [Diagnostic] in
            guard rule.redirects || (rule.targetsURL && !rule.flags.proxy),
                  hasPrefixIgnoringASCIICase(rule.rawSubstitution, "https://") else { return [] }
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
