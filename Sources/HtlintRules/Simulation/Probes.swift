import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintGraph
import HtlintRegex
import HtlintSimulation
import HtlintSyntax

/// The witness generator lives in HtlintGraph; the name stays available here (tests use it).
typealias RegexWitness = HtlintGraph.RegexWitness

/// One simulated request of the probe set and its chain.
public struct ProbeResult: Sendable {
    public var url: String
    public var chain: ChainResult
    /// The first request's method; only the method probes send another than GET.
    public var method = "GET"

    public init(url: String, chain: ChainResult, method: String = "GET") {
        self.url = url
        self.chain = chain
        self.method = method
    }

    /// The request as findings name it: the URL, after the method when that is not GET
    /// (`HEAD http://example.com/`, as `htlint explain --method HEAD` takes it).
    public var request: String { method == "GET" ? url : "\(method) \(url)" }
}

/// Generates requests that exercise a site — both schemes, every host, `/`, a URL matching each
/// rule's pattern, each `Redirect` path and `RedirectMatch` pattern, directories with and without their trailing slash,
/// a missing page where an `ErrorDocument` is set, `/name/` and `/name/x` for extension-hiding rewrites —
/// and simulates them once for all simulation-backed rules.
public enum ProbeSet {
    /// Upper bound on probes, so a 20,000-rule file stays fast; rules are sampled evenly beyond it.
    public static let limit = 400

    public static func paths(_ context: LintContext) -> [String] {
        var paths: [String] = ["/"]
        // What to find a matching URL for: (file, rule) or (file, redirect) by index. A large
        // file is sampled evenly first: a witness costs a regex analysis, and only `limit / 4`
        // paths are kept in the end anyway.
        enum Source { case rule(file: Int, index: Int), redirect(file: Int, index: Int) }
        var sources: [Source] = []
        for (f, file) in context.files.enumerated() {
            for (i, rule) in file.rules.enumerated() where !rule.negated { sources.append(.rule(file: f, index: i)) }
            for i in file.redirects.indices { sources.append(.redirect(file: f, index: i)) }
        }
        if sources.count > limit {
            let step = Double(sources.count) / Double(limit)
            sources = (0..<limit).map { sources[Int(Double($0) * step)] }
        }
        let shallow = context.simulator.map { shallowFiles(site: $0.origin.site) } ?? []
        let siteFiles = Array(shallow.prefix(64))
        var namedFiles: [String] = []   // asked last: the witnesses above stay each finding's first
        for source in sources {
            switch source {
            case .rule(let f, let i):
                // A subject of the right shape: `/…` in server context, relative in .htaccess;
                // verified with PCRE2 (the fallback covers lookarounds and backreferences).
                let file = context.files[f]
                let shape: RegexWitness.Shape = file.context == .server ? .absolutePath : .relativePath
                let dir = file.context == .server ? "/" : (file.directory ?? "/")
                if let named = fileMatching(file.rules[i].regex, in: siteFiles, directory: dir, server: file.context == .server) {
                    namedFiles.append(named)
                }
                guard let w = RegexWitness.witnesses(for: file.rules[i].regex, shape: shape).first?.text else { continue }
                paths.append(file.context == .server ? w : dir + w)
            case .redirect(let f, let i):
                switch context.files[f].redirects[i].matcher {
                case .prefix(let p): paths.append(p)
                // RedirectMatch sees the whole URL-path in every context.
                case .regex(let re):
                    if let w = RegexWitness.witnesses(for: re, shape: .absolutePath).first?.text { paths.append(w) }
                case .everything: break
                }
            }
        }
        if let site = context.simulator?.origin.site {
            let root = site.documentRoot
            for (path, node) in site.files.nodes where node == .directory && path.hasPrefix(root + "/") {
                let rel = String(path.dropFirst(root.count))
                if rel.split(separator: "/").count <= 2 { paths += [rel, rel + "/"] }
            }
            paths += errorDocumentPaths(context) + extensionHidingPaths(context, site: site)
                + pathInfoPaths(context) + fileWithPathInfoPaths(context, files: shallow) + sampleFilePaths(site: site)
        }
        paths += namedFiles + requestLinePaths(context)
        var seen = Set<String>()
        var unique = paths.map { p in
            var p = p
            while p.contains("//") { p = p.replacingOccurrences(of: "//", with: "/") }
            return p
        }.filter { seen.insert($0).inserted }
        if unique.count > limit / 4 {
            let step = Double(unique.count) / Double(limit / 4)
            unique = (0..<(limit / 4)).map { unique[Int(Double($0) * step)] }
        }
        return unique
    }

    /// A URL no file serves in each directory whose file sets an `ErrorDocument`: a full-URL
    /// `ErrorDocument 404 http://host/missing` redirects to a page that is missing too, and the
    /// browser loops (recorded from Apache: every 404 of the site ends in ERR_TOO_MANY_REDIRECTS).
    static func errorDocumentPaths(_ context: LintContext) -> [String] {
        var out: [String] = []
        for file in context.files where file.directives.contains(where: { $0.key == "errordocument" }) {
            out.append(file.context == .server ? "/no-such-page" : (file.directory ?? "/") + "no-such-page")
        }
        return out
    }

    /// Site files near the root (depth ≤ 3, no dot-files), sorted: where `fileWithPathInfoPaths`
    /// looks for a file in each directory, and (the first 64) what `fileMatching` tries each
    /// rule's pattern on.
    static func shallowFiles(site: Site) -> [String] {
        let root = site.documentRoot
        return site.files.nodes.compactMap { path, node -> String? in
            guard case .file = node, path.hasPrefix(root + "/") else { return nil }
            let rel = String(path.dropFirst(root.count))
            let parts = rel.split(separator: "/")
            return parts.count <= 3 && !parts.contains(where: { $0.hasPrefix(".") }) ? rel : nil
        }.sorted()
    }

    /// The first existing file below `directory` that a rule's pattern matches (relative to the
    /// directory in .htaccess): the pattern's own witness rarely names a file, and a rule that
    /// redirects a file to itself (`RewriteRule ^page %{REQUEST_URI} [R=301]`) loops only where
    /// later conditions (`!\.html$`) leave the URL alone (found by lintcheck recall on pairs.py
    /// seed 4311: /page.html looped, recorded from Apache, and the probes asked /page).
    static func fileMatching(_ regex: HtlintRegex.Regex, in files: [String], directory: String, server: Bool) -> String? {
        files.first { $0.hasPrefix(directory) && regex.matches(server ? $0 : String($0.dropFirst(directory.count))) }
    }

    /// The URL-path a `RewriteCond %{THE_REQUEST}` pattern wants (the witness's word starting
    /// with `/`, without its query), at most 8: the request line never changes in an internal
    /// redirect, so `RewriteCond %{THE_REQUEST} \s/+go/(\S*)\s` / `RewriteRule ^ /t.php?raw=%1 [L]`
    /// rewrites every pass again until Apache answers 500 (AH00124; found by lintcheck recall on
    /// bytes.py seeds 4316 and 4317: no probe named /go/…).
    static func requestLinePaths(_ context: LintContext) -> [String] {
        var out: [String] = []
        for file in context.files {
            for rule in file.rules where out.count < 8 {
                for c in rule.conditions where !c.negated && c.rawTestString == "%{THE_REQUEST}" {
                    guard case .regex(let re) = c.test, let w = RegexWitness.witnesses(for: re, shape: .any).first?.text,
                          let word = w.split(whereSeparator: { $0 == " " || $0 == "\t" }).first(where: { $0.hasPrefix("/") }) else { continue }
                    let path = String(word.prefix { $0 != "?" })
                    if !out.contains(path) { out.append(path) }
                }
            }
        }
        return Array(out.prefix(8))
    }

    /// A URL below a directory that does not exist, in each directory with rewrite rules. In a
    /// per-directory context the file walk stops at the missing directory and the rest becomes path
    /// info, so a rule that rewrites a URL to itself (`RewriteRule ^(.*)$ $1 [L]`) — ignored for a
    /// URL naming a file — differs from the filename it started with and redirects internally
    /// until Apache answers 500 (AH00124, recorded from Apache).
    static func pathInfoPaths(_ context: LintContext) -> [String] {
        context.files.filter { !$0.rules.isEmpty }.map {
            ($0.context == .server ? "/" : ($0.directory ?? "/")) + "no-such-dir/no-such-page"
        }
    }

    /// A segment after an existing file, in each directory with rewrite rules: the file walk
    /// stops at the file and the segment becomes path info, so `-f` holds for the URL while
    /// `RewriteRule ^(.*)$ $1 [L]` rewrites it to a filename other than the file's and recurses
    /// to Apache's 500 (AH00124; found by lintcheck recall on snippets.py seed 4101:
    /// `/docs/guide.html/extra` behind a front controller that skips files).
    static func fileWithPathInfoPaths(_ context: LintContext, files: [String]) -> [String] {
        var out: [String] = []
        for file in context.files where !file.rules.isEmpty {
            let dir = file.context == .server ? "/" : (file.directory ?? "/")
            if let first = files.first(where: { $0.hasPrefix(dir) }) { out.append(first + "/x") }
        }
        return out
    }

    /// One existing file of each extension (depth ≤ 2, no dot-files, at most 8): rules that only
    /// fire for URLs naming a real file (`-f` conditions, `\.html$` patterns) are reached through them.
    static func sampleFilePaths(site: Site) -> [String] {
        let root = site.documentRoot
        var byExtension: [String: String] = [:]
        for (path, node) in site.files.nodes where path.hasPrefix(root + "/") {
            guard case .file = node else { continue }
            let rel = String(path.dropFirst(root.count))
            let parts = rel.split(separator: "/")
            guard parts.count <= 2, let name = parts.last, !parts.contains(where: { $0.hasPrefix(".") }),
                  let dot = name.lastIndex(of: ".") else { continue }
            let ext = String(name[dot...])
            if let known = byExtension[ext], known <= rel { continue }
            byExtension[ext] = rel
        }
        return byExtension.keys.sorted().prefix(8).compactMap { byExtension[$0] }
    }

    /// The extension-hiding rewrite `RewriteCond %{REQUEST_FILENAME}.php -f` / `RewriteRule ^(.*)$ $1.php`
    /// tests the file with the suffix but rewrites the whole URL: `/about/` or `/about/x` (with
    /// `about.php` present) find the file through path info, and each pass appends the suffix
    /// again until Apache answers 500 (AH00124, recorded from Apache). A few files with each
    /// tested suffix are probed by their bare name (which a rule stripping the suffix with a
    /// redirect sends back and forth), with a slash, and with a segment after their name.
    static func extensionHidingPaths(_ context: LintContext, site: Site) -> [String] {
        var suffixes: [String] = []
        for file in context.files {
            for rule in file.rules {
                for c in rule.conditions where !c.negated {
                    guard case .file(let op) = c.test, "fFs".contains(op), let suffix = testedSuffix(c.testString) else { continue }
                    if suffix.hasPrefix("."), suffix.count > 1, !suffix.contains("/"),
                       !suffixes.contains(suffix) { suffixes.append(suffix) }
                }
            }
        }
        guard !suffixes.isEmpty else { return [] }
        let root = site.documentRoot
        var out: [String] = []
        for suffix in suffixes.prefix(4) {
            let stems = site.files.nodes.compactMap { path, node -> String? in
                guard case .file = node, path.hasPrefix(root + "/"), path.hasSuffix(suffix) else { return nil }
                let rel = String(path.dropFirst(root.count).dropLast(suffix.count))
                guard rel.count > 1, !rel.hasSuffix("/"), rel.split(separator: "/").count <= 2 else { return nil }
                return rel
            }.sorted().prefix(2)
            for stem in stems { out += [stem, stem + "/", stem + "/x"] }
        }
        return out
    }

    /// The literal text a file test appends to the request's file name
    /// (`%{REQUEST_FILENAME}.php`, `%{DOCUMENT_ROOT}%{REQUEST_URI}.html`), read from the parsed
    /// test string, so a backslash escape is read as mod_rewrite reads it: `\.html` is `.html`
    /// (found by lintcheck recall on pairs.py seed 4110: `/about/` recursed, recorded 500, and no
    /// probe named the stem). Nil when something else is expanded after the name.
    static func testedSuffix(_ test: Template) -> String? {
        let heads: [[Template.Part]] = [[.variable("REQUEST_FILENAME")], [.variable("DOCUMENT_ROOT"), .variable("REQUEST_URI")],
                                        [.variable("DOCUMENT_ROOT"), .literal("/"), .variable("REQUEST_URI")]]
        guard let head = heads.first(where: { test.parts.starts(with: $0) }),
              test.parts.count == head.count + 1, case .literal(let suffix) = test.parts[head.count] else { return nil }
        return suffix
    }

    /// Percent-encodes what cannot stand in a request target.
    static func encode(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#")
        return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
    }

    /// The request targets probed: `paths` percent-encoded, then the query probes.
    static func targets(_ context: LintContext) -> [String] {
        var targets = paths(context).map(encode)
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "#")
        for (path, query) in queryProbes(context) {
            targets.append(encode(path) + "?" + (query.addingPercentEncoding(withAllowedCharacters: allowed) ?? query))
        }
        return targets
    }

    /// Every target on every host over both schemes, with GET.
    public static func run(_ context: LintContext, targets: [String]) -> [ProbeResult] {
        guard let sim = context.simulator else { return [] }
        return urls(targets, context, sim).map { ProbeResult(url: $0, chain: sim.run($0, method: "GET", headers: [])) }
    }

    static func urls(_ targets: [String], _ context: LintContext, _ sim: ChainSimulator) -> [String] {
        let hosts = context.hosts.isEmpty ? [sim.origin.site.canonicalHost] : context.hosts
        return targets.flatMap { target in hosts.flatMap { host in ["http", "https"].map { "\($0)://\(host)\(target)" } } }
    }

    /// At most this many targets are probed again with each other method.
    static let methodTargetLimit = limit / 8

    /// The probes' URLs again with the methods the configuration tells apart from GET, kept
    /// where the chain loops or recurses and GET's does not: `RewriteCond %{REQUEST_METHOD}
    /// !=GET` before a rule that rewrites a URL to itself recurses for HEAD alone (found by
    /// lintcheck recall, where one such site was beyond GET probes). Empty when nothing tests
    /// the method.
    static func methodRun(_ context: LintContext, targets: [String], get: [ProbeResult]) -> [ProbeResult] {
        guard let sim = context.simulator else { return [] }
        let methods = testedMethods(context)
        guard !methods.isEmpty else { return [] }
        var targets = targets
        if targets.count > methodTargetLimit {
            let step = Double(targets.count) / Double(methodTargetLimit)
            targets = (0..<methodTargetLimit).map { targets[Int(Double($0) * step)] }
        }
        let looping = Set(get.filter(\.chain.loopsOrRecurses).map(\.url))
        var out: [ProbeResult] = []
        for method in methods {
            for url in urls(targets, context, sim) where !looping.contains(url) {
                let chain = sim.run(url, method: method, headers: [])
                if chain.loopsOrRecurses { out.append(ProbeResult(url: url, chain: chain, method: method)) }
            }
        }
        return out
    }

    /// Methods worth a probe of their own when a condition or `<If>` reads `REQUEST_METHOD`:
    /// the method names its patterns spell (`^(TRACE|TRACK)`, `=POST`), then HEAD and POST, at
    /// most three and never GET.
    static func testedMethods(_ context: LintContext) -> [String] {
        var texts: [String] = []
        for file in context.files {
            for rule in file.rules {
                for c in rule.conditions where c.rawTestString.uppercased().contains("REQUEST_METHOD") {
                    texts.append(c.rawPattern)
                }
            }
            func visit(_ nodes: [ConfigNode]) {
                for case .section(let section) in nodes {
                    if section.key == "if" || section.key == "elseif", section.argumentText.uppercased().contains("REQUEST_METHOD") {
                        // The quoted strings: the expression's variable names are not methods.
                        texts += section.argumentText.split(separator: "'", omittingEmptySubsequences: false)
                            .enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
                    }
                    visit(section.children)
                }
            }
            visit(file.tree.nodes)
        }
        guard !texts.isEmpty else { return [] }
        var methods: [String] = []
        for text in texts {
            for word in text.split(whereSeparator: { !$0.isLetter }) where word.count >= 3 && word.allSatisfy(\.isUppercase) {
                let name = String(word)
                if name != "GET", !methods.contains(name) { methods.append(name) }
            }
        }
        for name in ["HEAD", "POST"] where !methods.contains(name) { methods.append(name) }
        return Array(methods.prefix(3))
    }

    /// Query strings the configuration tests: the literals an `<If>`/`<ElseIf>` compares
    /// `%{QUERY_STRING}` with (`== 'k=a'`, `in { 'k=a', 'k=b' }`); `RewriteCond %{QUERY_STRING}`
    /// loops are HT308's (the rule graph models them, `<If>` it does not). A redirect that keeps the
    /// query string loops when its target passes the test again (recorded from Apache:
    /// `<If "%{QUERY_STRING} in { 'k=a', 'k=b' }">Redirect 302 /three.html</If>` sends
    /// /q?k=b to /three.html?k=b, and that to itself). At most `limit / 8` probes.
    static func queryProbes(_ context: LintContext) -> [(path: String, query: String)] {
        var out: [(path: String, query: String)] = []
        let literal = try? NSRegularExpression(pattern: #"%\{QUERY_STRING\}\s*(?:==|=|!=|-strmatch|-strcmatch)\s*'([^']*)'"#, options: [.caseInsensitive])
        let list = try? NSRegularExpression(pattern: #"%\{QUERY_STRING\}\s+in\s*\{([^}]*)\}"#, options: [.caseInsensitive])
        let quoted = try? NSRegularExpression(pattern: "'([^']*)'")
        func matches(_ re: NSRegularExpression?, _ text: String) -> [String] {
            guard let re else { return [] }
            let ns = text as NSString
            return re.matches(in: text, range: NSRange(location: 0, length: ns.length)).compactMap { m in
                m.range(at: 1).location == NSNotFound ? nil : ns.substring(with: m.range(at: 1))
            }
        }
        for file in context.files {
            let base = file.context == .server ? "/" : (file.directory ?? "/")
            func visit(_ nodes: [ConfigNode]) {
                for node in nodes {
                    guard case .section(let section) = node else { continue }
                    if section.key == "if" || section.key == "elseif" {
                        var queries = matches(literal, section.argumentText)
                        for items in matches(list, section.argumentText) { queries += matches(quoted, items) }
                        for q in queries.prefix(2) where !q.isEmpty { out.append((base, q)) }
                    }
                    visit(section.children)
                }
            }
            visit(file.tree.nodes)
        }
        var seen = Set<String>()
        return Array(out.filter { seen.insert($0.path + "?" + $0.query).inserted }.prefix(limit / 8))
    }
}

/// Probe results computed once per lint run and shared by the simulation-backed rules.
final class ProbeCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cachedTargets: [String]?
    private var cached: [ProbeResult]?
    private var cachedMethodProbes: [ProbeResult]?

    func results(_ context: LintContext) -> [ProbeResult] {
        lock.lock()
        defer { lock.unlock() }
        return getResults(context)
    }

    func methodResults(_ context: LintContext) -> [ProbeResult] {
        lock.lock()
        defer { lock.unlock() }
        if let c = cachedMethodProbes { return c }
        let r = ProbeSet.methodRun(context, targets: targets(context), get: getResults(context))
        cachedMethodProbes = r
        return r
    }

    /// Called with the lock held.
    private func getResults(_ context: LintContext) -> [ProbeResult] {
        if let c = cached { return c }
        let r = ProbeSet.run(context, targets: targets(context))
        cached = r
        return r
    }

    /// The request targets, worked out once (witnesses cost a regex analysis each). Called with the lock held.
    private func targets(_ context: LintContext) -> [String] {
        if let t = cachedTargets { return t }
        let t = ProbeSet.targets(context)
        cachedTargets = t
        return t
    }
}

/// Groups findings by the directive they point at: one finding per directive, with the first
/// witness and how many probe requests showed the problem.
func groupedByDirective(_ items: [(range: SourceRange, probe: ProbeResult)]) -> [(range: SourceRange, first: ProbeResult, count: Int)] {
    var order: [SourceRange] = []
    var groups: [SourceRange: (ProbeResult, Int)] = [:]
    for (range, probe) in items {
        if let g = groups[range] { groups[range] = (g.0, g.1 + 1) } else { order.append(range); groups[range] = (probe, 1) }
    }
    return order.map { (range: $0, first: groups[$0]!.0, count: groups[$0]!.1) }
}

extension LintRule {
    /// One finding per directive whose redirect `problem` flags on some probe: "URL redirects to
    /// TARGET: why", with the redirect's producer when no directive sent it, `hint(hop)` after
    /// the reason, and how many more probes showed it. (HT317, HT319.)
    func redirectProblemFindings(_ context: LintContext, problem: (Hop) -> (url: String, why: String)?,
                                 hint: (Hop) -> String) -> [Diagnostic] {
        let items = context.probes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            guard let (hop, _) = probe.chain.firstHop(problem),
                  let source = hop.redirectSource ?? HTTPSDowngrade.producer(of: hop, context).range else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).compactMap { group in
            // The group's first probe is one the filter above kept.
            guard let (hop, (url, why)) = group.first.chain.firstHop(problem) else { return nil }
            let via = hop.redirectSource == nil ? " (\(HTTPSDowngrade.producer(of: hop, context).what))" : ""
            return finding("\(hop.url) redirects to \(url)\(via): \(why)\(hint(hop))" + moreRequests(group.count), at: group.range)
        }
    }
}

/// " (and N more requests)" for grouped findings.
func moreRequests(_ count: Int) -> String {
    count > 1 ? " (and \(count - 1) more probe request\(count > 2 ? "s" : ""))" : ""
}

extension ChainResult {
    /// The chain ends in a redirect loop, outgrows the redirect limit, or a hop exceeds the
    /// internal recursion limit: what HT301 and HT302 report.
    var loopsOrRecurses: Bool {
        outcome == .loop || outcome == .tooManyHops || hops.contains { $0.origin?.recursionLimitExceeded == true }
    }

    /// The first hop `finding` has something to say about, with what it said.
    func firstHop<T>(_ finding: (Hop) -> T?) -> (hop: Hop, value: T)? {
        for hop in hops { if let value = finding(hop) { return (hop, value) } }
        return nil
    }
}

extension Hop {
    /// The directive that produced this hop's redirect, from the origin's trace.
    var redirectSource: SourceRange? {
        origin?.trace.last { $0.kind == .externalRedirect && $0.range != nil }?.range
    }
    /// Directives that rewrote the request internally on this hop.
    var rewriteSources: [SourceRange] {
        origin?.trace.compactMap { $0.kind == .ruleMatched ? $0.range : nil } ?? []
    }
}
