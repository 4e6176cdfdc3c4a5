import HtlintContent
import HtlintDiagnostics
import HtlintSimulation

/// The pages a browser reaches from start URLs (issue 6 item 2): each URL is followed through the
/// configured layers to its final answer; a 200 with an HTML file of the document root is a page;
/// its same-site links and frames are followed breadth-first, in source order, at their https
/// URL (the site is checked as served over https).
public enum SiteCrawler {
    /// A start URL that did not end on a page, and why.
    public struct Skipped: Hashable, Sendable {
        /// The start URL.
        public var url: String
        /// "ends with 404", "ends on `http://…`, not https"….
        public var reason: String
    }

    /// What a crawl found.
    public struct Result: Sendable {
        /// The pages, in the order they were reached (each file once).
        public var pages: [ServedPage]
        /// Start URLs that reached no page.
        public var skipped: [Skipped]
    }

    /// Crawls from `starts` through `context.simulator`, reading pages from `context.content`,
    /// until `maxPages` pages (and at most ten requests per page) — deterministic for a given site.
    public static func crawl(from starts: [String], in context: LintContext, maxPages: Int) -> Result {
        guard let simulator = context.simulator else {
            return Result(pages: [], skipped: starts.map { Skipped(url: $0, reason: "there is no site to simulate") })
        }
        let hosts = Set(context.hosts.map { $0.lowercased() })
        var queue = starts.map(withoutFragment)
        var requested = Set(queue)
        var paths = Set<String>()
        var result = Result(pages: [], skipped: [])
        var index = 0
        let budget = starts.count + maxPages * 10
        while index < queue.count, index < budget, result.pages.count < maxPages {
            let url = queue[index]
            let isStart = index < starts.count
            index += 1
            let chain = simulator.run(url, method: "GET", headers: [])
            switch page(chain, context: context) {
            case .failure(let reason):
                if isStart { result.skipped.append(Skipped(url: starts[index - 1], reason: reason)) }
            case .success(let (page, file)):
                guard paths.insert(page.path).inserted else { continue }
                result.pages.append(page)
                let scan = PageScanner.scanHTML(file, pageURL: page.url)
                let next = (scan.links + scan.references)
                    .filter { $0.kind == .link || $0.kind == .frame }
                    .sorted { $0.range.start < $1.range.start }
                for reference in next {
                    guard let resolved = reference.resolvedURL, let secure = httpsForm(resolved),
                          let host = URIReference(parsing: secure).host?.lowercased(), hosts.contains(host) else { continue }
                    let target = withoutFragment(secure)
                    if requested.insert(target).inserted { queue.append(target) }
                }
            }
        }
        return result
    }

    private enum Outcome {
        case success((ServedPage, SourceFile))
        case failure(String)
    }

    /// The page a chain ends on, or why it is none.
    private static func page(_ chain: ChainResult, context: LintContext) -> Outcome {
        guard let last = chain.hops.last else { return .failure("gets no answer") }
        switch chain.outcome {
        case .final: break
        case .loop: return .failure("ends in a redirect loop")
        case .tooManyHops: return .failure("redirects too many times")
        case .offsite: return .failure("redirects off the site")
        case .error: return .failure(chain.errorMessage.map { "fails: \($0)" } ?? (last.status > 0 ? "fails with \(last.status)" : "gets no answer"))
        }
        guard (200..<300).contains(last.status) else { return .failure("ends with \(last.status)") }
        guard last.url.lowercased().hasPrefix("https:") else { return .failure("ends on `\(last.url)`, not https") }
        guard let served = last.served else {
            return .failure("is answered by \(last.answeredBy == "apache" ? "Apache" : last.answeredBy) without a file of the document root")
        }
        let path = served.hasPrefix("/") ? served : "/" + served
        guard SiteContent.isPage(path) else {
            return .failure("serves `\(path)`, which is not an HTML file (a script's output cannot be read)")
        }
        guard let file = context.content.file(path) else { return .failure("serves `\(path)`, which cannot be read") }
        return .success((ServedPage(url: last.url, path: path), file))
    }

    private static func httpsForm(_ url: String) -> String? { MixedContentAnalysis.httpsForm(of: url) }
    private static func withoutFragment(_ url: String) -> String { MixedContentAnalysis.withoutFragment(url) }
}
