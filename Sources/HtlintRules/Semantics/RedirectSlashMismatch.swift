import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// `Redirect /old /new/` or `Redirect /docs/ /manual`: mod_alias appends what follows the
/// matched prefix to the target as it is, so a trailing slash on one side only doubles or loses
/// the slash between them. Recorded on Apache 2.4.71 (alias-redirect-trailing-slash-mismatch):
/// /old/x → /new//x, /docs/x → /manualx, and with `https://www.example.net` as the target of
/// /moved/, /moved/x → `https://www.example.netx`, another host.
struct RedirectSlashMismatch: LintRule {
    let description = RuleDescription(
        id: "HT224", name: "redirect-slash-mismatch", family: .semantics,
        summary: "`Redirect` whose URL-path and target disagree on the trailing slash: deeper URLs get `//` or lose their `/`",
        rationale: """
        `Redirect` matches its URL-path as a prefix (by whole segments) and appends the rest of \
        the request's path to the target unchanged. When only the URL-path ends with `/`, the slash \
        between them is lost: `Redirect 301 /docs/ /manual` sends `/docs/guide` to `/manualguide`, \
        and `Redirect 301 /shop/ https://shop.example` sends `/shop/cart` to the host \
        `shop.examplecart`. When only the target ends with `/`, it is doubled: \
        `Redirect 301 /old /new/` sends `/old/page` to `/new//page` (reported where `/old` is a \
        directory of the site, which `lint --no-simulation` reads too: `Redirect 301 /about.html \
        /about/` moves a page). End both with a \
        slash or neither (`Redirect 301 /docs/ /manual/`, `Redirect 301 /old /new`).
        """,
        severity: .warning,
        triggering: [Example("Redirect 301 /docs/ ↓/manual"),
                     Example("Redirect 301 /old ↓/new/", pages: ["/old/index.html": "<p>old</p>"]),
                     Example("RedirectPermanent /shop/ ↓https://shop.example.com")],
        nonTriggering: [Example("Redirect 301 /docs/ /manual/"),
                        Example("Redirect 301 /old /new"),
                        Example("Redirect 301 /about.html /about/"),
                        Example("Redirect 301 / https://www.example.com/"),
                        Example("Redirect gone /removed/")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.redirects.compactMap { redirect -> Diagnostic? in
                guard case .prefix(let source) = redirect.matcher, let target = redirect.target,
                      let path = Self.path(of: target) else { return nil }
                let sourceSlash = source.hasSuffix("/"), targetSlash = path.hasSuffix("/")
                guard sourceSlash != targetSlash else { return nil }
                // `Redirect /about.html /about/` is a page moving: nothing lies below it. A doubled
                // slash matters where the URL-path is a directory of the site.
                if !sourceSlash, !Self.isDirectory(source, context) { return nil }
                let rest = sourceSlash ? "x" : "/x"
                let sent = target + rest
                let what = sourceSlash
                    ? (path.isEmpty ? "`\(source)\(rest)` is sent to `\(sent)`, another host" : "`\(source)\(rest)` is sent to `\(sent)`, without the slash")
                    : "`\(source)\(rest)` is sent to `\(sent)`, with a double slash"
                let word = file.directives.first { $0.range == redirect.range }?.words.last?.range
                return finding("\(what): end both the URL-path and the target with a slash, or neither", at: word ?? redirect.range)
            }
        }
    }

    /// Whether the site has a directory at the URL-path (false when the site is not known).
    static func isDirectory(_ urlPath: String, _ context: LintContext) -> Bool {
        guard let site = context.site else { return false }
        return site.files.isDirectory(site.mountedRoot + urlPath)
    }

    /// The target's path: all of a local one, a full URL's after its host ("" when it has
    /// none); nil when the target has a query or fragment, where the rest goes after it.
    static func path(of target: String) -> String? {
        guard !target.contains("?"), !target.contains("#") else { return nil }
        guard let url = URLParts(target) else { return target }
        return url.pathOmitted ? "" : url.target
    }
}
