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
                        Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*)$ /index.php [L]\nRewriteRule ^old$ /new [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rewriteBlocks.flatMap { block -> [Diagnostic] in
                guard let index = block.rules.firstIndex(where: { r in
                    isCatchAll(r.pattern) && r.pattern != "^(.+)$" && !r.negated && r.conditions.isEmpty && r.stopsPass
                        && !r.flags.noSubrequest
                }), index + 1 < block.rules.count else { return [] }
                let killer = block.rules[index]
                return block.rules[(index + 1)...].map { rule in
                    finding("unreachable: line \(killer.line) takes every request first", at: rule.range,
                            notes: [Note(message: "this rule matches every request and ends the pass", range: killer.range)])
                }
            }
        }
    }
}
