import Dispatch
import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// `htlint replay`: every request of a URL list or access log through the layers and Apache,
/// summarised; streaming and on both cores, with output in input order.
struct ReplayCommand {
    static let help = """
    usage: htlint replay [site options] --urls FILE [--scheme https] [--jsonl] [--top N]

    Simulates each request of FILE (absolute URLs, paths, or an Apache/nginx access log in
    common/combined format; gzip accepted; - for standard input) and prints a summary: verdicts,
    final statuses, redirect-chain lengths, the rules that fired most and the rules that never fired.

      --urls FILE     the requests
      --scheme S      scheme for paths and access-log lines (default https)
      --jsonl         print one JSON object per request instead of the summary
      --top N         how many rules to list (default 10)
      --jobs N        worker threads (default: the number of cores)
      --no-cache      simulate every line, even a request already seen

    \(SiteOptions.help)

    exit status: 0 no loop or internal recursion, 1 some request loops or answers 500 by recursion,
    2 usage error or unreadable input
    """

    static let valued = SiteOptions.valued.union(["--urls", "--scheme", "--top", "--jobs"])

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: valued, booleans: SiteOptions.booleans.union(["--jsonl", "--no-cache", "-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard let urls = a.value("--urls") else {
            out.err("htlint: replay needs --urls FILE\n\n" + help)
            return .failure
        }
        let simulator: ChainSimulator
        let source: LineSource
        do {
            simulator = try Replayer.fastSimulator(options, io: io)
            source = try LineSource(path: urls)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let input = ReplayInput(scheme: a.value("--scheme") ?? "https",
                                host: options.host ?? simulator.origin.site.canonicalHost)
        let jobs = max(1, Int(a.value("--jobs") ?? "") ?? ProcessInfo.processInfo.activeProcessorCount)
        var summary = ReplaySummary(site: simulator.origin.site)
        let jsonl = a.has("--jsonl")
        let started = Date()
        let cache = !a.has("--no-cache") && ChainCache.usable(for: simulator.origin.site) ? ChainCache() : nil
        do {
            // JSON lines go out as they are made (memory does not grow with the log), when the
            // environment streams; a progress line on a terminal's stderr after each batch.
            var pending = ""
            try Replayer.stream(source, input: input, simulator: simulator, jobs: jobs, cache: cache) { request, result in
                summary.add(result)
                if jsonl { pending += Replayer.jsonLine(request, result) + "\n" }
            } skipped: {
                summary.skipped += 1
            } batchDone: {
                if let sink = io.streamStdout, !pending.isEmpty { sink(pending); pending = "" }
                io.progress?(String(format: "htlint: %d requests replayed (%.0f/s)", summary.total,
                                    Double(summary.total) / max(Date().timeIntervalSince(started), 1e-9)))
            }
            out.stdout += pending
            io.progress?("")
        } catch {
            io.progress?("")
            out.err("htlint: \(error)")
            return .failure
        }
        let seconds = Date().timeIntervalSince(started)
        if !jsonl { out.stdout += summary.render(top: Int(a.value("--top") ?? "") ?? 10) }
        out.err(String(format: "htlint: replayed %d requests in %.2f s (%.0f requests/s)", summary.total, seconds,
                       Double(summary.total) / max(seconds, 1e-9)))
        return summary.loops + summary.recursions > 0 ? .findings : .clean
    }
}

/// Shared by replay, diff and the benchmark.
enum Replayer {
    /// The site's simulator with tracing off: bulk replay needs answers, not stories.
    static func fastSimulator(_ options: SiteOptions, io: CLIEnvironment) throws -> ChainSimulator {
        let traced = try options.simulator(defaultHost: options.host, io: io)
        return ChainSimulator(origin: Origin(site: traced.origin.site, tracing: false),
                              tlsOrigin: traced.tlsOrigin === traced.origin ? nil : Origin(site: traced.tlsOrigin.site, tracing: false),
                              edge: traced.edge)
    }

    /// Reads requests in batches and simulates each batch on `jobs` threads; `emit` sees the
    /// results in input order.
    static func stream(_ source: LineSource, input: ReplayInput, simulator: ChainSimulator, jobs: Int,
                       cache: ChainCache? = nil,
                       emit: (ReplayRequest, ChainResult) -> Void, skipped: () -> Void,
                       batchDone: () -> Void = {}) throws {
        let batchSize = 4096
        while true {
            var batch: [ReplayRequest] = []
            while batch.count < batchSize, let line = try source.nextLine() {
                if let r = input.request(line) { batch.append(r) } else if !line.isEmpty, !line.hasPrefix("#") { skipped() }
            }
            if batch.isEmpty { return }
            for (r, result) in zip(batch, simulate(batch, simulator, jobs: jobs, cache: cache)) { emit(r, result) }
            batchDone()
        }
    }

    static func simulate(_ batch: [ReplayRequest], _ simulator: ChainSimulator, jobs: Int,
                         cache: ChainCache? = nil) -> [ChainResult] {
        let results = ResultBox(count: batch.count)
        let workers = min(jobs, max(1, batch.count / 64))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < batch.count {
                let key = batch[i].method + " " + batch[i].url
                if let hit = cache?.get(key) {
                    results.set(i, hit)
                } else {
                    let r = slimmed(simulator.run(batch[i].url, method: batch[i].method, headers: []))
                    cache?.set(key, r)
                    results.set(i, r)
                }
                i += workers
            }
        }
        return results.values.map { $0! }
    }

    /// What bulk consumers (summary, JSON lines, diff) read of a chain: per hop the URL, status,
    /// Location, served file, who answered, and Apache's final state and fired rules. Request
    /// and response headers and layer paths are dropped, so a cache of a log's distinct requests
    /// stays small; cached or not, every result has the same shape.
    static func slimmed(_ r: ChainResult) -> ChainResult {
        var r = r
        for i in r.hops.indices {
            r.hops[i].headers = []
            r.hops[i].path = []
            r.hops[i].originRequest = nil
            r.hops[i].origin?.headers = []
            r.hops[i].origin?.trace = []
        }
        return r
    }

    static func jsonLine(_ request: ReplayRequest, _ r: ChainResult) -> String {
        func q(_ s: String) -> String {
            var o = "\""
            for c in s.unicodeScalars {
                switch c {
                case "\"": o += "\\\""
                case "\\": o += "\\\\"
                case "\n": o += "\\n"
                default: if c.value < 0x20 { o += String(format: "\\u%04x", c.value) } else { o.unicodeScalars.append(c) }
                }
            }
            return o + "\""
        }
        let hops = r.hops.map { h in
            "{\"url\":\(q(h.url)),\"status\":\(h.status)" + (h.location.map { ",\"location\":\(q($0))" } ?? "") + "}"
        }.joined(separator: ",")
        let last = r.hops.last?.origin
        return "{\"url\":\(q(request.url)),\"method\":\(q(request.method)),\"outcome\":\(q(r.outcome.rawValue)),\"finalStatus\":\(r.finalStatus),"
            + "\"uri\":\(last.map { q($0.final.uri) } ?? "null"),\"filename\":\(last?.final.filename.map(q) ?? "null"),\"hops\":[\(hops)]}"
    }
}

/// Answers already simulated in this run, by method and URL. The engine is deterministic for a
/// request (same site, same request → same chain), so a repeated log line need not be simulated
/// again; sites whose rules read the clock (`%{TIME…}`) must not use it. Bounded: it keeps the
/// first 10,000 distinct requests (≈35 MB of slimmed results), which in a log's skewed traffic
/// are mostly the popular ones, so memory does not grow with the log.
final class ChainCache: @unchecked Sendable {
    private var values: [String: ChainResult] = [:]
    private let lock = NSLock()
    let limit: Int
    init(limit: Int = 10_000) { self.limit = limit }
    func get(_ key: String) -> ChainResult? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }
    func set(_ key: String, _ value: ChainResult) {
        lock.lock()
        if values.count < limit { values[key] = value }
        lock.unlock()
    }

    /// Whether a site's rules read the clock (then every request must be simulated).
    static func usable(for site: Site) -> Bool {
        func clockFree(_ t: Template) -> Bool {
            !t.parts.contains { if case .variable(let v) = $0 { v.uppercased().hasPrefix("TIME") } else { false } }
        }
        for config in site.accessConfigs.values + [site.vhost] {
            var rules = config.block.rewrite?.rules ?? []
            for f in config.block.files { rules += f.block.rewrite?.rules ?? [] }
            for r in rules where !clockFree(r.substitution) || r.conditions.contains(where: { !clockFree($0.testString) }) {
                return false
            }
        }
        return true
    }
}

/// Thread-safe slots for results filled by index.
final class ResultBox: @unchecked Sendable {
    var values: [ChainResult?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ v: ChainResult) {
        lock.lock()
        values[i] = v
        lock.unlock()
    }
}

/// Aggregates replay results.
struct ReplaySummary {
    let site: Site
    var total = 0, skipped = 0
    var loops = 0, recursions = 0, offsite = 0, tooMany = 0, notFound = 0
    var statuses: [Int: Int] = [:]
    var chainLengths: [Int: Int] = [:]
    var fired: [SourceRange: Int] = [:]

    init(site: Site) { self.site = site }

    mutating func add(_ r: ChainResult) {
        total += 1
        switch r.outcome {
        case .loop: loops += 1
        case .offsite: offsite += 1
        case .tooManyHops: tooMany += 1
        default: break
        }
        if r.hops.contains(where: { $0.origin?.recursionLimitExceeded == true }) { recursions += 1 }
        statuses[r.finalStatus, default: 0] += 1
        if r.finalStatus == 404 { notFound += 1 }
        chainLengths[r.hops.filter { (300...399).contains($0.status) }.count, default: 0] += 1
        for hop in r.hops { for range in hop.origin?.firedRules ?? [] { fired[range, default: 0] += 1 } }
    }

    func location(_ range: SourceRange) -> String {
        if let f = site.files.accessFiles.values.first(where: { $0.path == range.file }) {
            return "\(range.file):\(f.lines.position(of: range.start).line)"
        }
        return range.file
    }

    func render(top: Int) -> String {
        func pct(_ n: Int) -> String { total == 0 ? "0%" : String(format: "%.1f%%", Double(n) * 100 / Double(total)) }
        var s = "requests: \(total)" + (skipped > 0 ? " (\(skipped) unreadable line\(skipped == 1 ? "" : "s") skipped)" : "") + "\n"
        s += "verdicts: final \(total - loops - offsite - tooMany), loop \(loops), internal recursion \(recursions), offsite \(offsite), too many redirects \(tooMany)\n"
        s += "final status: " + statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value) (\(pct($0.value)))" }.joined(separator: ", ") + "\n"
        s += "redirects per request: " + chainLengths.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "\n"
        s += "rules that fired most:\n"
        for (range, n) in fired.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.start < $1.key.start }).prefix(top) {
            s += "  \(n)  \(location(range))\n"
        }
        // Rules of the site that never fired.
        var never: [String] = []
        for (dir, file) in site.files.accessFiles.sorted(by: { $0.key < $1.key }) {
            guard let config = site.accessConfigs[dir] else { continue }
            func visit(_ b: ConfigBlock) {
                for r in b.rewrite?.rules ?? [] where fired[r.range] == nil {
                    never.append("\(file.path):\(file.lines.position(of: r.range.start).line)")
                }
                for r in b.redirects where fired[r.range] == nil {
                    never.append("\(file.path):\(file.lines.position(of: r.range.start).line)")
                }
                for f in b.files { visit(f.block) }
                for c in b.ifChains { for br in c.branches { visit(br.block) } }
            }
            visit(config.block)
        }
        s += "rules that never fired: \(never.count)" + (never.isEmpty ? "" : " (first: \(never.prefix(top).joined(separator: ", ")))") + "\n"
        return s
    }
}
