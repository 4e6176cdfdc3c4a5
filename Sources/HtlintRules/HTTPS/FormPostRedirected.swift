import HtlintDiagnostics

/// A form posting to a URL of the site that answers 301 or 302 (hygiene rule H6): the browser
/// follows with a GET and the submitted data is gone. Found in the pages' pass of
/// `MixedContentAnalysis`, which reads the forms.
struct FormPostRedirected: LintRule {
    let description = RuleDescription(
        id: "HT318", name: "form-post-redirected", family: .https,
        summary: "a form posts to a URL of the site that answers 301 or 302, so the browser repeats it as a GET without the data",
        rationale: """
        Found in the site's pages, by simulating each `<form method=post>` submission (and each \
        button's `formaction` with `formmethod=post`) through the configured layers. Browsers \
        follow a 301 or 302 answer to a POST with a GET (Fetch, HTTP-redirect fetch): the form's \
        fields are dropped, and the visitor sees the target page as if nothing had been sent. \
        The usual causes are redirects meant for pages — adding a trailing slash, forcing https, \
        removing `.php` — catching the form's endpoint. Post to the URL that answers without a \
        redirect (the fix, verified by simulating the POST there), exempt POST requests from the \
        redirect (`RewriteCond %{REQUEST_METHOD} !POST`), or redirect with 307/308, which keep \
        the method and body.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*[^/])$ /$1/ [R=301,L]\nRewriteRule ^contact/$ contact.php [L]",
                    pages: ["/index.html": """
                <form method="post" action="↓/contact"><input name="email"></form>
                """, "/contact.php": "<?php"]),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*[^/])$ /$1/ [R=301,L]\nRewriteRule ^contact/$ contact.php [L]",
                    pages: ["/index.html": """
                <form method="post" action="/contact/"><input name="email"></form>
                """, "/contact.php": "<?php"]),
            // A search form sends GET: the redirect keeps its query.
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*[^/])$ /$1/ [R=301,L]",
                    pages: ["/index.html": """
                <form action="/search"><input name="q"></form>
                """]),
            Example("RewriteEngine On\nRewriteRule ^contact$ /contact/ [R=308,L]\nRewriteRule ^contact/$ contact.php [L]",
                    pages: ["/index.html": """
                <form method="post" action="/contact"><input name="email"></form>
                """, "/contact.php": "<?php"]),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
