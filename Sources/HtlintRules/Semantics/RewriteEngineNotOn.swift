import HtlintDiagnostics

/// Rules in a file where the engine is never switched on do nothing.
struct RewriteEngineNotOn: LintRule {
    let description = RuleDescription(
        id: "HT201", name: "rewrite-engine-off", family: .semantics,
        summary: "`RewriteRule` in a file that never says `RewriteEngine On`",
        rationale: """
        mod_rewrite is off by default. Unless the virtual host or a parent `.htaccess` switches it on, \
        the rules of this file never run — silently. Add `RewriteEngine On` before the first rule.
        """,
        severity: .warning,
        triggering: [Example("↓RewriteRule ^old$ /new [R=301,L]"), Example("RewriteEngine Off\n↓RewriteRule ^a$ /b [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        // A parent .htaccess that switches the engine on covers child files that do not set it.
        let parentsOn = context.files.filter { f in f.rewriteBlocks.contains { $0.engine == true } }.compactMap(\.directory)
        return context.files.compactMap { file in
            guard let first = file.rules.first else { return nil }
            let engine = file.config.block.rewrite?.engine
            if engine == true { return nil }
            if engine == nil, let dir = file.directory, parentsOn.contains(where: { dir != $0 && dir.hasPrefix($0) }) { return nil }
            return finding("`RewriteRule` without `RewriteEngine On`: the rules of this file never run", at: first.range,
                           fixes: [FixIt(title: "Add `RewriteEngine On`",
                                         edits: [TextEdit(range: SourceRange(file: first.range.file, start: first.range.start, end: first.range.start),
                                                          replacement: "RewriteEngine On\n")],
                                         applicability: .unsafe)])
        }
    }
}
