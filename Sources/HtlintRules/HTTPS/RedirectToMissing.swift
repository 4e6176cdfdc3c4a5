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
        triggering: [Example("RewriteEngine On\n↓RewriteRule ^old$ /missing.html [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /index.html [R=301,L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        context.probes.compactMap { probe -> Diagnostic? in
            let chain = probe.chain
            guard chain.outcome == .final, chain.finalStatus == 404, chain.hops.count >= 2,
                  let source = chain.hops.dropLast().last?.redirectSource else { return nil }
            return finding("\(probe.url) is redirected to \(chain.hops.last!.url), which answers 404", at: source)
        }
    }
}
