import HtlintDiagnostics
import HtlintSimulation

/// More than one redirect before the final page; or, with HSTS `includeSubDomains`/`preload`,
/// http to https and to a subdomain in one hop (scenario S16: ordering against chain length).
struct RedirectChain: LintRule {
    let description = RuleDescription(
        id: "HT306", name: "redirect-chain", family: .https,
        summary: "a request needs two or more redirects to reach its final page, or skips the same-host https hop HSTS `includeSubDomains` needs",
        rationale: """
        Found by simulation. `http://example.com/` → `https://example.com/` → `https://www.example.com/` \
        costs the visitor a round trip per hop and dilutes link signals. Redirect straight to the \
        canonical scheme and host in one rule. There is one reason to keep the two hops: HSTS. \
        `example.com` sends its `Strict-Transport-Security` (and the `includeSubDomains` that covers \
        its other subdomains) only from an https answer, and the HSTS preload list requires \
        `http://example.com` to redirect to `https://example.com` before the host changes \
        (hstspreload `redirects.http.www_first`; Mozilla Observatory scores the one-hop form lower). \
        So the finding names both options when the site sends HSTS; a site that asks for `preload` \
        is not reported for the two-hop order, which it needs; and with `includeSubDomains` or \
        `preload` the one-hop `http://example.com/` → `https://www.example.com/` is reported instead, \
        since visitors never load `https://example.com/` and its policy never reaches a browser.
        """,
        severity: .note,
        triggering: [Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off
            ↓RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
            """),
                     Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off [OR]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            ↓RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
            Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains" "expr=%{HTTPS} == 'on'"
            """)],
        nonTriggering: [Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off [OR]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
            """),
                        // The order the preload list requires.
                        Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off
            RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
            Header always set Strict-Transport-Security "max-age=63072000; includeSubDomains; preload" "expr=%{HTTPS} == 'on'"
            """)],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let policies = HSTSHeader.all(in: context).map(\.policy) + (context.edge.hsts.map { [HSTSPolicy($0)] } ?? [])
        let preload = policies.contains(where: \.preload)
        let coversSubdomains = policies.contains { $0.includeSubDomains || $0.preload }
        var chains: [(range: SourceRange, probe: ProbeResult)] = []
        var oneHop: [(range: SourceRange, probe: ProbeResult)] = []
        for probe in context.probes {
            let chain = probe.chain
            let redirects = chain.hops.filter { (300...399).contains($0.status) }
            guard chain.outcome == .final, (200...299).contains(chain.finalStatus),
                  let source = redirects.first?.redirectSource else { continue }
            if redirects.count >= 2 {
                // The two hops preload asks for: nothing to change when the site asks for preload.
                if preload, Self.httpsFirst(chain.hops) != nil { continue }
                chains.append((source, probe))
            } else if coversSubdomains, Self.skipsApex(chain.hops) != nil {
                oneHop.append((source, probe))
            }
        }
        let long = groupedByDirective(chains).map { group in
            let chain = group.first.chain
            let count = chain.hops.filter { (300...399).contains($0.status) }.count
            let path = chain.hops.map(\.url).joined(separator: " → ")
            var options = ""
            if !policies.isEmpty, let apex = Self.httpsFirst(chain.hops) {
                options = "; this order lets `\(apex)` send its `Strict-Transport-Security` over https, which `includeSubDomains` and "
                    + "the HSTS preload list need (`redirects.http.www_first`): keep it for those, else redirect in one hop"
            }
            return finding("\(count) redirects before the final page: \(path)\(options)\(moreRequests(group.count))", at: group.range)
        }
        let short = groupedByDirective(oneHop).compactMap { group -> Diagnostic? in
            guard let (apex, target) = Self.skipsApex(group.first.chain.hops) else { return nil }
            return finding("`http://\(apex)/` redirects straight to `\(target)`: visitors never load `https://\(apex)/`, so browsers never get its "
                           + "`Strict-Transport-Security` and `includeSubDomains` does not cover its other subdomains, and the HSTS preload "
                           + "list refuses it (`redirects.http.www_first`); redirect to `https://\(apex)/` first, then to the other host "
                           + "(one more hop)\(moreRequests(group.count))", at: group.range)
        }
        return long + short
    }

    /// The host when the chain goes `http://A` → `https://A` → `https://B` (B another host).
    static func httpsFirst(_ hops: [Hop]) -> String? {
        guard hops.count >= 3, let a = urlHost(hops[0].url), hops[0].url.lowercased().hasPrefix("http://"),
              hops[1].url.lowercased().hasPrefix("https://"), urlHost(hops[1].url) == a,
              let b = urlHost(hops[2].url), b != a else { return nil }
        return a
    }

    /// The host and target when the first redirect goes from `http://A` to `https://B` in one hop,
    /// B a subdomain of A (`www.example.com` of `example.com`).
    static func skipsApex(_ hops: [Hop]) -> (String, String)? {
        guard hops.count >= 2, hops[0].url.lowercased().hasPrefix("http://"), let a = urlHost(hops[0].url),
              hops[1].url.lowercased().hasPrefix("https://"), let b = urlHost(hops[1].url),
              b.hasSuffix("." + a), !isIPLiteral(a) else { return nil }
        return (a, hops[1].url)
    }
}
