import HtlintDiagnostics

/// `includeSubDomains` in `Strict-Transport-Security`: every subdomain must serve https for the
/// policy's lifetime (scenario S37).
struct HSTSIncludeSubdomains: LintRule {
    let description = RuleDescription(
        id: "HT414", name: "hsts-include-subdomains", family: .security,
        summary: "`Strict-Transport-Security` with `includeSubDomains` makes every subdomain unreachable over plain http",
        rationale: """
        With `includeSubDomains` a browser that received the header uses https for every subdomain \
        of the host that sent it, for the whole `max-age`, and refuses to fall back to http (RFC 6797 \
        §8.3, §12.1). A subdomain without a valid certificate — an intranet host, a router or \
        printer interface, a mail or legacy site, a staging name — becomes unreachable for a year, \
        with no way to click through (reported for certbot, HTTPS Everywhere, helmet, CodiMD). \
        htlint cannot see the other subdomains, so it asks for an explicit assertion: once every \
        subdomain serves https, put `# htlint disable=HT414` on the line above the `Header` directive. \
        The HSTS preload list needs `includeSubDomains` (HT406) and has the same effect on every \
        subdomain, so `preload` does not silence this rule. A `max-age=0` header, which removes the \
        policy, is not reported.
        """,
        // A note: `includeSubDomains` is recommended practice; the risk is a subdomain htlint cannot see.
        severity: .note,
        triggering: [
            Example("Header always set Strict-Transport-Security \"max-age=31536000; ↓includeSubDomains\""),
            Example("Header always set Strict-Transport-Security \"max-age=63072000; ↓includeSubDomains; preload\""),
        ],
        nonTriggering: [
            Example("Header always set Strict-Transport-Security \"max-age=31536000\""),
            // The assertion that every subdomain serves https.
            Example("# every subdomain of example.com serves https\n# htlint disable=HT414\nHeader always set Strict-Transport-Security \"max-age=31536000; includeSubDomains\""),
            Example("Header always set Strict-Transport-Security \"max-age=0; includeSubDomains\""),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        HSTSHeader.all(in: context).compactMap { h in
            let policy = h.policy
            guard policy.includeSubDomains, policy.maxAge != 0 else { return nil }
            let lifetime = policy.maxAge.map { " for \(HSTSPolicy.duration($0))" } ?? ""
            let preload = policy.preload ? " (and, preloaded, for every browser before its first visit)" : ""
            return finding("`includeSubDomains` makes browsers use https for every subdomain of the host that sends it\(lifetime)\(preload): "
                           + "one served only over http becomes unreachable; once every subdomain serves https, "
                           + "say so with `# htlint disable=HT414` above the directive",
                           at: h.range(of: "includeSubDomains"))
        }
    }
}
