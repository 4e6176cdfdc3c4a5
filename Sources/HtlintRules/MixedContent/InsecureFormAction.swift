import HtlintDiagnostics

/// A form on an https page that submits to http, directly or through a redirect (spec §14.1,
/// §14.4 `MIXED_FORM`).
struct InsecureFormAction: LintRule {
    let description = RuleDescription(
        id: "HT503", name: "insecure-form-action", family: .mixedContent,
        summary: "a form on an https page submits to http, directly or through a redirect",
        rationale: """
        Found in the site's pages. A form whose `action` (or a button's `formaction`) is an http URL \
        sends what the visitor typed in clear text; Chrome warns before submitting it (87+) and \
        browsers may block it (Mixed Content, spec §14.1). An https action that the site redirects \
        to http is the same leak one hop later, and browsers warn at the redirect (§14.4): htlint \
        simulates same-site actions through the configured layers. Post to an https URL that \
        answers without redirecting to http.
        """,
        severity: .error,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <form method="post" action="↓http://example.com/subscribe">
                  <input name="email"> <button formaction="↓http://example.com/unsubscribe">Leave</button>
                </form>
                """]),
            Example("Redirect 301 /subscribe http://example.com/subscribe.php", pages: ["/index.html": """
                <form method="post" action="↓https://example.com/subscribe"><input name="email"></form>
                """]),
        ],
        nonTriggering: [
            Example("Redirect 301 /subscribe https://example.com/subscribe.php", pages: ["/index.html": """
                <form method="post" action="/subscribe"><input name="email"></form>
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
