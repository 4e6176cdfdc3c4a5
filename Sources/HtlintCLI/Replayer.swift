import Dispatch
import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
import CMalloc

/// Bulk simulation shared by replay and diff: requests read in batches, each batch simulated on
/// `jobs` threads, results handed on in input order.
enum Replayer {
    /// The site's simulator with tracing off: bulk replay needs answers, not stories.
    static func fastSimulator(_ options: SiteOptions, io: CLIEnvironment) throws -> ChainSimulator {
        let traced = try options.simulator(defaultHost: options.host, io: io)
        return ChainSimulator(origin: Origin(site: traced.origin.site, tracing: false),
                              tlsOrigin: traced.tlsOrigin === traced.origin ? nil : Origin(site: traced.tlsOrigin.site, tracing: false),
                              edge: traced.edge)
    }

    /// Reads requests in batches and simulates each batch on `jobs` threads; `emit` sees the
    /// answers in input order.
    static func stream<Kept: Sendable>(_ source: LineSource, input: ReplayInput, simulator: ChainSimulator, jobs: Int,
                                       cache: ResultCache<Kept>? = nil, keep: @escaping @Sendable (ChainResult) -> Kept,
                                       emit: (ReplayRequest, Kept) -> Void, skipped: () -> Void,
                                       batchDone: () -> Void = {}) throws {
        let batchSize = 4096
        var first = true
        while true {
            var batch: [ReplayRequest] = []
            while batch.count < batchSize, let line = try source.nextLine() {
                if let r = input.request(line) { batch.append(r) } else if !line.isEmpty, !line.hasPrefix("#") { skipped() }
            }
            if batch.isEmpty { return }
            let answers = simulate(batch, simulator, jobs: jobs, cache: cache, keep: keep)
            for (r, answer) in zip(batch, answers) { emit(r, answer) }
            if first {
                // Reading the configuration and building the rule index (on the first requests)
                // leave much freed memory behind; give it back before the long run.
                releaseFreedMemory()
                first = false
            }
            batchDone()
        }
    }

    /// Whole chain results (diff reads the directives behind each hop).
    static func simulate(_ batch: [ReplayRequest], _ simulator: ChainSimulator, jobs: Int) -> [ChainResult] {
        simulate(batch, simulator, jobs: jobs, cache: nil) { $0 }
    }

    /// Simulates a batch on `jobs` threads, keeping of each chain what `keep` makes of it; a
    /// request found in `cache` is not simulated again.
    static func simulate<Kept: Sendable>(_ batch: [ReplayRequest], _ simulator: ChainSimulator, jobs: Int,
                                         cache: ResultCache<Kept>?, keep: @escaping @Sendable (ChainResult) -> Kept) -> [Kept] {
        let results = ResultBox<Kept>(count: batch.count)
        let workers = min(jobs, max(1, batch.count / 64))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < batch.count {
                let key = batch[i].method + " " + batch[i].url
                if let hit = cache?.get(key) {
                    results.set(i, hit)
                } else {
                    let kept = keep(simulator.run(batch[i].url, method: batch[i].method, headers: []))
                    cache?.set(key, kept)
                    results.set(i, kept)
                }
                i += workers
            }
        }
        return results.values.map { $0! }
    }

    /// Returns freed heap pages to the system (glibc keeps them otherwise, and peak memory
    /// stays at the configuration reader's high-water mark).
    static func releaseFreedMemory() {
        _ = malloc_trim(0)
    }

    static func jsonLine(_ request: ReplayRequest, _ r: ReplayAnswer) -> String {
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
        return "{\"url\":\(q(request.url)),\"method\":\(q(request.method)),\"outcome\":\(q(r.tally.outcome.rawValue)),\"finalStatus\":\(r.tally.finalStatus),"
            + "\"uri\":\(r.finalURI.map(q) ?? "null"),\"filename\":\(r.finalFilename.map(q) ?? "null"),\"hops\":[\(hops)]}"
    }
}

/// What the replay summary counts of a chain.
struct ReplayTally: Sendable {
    var outcome: ChainOutcome
    var finalStatus: Int
    /// Redirects the browser followed (3xx hops).
    var redirects: Int
    /// Some hop answered 500 because internal redirects passed `LimitInternalRecursion`.
    var recursionLimitExceeded: Bool
    /// Directives that matched, over all hops in order.
    var firedRules: [SourceRange]

    init(_ r: ChainResult) {
        outcome = r.outcome
        finalStatus = r.finalStatus
        redirects = r.hops.filter { (300...399).contains($0.status) }.count
        recursionLimitExceeded = r.hops.contains { $0.origin?.recursionLimitExceeded == true }
        firedRules = r.hops.flatMap { $0.origin?.firedRules ?? [] }
    }
}

/// What a JSON line shows of a chain: the tally, and per hop the URL, status and Location, and
/// Apache's final request record. Replay keeps nothing more (no headers, layer paths or
/// traces), so a cache of a log's distinct requests stays small.
struct ReplayAnswer: Sendable {
    struct Hop: Sendable {
        var url: String
        var status: Int
        var location: String?
    }
    var tally: ReplayTally
    var hops: [Hop]
    /// Apache's request record after its last internal redirect, on the last hop it answered.
    var finalURI: String?
    var finalFilename: String?

    init(_ r: ChainResult) {
        tally = ReplayTally(r)
        hops = r.hops.map { Hop(url: $0.url, status: $0.status, location: $0.location) }
        let last = r.hops.last?.origin
        finalURI = last?.final.uri
        finalFilename = last?.final.filename
    }
}

/// Answers already simulated in this run, by method and URL. The engine is deterministic for a
/// request (same site, same request → same chain), so a repeated log line need not be simulated
/// again; sites whose rules read the clock (`%{TIME…}`) must not use it. Bounded: it keeps the
/// first 10,000 distinct requests (a few MB of tallies or answers), which in a log's skewed traffic are
/// mostly the popular ones, so memory does not grow with the log.
final class ResultCache<Value: Sendable>: @unchecked Sendable {
    private var values: [String: Value] = [:]
    private let lock = NSLock()
    let limit: Int
    init(limit: Int = 10_000) { self.limit = limit }
    func get(_ key: String) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }
    func set(_ key: String, _ value: Value) {
        lock.lock()
        if values.count < limit { values[key] = value }
        lock.unlock()
    }
}

extension Replayer {
    /// Whether answers may be cached: not when a site's rules read the clock (then every
    /// request must be simulated).
    static func canCache(_ site: Site) -> Bool {
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
final class ResultBox<Value>: @unchecked Sendable {
    var values: [Value?]
    private let lock = NSLock()
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ v: Value) {
        lock.lock()
        values[i] = v
        lock.unlock()
    }
}
