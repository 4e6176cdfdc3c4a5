import HtlintDiagnostics
import HtlintSimulation

/// `Strict-Transport-Security` on an answer delivered over http (spec §15 H8).
struct HSTSOverHTTP: LintRule {
    let description = RuleDescription(
        id: "HT404", name: "hsts-over-http", family: .security,
        summary: "`Strict-Transport-Security` is sent on http answers, where browsers ignore it",
        rationale: """
        Found by simulation, per visitor URL (behind a TLS-terminating edge Apache sees http for \
        every request; what counts is the scheme the visitor used). A server must not send HSTS over \
        http and browsers ignore it there (RFC 6797 §7.2, §8.1); the preload checker flags it as \
        `redirects.http.useless_header`. It usually means the header is set unconditionally and the \
        site may believe http visitors are protected when they are not. Send it on https answers \
        only, e.g. inside `<If "%{HTTPS} == 'on'">` (or a test of `X-Forwarded-Proto` behind a proxy).
        """,
        severity: .warning,
        triggering: [
            Example("↓Header always set Strict-Transport-Security \"max-age=31536000\""),
        ],
        nonTriggering: [
            Example("<If \"%{HTTPS} == 'on'\">\nHeader always set Strict-Transport-Security \"max-age=31536000\"\n</If>"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let headers = HSTSHeader.all(in: context)
        guard !headers.isEmpty else { return [] }
        var items: [(range: SourceRange, probe: ProbeResult)] = []
        for probe in context.probes {
            guard let hop = probe.chain.hops.first(where: {
                $0.url.lowercased().hasPrefix("http:") && $0.origin?.header("Strict-Transport-Security") != nil
            }), let value = hop.origin?.header("Strict-Transport-Security") else { continue }
            let source = headers.first { $0.header.value == value } ?? headers[0]
            items.append((source.header.range, probe))
        }
        return groupedByDirective(items).map { group in
            let hop = group.first.chain.hops.first { $0.url.lowercased().hasPrefix("http:") && $0.origin != nil }
            // No probe count in the message: it depends on the probe set, not on the fault.
            return finding("`Strict-Transport-Security` is sent on http answers such as `\(hop?.url ?? group.first.url)`, "
                           + "where browsers ignore it", at: group.range)
        }
    }
}
