import HtlintApache
import HtlintDiagnostics

/// `Header set Strict-Transport-Security` (without `always`) is not sent on redirects and errors.
struct HSTSWithoutAlways: LintRule {
    let description = RuleDescription(
        id: "HT401", name: "hsts-without-always", family: .security,
        summary: "`Strict-Transport-Security` set without `always` is missing from redirects and errors",
        rationale: """
        Plain `Header set` only reaches successful responses; redirects produced by mod_rewrite, \
        mod_alias and mod_dir, and error pages, keep only the `always` table (apache-semantics §13). \
        The first https answer a visitor gets is often a redirect: use `Header always set`.
        """,
        severity: .warning,
        triggering: [Example("↓Header set Strict-Transport-Security \"max-age=31536000\"")],
        nonTriggering: [Example("Header always set Strict-Transport-Security \"max-age=31536000\"")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            allHeaders(file.config.block).compactMap { h in
                guard !h.always, h.name.lowercased() == "strict-transport-security",
                      ["set", "add", "append", "merge", "setifempty"].contains(h.action) else { return nil }
                return finding("`Strict-Transport-Security` without `always` is not sent with redirects or error pages", at: h.range)
            }
        }
    }
}

func allHeaders(_ b: HtlintApache.ConfigBlock) -> [HtlintApache.HeaderDirective] {
    b.headers + b.files.flatMap { allHeaders($0.block) } + b.ifChains.flatMap { $0.branches.flatMap { allHeaders($0.block) } }
}
