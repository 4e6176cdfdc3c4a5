import HtlintDiagnostics

/// `[R]` without `[L]`: the pass goes on, and later rules rewrite the redirect URL itself.
struct RedirectWithoutLast: LintRule {
    let description = RuleDescription(
        id: "HT202", name: "redirect-without-last", family: .semantics,
        summary: "`[R]` without `[L]` or `[END]`: later rules keep rewriting the redirect target",
        rationale: """
        `[R]` does not stop the rule set. The fully qualified URL becomes the current URI and every \
        following rule matches against it: a later catch-all can turn the redirect into an internal \
        rewrite that answers 302 without a `Location`, or into an internal loop (apache-semantics §4.9). \
        Add `L` to the flags.
        """,
        severity: .warning,
        triggering: [Example("RewriteRule ^old$ /new ↓[R=301]"), Example("RewriteRule ^old$ /new ↓[R]")],
        nonTriggering: [Example("RewriteRule ^old$ /new [R=301,L]"), Example("RewriteRule ^old$ /new [R,END]"),
                        Example("RewriteRule ^old$ - [R=404]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { $0.rules }.compactMap { rule in
            guard rule.redirects, !rule.isDash, !rule.stopsPass else { return nil }
            return finding("`[R]` without `[L]`: the following rules still run on the redirect URL",
                           at: rule.flagsRange ?? rule.substitutionRange,
                           fixes: [rule.addingFlags("L", title: "Add `L`")])
        }
    }
}
