import HtlintDiagnostics
import HtlintSyntax
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
            guard let hop = probe.chain.hops.first(where: Self.downgrades),
                  let source = hop.redirectSource ?? Self.producer(of: hop, context).range else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).map { group in
            let hop = group.first.chain.hops.first(where: Self.downgrades)!
            let via = hop.redirectSource == nil ? " (\(Self.producer(of: hop, context).what))" : ""
            return finding("https→http downgrade: \(hop.url) redirects to \(hop.location ?? "")\(via)\(moreRequests(group.count))",
                           at: group.range)
        }
    }

    static func downgrades(_ hop: Hop) -> Bool {
        hop.url.hasPrefix("https://") && (hop.location?.hasPrefix("http://") ?? false)
    }

    /// Who sent a redirect that no `RewriteRule`/`Redirect` produced, and where to point: the
    /// edge (Cloudflare with SSL off), an `ErrorDocument` with a full URL, or mod_dir's
    /// `DirectorySlash`. Without a directive to point at, the first configuration file's start.
    static func producer(of hop: Hop, _ context: LintContext) -> (what: String, range: SourceRange?) {
        let fallback = context.fallbackRange
        if hop.answerer != .origin {
            return ("answered by \(hop.producer)\(hop.reason.map { ": \($0)" } ?? ""), not by Apache", fallback)
        }
        if let location = hop.location {
            for file in context.files {
                for d in file.directives where d.key == "errordocument" {
                    let words = d.words.map(\.value)
                    if words.count >= 2, words[1] == location {
                        return ("an `ErrorDocument` with a full URL", d.range)
                    }
                }
            }
        }
        if hop.origin?.trace.contains(where: { $0.kind == .directorySlash }) == true {
            for file in context.files {
                if let d = file.directives.first(where: { $0.key == "directoryslash" }) { return ("the trailing-slash redirect of mod_dir's DirectorySlash", d.range) }
            }
            return ("the trailing-slash redirect of mod_dir's DirectorySlash, not a directive of these files", fallback)
        }
        return ("a redirect Apache built itself", fallback)
    }
}
