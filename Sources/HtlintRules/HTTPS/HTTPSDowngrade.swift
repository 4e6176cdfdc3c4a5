import HtlintDiagnostics
import HtlintSimulation

/// An https page answered with a redirect to http on the same site.
struct HTTPSDowngrade: LintRule {
    let description = RuleDescription(
        id: "HT303", name: "https-downgrade", family: .https,
        summary: "an https request redirected to http",
        rationale: """
        Found by simulation. A redirect from https to http exposes the next request and, with an \
        https redirect elsewhere, loops. Behind a TLS-terminating edge every `Location` Apache builds \
        itself (`[R]` with a path, `Redirect /x`, the trailing-slash redirect of `DirectorySlash`) \
        uses `http://`, because Apache only knows its own plain connection (apache-semantics §15.5). \
        Write absolute `https://` targets, or set `ServerName https://example.com`.
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\n↓RewriteRule ^old$ http://example.com/new [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ https://example.com/new [R=301,L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let items = context.probes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            guard let hop = probe.chain.hops.first(where: { $0.url.hasPrefix("https://") && ($0.location?.hasPrefix("http://") ?? false) }),
                  let source = hop.redirectSource ?? context.files.first.map({ $0.source.range(0, 0) }) else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).map { group in
            let hop = group.first.chain.hops.first { $0.url.hasPrefix("https://") && ($0.location?.hasPrefix("http://") ?? false) }!
            let via = hop.redirectSource == nil ? " (the trailing-slash redirect of DirectorySlash)" : ""
            return finding("https→http downgrade: \(hop.url) redirects to \(hop.location ?? "")\(via)\(moreRequests(group.count))",
                           at: group.range)
        }
    }
}
