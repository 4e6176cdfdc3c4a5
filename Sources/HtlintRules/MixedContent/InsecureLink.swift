import HtlintDiagnostics

/// A hyperlink from an https page to an http URL of the same site (spec §14.2 `INSECURE_LINK`).
struct InsecureLink: LintRule {
    let description = RuleDescription(
        id: "HT505", name: "insecure-link", family: .mixedContent,
        summary: "an https page links to an http URL of the same site",
        rationale: """
        Found in the site's pages. Following a link is a top-level navigation, never blocked as \
        mixed content (spec §14.2), but a link to the site's own http URL sends the visitor over \
        plain http — at best through one more redirect to https, at worst to an http page. Links to \
        other sites are not reported: whether they offer https is theirs to decide. The note says \
        whether the https URL is served; rewriting the link is then safe.
        """,
        severity: .note,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <a href="↓http://example.com/about/">About us</a> <a href="↓http://www.example.com/">Home</a>
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <a href="/about/">About us</a> <a href="http://partner.example.org/">A partner</a>
                <a href="#top">Top</a> <a href="mailto:team@example.com">Mail</a>
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
