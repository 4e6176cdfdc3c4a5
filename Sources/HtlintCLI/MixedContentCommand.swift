import Foundation
import HtlintDiagnostics
import HtlintReporting
import HtlintRules

/// `htlint mixed-content`: what an https visit of the site's pages loads over http, and the
/// HTTPS hygiene around it (issue 6), reported like `lint`.
struct MixedContentCommand {
    static let help = """
    usage: htlint mixed-content [options] [site options] [URL|PATH...]

    Reports what browsers do when the site's pages are served over https and still reference
    http: blocked and upgraded subresources, forms, downloads, refreshes and same-site links
    (HT501–HT507), together with the HTTPS hygiene checks (HSTS: HT401, HT403–HT406; WordPress:
    HT310, HT311). Findings point at the URL's first character in the HTML or CSS file.

    PATHs are HTML files under --docroot, checked as served at https://HOST/<path under docroot>.
    URLs (default: https://HOST/) are followed through the configured layers to their final
    answer; the page's file is read from the document root and same-site links are followed
    breadth-first, up to --max-pages pages. Style sheets a page links or @imports are checked
    against the page. For the site's own hosts the simulator tells whether the https form of an
    http reference is served (rewriting it is then a safe fix) and whether an https reference
    redirects to http. `Content-Security-Policy: upgrade-insecure-requests` sent by a Header
    directive or a <meta> element is taken into account.

    options:
      --max-pages N       pages to check when crawling (default 50)
      --format FORMAT     text (default), concise, json, sarif, github, checkstyle, gitlab
      --fail-on LEVEL     error (default), warning or note: exit 1 when a finding is at or above it
      --color / --no-color  force colour on or off (default: on for a terminal, off with NO_COLOR)

    \(SiteOptions.help)

    Silence a code for the whole site with `# htlint disable-file=HT502` in its .htaccess.

    exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error or unreadable input
    """

    /// The codes this command runs: the mixed-content family and the HTTPS hygiene rules
    /// (spec §15 H7–H9, H21, H22).
    static let hygieneCodes: Set<String> = ["HT310", "HT311", "HT401", "HT403", "HT404", "HT405", "HT406"]

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: SiteOptions.valued.union(["--format", "--fail-on", "--max-pages"]),
                              booleans: SiteOptions.booleans.union(["--color", "--no-color", "-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let failOn: Severity
        let format: any ReportFormatter
        do {
            failOn = try FindingsOptions.failOn(a)
            format = try FindingsOptions.format(a, fallback: "text", terminal: io.isTerminal)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        var maxPages = 50
        if let n = a.value("--max-pages") {
            guard let v = Int(n), v > 0 else {
                out.err("htlint: --max-pages expects a positive number, got '\(n)'")
                return .failure
            }
            maxPages = v
        }
        let urls = a.positionals.filter(isURL)
        let paths = a.positionals.filter { !isURL($0) }
        if let problem = urls.lazy.compactMap(StartURL.problem).first {
            out.err("htlint: " + problem)
            return .failure
        }
        let urlHost = urls.first.flatMap { URLComponents(string: $0)?.host }

        var context: LintContext
        do {
            context = try LintCommand.siteContext(options, io: io, simulate: true, defaultHost: urlHost)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let host = context.hosts.first ?? "example.com"
        // siteContext has loaded the document root's content (LintCommand.siteContext).
        let docroot = SiteContent.documentRootPath(of: context) ?? options.docroot

        // PATHs: the files themselves, at the https URL their place under the document root gives.
        var pages: [ServedPage] = []
        var status = ExitStatus.clean
        for path in paths {
            guard let relative = relativePath(path, under: docroot) else {
                out.err("htlint: '\(path)' is not under the document root '\(docroot)'")
                status = .failure
                continue
            }
            guard context.content.file(relative) != nil else {
                out.err("htlint: cannot read '\(path)'")
                status = .failure
                continue
            }
            let encoded = relative.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relative
            pages.append(ServedPage(url: "https://\(host)\(encoded)", path: relative))
        }
        // URLs, or the home page when nothing is named: the pages the simulator reaches.
        if !urls.isEmpty || paths.isEmpty {
            let crawl = SiteCrawler.crawl(from: urls.isEmpty ? ["https://\(host)/"] : urls, in: context, maxPages: maxPages)
            for skipped in crawl.skipped { out.err("htlint: \(skipped.url) \(skipped.reason); no page to check there") }
            for page in crawl.pages where !pages.contains(where: { $0.path == page.path }) { pages.append(page) }
        }
        context.content.pages = pages

        var configuration = LintConfiguration()
        let rules = builtInRules.filter { $0.description.family == .mixedContent || hygieneCodes.contains($0.description.id) }
        configuration.only = Set(rules.map(\.description.id))
        let diagnostics = Linter(rules: rules, configuration: configuration).run(context)
        var report = Report(diagnostics: diagnostics, sources: context.files.map(\.source) + context.content.loadedFiles)
        report.rules = LintCommand.ruleMetadata()
        report.toolVersion = CLI.version
        out.stdout += format.format(report)
        if diagnostics.contains(where: { $0.severity >= failOn }) { status = max(status, .findings) }
        return status
    }

    static func isURL(_ argument: String) -> Bool {
        let lower = argument.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// `/blog/index.html` for `DOCROOT/blog/index.html`; `nil` outside the document root.
    static func relativePath(_ path: String, under docroot: String) -> String? {
        let file = URL(fileURLWithPath: path).standardizedFileURL.path
        var root = URL(fileURLWithPath: docroot).standardizedFileURL.path
        if !root.hasSuffix("/") { root += "/" }
        guard file.hasPrefix(root), file.count > root.count else { return nil }
        return "/" + file.dropFirst(root.count)
    }
}

extension SiteContent {
    /// The document root `DIR` on disk: its HTML pages and `wp-config.php` files are listed, and
    /// any file is read through `io` on first use, shown as `DIR/<path>` (as `SiteFileSystem.load`
    /// shows `.htaccess` files).
    static func documentRoot(_ dir: String, io: CLIEnvironment) -> SiteContent {
        let display = dir.count > 1 && dir.hasSuffix("/") ? String(dir.dropLast()) : dir
        let listed = (io.listDirectory(dir) ?? []).map { "/" + $0 }
        let paths = listed.filter { isPage($0) || $0.hasSuffix("/wp-config.php") }
        return SiteContent(paths: paths) { path in
            guard let bytes = try? io.readFile(display + path) else { return nil }
            return SourceFile(path: display + path, bytes: bytes)
        }
    }

    /// The directory the context's site was loaded from, as its root `.htaccess` is shown
    /// (`DIR/.htaccess`): right even when the document root comes from `--site FILE`.
    static func documentRootPath(of context: LintContext) -> String? {
        guard let root = context.files.first(where: { $0.directory == "/" && $0.context == .htaccess }),
              root.source.path.hasSuffix("/.htaccess") else { return nil }
        return String(root.source.path.dropLast("/.htaccess".count))
    }
}
