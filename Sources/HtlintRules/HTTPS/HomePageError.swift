import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
import HtlintSyntax

/// The site's home page ends in an error: no index file Apache looks for (`DirectoryIndex
/// index.php` beside an `index.html`), a front controller that is missing, an origin the CDN
/// cannot reach.
struct HomePageError: LintRule {
    let description = RuleDescription(
        id: "HT321", name: "home-page-error", family: .https,
        summary: "the site's home page `/` ends in an error (403 without an index file, 5xx)",
        rationale: """
        Found by simulation, following the redirects from `/` on every host and scheme. Usual \
        causes: `DirectoryIndex` names a file the document root does not have (`index.php` \
        where the site has `index.html`), so Apache answers 403 (no listing allowed); a \
        configuration that Apache answers with a 500 (`Require valid-user` without \
        `AuthType`); or a CDN in front that cannot reach the origin. Access control that \
        denies everyone on purpose (`Require`, a 401 login, a 503 maintenance page) is not \
        reported, nor a redirect or rewrite to a missing page (HT307, HT322).
        """,
        severity: .warning,
        triggering: [Example("↓DirectoryIndex index.php\nOptions -Indexes"),
                     Example("↓Require valid-user")],
        nonTriggering: [Example("DirectoryIndex index.php index.html\nOptions -Indexes"),
                        Example("RewriteEngine On\nRewriteRule ^$ - [R=503,L]"),
                        Example("Require all denied")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let site = context.simulator?.origin.site else { return [] }
        let indexFile = Self.rootIndexFile(site)
        for probe in context.probes where probe.method == "GET" {
            guard let start = URLParts(probe.url), start.target == "/", probe.chain.outcome == .final,
                  let last = probe.chain.hops.last, let why = Self.error(last) else { continue }
            let range: SourceRange?
            var hint = ""
            if last.status >= 500 {
                // The directive Apache stopped at, else the first directive (not a comment above it).
                range = last.origin?.trace.last(where: { $0.range != nil })?.range
                    ?? context.files.first?.directives.first?.range ?? context.fallbackRange
            } else {
                // A 4xx is this rule's where `/` itself finds no page although the site has one:
                // a redirect or rewrite on the way is HT307's or HT322's (a redirect to a missing
                // page, a rewrite to a missing file), and a root without pages has none to find.
                guard let indexFile, probe.chain.hops.count == 1, !Self.rewritten(last, context) else { continue }
                range = Self.directive(["directoryindex", "options"], context)?.range ?? context.fallbackRange
                hint = "; the document root has \(indexFile)"
            }
            guard let range else { continue }
            let via = probe.chain.hops.count > 1 ? " (through \(last.url))" : ""
            return [finding("the home page \(probe.url) answers \(last.status)\(via): \(why)\(hint)", at: range)]
        }
        return []
    }

    /// A rewrite rule other than a `-` one fired on the hop.
    static func rewritten(_ hop: Hop, _ context: LintContext) -> Bool {
        hop.origin?.firedRules.contains { context.rewriteRule(at: $0).map { !$0.isDash } ?? true } ?? false
    }

    /// Why the hop's error is a broken page rather than access denied on purpose; nil for that.
    static func error(_ hop: Hop) -> String? {
        let status = hop.status
        guard status >= 400, status != 401, status != 503 else { return nil }
        guard let origin = hop.origin else {
            // The CDN or proxy answered (52x: the origin is unreachable).
            return hop.reason ?? "answered by \(hop.producer)"
        }
        // Loops and read errors are HT302's and HT1xx's findings.
        if origin.recursionLimitExceeded || origin.trace.contains(where: { $0.kind == .configError }) { return nil }
        // A 403 is reported for the missing index only: `Require` denials are meant.
        if status == 403, !origin.errorCodes.contains("AH01276") { return nil }
        let note = origin.trace.last { $0.kind == .status }?.detail
        return note.map { $0.hasPrefix("\(status): ") ? String($0.dropFirst("\(status): ".count)) : $0 }
            ?? (origin.served == nil ? "no file serves it" : "Apache answers the error")
    }

    /// A page at the top of the document root named like a home page (`index.html`,
    /// `default.php`, `home.htm`), as `/index.html`; nil when there is none.
    static func rootIndexFile(_ site: Site) -> String? {
        let root = site.documentRoot
        return site.files.entryNames(in: root).sorted().first { name in
            let parts = name.lowercased().split(separator: ".", omittingEmptySubsequences: false)
            return parts.count == 2 && ["index", "default", "home"].contains(parts[0]) && pageExtensions.contains(String(parts[1]))
                && site.files.isFile(root + "/" + name)
        }.map { "/" + $0 }
    }

    private static let pageExtensions: Set<String> = ["html", "htm", "xhtml", "shtml", "php", "php5", "php7", "phtml", "cgi", "pl", "py",
                                                      "asp", "aspx", "jsp"]

    /// The first directive with one of these keys, in the order the files are linted.
    static func directive(_ keys: Set<String>, _ context: LintContext) -> DirectiveNode? {
        for file in context.files { if let d = file.directives.first(where: { keys.contains($0.key) }) { return d } }
        return nil
    }
}
