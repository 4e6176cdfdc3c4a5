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
        another configuration (another directory's `.htaccess`, a directory's URL). The line \
        reported is the one Apache used for the URL: a subdirectory's `.htaccess` replaces the \
        root's and the virtual host's there. Put the page where the directive says and let \
        everyone read it.
        """,
        severity: .warning,
        triggering: [Example("↓ErrorDocument 404 /404.html"),
                     Example("↓ErrorDocument 404 /errors/not-found.html", pages: ["/errors/404.html": "<p>Not found</p>"]),
                     // Each URL's own line: the subdirectory's for its URLs, though the root's
                     // names the same page (and is reported for the root's).
                     Example("↓ErrorDocument 404 /404.html", parent: "ErrorDocument 404 /404.html")],
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
                      let directive = Self.directiveUsed(origin.trace, context)
                        ?? Self.directive(status: hop.status, page: origin.final.uri, context),
                      reported.insert(directive.range).inserted else { continue }
                // The page the line names (the request may have been rewritten from it).
                let page = Self.localPage(directive) ?? origin.final.uri
                // A page that exists can still fail where it is used: denied again under another
                // configuration (recorded: errordoc-403-page-same-config, for a directory's URL).
                let why = !site.files.isFile(site.documentRoot + page) ? "\(page) does not exist"
                    : origin.final.uri == page ? "\(page) answers an error itself there"
                    : "\(page) is rewritten to \(origin.final.uri), which answers an error"
                found.append(finding("\(hop.url) gets Apache's default \(hop.status) page instead of `ErrorDocument \(hop.status) \(page)`: "
                                     + why, at: directive.range))
            }
        }
        return found
    }

    /// The `ErrorDocument` line Apache used for the request: the one the trace names for the
    /// page's internal redirect (the line of the configuration that applies to the failing URL:
    /// a subdirectory's `.htaccess` over the virtual host's, say), when it is one of the files.
    static func directiveUsed(_ trace: [TraceEvent], _ context: LintContext) -> DirectiveNode? {
        guard let range = trace.first(where: { $0.kind == .internalRedirect && $0.detail.hasPrefix("ErrorDocument ") })?.range,
              let file = context.file(containing: range) else { return nil }
        return file.directives.first { $0.range == range }
    }

    /// The URL-path an `ErrorDocument` line names (its query left out, percent-escapes decoded);
    /// nil for a message or a full URL.
    static func localPage(_ d: DirectiveNode) -> String? {
        guard d.words.count == 2, d.words[1].value.hasPrefix("/") else { return nil }
        let path = String(d.words[1].value.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        return path.removingPercentEncoding ?? path
    }

    /// The `ErrorDocument` line for `status` whose local page is `page` (its query left out):
    /// the first in the files, where the trace does not name one.
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
