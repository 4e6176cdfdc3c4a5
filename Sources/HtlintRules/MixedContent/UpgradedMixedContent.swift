import HtlintDiagnostics

/// An image, audio or video an https page requests over http (spec §14.2 `MIXED_UPGRADED`).
struct UpgradedMixedContent: LintRule {
    let description = RuleDescription(
        id: "HT502", name: "upgraded-mixed-content", family: .mixedContent,
        summary: "an https page requests an image, audio or video over http, which browsers upgrade or load insecurely",
        rationale: """
        Found in the site's pages and style sheets. Plain images (`<img src>`, `<video poster>`, CSS \
        `background-image` and friends), audio and video are *upgradeable* mixed content (spec \
        §14.1–14.3): Chrome (86+) and Firefox (127+) fetch them over https instead, so they break \
        when the host does not serve the https URL; Safari loads them over http and the page loses \
        its padlock. For the site's own hosts htlint simulates the https URL: the note says whether \
        it is served, and the rewrite to `https://` is then a safe fix.
        """,
        severity: .warning,
        triggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <img src="↓http://cdn.example.net/logo.png" alt="logo">
                <div style="background-image: url(↓http://cdn.example.net/bg.jpg)"></div>
                <video src="↓http://media.example.net/intro.mp4" poster="↓http://media.example.net/intro.jpg"></video>
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.html", pages: ["/index.html": """
                <img src="/logo.png" alt="logo">
                <div style="background-image: url(data:image/gif;base64,R0lGODlhAQABAAAAACw=)"></div>
                <video src="https://media.example.net/intro.mp4"></video>
                <p>Our old address was http://example.com/logo.png</p>
                """]),
        ])

    func check(_ context: LintContext) -> [Diagnostic] { contentFindings(context) }
}
