import HtlintDiagnostics
import HtlintSimulation

/// The site sends http visitors to https but its https answers carry no HSTS (spec §15 H7).
struct HSTSMissing: LintRule {
    let description = RuleDescription(
        id: "HT403", name: "hsts-missing", family: .security,
        summary: "the site redirects http to https, but its https answers carry no `Strict-Transport-Security`",
        rationale: """
        Found by simulation. A site that sends every http visitor to https has decided to be \
        https-only, yet without `Strict-Transport-Security` each new visit can start over http again, \
        where an attacker can answer instead of the redirect (RFC 6797; OWASP WSTG-CONF-07; spec §15 \
        H7). Send `Header always set Strict-Transport-Security "max-age=31536000"` on https answers \
        (`always`, so redirects and errors carry it too, HT401). Sites that still serve pages over \
        http on purpose are not reported.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} !=on\n↓RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
        ],
        nonTriggering: [
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} !=on
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                Header always set Strict-Transport-Security "max-age=31536000"
                """),
            Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard context.edge.hsts == nil, let redirect = context.httpsRedirect, let host = context.hosts.first,
              let probe = context.probes.first(where: { $0.url == "https://\(host)/" }),
              probe.chain.outcome == .final, let last = probe.chain.hops.last,
              (200..<300).contains(last.status), last.url.lowercased().hasPrefix("https:"),
              let origin = last.origin, origin.header("Strict-Transport-Security") == nil else { return [] }
        // A header that exists but did not reach this answer is the place to fix; else the redirect.
        let location = HSTSHeader.all(in: context).first.map { $0.header.range }
            ?? redirect.redirectSource
            ?? context.siteWideLocation
        guard let location else { return [] }
        var fixes: [FixIt] = []
        if let root = context.files.first(where: { $0.context == .htaccess && $0.directory == "/" }) {
            let bytes = root.source.bytes
            let prefix = bytes.isEmpty || bytes.last == UInt8(ascii: "\n") ? "" : "\n"
            fixes.append(FixIt(title: "Send `Strict-Transport-Security: max-age=31536000` on every answer",
                               edits: [TextEdit(range: root.source.range(bytes.count, bytes.count),
                                                replacement: prefix + "Header always set Strict-Transport-Security \"max-age=31536000\"\n")],
                               applicability: .unsafe))
        }
        return [finding("`\(last.url)` is answered without `Strict-Transport-Security`, although `\(redirect.url)` redirects to https",
                        at: location, fixes: fixes)]
    }
}
