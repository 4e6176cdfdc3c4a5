import HtlintDiagnostics

/// `Options -FollowSymLinks` with `RewriteEngine On` forbids every request.
struct RewriteWithoutFollowSymLinks: LintRule {
    let description = RuleDescription(
        id: "HT214", name: "rewrite-without-followsymlinks", family: .semantics,
        summary: "`RewriteEngine On` where `FollowSymLinks` is off: every request answers 403",
        rationale: """
        Per-directory rewriting requires `FollowSymLinks` or `SymLinksIfOwnerMatch`. Without either, \
        Apache answers **403** for every request under the directory as soon as the engine is on, \
        even with no rule (AH00670, apache-semantics §4.6). Use `Options +SymLinksIfOwnerMatch`.
        """,
        severity: .error,
        triggering: [Example("↓Options -FollowSymLinks\nRewriteEngine On")],
        nonTriggering: [Example("Options -FollowSymLinks +SymLinksIfOwnerMatch\nRewriteEngine On"),
                        Example("Options -FollowSymLinks\nRewriteEngine Off")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.compactMap { file -> Diagnostic? in
            guard file.config.block.rewrite?.engine == true else { return nil }
            var on: Set<String> = ["followsymlinks"]
            for o in file.config.block.options {
                if let r = o.replace { on = r }
                on.formUnion(o.add)
                on.subtract(o.remove)
            }
            guard !on.contains("followsymlinks"), !on.contains("symlinksifownermatch"), !on.contains("all") else { return nil }
            let options = file.directives.first { $0.key == "options" }
            return finding("`RewriteEngine On` without `FollowSymLinks` or `SymLinksIfOwnerMatch`: Apache answers 403 to every request here",
                           at: options?.range ?? file.source.range(0, 0))
        }
    }
}
