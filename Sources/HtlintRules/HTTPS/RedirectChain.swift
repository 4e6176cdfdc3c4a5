import HtlintDiagnostics
import HtlintSimulation

/// More than one redirect before the final page.
struct RedirectChain: LintRule {
    let description = RuleDescription(
        id: "HT306", name: "redirect-chain", family: .https,
        summary: "a request needs two or more redirects to reach its final page",
        rationale: """
        Found by simulation. `http://example.com/` → `https://example.com/` → `https://www.example.com/` \
        costs the visitor a round trip per hop and dilutes link signals. Redirect straight to the \
        canonical scheme and host in one rule.
        """,
        severity: .note,
        triggering: [Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off
            ↓RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
            """)],
        nonTriggering: [Example("""
            RewriteEngine On
            RewriteCond %{HTTPS} off [OR]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
            """)],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let items = context.probes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            let chain = probe.chain
            let redirects = chain.hops.filter { (300...399).contains($0.status) }
            guard chain.outcome == .final, (200...299).contains(chain.finalStatus), redirects.count >= 2,
                  let source = redirects.first?.redirectSource else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).map { group in
            let chain = group.first.chain
            let count = chain.hops.filter { (300...399).contains($0.status) }.count
            let path = chain.hops.map(\.url).joined(separator: " → ")
            return finding("\(count) redirects before the final page: \(path)\(moreRequests(group.count))", at: group.range)
        }
    }
}
