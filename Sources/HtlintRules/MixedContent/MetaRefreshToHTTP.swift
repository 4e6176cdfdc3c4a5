import HtlintDiagnostics

/// `<meta http-equiv=refresh>` sending an https page to an http URL (spec §14.2 `DOWNGRADE`).
struct MetaRefreshToHTTP: LintRule {
    let description = RuleDescription(
        id: "HT507", name: "meta-refresh-to-http", family: .mixedContent,
        summary: "an https page refreshes itself to an http URL",
        rationale: """
        Found in the site's pages. A meta refresh is a top-level navigation, so no browser blocks \
        it (spec §14.2), but it takes the visitor from https to http: a downgrade, like a redirect \
        to http (§15 H1), and a loop when the http URL redirects back to https or the visitor's \
        browser holds HSTS for the host. Point it at the https URL.
        """,
        severity: .error,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <meta http-equiv="refresh" content="0; url=↓http://example.com/new/">
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <meta http-equiv="refresh" content="0; url=https://example.com/new/">
                <meta http-equiv="refresh" content="300">
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
