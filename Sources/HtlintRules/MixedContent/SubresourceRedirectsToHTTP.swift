import HtlintDiagnostics

/// An https subresource URL that the site's configuration redirects to http (spec §14.4, L26).
struct SubresourceRedirectsToHTTP: LintRule {
    let description = RuleDescription(
        id: "HT504", name: "subresource-redirects-to-http", family: .mixedContent,
        summary: "a page loads an https URL of the site that redirects to http",
        rationale: """
        Found by simulating each same-site https reference of the site's pages through the \
        configured layers. Browsers check mixed content again after every redirect (spec §14.4): a \
        script, style sheet or frame is blocked at the redirect to http; an image or video is \
        upgraded back to https, which asks the same redirect again, until the redirect limit — the \
        resource fails (L26). Safari loads such images over http. The reference looks fine; the \
        fault is the redirect, which the note points at: make it keep https, or reference the final \
        https URL directly.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\nRewriteRule ^old\\.js$ http://example.com/new.js [R=301,L]", pages: ["/index.html": """
                <script src="↓/old.js"></script>
                """]),
            Example("RewriteEngine On\nRewriteCond %{HTTPS} on\nRewriteRule ^img/(.*)$ http://%{HTTP_HOST}/img/$1 [R=301,L]",
                    pages: ["/index.html": """
                <img src="↓img/logo.png" alt="logo">
                """]),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule ^old\\.js$ https://example.com/new.js [R=301,L]", pages: ["/index.html": """
                <script src="/old.js"></script>
                """]),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
