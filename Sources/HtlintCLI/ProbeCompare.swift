import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// Where a live chain first parts from the simulated one.
struct ProbeDivergence: Sendable, Codable, Equatable {
    struct Field: Sendable, Codable, Equatable {
        var name: String
        var live: String
        var simulated: String
    }

    var request: String
    /// 1-based hop number (of the live chain) where they part.
    var hop: Int
    var url: String
    var fields: [Field]
    /// What answered in the simulation: `apache`, `edge`, `app`, `browser`, or nil when it has no such hop.
    var answeredBy: String?
    var producer: String?
    /// The directive the simulation used there, `file:line`, and its text.
    var directive: String?
    var directiveText: String?
}

/// Compares live chains with simulated ones, hop by hop.
enum ProbeComparison {
    /// The first hop where `live` and `simulated` disagree (status, Location, HSTS, the end of
    /// the chain, how it ends); nil when they agree. The browser's synthetic HSTS hops are skipped.
    static func compare(_ live: LiveChain, _ simulated: ChainResult, site: Site?) -> ProbeDivergence? {
        let sim = simulated.hops.filter { !$0.isSynthetic }
        func divergence(_ i: Int, _ fields: [ProbeDivergence.Field]) -> ProbeDivergence {
            let hop = i < sim.count ? sim[i] : nil
            let (location, text) = hop.map { directive(of: $0, site: site) } ?? (nil, nil)
            return ProbeDivergence(request: live.request, hop: i + 1, url: i < live.hops.count ? live.hops[i].url : hop?.url ?? live.request,
                                   fields: fields, answeredBy: hop?.answeredBy, producer: hop?.producer,
                                   directive: location, directiveText: text)
        }
        for i in 0..<max(live.hops.count, sim.count) {
            guard i < live.hops.count else {
                return divergence(i, [.init(name: "hop", live: "none (chain ended: \(live.outcome))", simulated: describe(sim[i]))])
            }
            guard i < sim.count else {
                return divergence(i, [.init(name: "hop", live: describe(live.hops[i]),
                                            simulated: "none (chain ended: \(simulated.outcome.rawValue))")])
            }
            let l = live.hops[i], s = sim[i]
            var fields: [ProbeDivergence.Field] = []
            let liveFailed = l.error != nil || l.status == 0, simFailed = s.error != nil || s.status == 0
            if liveFailed || simFailed {
                if liveFailed != simFailed {
                    fields.append(.init(name: "status", live: liveFailed ? "no answer (\(l.error ?? "error"))" : "\(l.status)",
                                        simulated: simFailed ? "no answer (\(s.error ?? "error"))" : "\(s.status)"))
                }
            } else {
                if l.status != s.status { fields.append(.init(name: "status", live: "\(l.status)", simulated: "\(s.status)")) }
                let lLoc = absolute(l.location, base: l.url), sLoc = absolute(s.location, base: s.url)
                if lLoc != sLoc { fields.append(.init(name: "location", live: lLoc ?? "none", simulated: sLoc ?? "none")) }
                let sHSTS = s.header("Strict-Transport-Security")
                if (l.hsts == nil) != (sHSTS == nil) {
                    fields.append(.init(name: "strict-transport-security", live: l.hsts ?? "none", simulated: sHSTS ?? "none"))
                }
            }
            if !fields.isEmpty { return divergence(i, fields) }
        }
        if live.outcome != simulated.outcome.rawValue, !live.hops.isEmpty {
            return divergence(live.hops.count - 1, [.init(name: "outcome", live: live.outcome, simulated: simulated.outcome.rawValue)])
        }
        return nil
    }

    /// Number of hops that agree before the first divergence (all of them when none).
    static func agreeingHops(_ live: LiveChain, _ divergence: ProbeDivergence?) -> Int {
        guard let divergence else { return live.hops.count }
        return divergence.hop - 1
    }

    /// `status Location` of a simulated hop, for messages.
    static func describe(_ hop: Hop) -> String {
        if let e = hop.error { return "no answer (\(e))" }
        return "\(hop.status)" + (hop.location.map { " → \(absolute($0, base: hop.url) ?? $0)" } ?? "")
    }

    static func describe(_ hop: LiveHop) -> String {
        if let e = hop.error { return "no answer (\(e))" }
        return "\(hop.status)" + (hop.location.map { " → \(absolute($0, base: hop.url) ?? $0)" } ?? "")
    }

    /// A Location made absolute against the URL it answered, so `/x` and `https://host/x` compare equal.
    static func absolute(_ location: String?, base: String) -> String? {
        guard let location else { return nil }
        guard let url = URLParts(base) else { return location }
        let resolved = url.resolve(location)
        return URLParts(resolved)?.text ?? resolved
    }

    /// The directive behind a simulated hop: the last redirect or rule Apache's trace names with
    /// a source range, else the last directive that fired; nil when Apache did not answer.
    static func directive(of hop: Hop, site: Site?) -> (String?, String?) {
        guard hop.answerer == .origin, let origin = hop.origin else { return (nil, nil) }
        let preferred: [TraceEvent.Kind] = [.externalRedirect, .ruleMatched, .alias, .directorySlash, .fallback, .directoryIndex, .status, .configError]
        let range = origin.trace.last { $0.range != nil && preferred.contains($0.kind) }?.range
            ?? origin.firedRules.last
            ?? origin.trace.last { $0.range != nil }?.range
        guard let range else { return (nil, nil) }
        guard let site else { return (range.file, nil) }
        return (site.location(of: range), site.text(of: range))
    }
}

/// One candidate topology's agreement with the live chains.
struct ProbeScore: Sendable, Codable, Equatable {
    /// The `--edge` value (with `+always-https`).
    var topology: String
    var matchingChains: Int
    var matchingHops: Int
    var chains: Int
    var hops: Int
    /// The first divergence of each chain that does not match.
    var divergences: [ProbeDivergence]

    var isExact: Bool { matchingChains == chains }
}

/// Ranks topologies by how well their simulations reproduce the live chains.
enum ProbeInference {
    /// The edge settings `--infer` tries, simplest first (ties keep this order).
    static let candidates = ["none", "cloudflare-flexible", "cloudflare-flexible+always-https", "cloudflare-full",
                             "cloudflare-full+always-https", "proxy", "proxy+always-https"]

    /// Scores one topology: chains reproduced exactly, then hops that agree before the first divergence.
    static func score(topology: String, live: [LiveChain], simulate: (String) -> ChainResult, site: Site?) -> ProbeScore {
        var score = ProbeScore(topology: topology, matchingChains: 0, matchingHops: 0, chains: live.count,
                               hops: live.reduce(0) { $0 + $1.hops.count }, divergences: [])
        for chain in live {
            let divergence = ProbeComparison.compare(chain, simulate(chain.request), site: site)
            score.matchingHops += ProbeComparison.agreeingHops(chain, divergence)
            if let divergence { score.divergences.append(divergence) } else { score.matchingChains += 1 }
        }
        return score
    }

    /// Best first: more exact chains, then more agreeing hops, then the candidates' order.
    static func rank(_ scores: [ProbeScore]) -> [ProbeScore] {
        scores.enumerated().sorted { a, b in
            if a.element.matchingChains != b.element.matchingChains { return a.element.matchingChains > b.element.matchingChains }
            if a.element.matchingHops != b.element.matchingHops { return a.element.matchingHops > b.element.matchingHops }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// Candidates that explain the live chains exactly as well as the best one.
    static func tied(_ ranked: [ProbeScore]) -> [ProbeScore] {
        guard let best = ranked.first else { return [] }
        return ranked.filter { $0.matchingChains == best.matchingChains && $0.matchingHops == best.matchingHops }
    }
}
