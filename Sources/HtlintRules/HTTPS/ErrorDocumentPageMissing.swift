import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
import HtlintSyntax

/// `ErrorDocument 404 /404.html` where the page itself cannot be served: Apache sends its own
/// error page with "Additionally, a 404 Not Found error was encountered while trying to use an
/// ErrorDocument to handle the request" (recorded: errordoc-missing-page-logged-status, a 403 whose page is missing).
struct ErrorDocumentPageMissing: LintRule {
    let description = RuleDescription(
        id: "HT320", name: "errordocument-page-missing", family: .https,
        summary: "an `ErrorDocument` page that is missing or fails itself: visitors get Apache's default error page",
        rationale: """
        Found by simulation, on URLs of the site that answer an error. When the page an \
        `ErrorDocument` names is missing (moved, renamed, never deployed), denied or rewritten \
        to something that fails, Apache gives up on it and sends its own bare error page, \
        which adds "Additionally, a 404 Not Found error was encountered while trying to use \
        an ErrorDocument to handle the request". A page that exists can fail too: a \
        `Require` that denied the request is checked again for the page when it lies under \
        another configuration (another directory's `.htaccess`, a directory's URL). Put the \
        page where the directive says and let everyone read it.
        """,
        severity: .warning,
        triggering: [Example("↓ErrorDocument 404 /404.html"),
                     Example("↓ErrorDocument 404 /errors/not-found.html", pages: ["/errors/404.html": "<p>Not found</p>"])],
        nonTriggering: [Example("ErrorDocument 404 /404.html", pages: ["/404.html": "<p>Not found</p>"]),
                        Example("ErrorDocument 404 \"Sorry, no such page\"")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let site = context.simulator?.origin.site else { return [] }
        var reported = Set<SourceRange>()
        var found: [Diagnostic] = []
        for probe in context.probes {
            for hop in probe.chain.hops {
                // The page's request ran (an internal redirect), and nothing was served.
                guard let origin = hop.origin, origin.internalRedirects > 0, origin.served == nil,
                      hop.status >= 400, !origin.recursionLimitExceeded,
                      let directive = Self.directive(status: hop.status, page: origin.final.uri, context),
                      reported.insert(directive.range).inserted else { continue }
                let page = origin.final.uri
                // A page that exists can still fail where it is used: denied again under another
                // configuration (recorded: errordoc-403-page-same-config, for a directory's URL).
                let why = site.files.isFile(site.documentRoot + page) ? "\(page) answers an error itself there"
                    : "\(page) does not exist"
                found.append(finding("\(hop.url) gets Apache's default \(hop.status) page instead of `ErrorDocument \(hop.status) \(page)`: "
                                     + why, at: directive.range))
            }
        }
        return found
    }

    /// The `ErrorDocument` line for `status` whose local page is `page` (its query left out).
    static func directive(status: Int, page: String, _ context: LintContext) -> DirectiveNode? {
        for file in context.files {
            for d in file.directives where d.key == "errordocument" && d.words.count == 2 && atoi(d.words[0].value) == status {
                let target = d.words[1].value
                guard target.hasPrefix("/") else { continue }
                let path = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? target
                if path == page || path.removingPercentEncoding == page { return d }
            }
        }
        return nil
    }
}
