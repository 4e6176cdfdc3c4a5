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
      --no-cache      simulate every line and hop, even a request or hop already seen

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
        let jobs: Int, top: Int
        do {
            jobs = try a.number("--jobs", atLeast: 1) ?? ProcessInfo.processInfo.activeProcessorCount
            top = try a.number("--top", atLeast: 0) ?? 10
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        var summary = ReplaySummary(site: simulator.origin.site)
        let jsonl = a.has("--jsonl")
        let started = Date()
        let cached = !a.has("--no-cache")
        do {
            // JSON lines go out as they are made (memory does not grow with the log), when the
            // environment streams; a progress line on a terminal's stderr after each batch.
            var pending = ""
            func batchDone() {
                if let sink = io.streamStdout, !pending.isEmpty { sink(pending); pending = "" }
                io.progress?(String(format: "htlint: %d requests replayed (%.0f/s)", summary.total,
                                    Double(summary.total) / max(Date().timeIntervalSince(started), 1e-9)))
            }
            // The summary alone keeps (and caches) a tally per request; JSON lines an answer.
            func replay<Kept: Sendable>(_ keep: @escaping @Sendable (ChainResult) -> Kept,
                                        _ emit: (ReplayRequest, Kept) -> Void) throws {
                let cache = cached ? LockedCache<Kept>(limit: Replayer.cacheLimit(answers: jsonl)) : nil
                let memo = cached ? HopMemo() : nil
                try Replayer.stream(source, input: input, simulator: simulator, jobs: jobs, cache: cache, memo: memo,
                                    keep: keep, emit: emit, skipped: { summary.skipped.add($0, at: $1) },
                                    batchDone: batchDone)
                io.keepUntilExit?((cache, memo))
            }
            if jsonl {
                try replay(ReplayAnswer.init) { request, answer in
                    summary.add(answer.tally)
                    pending += Replayer.jsonLine(request, answer) + "\n"
                }
            } else {
                try replay(ReplayTally.init) { _, tally in summary.add(tally) }
            }
            out.stdout += pending
            io.progress?("")
            summary.skipped.messages.forEach { out.err($0) }
        } catch {
            io.progress?("")
            out.err("htlint: \(error)")
            return .failure
        }
        let seconds = Date().timeIntervalSince(started)
        if !jsonl { out.stdout += summary.render(top: top) }
        out.err(String(format: "htlint: replayed %d requests in %.2f s (%.0f requests/s)", summary.total, seconds,
                       Double(summary.total) / max(seconds, 1e-9)))
        io.keepUntilExit?((simulator, summary))
        return summary.loops + summary.recursions > 0 ? .findings : .clean
    }
}

/// Aggregates replay results.
struct ReplaySummary {
    let site: Site
    var total = 0
    var skipped = SkippedLines()
    var loops = 0, recursions = 0, offsite = 0, tooMany = 0, errors = 0, notFound = 0
    var statuses = SmallCounts()
    var chainLengths = SmallCounts()
    /// Uses per directive, once `foldFired` has run, by `firedKey`: hashing and comparing an
    /// Int is a fraction of a range's cost, and folding ran once per fired directive of every
    /// distinct chain.
    private var fired: [Int: Int] = [:]
    /// The files of the directives in `fired`, at the index their keys hold (a site has a few).
    private var firedFiles: [String] = []
    /// Chains' fired directives with uses not yet in `fired` (each listed once).
    private var unfolded: [FiredRules] = []

    init(site: Site) { self.site = site }

    mutating func add(_ r: ReplayTally) {
        total += 1
        switch r.outcome {
        case .loop: loops += 1
        case .offsite: offsite += 1
        case .tooManyHops: tooMany += 1
        case .error: errors += 1
        case .final: break
        }
        if r.recursionLimitExceeded { recursions += 1 }
        statuses.add(r.finalStatus)
        if r.finalStatus == 404 { notFound += 1 }
        chainLengths.add(r.redirects)
        guard !r.fired.ranges.isEmpty else { return }
        r.fired.unfoldedUses += 1
        if r.fired.unfoldedUses == 1 {
            unfolded.append(r.fired)
            // Bounded: the boxes of a long log's distinct chains are not all kept.
            if unfolded.count >= 4096 { foldFired() }
        }
    }

    private mutating func foldFired() {
        for box in unfolded {
            for range in box.ranges { fired[firedKey(range), default: 0] += box.unfoldedUses }
            box.unfoldedUses = 0
        }
        unfolded.removeAll(keepingCapacity: true)
    }

    /// A directive's file (its index in `firedFiles`) and offsets in one Int; offsets stay
    /// below 2^25 (`SourceFile.sizeLimit`).
    private mutating func firedKey(_ r: SourceRange) -> Int {
        let file: Int
        if let i = firedFiles.firstIndex(of: r.file) {
            file = i
        } else {
            file = firedFiles.count
            firedFiles.append(r.file)
        }
        return ReplaySummary.pack(file, r)
    }

    private static func pack(_ file: Int, _ r: SourceRange) -> Int {
        assert(r.end < 1 << 25, "a directive past SourceFile.sizeLimit")
        return (file << 50) | (r.start << 25) | r.end
    }

    private func firedRange(_ key: Int) -> SourceRange {
        let mask = (1 << 25) - 1
        return SourceRange(file: firedFiles[key >> 50], start: (key >> 25) & mask, end: key & mask)
    }

    /// How often a directive fired, nil for never.
    private func uses(_ r: SourceRange) -> Int? {
        guard let file = firedFiles.firstIndex(of: r.file) else { return nil }
        return fired[ReplaySummary.pack(file, r)]
    }

    /// The file a directive was read from: one of the site's `.htaccess` files or its configuration.
    private func source(of range: SourceRange) -> SourceFile? {
        if site.vhostSource.path == range.file { return site.vhostSource }
        return site.files.accessFileEntries.first { $0.value.path == range.file }?.value
    }

    /// `path:line` of a directive.
    func location(_ range: SourceRange) -> String {
        guard let f = source(of: range) else { return range.file }
        return "\(range.file):\(f.lines.position(of: range.start).line)"
    }

    /// The directive's first line as written, shortened to `limit` characters.
    func directiveText(_ range: SourceRange, limit: Int = 72) -> String {
        guard let f = source(of: range), range.start < f.bytes.count else { return "" }
        let end = f.bytes[range.start...].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? f.bytes.count
        let line = f.text(range.start..<end).trimmingCharacters(in: .whitespaces)
        return line.count > limit ? String(line.prefix(limit - 1)) + "…" : line
    }

    mutating func render(top: Int) -> String {
        foldFired()
        func pct(_ n: Int) -> String { total == 0 ? "0%" : String(format: "%.1f%%", Double(n) * 100 / Double(total)) }
        let unreadable = skipped.count
        var s = "requests: \(total)" + (unreadable > 0 ? " (\(unreadable) unreadable line\(unreadable == 1 ? "" : "s") skipped)" : "") + "\n"
        // `error`: chains the browser could not finish (no connection, a URL it cannot use); named only when there are some.
        s += "verdicts: final \(total - loops - offsite - tooMany - errors), loop \(loops), internal recursion \(recursions), offsite \(offsite), too many redirects \(tooMany)"
            + (errors > 0 ? ", error \(errors)" : "") + "\n"
        func listed(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: ", ") }
        // Status 0: the browser got no answer (the `error` verdicts).
        s += "final status: " + listed(statuses.sorted.map { "\($0.key == 0 ? "no answer" : String($0.key)) \($0.value) (\(pct($0.value)))" }) + "\n"
        s += "redirects per request: " + listed(chainLengths.sorted.map { "\($0.key): \($0.value)" }) + "\n"
        let most = fired.map { (key: firedRange($0.key), value: $0.value) }
            .sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.key.start < $1.key.start }).prefix(top)
        // Counts right-aligned, then where each directive is and how it reads.
        s += "rules that fired most:" + (most.isEmpty ? " none" : "") + "\n"
        let width = most.map { String($0.value).count }.max() ?? 0
        let places = most.map { location($0.key) }
        let placeWidth = places.map(\.count).max() ?? 0
        for ((range, n), place) in zip(most, places) {
            let count = String(n)
            let text = directiveText(range)
            s += "  " + String(repeating: " ", count: width - count.count) + count + "  " + place
            s += text.isEmpty ? "\n" : String(repeating: " ", count: placeWidth - place.count) + "  " + text + "\n"
        }
        // Rules of the site that never fired.
        // Counted over every rule; only the first `top` are named (a big map has thousands).
        var neverCount = 0
        var never: [String] = []
        for (dir, file) in site.files.accessFileEntries.sorted(by: { $0.key < $1.key }) {
            guard let config = site.accessConfig(dir) else { continue }
            var unfired: [Int] = []
            func note(_ range: SourceRange) {
                guard uses(range) == nil else { return }
                neverCount += 1
                unfired.append(range.start)
            }
            func visit(_ b: ConfigBlock) {
                for r in b.rewrite?.rules ?? [] { note(r.range) }
                for r in b.redirects { note(r.range) }
                for f in b.files { visit(f.block) }
                for c in b.ifChains { for br in c.branches { visit(br.block) } }
            }
            visit(config.block)
            // In the file's order (sections are visited after the lines around them).
            for start in unfired.sorted().prefix(top - never.count) {
                never.append("\(file.path):\(file.lines.position(of: start).line)")
            }
        }
        s += "rules that never fired: \(neverCount)" + (never.isEmpty ? "" : " (first: \(never.joined(separator: ", ")))") + "\n"
        return s
    }
}

/// Counts per number (a status, a chain length), in an array for the small ones a replay sees:
/// the summary adds one of each per request, and a dictionary hashed every one.
struct SmallCounts {
    private var small: [Int] = []
    private var large: [Int: Int] = [:]

    mutating func add(_ key: Int) {
        guard (0..<1024).contains(key) else { large[key, default: 0] += 1; return }
        if key >= small.count { small += repeatElement(0, count: key + 1 - small.count) }
        small[key] += 1
    }

    /// Keys with a count, ascending.
    var sorted: [(key: Int, value: Int)] {
        let listed = small.indices.filter { small[$0] > 0 }.map { (key: $0, value: small[$0]) }
        return (listed + large.map { (key: $0.key, value: $0.value) }).sorted { $0.key < $1.key }
    }
}
