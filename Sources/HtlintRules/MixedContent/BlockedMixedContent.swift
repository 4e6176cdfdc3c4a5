import HtlintDiagnostics

/// A subresource an https page loads over http that browsers block (spec §14.2 `MIXED_BLOCKED`).
struct BlockedMixedContent: LintRule {
    let description = RuleDescription(
        id: "HT501", name: "blocked-mixed-content", family: .mixedContent,
        summary: "an https page loads a script, style sheet, frame, font or image set over http, which browsers block",
        rationale: """
        Found in the site's pages and style sheets. Scripts, style sheets, fonts, frames, plugin \
        content, `<track>`, manifests, fetches, and images requested as an image set (`srcset`, \
        `<picture>`) or in CORS mode are *blockable* mixed content (W3C Mixed Content Level 2, spec \
        §14.1–14.2): every current browser refuses to load them from an https page, so the page \
        breaks — no style, no script. A `<base href="http://…">` makes every relative URL of the \
        page such a request. Rewrite the reference to `https://` (safe when the https URL is \
        served, which htlint checks for the site's own hosts), make it relative, or send \
        `Content-Security-Policy: upgrade-insecure-requests` so browsers upgrade every \
        subresource (§14.5).
        """,
        severity: .error,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <link rel="stylesheet" href="↓http://cdn.example.net/site.css">
                <script src="↓http://cdn.example.net/app.js"></script>
                <img srcset="↓http://cdn.example.net/hero-2x.png 2x" alt="">
                """]),
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <base href="http://static.example.net/">
                <script src="↓js/app.js"></script>
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <link rel="stylesheet" href="//cdn.example.net/site.css">
                <script src="https://cdn.example.net/app.js"></script>
                <img srcset="/hero-2x.png 2x" alt="">
                """]),
            Example("Header always set Content-Security-Policy \"upgrade-insecure-requests\"", pages: ["/index.html": """
                <script src="http://cdn.example.net/app.js"></script>
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
