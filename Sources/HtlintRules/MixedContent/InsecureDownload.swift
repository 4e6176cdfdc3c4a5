import HtlintDiagnostics

/// A download link on an https page that fetches over http (spec §14.2 `MIXED_DOWNLOAD`).
struct InsecureDownload: LintRule {
    let description = RuleDescription(
        id: "HT506", name: "insecure-download", family: .mixedContent,
        summary: "an https page offers a download over http, which browsers block",
        rationale: """
        Found in the site's pages. A download started from an https page whose URL is http is \
        aborted — never upgraded — by Chrome (92+) and Firefox (90+) (spec §14.2–14.3): the visitor \
        clicks and nothing arrives. Serve the file over https and link to that URL.
        """,
        severity: .error,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <a download href="↓http://files.example.net/report.pdf">Annual report</a>
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <a download href="https://files.example.net/report.pdf">Annual report</a>
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
