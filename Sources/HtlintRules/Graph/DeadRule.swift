import HtlintDiagnostics
import HtlintGraph

/// A rule that no request can make fire.
struct DeadRuleByAnalysis: LintRule {
    let description = RuleDescription(
        id: "HT215", name: "dead-rule", family: .semantics,
        summary: "a rule that can never fire: shadowed for every URL it matches, or conditions that cannot hold",
        rationale: """
        Found by analysing all URLs at once. Either earlier rules that end the pass (`[L]`, \
        `[END]`, a redirect, `[F]`) take every request this rule's pattern and conditions accept, \
        or its conditions contradict each other (two different exact host names) or the topology \
        (two exact values of one variable). A dead rule usually means the author's intent is not what Apache \
        does: move it before the rule that shadows it, or fix the condition. Unreachable rules \
        after a catch-all are HT207's, patterns with a leading `/` in `.htaccess` HT209's, and \
        unknown variables HT208's. When only values the edge sets make it fail (`%{HTTPS} on` \
        behind a CDN that reaches the origin over plain HTTP, `%{HTTP:X-Forwarded-Proto}` that the \
        edge always sets to `https`), the finding is a note: the rule is redundant behind the edge \
        but still guards requests that reach the origin directly. Headers no layer sets are \
        whatever the client sends, and `%{ENV:REDIRECT_STATUS}` is set by a local `ErrorDocument`.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteRule ^blog/ /news/ [R=301,L]\n↓RewriteRule ^blog/archive$ /news/archive [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.example\\.com$ [NC]\nRewriteCond %{HTTP_HOST} ^example\\.com$ [NC]\n↓RewriteRule ^ https://example.com/ [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{HTTPS} on\n↓RewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]",
                    edge: "cloudflare-flexible"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule ^blog/archive$ /news/archive [R=301,L]\nRewriteRule ^blog/ /news/ [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.example\\.com$ [NC,OR]\nRewriteCond %{HTTP_HOST} ^example\\.org$ [NC]\nRewriteRule ^ https://example.com/ [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} =https\nRewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]",
                    edge: "cloudflare-flexible"),
            // The error document is an internal redirect that sets REDIRECT_STATUS.
            Example("ErrorDocument 404 /index.php\nRewriteEngine On\nRewriteCond %{ENV:REDIRECT_STATUS} =404\nRewriteRule ^index\\.php$ /notfound.html [L]"),
            // With no edge, any client can send X-Forwarded-Proto.
            Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} =https\nRewriteRule ^probe$ yes.html [L]"),
        ],
        usesGraphAnalysis: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let analysis = context.graphAnalysis else { return [] }
        return analysis.deadRules.compactMap { dead in
            switch dead.reason {
            case .neverMatches:
                // `^/…` in .htaccess is HT209's finding.
                if dead.rule.context != "server", dead.rule.text.contains(" ^/") { return nil }
            case .shadowed:
                // Shadowing by an unconditional catch-all is HT207's finding.
                let rules = context.files.flatMap(\.rules)
                if dead.shadowedBy.contains(where: { shadow in
                    rules.contains { $0.range == shadow.range && $0.conditions.isEmpty && !$0.negated && isCatchAll($0.pattern) }
                }) {
                    return nil
                }
            case .conditions:
                if dead.involvesUnknownVariable { return nil }
            }
            let notes = dead.shadowedBy.map { Note(message: "`\($0.text)` takes these requests first", range: $0.range) }
                + dead.conditions.map { Note(message: "`\($0.text)`", range: $0.range) }
            if dead.redundantBehindEdge == true {
                // Defence in depth: the edge makes it redundant, a direct request still meets it.
                var d = finding("rule is redundant behind the \(context.edgeName) edge: \(dead.explanation) (it still guards requests that reach the origin directly)",
                                at: dead.rule.range, notes: notes)
                d.severity = .note
                return d
            }
            return finding("rule never fires: \(dead.explanation)", at: dead.rule.range, notes: notes)
        }
    }

}
