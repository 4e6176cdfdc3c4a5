import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// `ErrorDocument 404 http://…`: Apache answers the error with a 302 to the URL, so clients
/// never see the error status; for 401 it ignores the line altogether. Recorded on Apache
/// 2.4.71: errordoc-url-405-redirect-no-allow (the 404 is a 302 to the page),
/// errordoc-401-full-url-ignored (the inherited local 401 page is used).
struct ErrorDocumentFullURL: LintRule {
    let description = RuleDescription(
        id: "HT222", name: "errordocument-full-url", family: .semantics,
        summary: "`ErrorDocument` with a full URL: the error becomes a 302 redirect (a 401 line is ignored)",
        rationale: """
        With a local path (`ErrorDocument 404 /404.html`) Apache serves the page with the error's \
        status. With a full URL, even one on the same site, it sends a **302** to it instead: \
        browsers, crawlers and uptime checks never see the 404 or 500, so search engines index \
        the error page (a soft 404) and broken links look like redirects; a missing page behind \
        such a redirect loops (HT301). For 401 Apache refuses the redirect outright (AH00113 at \
        start-up) and keeps the previous `ErrorDocument 401`, because the browser would never see \
        the challenge and could not ask for a password. Use a local path.
        """,
        severity: .warning,
        triggering: [Example("ErrorDocument 404 ↓https://example.com/404.html"),
                     Example("ErrorDocument 401 ↓http://example.com/login.html")],
        nonTriggering: [Example("ErrorDocument 404 /404.html"),
                        // Text with a blank is a message, whatever it holds.
                        Example("ErrorDocument 500 \"Sorry: see https://status.example.com\""),
                        Example("ErrorDocument 301 https://example.com/moved.html")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.directives.compactMap { d -> Diagnostic? in
                guard d.key == "errordocument" else { return nil }
                let words = d.words
                guard words.count == 2, ConfigReader.isFullURL(words[1].value) else { return nil }
                let code = atoi(words[0].value)
                // Only errors: a 2xx or 3xx has no status to lose.
                guard (400...599).contains(code) else { return nil }
                if code == 401 {
                    return finding("Apache ignores `ErrorDocument 401` with a full URL (AH00113): the browser would never see the "
                                   + "challenge; the previous `ErrorDocument 401` or the default page is used. Use a local path",
                                   at: words[1].range)
                }
                return finding("`ErrorDocument \(words[0].value)` with a full URL answers every \(code) with a 302 to it: clients and "
                               + "crawlers never see the \(code); use a local path (`\(Self.localPath(words[1].value))`)",
                               at: words[1].range)
            }
        }
    }

    /// The URL's path, as the local path to suggest.
    static func localPath(_ url: String) -> String {
        guard let parts = URLParts(url), !parts.pathOmitted else { return "/…" }
        return parts.target
    }
}
