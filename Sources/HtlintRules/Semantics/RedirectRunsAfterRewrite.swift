import HtlintDiagnostics

/// `Redirect` lines run after the `RewriteRule`s of the same file, whatever their order.
struct RedirectRunsAfterRewrite: LintRule {
    let description = RuleDescription(
        id: "HT210", name: "alias-and-rewrite-order", family: .semantics,
        summary: "a `Redirect` placed before `RewriteRule`s still runs after them",
        rationale: """
        mod_alias and mod_rewrite are separate modules: in `.htaccess` all rewrite rules run first \
        and `Redirect`/`RedirectMatch` afterwards, regardless of their order in the file. A rewrite \
        redirect wins over a matching `Redirect`; an internal rewrite lets the `Redirect` win with \
        the rewritten query (apache-semantics §8.6). Express both with `RewriteRule` to control the order.
        """,
        severity: .warning,
        triggering: [Example("↓Redirect 301 /old /new\nRewriteEngine On\nRewriteRule ^(.*)$ index.php [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]\nRewriteRule ^(.*)$ index.php [L]"),
                        Example("Redirect 301 /old /new")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file -> [Diagnostic] in
            guard let firstRule = file.rules.first else { return [] }
            return file.redirects.filter { $0.range.start < firstRule.range.start }.map { r in
                finding("this `Redirect` is written before the rewrite rules but runs after them",
                        at: r.range, notes: [Note(message: "rewrite rules run first", range: firstRule.range)])
            }
        }
    }
}
