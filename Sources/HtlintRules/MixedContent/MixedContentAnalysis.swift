import Foundation
import HtlintApache
import HtlintContent
import HtlintDiagnostics
import HtlintSimulation

/// The HT5xx codes, by what they report (spec §14.2's verdicts, §14.4).
enum ContentCode {
    static let blocked = "HT501"
    static let upgraded = "HT502"
    static let form = "HT503"
    static let redirectDowngrade = "HT504"
    static let link = "HT505"
    static let download = "HT506"
    static let refresh = "HT507"
    /// Not mixed content, but found in the same pass over the pages' forms.
    static let postRedirected = "HT318"

    static func code(for verdict: MixedContentVerdict) -> String {
        switch verdict {
        case .blocked: blocked
        case .upgraded: upgraded
        case .form: form
        case .insecureLink: link
        case .download: download
        case .downgrade: refresh
        }
    }
}

/// Every mixed-content finding of a context's pages, computed once and shared by the HT5xx
/// rules, each of which keeps its own code.
///
/// For each page: `PageScanner` with the page's https URL; the style sheets it links or
/// `@import`s, scanned with `CSSScanner` against their own URL and classified against the page;
/// `MixedContent.classify` per reference, with `upgrade-insecure-requests` from a `<meta>` or
/// from the page's response headers (spec §14.5). The simulator adds what the page alone cannot
/// tell, for URLs on the site's own hosts: whether the `https` form of an `http` reference is
/// served (then rewriting it is a safe fix), and whether an `https` reference redirects to `http`
/// (downgrade via redirect, §14.4).
struct MixedContentAnalysis {
    let context: LintContext
    /// The site's host names, lower-case (ServerName and aliases).
    let siteHosts: Set<String>
    /// Chains by URL (`POST ` before a form submission's): each is simulated once.
    private var chains: [String: ChainResult] = [:]
    /// Files already scanned: a page reached at two URLs, or a style sheet shared by pages,
    /// is reported once (for the first page that loads it).
    private var scannedFiles: Set<String> = []
    private var scannedSheets: Set<String> = []
    private var found: [Diagnostic] = []

    /// Style sheets nest `@import`s; browsers stop cycles themselves, this bounds the depth.
    static let maxImportDepth = 8

    init(_ context: LintContext) {
        self.context = context
        siteHosts = Set(context.hosts.map { $0.lowercased() })
    }

    /// The findings of all pages, in page order.
    static func run(_ context: LintContext) -> [Diagnostic] {
        guard !context.content.isEmpty else { return [] }
        var analysis = MixedContentAnalysis(context)
        for page in analysis.pages() { analysis.check(page) }
        return analysis.found
    }

    // MARK: Pages

    /// The pages to check: the content's own list, or every HTML file of the document root at
    /// its https URL — when the simulator is there, only those it serves over https with a 200
    /// (a file the configuration hides or downgrades is not an https page), at the URL the
    /// chain ends on.
    private mutating func pages() -> [ServedPage] {
        if let pages = context.content.pages { return pages }
        let host = context.hosts.first ?? "example.com"
        var out: [ServedPage] = []
        for path in context.content.paths where SiteContent.isPage(path) {
            let url = "https://\(host)\(path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)"
            guard context.simulator != nil else { out.append(ServedPage(url: url, path: path)); continue }
            // A URL the configuration rewrites to a script (WordPress's index.php) serves output
            // htlint cannot read.
            guard let answer = servedAnswer(url), answer.url.lowercased().hasPrefix("https:"),
                  SiteContent.isPage(answer.path) else { continue }
            out.append(ServedPage(url: answer.url, path: answer.path))
        }
        return out
    }

    private mutating func check(_ page: ServedPage) {
        guard let file = context.content.file(page.path), scannedFiles.insert(file.path).inserted else { return }
        let scan = PageScanner.scanHTML(file, pageURL: page.url)
        let upgrades = scan.upgradesInsecureRequests || sendsUpgradeInsecureRequests(page.url)
        for reference in (scan.references + scan.links).sorted(by: { $0.range.start < $1.range.start }) {
            report(reference, page: page.url, base: scan.base, upgrades: upgrades, includedBy: nil)
        }
        for reference in scan.references where reference.kind == .style {
            if let url = reference.resolvedURL { checkStyleSheet(url, page: page.url, upgrades: upgrades, depth: 0) }
        }
    }

    /// A linked or imported style sheet: its references load into the page, so they are
    /// classified against the page, resolved against the sheet's own URL (CSS Values and Units, `url()`).
    /// An `http` sheet is blocked today, but once its reference is rewritten its content loads
    /// over https: it is read at its https URL.
    private mutating func checkStyleSheet(_ url: String, page: String, upgrades: Bool, depth: Int) {
        guard depth < Self.maxImportDepth, let secure = Self.httpsForm(of: url), isSameSite(secure),
              scannedSheets.insert(Self.withoutFragment(secure)).inserted,
              let path = servedPath(secure), path.lowercased().hasSuffix(".css"),   // not a script's output
              let file = context.content.file(path),
              scannedFiles.insert(file.path).inserted else { return }
        for reference in CSSScanner.scan(file, baseURL: secure) {
            report(reference, page: page, base: nil, upgrades: upgrades, includedBy: page)
            if reference.kind == .style, let next = reference.resolvedURL {
                checkStyleSheet(next, page: page, upgrades: upgrades, depth: depth + 1)
            }
        }
    }

    /// Whether the page's response carries `Content-Security-Policy: upgrade-insecure-requests`
    /// (spec §14.5): from the simulated answer's headers when there is a simulator, else from
    /// any `Header` directive of the configuration that sets it.
    private mutating func sendsUpgradeInsecureRequests(_ url: String) -> Bool {
        if isSameSite(url), let chain = chain(url), let origin = chain.hops.last?.origin {
            return origin.headers.contains { $0.name.lowercased() == "content-security-policy" && Self.hasUpgradeDirective($0.value) }
        }
        return context.files.contains { file in
            allHeaders(file.config.block).contains {
                $0.name.lowercased() == "content-security-policy" && ["set", "add", "append", "merge", "setifempty"].contains($0.action)
                    && Self.hasUpgradeDirective($0.value)
            }
        }
    }

    static func hasUpgradeDirective(_ policy: String) -> Bool {
        policy.split(separator: ";").contains {
            $0.trimmingCharacters(in: .whitespaces).lowercased() == "upgrade-insecure-requests"
        }
    }

    // MARK: One reference

    private mutating func report(_ reference: ResourceReference, page: String, base: ResourceReference?,
                                 upgrades: Bool, includedBy: String?) {
        var notes: [Note] = []
        if reference.resolvedThroughBase, let base {
            notes.append(Note(message: "relative URLs resolve against this `<base href>`", range: base.range))
        }
        if let includedBy { notes.append(Note(message: "the style sheet is loaded by the page `\(includedBy)`")) }
        if let finding = MixedContent.classify(reference, pageURL: page, upgradeInsecureRequests: upgrades) {
            reportMixed(finding, page: page, notes: notes)
        } else if reference.kind.isSubresource || reference.kind == .form {
            reportRedirectDowngrade(reference, page: page, notes: notes)
        }
        if reference.kind == .form, reference.detail == "method=post" { reportPostRedirect(reference, notes: notes) }
    }

    /// Hygiene rule H6: a form that posts to a same-site URL the configuration answers with a
    /// 301 or 302 (a trailing-slash or https redirect): the browser follows with a GET, without
    /// the form's data (Fetch, HTTP-redirect fetch). A 303 means that on purpose, and an
    /// application's own redirect after handling the POST (WordPress) is its business.
    private mutating func reportPostRedirect(_ reference: ResourceReference, notes: [Note]) {
        guard let url = reference.resolvedURL, isSameSite(url), let result = chain(url, method: "POST"),
              let index = result.hops.indices.dropLast().first(where: { i in
                  let hop = result.hops[i]
                  return [301, 302].contains(hop.status) && hop.answerer != .app && hop.method == "POST" && result.hops[i + 1].method == "GET"
              }) else { return }
        let hop = result.hops[index]
        let target = Self.resolvedLocation(hop) ?? hop.location ?? ""
        var notes = notes
        if let source = hop.redirectSource {
            notes.append(Note(message: "`\(hop.url)` is redirected with \(hop.status) here", range: source))
        }
        var fixes: [FixIt] = []
        if let fix = postTargetFix(reference, posted: url, result: result) { fixes.append(fix) }
        found.append(Diagnostic(
            code: ContentCode.postRedirected, severity: .warning,
            message: "\(reference.contextDescription) posts to `\(reference.url)`, which answers \(hop.status) → `\(target)`: "
                + "the browser follows with a GET, without the form's data (307 or 308 would keep the POST)",
            range: reference.range, notes: notes, fixIts: fixes))
    }

    /// "Post to the final URL" when the chain only moved the same resource (a trailing slash, the
    /// scheme or the host) and a POST there is answered without a redirect; a relative action
    /// stays relative.
    private mutating func postTargetFix(_ reference: ResourceReference, posted: String, result: ChainResult) -> FixIt? {
        guard result.outcome == .final, let last = result.hops.last, (200..<300).contains(last.status),
              let from = URLParts(Self.withoutFragment(posted)), let to = URLParts(last.url),
              from.path == to.path || from.path + "/" == to.path || from.path == to.path + "/",
              (from.query ?? "") == (to.query ?? ""),
              let direct = chain(last.url, method: "POST"), direct.hops.count == 1, (200..<300).contains(direct.hops[0].status) else { return nil }
        let relative = !reference.url.contains(":") && !reference.url.hasPrefix("//")
        let replacement = relative && from.scheme == to.scheme && from.host == to.host
            ? (reference.url.hasPrefix("/") ? to.path + (to.query.map { "?" + $0 } ?? "") : nil) : last.url
        guard let replacement else { return nil }
        return FixIt(title: "Post to `\(replacement)`, which answers without a redirect",
                     edits: [TextEdit(range: reference.range, replacement: replacement)], applicability: .unsafe)
    }

    private mutating func reportMixed(_ finding: MixedContentFinding, page: String, notes: [Note]) {
        let code = ContentCode.code(for: finding.verdict)
        let host = URIReference(parsing: finding.insecureURL).host?.lowercased() ?? ""
        let sameSite = siteHosts.contains(host) || host == URIReference(parsing: page).host?.lowercased()
        // Links to other sites are theirs to secure; only the site's own links are worth a note (§14.2).
        if finding.verdict == .insecureLink, !sameSite { return }
        var notes = notes
        var fixes: [FixIt] = []
        var fix = finding.fix
        if sameSite, finding.insecureURL.lowercased().hasPrefix("http:") {
            if let status = secureStatus(finding.secureURL) {
                if status.served {
                    fix?.applicability = .safe
                    notes.append(Note(message: "`\(finding.secureURL)` is served (\(status.text)), so the reference can use it"))
                } else {
                    let upgraded = finding.verdict == .upgraded ? "Chrome and Firefox request it instead, but " : ""
                    notes.append(Note(message: "\(upgraded)`\(finding.secureURL)` is not served: \(status.text)"))
                }
            }
        }
        if let fix { fixes.append(fix) }
        if finding.verdict == .blocked || finding.verdict == .form, let csp = upgradeInsecureRequestsFix() { fixes.append(csp) }
        found.append(Diagnostic(code: code, severity: finding.severity, message: finding.message,
                                range: finding.reference.range, notes: notes, fixIts: fixes))
    }

    /// Spec §14.4: an `https` (or scheme-relative, or relative) subresource or form target on the
    /// site that the configured layers redirect to `http`. The browser checks again at the
    /// redirect: blockable requests are blocked there, upgradeable ones are upgraded back to
    /// `https` — which loops when the server insists on `http` (L26) — and a form submission warns.
    private mutating func reportRedirectDowngrade(_ reference: ResourceReference, page: String, notes: [Note]) {
        guard let url = reference.resolvedURL, url.lowercased().hasPrefix("https:"), isSameSite(url),
              MixedContent.isPotentiallyTrustworthy(page), let result = chain(url),
              let index = result.hops.firstIndex(where: { Self.downgrades($0) }) else { return }
        let hop = result.hops[index]
        let target = Self.resolvedLocation(hop) ?? hop.location ?? ""
        var notes = notes
        if let source = hop.redirectSource {
            notes.append(Note(message: "`\(hop.url)` is redirected to `\(target)` here", range: source))
        }
        let what = reference.contextDescription
        let written = "`\(reference.url)`" + (hop.url == url && reference.url == url ? "" : " (`\(hop.url)`)")
        var fixes: [FixIt] = []
        if let last = result.hops.last, result.outcome == .final, (200..<300).contains(last.status),
           last.url.lowercased().hasPrefix("https:") {
            let edit = TextEdit(range: reference.range, replacement: last.url)
            fixes.append(FixIt(title: "Use the final URL `\(last.url)`", edits: [edit], applicability: .unsafe))
        }
        if reference.kind == .form {
            found.append(Diagnostic(
                code: ContentCode.form, severity: .error,
                message: "\(what) submits to \(written), which redirects to `\(target)`: browsers warn at the submission",
                range: reference.range, notes: notes, fixIts: fixes))
            return
        }
        // Classify the request as the browser sees it at the redirect.
        var atRedirect = reference
        atRedirect.resolvedURL = target
        atRedirect.resolvedThroughBase = false
        guard let redirected = MixedContent.classify(atRedirect, pageURL: page) else { return }
        var severity = Severity.error
        var outcome: String
        if redirected.verdict == .upgraded {
            let again = chain(redirected.secureURL).map { $0.hops.contains { Self.downgrades($0) } || $0.outcome != .final }
            switch again {
            case true?:
                outcome = "Chrome and Firefox upgrade it back to `\(redirected.secureURL)`, which redirects to http again "
                    + "until the redirect limit, so it fails; Safari loads it over http"
            case false?:
                severity = .warning
                outcome = "upgraded back to `\(redirected.secureURL)` by Chrome and Firefox, loaded over http by Safari"
            case nil:
                severity = .warning
                outcome = MixedContent.summary(redirected.behaviour)
            }
        } else {
            outcome = "\(redirected.specClass == .blockable ? "blockable mixed content at the redirect, " : "")"
                + MixedContent.summary(redirected.behaviour)
        }
        found.append(Diagnostic(
            code: ContentCode.redirectDowngrade, severity: severity,
            message: "\(what) loads \(written), which redirects to `\(target)`: \(outcome)",
            range: reference.range, notes: notes, fixIts: fixes))
    }

    /// "Send `Content-Security-Policy: upgrade-insecure-requests`" (spec §14.5): a `Header` line
    /// at the end of the root `.htaccess`. Unsafe: every upgraded host must serve https.
    private func upgradeInsecureRequestsFix() -> FixIt? {
        guard let root = context.files.first(where: { $0.context == .htaccess && $0.directory == "/" }) else { return nil }
        let bytes = root.source.bytes
        let prefix = bytes.isEmpty || bytes.last == UInt8(ascii: "\n") ? "" : "\n"
        let edit = TextEdit(range: root.source.range(bytes.count, bytes.count),
                            replacement: prefix + "Header always set Content-Security-Policy \"upgrade-insecure-requests\"\n")
        return FixIt(title: "Send `Content-Security-Policy: upgrade-insecure-requests` from `\(root.source.path)`",
                     edits: [edit], applicability: .unsafe)
    }

    // MARK: Simulation

    private func isSameSite(_ url: String) -> Bool {
        guard let host = URIReference(parsing: url).host?.lowercased() else { return false }
        return siteHosts.contains(host)
    }

    /// The chain of a same-site URL requested with `method` (a form's POST), simulated once;
    /// `nil` without a simulator.
    private mutating func chain(_ url: String, method: String = "GET") -> ChainResult? {
        guard let simulator = context.simulator, isSameSite(url) else { return nil }
        let target = Self.withoutFragment(url)
        let key = method == "GET" ? target : method + " " + target
        if let known = chains[key] { return known }
        let result = simulator.run(target, method: method, headers: [])
        chains[key] = result
        return result
    }

    /// The file and final URL when a URL ends on a 200 answer with a file from the document root.
    private mutating func servedAnswer(_ url: String) -> (url: String, path: String)? {
        guard let chain = chain(url), chain.outcome == .final, let last = chain.hops.last,
              (200..<300).contains(last.status), let served = last.served else { return nil }
        return (last.url, served.hasPrefix("/") ? served : "/" + served)
    }

    /// The document-root file a URL serves: through the simulator when there is one, else the
    /// URL's path itself.
    private mutating func servedPath(_ url: String) -> String? {
        if context.simulator != nil { return servedAnswer(url)?.path }
        let path = URIReference(parsing: url).path
        return path.removingPercentEncoding ?? path
    }

    /// Whether the https form of a same-site URL is served, in words ("200", "404", "a redirect loop").
    private mutating func secureStatus(_ url: String) -> (served: Bool, text: String)? {
        guard let chain = chain(url), let last = chain.hops.last else { return nil }
        switch chain.outcome {
        case .final:
            let served = (200..<300).contains(last.status) && last.url.lowercased().hasPrefix("https:")
            if !served, !last.url.lowercased().hasPrefix("https:") { return (false, "it redirects to `\(last.url)`") }
            return (served, "\(last.status)")
        case .loop: return (false, "it ends in a redirect loop")
        case .tooManyHops: return (false, "it redirects too many times")
        case .offsite: return (false, "it redirects off the site" + (last.location.map { " to `\($0)`" } ?? ""))
        case .error: return (false, chain.errorMessage.map { "it fails: \($0)" } ?? (last.status > 0 ? "it fails with \(last.status)" : "the request fails"))
        }
    }

    /// A redirect from an https URL to an http one.
    static func downgrades(_ hop: Hop) -> Bool {
        guard hop.url.lowercased().hasPrefix("https:"), (300..<400).contains(hop.status),
              let target = resolvedLocation(hop) else { return false }
        return target.lowercased().hasPrefix("http:")
    }

    static func resolvedLocation(_ hop: Hop) -> String? {
        hop.location.flatMap { URLResolver.resolveAsBrowser($0, against: hop.url) }
    }

    /// `https://…` for an `http://…` URL (explicit ports kept, as an upgrade does); https URLs as
    /// they are; `nil` for other schemes.
    static func httpsForm(of url: String) -> String? {
        let lower = url.lowercased()
        if lower.hasPrefix("https:") { return url }
        if lower.hasPrefix("http:") { return "https" + url.dropFirst(4) }
        return nil
    }

    static func withoutFragment(_ url: String) -> String {
        url.firstIndex(of: "#").map { String(url[..<$0]) } ?? url
    }
}

/// Mixed-content findings computed once per lint run (like `ProbeCache`).
final class ContentAnalysisCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cached: [Diagnostic]?

    func results(_ context: LintContext) -> [Diagnostic] {
        lock.lock()
        defer { lock.unlock() }
        if let c = cached { return c }
        let r = MixedContentAnalysis.run(context)
        cached = r
        return r
    }
}

extension LintContext {
    /// The mixed-content findings of the context's pages (all HT5xx codes).
    var mixedContentFindings: [Diagnostic] { contentCache.results(self) }
}

extension LintRule {
    /// The shared mixed-content findings with this rule's code.
    func contentFindings(_ context: LintContext) -> [Diagnostic] {
        context.mixedContentFindings.filter { $0.code == description.id }
    }
}
