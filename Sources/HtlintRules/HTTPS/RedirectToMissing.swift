import HtlintDiagnostics
import HtlintSimulation

/// A redirect whose destination is not found.
struct RedirectToMissing: LintRule {
    let description = RuleDescription(
        id: "HT307", name: "redirect-to-missing-page", family: .https,
        summary: "a redirect that lands on a 404",
        rationale: """
        Found by simulation with the site's files: the redirect's destination is neither a file \
        nor handled by a rule. Check the target path (a missing `$1`, a wrong directory, a \
        relative target resolved against the wrong base).
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\n↓RewriteRule ^old$ /missing.html [R=301,L]"),
                     // mod_alias too (recorded: /old → 301 /missing.html → 404).
                     Example("↓Redirect 301 /old /missing.html")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /index.html [R=301,L]"),
                        Example("Redirect 301 /old /index.html")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let items = context.probes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            Self.reportedRedirect(probe, context).map { ($0, probe) }
        }
        return groupedByDirective(items).map { group in
            finding("\(group.first.url) is redirected to \(group.first.chain.hops.last!.url), which answers 404\(moreRequests(group.count))",
                    at: group.range)
        }
    }

    /// The redirect this rule reports for a probe: one with a fixed target that answers 404.
    /// HT312 leaves these to it (and reports the others, whose targets are built from the request).
    static func reportedRedirect(_ probe: ProbeResult, _ context: LintContext) -> SourceRange? {
        let chain = probe.chain
        guard chain.outcome == .final, chain.finalStatus == 404, chain.hops.count >= 2,
              let source = chain.hops.dropLast().last?.redirectSource else { return nil }
        // A redirect that only changes scheme or host is not to blame for a path that is missing anyway.
        guard URLParts(chain.hops.last!.url)?.target != URLParts(probe.url)?.target else { return nil }
        // A target built from the (synthetic) request path says nothing about the site's files:
        // only a fixed target that does not exist is a finding.
        // The directive is looked up in its own file (every 404 probe asks, HT307 and HT312 alike).
        let file = context.file(containing: source)
        if let redirect = file?.redirects.first(where: { $0.range == source }) {
            // mod_alias: `Redirect /old /missing.html` for /old itself (a longer URL appends its
            // rest), `RedirectMatch` without `$n`, the expression form.
            guard let target = redirect.target else { return nil }
            switch redirect.matcher {
            case .prefix(let prefix):
                let redirected = chain.hops.dropLast().last!.url
                guard let path = URLParts(redirected)?.target.split(separator: "?", maxSplits: 1).first,
                      String(path) == prefix else { return nil }
            case .regex:
                guard !target.contains(where: { $0 == "$" }) else { return nil }
            case .everything: break
            }
            return source
        }
        guard let rule = file?.rules.first(where: { $0.range == source }),
              rule.usedCaptures.isEmpty,
              !rule.substitution.parts.contains(where: { part in
                  switch part {
                  case .conditionCapture: return true
                  case .variable(let v): return ["REQUEST_URI", "THE_REQUEST", "QUERY_STRING"].contains(v.uppercased())
                  default: return false
                  }
              }) else { return nil }
        return source
    }
}
