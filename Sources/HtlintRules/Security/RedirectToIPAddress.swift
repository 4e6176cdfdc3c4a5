import HtlintDiagnostics

/// A redirect whose destination host is an IP address literal.
struct RedirectToIPAddress: LintRule {
    let description = RuleDescription(
        id: "HT409", name: "redirect-to-ip-address", family: .security,
        summary: "a redirect to an IP address literal (`http://203.0.113.5/…`)",
        rationale: """
        A redirect to `https://203.0.113.5/` fails certificate validation (publicly trusted \
        certificates almost never name an address), and one to `http://203.0.113.5/` leaves https, \
        HSTS and the site's cookies behind. Behind a CDN or proxy it also publishes the origin's \
        address, so anyone can bypass the CDN's filtering and reach the origin directly. It is \
        usually a leftover from a migration or a staging server. Redirect to the host name.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteRule ^shop/(.*)$ ↓http://203.0.113.5/shop/$1 [R=301,L]"),
            Example("Redirect 302 /old ↓https://[2001:db8::1]/new"),
            Example("RedirectMatch ^/app/(.*)$ ↓http://198.51.100.7:8080/$1"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule ^shop/(.*)$ https://shop.example.com/$1 [R=301,L]"),
            Example("RewriteEngine On\nRewriteRule ^api/(.*)$ http://10.0.0.5/api/$1 [P,L]"),
            Example("Redirect 301 /v1.2.3.4 https://example.com/v1.2.3.4"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for file in context.files {
            for rule in file.rules where rule.redirects || (rule.targetsURL && !rule.flags.proxy) {
                guard let host = urlHost(rule.rawSubstitution), isIPLiteral(host) else { continue }
                found.append(finding(message(host), at: rule.substitutionRange))
            }
            let redirects = file.redirects.filter { $0.target.flatMap(urlHost).map(isIPLiteral) == true }
            guard !redirects.isEmpty else { continue }
            let nodes = file.directivesByRange
            for r in redirects {
                guard let host = r.target.flatMap(urlHost) else { continue }
                // The destination is the last argument of every `Redirect` form.
                let at = nodes[r.range]?.words.last.map { file.source.range($0.range.start, $0.range.end) } ?? r.range
                found.append(finding(message(host), at: at))
            }
        }
        return found
    }

    private func message(_ host: String) -> String {
        "redirect to the IP address \(host): browsers reject its certificate over https, and it bypasses the host name "
            + "(HSTS, cookies, the CDN in front)"
    }
}
