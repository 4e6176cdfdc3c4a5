import HtlintDiagnostics
import HtlintSimulation

/// A request that Apache rewrites internally more than `LimitInternalRecursion` times (500).
struct InternalRecursion: LintRule {
    let description = RuleDescription(
        id: "HT302", name: "internal-rewrite-loop", family: .https,
        summary: "a request rewritten internally until Apache answers 500 (AH00124)",
        rationale: """
        Found by simulation. In `.htaccess` a rewrite becomes an internal redirect and the rules run \
        again on the result; when the result matches again, Apache stops after 10 internal \
        redirects with **500** and `AH00124: Request exceeded the limit of 10 internal redirects`. \
        Use `[END]`, or a condition that excludes the target (apache-semantics §15.3). The \
        extension-hiding pair `RewriteCond %{REQUEST_FILENAME}.php -f` / `RewriteRule ^(.*)$ $1.php` \
        loops this way on `/about/` or `/about/x` when `about.php` exists (path info makes the \
        condition hold, the rule appends `.php` again each pass): htlint requests those URLs too, and \
        with HEAD and the other methods a `%{REQUEST_METHOD}` condition names.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\n↓RewriteRule ^(.*)$ /app/$1 [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ /app/$1 [END]"),
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/app/\nRewriteRule ^(.*)$ /app/$1 [L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let items = context.loopProbes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            guard let hop = probe.chain.hops.first(where: { $0.origin?.recursionLimitExceeded == true }),
                  let source = hop.rewriteSources.first else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).map { group in
            let hop = group.first.chain.hops.first { $0.origin?.recursionLimitExceeded == true }
            let uri = hop?.origin?.final.uri ?? ""
            return finding("internal rewrite loop: \(group.first.request) is rewritten \(hop?.origin?.internalRedirects ?? 10) times (last \(uri)) and answers 500\(moreRequests(group.count))",
                           at: group.range)
        }
    }
}
