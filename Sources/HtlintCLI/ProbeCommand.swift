import Foundation
import HtlintApache
import HtlintSimulation

/// `htlint probe URL...`: fetch the live redirect chain one hop at a time, compare it with the
/// simulation under the given site settings, and (`--infer`) say which topology in front of
/// Apache explains what the live site does.
struct ProbeCommand {
    static let help = """
    usage: htlint probe [site options] [--resolve HOST:PORT:ADDR]... [--insecure] [--timeout S] [--infer] URL...

    Fetches each URL from the live site one hop at a time (HEAD, GET when HEAD is refused; redirects
    are never followed automatically, and only URLs of the site are requested), records status,
    Location, Strict-Transport-Security and Server, and compares every hop with the simulation of
    the local files. A divergence is reported at the first hop where it occurs, with the directive
    the simulation used there.

    \(SiteOptions.help)
      --resolve H:P:ADDR     connect to ADDR for host H and port P (repeatable), like curl's --resolve
      --insecure             accept any TLS certificate (self-signed test servers)
      --timeout S            seconds per request (default 10)
      --infer                simulate every edge mode (none, Cloudflare Flexible/Full with and without
                             Always Use HTTPS, a generic TLS-terminating proxy) and rank them by how
                             well they reproduce the live chains
      --format FORMAT        text (default) or json

    exit status: 0 the live chains match the simulation (with --infer: some topology reproduces
    them all), 1 a divergence, 2 usage error or unreadable input
    """

    static let valued = SiteOptions.valued.union(["--resolve", "--timeout", "--format"])
    static let booleans = SiteOptions.booleans.union(["--insecure", "--infer", "-h", "--help"])

    struct ChainReport: Codable {
        var request: String
        var live: LiveChain
        var simulatedOutcome: String
        var divergence: ProbeDivergence?
    }

    struct Inference: Codable {
        var best: String
        var tied: [String]
        var ranking: [ProbeScore]
    }

    struct Report: Codable {
        var topology: String
        var chains: [ChainReport]
        var inference: Inference?
    }

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        run(args, io: io, fetcher: nil, &out)
    }

    /// `fetcher` replaces the network (tests).
    static func run(_ args: [String], io: CLIEnvironment, fetcher injected: (any ProbeFetcher)?, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: valued, booleans: booleans)
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let urls = a.positionals
        guard !urls.isEmpty else {
            out.err("htlint: probe needs at least one URL\n\n" + help)
            return .failure
        }
        if let problem = urls.lazy.compactMap(StartURL.problem).first {
            out.err("htlint: " + problem)
            return .failure
        }
        let format = a.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            out.err("htlint: unknown format '\(format)'; expected one of: text, json")
            return .failure
        }
        var connection = ProbeConnection(resolve: a.all("--resolve"), insecure: a.has("--insecure"))
        for entry in connection.resolve where !ProbeConnection.validate(entry) {
            out.err("htlint: --resolve expects HOST:PORT:ADDR, got '\(entry)'")
            return .failure
        }
        if let t = a.value("--timeout") {
            guard let v = Double(t), v > 0, v <= 600 else {
                out.err("htlint: --timeout expects seconds between 0 and 600, got '\(t)'")
                return .failure
            }
            connection.timeout = v
        }
        let maxHops = options.maxHops ?? 20
        let defaultHost = URLParts(urls[0])?.host
        func simulator(_ arguments: Arguments) throws -> ChainSimulator {
            var s = try SiteOptions(arguments).simulator(defaultHost: defaultHost, io: io)
            // probe is a client without an HSTS store unless --browser says otherwise.
            if arguments.value("--browser") == nil { s.browser = .curl }
            s.maxHops = maxHops
            return s
        }
        let base: ChainSimulator
        do {
            base = try simulator(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard let fetcher = injected ?? ProbeFetchers.live(connection) else {
            out.err("htlint: " + ProbeFetchers.unavailable)
            return .failure
        }
        let site = base.origin.site
        let startHosts = Set(urls.compactMap { URLParts($0)?.host.lowercased() })
        let follower = ProbeFollower(fetcher: fetcher, maxHops: maxHops) { u in
            (u.scheme == "http" || u.scheme == "https") && (startHosts.contains(u.host.lowercased()) || site.isOwnHost(u.host))
        }
        let live = urls.map { follower.follow($0) }
        func method(_ chain: LiveChain) -> String { chain.hops.first?.method ?? "HEAD" }
        let methods = Dictionary(live.map { ($0.request, method($0)) }, uniquingKeysWith: { a, _ in a })

        var chains: [ChainReport] = []
        for chain in live {
            let simulated = base.run(chain.request, method: method(chain))
            chains.append(ChainReport(request: chain.request, live: chain, simulatedOutcome: simulated.outcome.rawValue,
                                      divergence: ProbeComparison.compare(chain, simulated, site: site)))
        }
        var report = Report(topology: ChainRenderer.topology(base), chains: chains, inference: nil)
        if a.has("--infer") {
            var scores: [ProbeScore] = []
            for candidate in ProbeInference.candidates {
                do {
                    let s = try simulator(try Arguments(argumentsWithEdge(args, candidate), valued: valued, booleans: booleans))
                    scores.append(ProbeInference.score(topology: candidate, live: live,
                                                       simulate: { request in s.run(request, method: methods[request] ?? "HEAD") },
                                                       site: site))
                } catch {
                    out.err("htlint: \(candidate): \(error)")
                    return .failure
                }
            }
            let ranked = ProbeInference.rank(scores)
            report.inference = Inference(best: ranked[0].topology, tied: ProbeInference.tied(ranked).dropFirst().map(\.topology),
                                         ranking: ranked)
        }

        if format == "json" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            out.stdout += String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self) + "\n"
        } else {
            out.stdout += text(report)
        }
        if let inference = report.inference { return inference.ranking[0].isExact ? .clean : .findings }
        return chains.contains { $0.divergence != nil } ? .findings : .clean
    }

    /// The command line with `--edge`/`--always-https` replaced by one candidate topology.
    static func argumentsWithEdge(_ args: [String], _ edge: String) -> [String] {
        var out: [String] = []
        var i = 0
        while i < args.count {
            let x = args[i]
            i += 1
            if x == "--" { out += args[(i - 1)...]; break }
            if x == "--always-https" || x.hasPrefix("--edge=") { continue }
            if x == "--edge" { i += 1; continue }
            if valued.contains(x), i < args.count { out += [x, args[i]]; i += 1; continue }
            out.append(x)
        }
        return ["--edge", edge] + out
    }

    static func text(_ report: Report) -> String {
        var s = "topology: \(report.topology)\n"
        for c in report.chains {
            s += "\n\(c.request)  (live: \(c.live.outcome), simulated: \(c.simulatedOutcome))\n"
            for (i, h) in c.live.hops.enumerated() {
                var line = "  \(i + 1). \(h.method) \(h.url)  \(ProbeComparison.describe(h))"
                if let server = h.server { line += "  [server: \(server)]" }
                if let hsts = h.hsts { line += "  [hsts: \(hsts)]" }
                s += line + "\n"
            }
            if let d = c.divergence {
                s += divergenceText(d, indent: "  ")
            } else {
                s += "  matches the simulation\n"
            }
        }
        if let inf = report.inference {
            let best = inf.ranking[0]
            s += "\ninferred topology: \(best.topology) (reproduces \(best.matchingChains)/\(best.chains) chains, \(best.matchingHops)/\(best.hops) hops)\n"
            if !inf.tied.isEmpty { s += "  equally good: \(inf.tied.joined(separator: ", ")) (these URLs do not tell them apart)\n" }
            s += "ranking:\n"
            for score in inf.ranking {
                s += "  \(score.topology.padding(toLength: 34, withPad: " ", startingAt: 0)) \(score.matchingChains)/\(score.chains) chains  \(score.matchingHops)/\(score.hops) hops\n"
                if let d = score.divergences.first {
                    s += "      first miss: \(d.request) hop \(d.hop): "
                        + d.fields.map { "\($0.name) live \($0.live), simulated \($0.simulated)" }.joined(separator: "; ") + "\n"
                }
            }
        }
        return s
    }

    static func divergenceText(_ d: ProbeDivergence, indent: String) -> String {
        var s = "\(indent)diverges at hop \(d.hop) (\(d.url)):\n"
        for f in d.fields { s += "\(indent)  \(f.name): live \(f.live), simulated \(f.simulated)\n" }
        if let directive = d.directive {
            s += "\(indent)  simulation used \(directive)" + (d.directiveText.map { ": \($0.trimmingCharacters(in: .whitespaces))" } ?? "") + "\n"
        } else if let producer = d.producer {
            s += "\(indent)  simulated answer from \(producer)\n"
        }
        return s
    }
}
