import HtlintDiagnostics

/// Rules after an unconditional catch-all that ends the pass never run.
struct ShadowedRule: LintRule {
    let description = RuleDescription(
        id: "HT207", name: "unreachable-rule", family: .semantics,
        summary: "a rule after an unconditional catch-all that ends the pass can never run",
        rationale: """
        A rule whose pattern matches everything, without conditions, and that ends the pass \
        (`[L]`, `[END]`, `[F]`, a redirect with `[L]`) takes every request: the rules after it in \
        the same file are dead. Move the specific rules first.
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ /index.php [L]\n↓RewriteRule ^old$ /new [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]\nRewriteRule ^(.*)$ /index.php [L]"),
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*)$ /index.php [L]\nRewriteRule ^old$ /new [R=301,L]"),
                        // `[S=1]` jumps over the catch-all: /b reaches the last rule (recorded
                        // from Apache, diffhunt2/h2-skip-past-end: /b → 302 /yes.html).
                        Example("RewriteEngine On\nRewriteRule ^b$ - [S=1]\nRewriteRule ^ /other.html [R=302,L]\nRewriteRule ^b$ /yes.html [R=302,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rewriteBlocks.flatMap { block -> [Diagnostic] in
                let rules = block.rules
                // A catch-all inside a chain runs only when the rules chained before it matched.
                guard let index = rules.indices.first(where: { i in
                    let r = rules[i]
                    return isCatchAll(r.pattern) && r.pattern != "^(.+)$" && !r.negated && r.conditions.isEmpty && r.stopsPass
                        && !r.flags.noSubrequest && !r.flags.chain && !(i > 0 && rules[i - 1].flags.chain)
                }), index + 1 < rules.count else { return [] }
                let killer = rules[index]
                // `[S=n]` on an earlier rule can jump over the catch-all: the rules from where it
                // lands on are reachable.
                var reachableFrom = rules.count
                for j in 0..<index where rules[j].flags.skip > 0 && j + rules[j].flags.skip >= index {
                    reachableFrom = min(reachableFrom, j + rules[j].flags.skip + 1)
                }
                guard index + 1 < min(reachableFrom, rules.count) else { return [] }
                return rules[(index + 1)..<min(reachableFrom, rules.count)].map { rule in
                    finding("unreachable: line \(killer.line) takes every request first", at: rule.range,
                            notes: [Note(message: "this rule matches every request and ends the pass", range: killer.range)])
                }
            }
        }
    }
}
