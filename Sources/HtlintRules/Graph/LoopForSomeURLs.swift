import HtlintDiagnostics
import HtlintGraph

/// A loop that only some URLs hit, found by the all-URL analysis and confirmed by simulation.
struct LoopForSomeURLs: LintRule {
    let description = RuleDescription(
        id: "HT308", name: "loop-for-some-urls", family: .https,
        summary: "a redirect or rewrite loop that only some URLs hit, found by analysing every URL and confirmed with a witness",
        rationale: """
        The probe requests (HT301, HT302) cover `/`, one URL per rule and each directory; a loop \
        that needs a particular path (`/shop/12/`), host (one alias) or query string (`?utm_source=x`) \
        slips through them. htlint therefore also reasons about all URLs at once: for every rule \
        that redirects or rewrites, which rules can fire on its output — the pattern and conditions \
        checked against the output's shape, `%{HTTPS}`, `%{HTTP_HOST}` and forwarded headers ranging \
        over what the edge and the host names allow. Each cycle of that relation is a candidate; \
        htlint builds requests that go round it and simulates them. A candidate that really loops \
        is reported here with its witness: `htlint explain WITNESS` tells the story hop by hop and \
        `htlint graph --url WITNESS` draws it. Break the cycle with a condition that excludes the \
        target, a trailing `?` that drops the query, or `[END]` for internal rewrites.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} (^|&)utm_[a-z]+= [NC]\n↓RewriteRule ^(.*)$ /$1 [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-d\n↓RewriteRule ^(.*)/$ /$1 [R=301,L]\nRewriteCond %{REQUEST_URI} ^/shop/[0-9]+$\nRewriteRule ^ %{REQUEST_URI}/ [R=301,L]"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} (^|&)utm_[a-z]+= [NC]\nRewriteRule ^(.*)$ /$1? [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-d\nRewriteCond %{REQUEST_URI} !^/shop/[0-9]+/$\nRewriteRule ^(.*)/$ /$1 [R=301,L]\nRewriteCond %{REQUEST_URI} ^/shop/[0-9]+$\nRewriteRule ^ %{REQUEST_URI}/ [R=301,L]"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let analysis = context.graphAnalysis else { return [] }
        let probed = context.directivesLoopingOnProbes
        return analysis.loops.filter { $0.confirmed && !$0.isCovered(by: probed) }.compactMap { loop in
            guard let first = loop.cycle.first, let witness = loop.witness else { return nil }
            let what = loop.kind == .redirect ? "redirect loop" : "internal rewrite loop (500 after the recursion limit)"
            let rules = loop.cycle.count == 1 ? "line \(first.line) redirects it to itself" : "lines \(loop.cycleLines)"
            let hops = loop.chain.map { Note(message: $0) }
            return finding("\(what) for some URLs, e.g. \(witness): \(rules)", at: first.range,
                           notes: loop.cycleNotes + hops)
        }
    }
}
