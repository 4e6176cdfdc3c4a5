import HtlintDiagnostics

/// `preload` without `includeSubDomains` (spec §13.4, §15 H9).
struct HSTSPreloadWithoutSubdomains: LintRule {
    let description = RuleDescription(
        id: "HT406", name: "hsts-preload-without-subdomains", family: .security,
        summary: "`Strict-Transport-Security` asks for `preload` without `includeSubDomains`",
        rationale: """
        The HSTS preload list accepts a domain only when its header carries `includeSubDomains` \
        together with `preload` and a `max-age` of at least one year (hstspreload.org requirement 4; \
        checker `header.preloadable.include_sub_domains.missing`; spec §13.4, §15 H9). Without it \
        the submission is refused, while the header still claims the aim. Add `includeSubDomains` \
        once every subdomain serves https — a preloaded policy covers them all.
        """,
        severity: .error,
        triggering: [
            Example("Header always set Strict-Transport-Security \"max-age=63072000; ↓preload\""),
        ],
        nonTriggering: [
            Example("Header always set Strict-Transport-Security \"max-age=63072000; includeSubDomains; preload\""),
            Example("Header always set Strict-Transport-Security \"max-age=63072000\""),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        HSTSHeader.all(in: context).compactMap { h in
            let policy = h.policy
            guard policy.preload, !policy.includeSubDomains else { return nil }
            let insert = h.range(of: "preload")
            let fix = FixIt(title: "Add `includeSubDomains`",
                            edits: [TextEdit(range: SourceRange(file: insert.file, start: insert.start, end: insert.start),
                                             replacement: "includeSubDomains; ")],
                            applicability: .unsafe)
            return finding("`preload` without `includeSubDomains`: the HSTS preload list refuses the domain",
                           at: insert, fixes: [fix])
        }
    }
}
