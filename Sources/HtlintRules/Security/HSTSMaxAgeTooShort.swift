import HtlintDiagnostics

/// A `Strict-Transport-Security` `max-age` that protects too briefly, or not at all (spec §15 H9).
struct HSTSMaxAgeTooShort: LintRule {
    let description = RuleDescription(
        id: "HT405", name: "hsts-max-age-too-short", family: .security,
        summary: "`Strict-Transport-Security` with a `max-age` below one year, zero or missing",
        rationale: """
        Browsers keep an HSTS policy for `max-age` seconds (RFC 6797 §6.1.1). Below one year \
        (31536000) the protection lapses between visits — a note — and the preload list rejects \
        the header, so with `preload` it is an error (hstspreload.org requirement 4; checker \
        `max_age.below_1_year`; spec §13.4, §15 H9). `max-age=0` deletes the policy (a warning: \
        right only when retiring HSTS on purpose), and without `max-age` the header is invalid and \
        ignored (an error).
        """,
        severity: .note,
        triggering: [
            Example("Header always set Strict-Transport-Security \"↓max-age=300\""),
            Example("Header always set Strict-Transport-Security \"↓max-age=86400; includeSubDomains; preload\""),
            Example("Header always set Strict-Transport-Security \"↓max-age=0\""),
            Example("↓Header always set Strict-Transport-Security \"includeSubDomains\""),
        ],
        nonTriggering: [
            Example("Header always set Strict-Transport-Security \"max-age=63072000; includeSubDomains; preload\""),
            Example("Header always set Strict-Transport-Security \"max-age=31536000\""),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        HSTSHeader.all(in: context).compactMap { h in
            let policy = h.policy
            guard policy.hasMaxAge, let age = policy.maxAge else {
                var d = finding("`Strict-Transport-Security` without a valid `max-age`: browsers ignore the header",
                                at: policy.hasMaxAge ? h.range(of: "max-age") : h.header.range)
                d.severity = .error
                return d
            }
            if age == 0 {
                var d = finding("`max-age=0` deletes the browser's HSTS policy for the host", at: h.range(of: "max-age"))
                d.severity = .warning
                return d
            }
            guard age < HSTSPolicy.oneYear else { return nil }
            let span = HSTSPolicy.duration(age)
            if policy.preload {
                var d = finding("`max-age=\(age)` (\(span)) is below the preload list's minimum of 31536000 seconds (one year)",
                                at: h.range(of: "max-age"))
                d.severity = .error
                return d
            }
            return finding("`max-age=\(age)` keeps the policy for \(span) only; one year (31536000) is the usual minimum",
                           at: h.range(of: "max-age"))
        }
    }
}
