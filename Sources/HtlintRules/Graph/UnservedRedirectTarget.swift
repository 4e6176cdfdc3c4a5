import HtlintDiagnostics
import HtlintGraph

/// A redirect whose every target URL is served by nothing on the site.
struct UnservedRedirectTarget: LintRule {
    let description = RuleDescription(
        id: "HT312", name: "unserved-redirect-target", family: .https,
        summary: "a redirect to URLs of this site that no file, index, rule or `Redirect` serves",
        rationale: """
        Found by analysing all URLs the rule can redirect to (its substitution with each `$N`, \
        `%N` and variable ranging over what it can hold), not just the probe requests: when none \
        of them is a file, a directory with an index file, handled by a rewrite rule or a \
        `Redirect`, every visitor the rule redirects lands on a 404. Typical causes: a missing \
        `$1`, the wrong directory, a target spelled differently from the file on disk. Redirects \
        the probe requests already show landing on a 404 are HT307's; targets under the \
        document root's filesystem path are HT203's.
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=([0-9]+)$\n↓RewriteRule ^product\\.php$ /products/%1? [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=([0-9]+)$\nRewriteRule ^product\\.php$ /index.html? [R=301,L]"),
                        Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=([0-9]+)$\nRewriteRule ^product\\.php$ /products/%1? [R=301,L]\nRewriteRule ^products/([0-9]+)$ index.html [L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let analysis = context.graphAnalysis, let site = context.simulator?.origin.site else { return [] }
        // Redirects HT307 reports from a probe landing on a 404 (fixed targets). One whose target
        // is built from the request stays here even when a probe reached it (`/item/%1?`):
        // HT307 leaves that to this rule (recorded:
        // /p?id=a%20b → 302 /item/a%2520b → 404, diffhunt/query-backref-redirect-escaping).
        var probed = Set<SourceRange>()
        for probe in context.probes where probe.chain.finalStatus == 404 {
            if let r = RedirectToMissing.reportedRedirect(probe, context) { probed.insert(r) }
        }
        return analysis.unservedTargets.compactMap { target in
            guard !probed.contains(target.rule.range), !target.example.hasPrefix(site.documentRoot + "/") else { return nil }
            return finding("redirect target is not served: no file, index, rule or `Redirect` handles the URLs this rule redirects to (e.g. \(target.example))",
                           at: target.rule.range)
        }
    }
}
