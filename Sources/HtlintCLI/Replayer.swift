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
        return traced.with(origins: { Origin(site: $0.site, tracing: false) })
    }

    /// Reads requests in batches and simulates each batch on `jobs` threads; `emit` sees the
    /// answers in input order.
    static func stream<Kept: Sendable>(_ source: LineSource, input: ReplayInput, simulator: ChainSimulator, jobs: Int,
                                       cache: LockedCache<Kept>? = nil, memo: HopMemo? = nil,
                                       keep: @escaping @Sendable (ChainResult) -> Kept,
                                       emit: (ReplayRequest, Kept) -> Void, skipped: (_ line: String, _ position: String) -> Void,
                                       batchDone: () -> Void = {}) throws {
        let batchSize = 4096
        var first = true
        while true {
            var batch: [ReplayRequest] = []
            while batch.count < batchSize, let line = try source.nextLine() {
                if let r = input.request(line) {
                    batch.append(r)
                } else if !ReplayInput.isBlankOrComment(line) {
                    skipped(line, source.position)
                }
            }
            if batch.isEmpty { return }
            let answers = simulate(batch, simulator, jobs: jobs, cache: cache, memo: memo, keep: keep)
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
    static func simulate(_ batch: [ReplayRequest], _ simulator: ChainSimulator, jobs: Int, memo: HopMemo?) -> [ChainResult] {
        simulate(batch, simulator, jobs: jobs, cache: nil, memo: memo) { $0 }
    }

    /// Simulates a batch on `jobs` threads, keeping of each chain what `keep` makes of it; a
    /// request found in `cache` is not simulated again, nor a hop found in `memo` (which belongs
    /// to `simulator`).
    static func simulate<Kept: Sendable>(_ batch: [ReplayRequest], _ simulator: ChainSimulator, jobs: Int,
                                         cache: LockedCache<Kept>?, memo: HopMemo?,
                                         keep: @escaping @Sendable (ChainResult) -> Kept) -> [Kept] {
        let results = ConcurrentSlots<Kept?>(repeating: nil, count: batch.count)
        let workers = min(jobs, max(1, batch.count / 64))
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < batch.count {
                let key = cache.map { _ in batch[i].cacheKey }
                if let key, let hit = cache?.get(key) {
                    results.set(i, hit)
                } else {
                    let result = simulator.run(batch[i].url, method: batch[i].method, headers: [], memo: memo)
                    let kept = keep(result)
                    // An answer that read the clock may differ for the same request a moment later.
                    if let key, !result.readsClock { cache?.set(key, kept) }
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
    var fired: FiredRules

    init(_ r: ChainResult) {
        outcome = r.outcome
        finalStatus = r.finalStatus
        // Counted in place: `filter` would copy every hop.
        redirects = r.hops.reduce(0) { (300...399).contains($1.status) ? $0 + 1 : $0 }
        recursionLimitExceeded = r.hops.contains { $0.origin?.recursionLimitExceeded == true }
        // Sized first: `flatMap` grows the array hop by hop.
        var ranges: [SourceRange] = []
        ranges.reserveCapacity(r.hops.reduce(0) { $0 + ($1.origin?.firedRules.count ?? 0) })
        for hop in r.hops { if let f = hop.origin?.firedRules { ranges += f } }
        fired = FiredRules(ranges)
    }
}

/// The directives one chain fired, shared by every replayed request that reuses the chain's
/// cached tally. The summary counts uses on the box and folds them into its per-directive
/// counts in bulk, so a cache hit hashes no source ranges (that was a third of a cached
/// replay's cost outside the simulation).
final class FiredRules: @unchecked Sendable {
    let ranges: [SourceRange]
    /// Uses the summary has not folded in yet. Only the summary touches it, on the one thread
    /// that takes the answers in input order; the workers only create the box.
    var unfoldedUses = 0

    init(_ ranges: [SourceRange]) { self.ranges = ranges }
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

extension Replayer {
    /// Most distinct requests whose answers replay keeps. The engine is deterministic for a
    /// request (same site, same request → same chain) unless an answer reads the clock (such
    /// a chain is never kept), so a repeated log line need not be simulated again. The first distinct requests are kept — 50,000 tallies (some 250 bytes
    /// each) for the summary, 10,000 answers (about 1 KB with their hop URLs) for JSON lines —
    /// which holds every distinct request of many logs (W1's 100,000 lines have 23,763) and the
    /// popular ones of any, while memory does not grow with the log.
    static func cacheLimit(answers: Bool) -> Int { answers ? 10_000 : 50_000 }
}
