import Foundation
import HtlintApache
import HtlintSimulation
import HtlintBytes

/// `htlint diff`: the same requests through two document roots (before and after a change),
/// with every request whose chain or final answer changed, grouped by the directive responsible.
/// Streams its input; each distinct request is simulated once on each side, and only the ones
/// that differ are kept.
struct DiffCommand {
    static let help = """
    usage: htlint diff --old DIR --new DIR [site options] --urls FILE [--allow PATTERN]...
                       [--format text|json] [--examples N] [--jobs N]

    Simulates every request of FILE (absolute URLs, paths, or an Apache/nginx access log in
    common/combined format; gzip accepted; - for standard input) against two document roots that
    share all other site options, and reports the requests whose answer changed: a hop's URL,
    status or Location, or the final status or verdict. Repeated requests are compared once and
    counted. Differences are grouped by the directive responsible for the first differing hop —
    the rule or Redirect of the new configuration, or of the old one when the new one has none
    there (a removed rule) — in file and line order.

      --old DIR         the document root before the change (replaces --docroot and the
                        site file's docroot)
      --new DIR         the document root after the change
      --urls FILE       the requests
      --allow PATTERN   a change that is expected (repeatable): `*` matches anything; matched
                        against the URL's path, or the whole URL when PATTERN has a scheme
                        (--allow '/blog/*', --allow 'http://*'); allowed differences are listed
                        but do not fail
      --format FORMAT   text (default) or json (every differing URL, with both chains)
      --examples N      URLs shown per directive in text (default 5)
      --scheme S        scheme for paths and access-log lines (default https)
      --jobs N          worker threads (default: the number of cores)

    \(SiteOptions.help)

    exit status: 0 no differences (or all allowed), 1 some request's answer differs,
    2 usage error or unreadable input
    """

    static let valued = SiteOptions.valued.union(["--old", "--new", "--urls", "--allow", "--format", "--examples", "--scheme", "--jobs"])

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let booleans = SiteOptions.booleans.union(["-h", "--help"])
        let a: Arguments
        do {
            a = try Arguments(args, valued: valued, booleans: booleans)
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            try a.rejectConflict("--modules", "--only-modules")
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard a.positionals.isEmpty else {
            out.err("htlint: diff takes no positional arguments (the requests come from --urls FILE)\n\n" + help)
            return .failure
        }
        if a.given("--docroot") {
            out.err("htlint: diff takes its two document roots from --old and --new, not --docroot")
            return .failure
        }
        let missing = ["--old", "--new", "--urls"].filter { a.value($0) == nil }
        if !missing.isEmpty {
            out.err("htlint: diff needs --old DIR, --new DIR and --urls FILE (missing: \(missing.joined(separator: ", ")))\n\n" + help)
            return .failure
        }
        let oldRoot = a.value("--old")!, newRoot = a.value("--new")!, urls = a.value("--urls")!
        let format = a.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            out.err("htlint: unknown format '\(format)'; expected one of: text, json")
            return .failure
        }
        let examples: Int, jobs: Int
        do {
            examples = try a.number("--examples", atLeast: 0) ?? 5
            jobs = try a.number("--jobs", atLeast: 1) ?? ProcessInfo.processInfo.activeProcessorCount
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let allow = a.all("--allow").map(AllowPattern.init)

        // Two simulators from the same options; only the document root differs.
        func simulator(_ flag: String, _ root: String) throws -> ChainSimulator {
            guard io.isDirectory(root) else {
                throw CLIError.usage("\(flag): cannot read '\(root)': "
                                     + (FileManager.default.fileExists(atPath: root) ? "not a directory" : "no such file or directory"))
            }
            do {
                let options = try SiteOptions(Arguments(["--docroot", root] + args, valued: valued, booleans: booleans))
                return try Replayer.fastSimulator(options, io: io)
            } catch CLIError.unreadable(let path, let reason) where path.hasPrefix(root) {
                throw CLIError.usage("\(flag): cannot read '\(path)': \(reason)")
            }
        }
        let old: ChainSimulator, new: ChainSimulator, source: LineSource
        let options: SiteOptions
        do {
            options = try SiteOptions(a)
            old = try simulator("--old", oldRoot)
            new = try simulator("--new", newRoot)
            source = try LineSource(path: urls)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let input = ReplayInput(scheme: a.value("--scheme") ?? "https", host: options.host ?? old.origin.site.canonicalHost)
        let report: DiffReport
        do {
            report = try compare(source, input: input, old: old, new: new, allow: allow, jobs: jobs)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        report.skipped.messages.forEach { out.err($0) }
        out.stdout += format == "json" ? report.json() : report.text(examples: examples)
        for (name, sim) in [("old", old), ("new", new)] {
            let errors = sim.origin.site.diagnostics.filter { $0.severity == .error }.count
            if errors > 0 {
                out.err("htlint: note: the \(name) configuration has \(errors) error(s) Apache answers 500 for; run `htlint check` for details")
            }
        }
        io.keepUntilExit?((old, new, report))
        return report.failing > 0 ? .findings : .clean
    }

    /// Reads the requests in batches; a request already compared only adds to its count, so the
    /// memory held is the set of distinct requests seen plus the ones that differ.
    static func compare(_ source: LineSource, input: ReplayInput, old: ChainSimulator, new: ChainSimulator,
                        allow: [AllowPattern], jobs: Int) throws -> DiffReport {
        var report = DiffReport()
        // Method and URL (by bytes: `é` precomposed or not are two requests) → index in
        // report.entries, or -1 when the answers agree.
        var seen: [ByteKey: Int] = [:]
        // Each configuration meets the same hops in many chains (a hop memo belongs to one simulator).
        let oldHops = HopMemo(), newHops = HopMemo()
        let batchSize = 4096
        while true {
            var batch: [ReplayRequest] = []
            var keys: [ByteKey] = []
            var counts: [Int] = []
            var inBatch: [ByteKey: Int] = [:]
            while batch.count < batchSize, let line = try source.nextLine() {
                guard let request = input.request(line) else {
                    if !ReplayInput.isBlankOrComment(line) { report.skipped.add(line, at: source.position) }
                    continue
                }
                report.requests += 1
                let key = ByteKey(request.method + " " + request.url)
                if let index = seen[key] {
                    if index >= 0 { report.entries[index].occurrences += 1 }
                } else if let position = inBatch[key] {
                    counts[position] += 1
                } else {
                    inBatch[key] = batch.count
                    batch.append(request)
                    keys.append(key)
                    counts.append(1)
                }
            }
            if batch.isEmpty { return report }
            let olds = Replayer.simulate(batch, old, jobs: jobs, memo: oldHops)
            let news = Replayer.simulate(batch, new, jobs: jobs, memo: newHops)
            for i in batch.indices {
                report.distinct += 1
                let allowed = allow.contains { $0.matches(batch[i].url) }
                if var entry = DiffEntry.compare(batch[i], old: olds[i], new: news[i], oldSite: old.origin.site,
                                                 newSite: new.origin.site, allowed: allowed) {
                    entry.occurrences = counts[i]
                    seen[keys[i]] = report.entries.count
                    report.entries.append(entry)
                } else {
                    seen[keys[i]] = -1
                }
            }
        }
    }
}
