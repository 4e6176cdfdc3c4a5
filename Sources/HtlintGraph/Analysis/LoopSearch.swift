import Foundation
import HtlintApache
import HtlintSimulation

/// "Rule `to` can fire on what rule `from` produces", and how the request gets there.
struct FiresOn: Hashable, Sendable {
    var from: RuleOccurrence
    var to: RuleOccurrence
    var via: Via

    enum Via: String, Hashable, Sendable, Codable {
        /// The browser follows a redirect.
        case redirect
        /// Apache redirects internally after a per-directory rewrite.
        case internalRedirect = "internal-redirect"
        /// Later in the same pass.
        case samePass = "same-pass"
    }
}

extension ContinuationKind {
    var via: FiresOn.Via? {
        switch self {
        case .redirect: return .redirect
        case .internalRedirect: return .internalRedirect
        case .samePass: return .samePass
        default: return nil
        }
    }
}

/// The all-URL loop search: the fires-on relation between rules, its cycles, and for each cycle
/// the requests that go round it.
struct LoopSearch {
    let semantics: RuleSemantics
    /// Cycles longer than this are not enumerated (real loops have one to three rules).
    static let maxCycleLength = 6
    static let maxCycles = 24

    /// Whether a rule can hand a request on at all (not `-`, not a status or proxy).
    func canContinue(_ o: RuleOccurrence) -> Bool {
        let r = semantics.rule(o)
        return !r.isDash && r.flags.statusOverride == nil && !r.flags.proxy
    }

    /// The rules that may see the requests of a continuation of `from`.
    func followers(of from: RuleOccurrence, _ c: Continuation) -> [RuleOccurrence] {
        guard let space = c.space else { return [] }
        let contexts = semantics.contexts
        switch c.kind {
        case .samePass where !contexts.contexts[from.context].isServer:
            let rules = contexts.contexts[from.context].ruleSet.rules
            // `[N]` starts the rule set over; otherwise the rules after the chain go on.
            var first = from.index + 1
            if rules[from.index].flags.next != nil { first = 0 } else {
                while first < rules.count, rules[first - 1].flags.chain { first += 1 }
            }
            return (first..<max(first, rules.count)).map { RuleOccurrence(context: from.context, index: $0) }
        case .samePass, .redirect, .internalRedirect:
            let serverToo = c.kind != .samePass
            return contexts.contexts(seeing: space.path, serverToo: serverToo).flatMap { ci in
                contexts.contexts[ci].ruleSet.rules.indices.map { RuleOccurrence(context: ci, index: $0) }
            }
        default:
            return []
        }
    }

    /// The fires-on relation over every rule that hands requests on.
    func relation() -> [FiresOn] {
        var out = Set<FiresOn>()
        for (ci, ctx) in semantics.contexts.contexts.enumerated() {
            var entries = semantics.entrySpaces(ci)
            if !ctx.isServer { entries += semantics.entrySpaces(ci, internalRedirect: true) }
            for index in ctx.ruleSet.rules.indices {
                let a = RuleOccurrence(context: ci, index: index)
                guard canContinue(a) else { continue }
                for entry in entries {
                    for f in semantics.fire(a, entry) {
                        for c in semantics.continuations(f) where c.reenters {
                            guard let via = c.kind.via, let space = c.space else { continue }
                            for b in followers(of: a, c) where canContinue(b) {
                                let edge = FiresOn(from: a, to: b, via: via)
                                if out.contains(edge) { continue }
                                if !semantics.fire(b, space).isEmpty { out.insert(edge) }
                            }
                        }
                    }
                }
            }
        }
        return out.sorted { ($0.from.context, $0.from.index, $0.to.context, $0.to.index, $0.via.rawValue)
            < ($1.from.context, $1.from.index, $1.to.context, $1.to.index, $1.via.rawValue) }
    }

    /// Elementary cycles of the relation, shortest first (each rotated to start at its
    /// smallest rule), at least one edge of which goes back to the start of request processing.
    func cycles(_ relation: [FiresOn]) -> [[RuleOccurrence]] {
        let nodes = Array(Set(relation.flatMap { [$0.from, $0.to] })).sorted { ($0.context, $0.index) < ($1.context, $1.index) }
        let position = Dictionary(uniqueKeysWithValues: nodes.enumerated().map { ($1, $0) })
        var next = [[Int]](repeating: [], count: nodes.count)
        for e in relation {
            let (a, b) = (position[e.from]!, position[e.to]!)
            if !next[a].contains(b) { next[a].append(b) }
        }
        for i in next.indices { next[i].sort() }
        var found: [[RuleOccurrence]] = []
        for length in 1...LoopSearch.maxCycleLength {
            for s in nodes.indices {
                var path = [s]
                var onPath = Set([s])
                func dfs(_ v: Int) {
                    guard found.count < LoopSearch.maxCycles else { return }
                    for w in next[v] where w >= s {
                        if w == s, path.count == length {
                            let cycle = path.map { nodes[$0] }
                            if returnsToStart(cycle, relation) { found.append(cycle) }
                        } else if w != s, !onPath.contains(w), path.count < length {
                            path.append(w)
                            onPath.insert(w)
                            dfs(w)
                            path.removeLast()
                            onPath.remove(w)
                        }
                    }
                }
                dfs(s)
            }
        }
        return found
    }

    private func returnsToStart(_ cycle: [RuleOccurrence], _ relation: [FiresOn]) -> Bool {
        (0..<cycle.count).contains { i in
            relation.contains { $0.from == cycle[i] && $0.to == cycle[(i + 1) % cycle.count] && $0.via != .samePass }
        }
    }

    /// Ways from `a` to `b` in the relation.
    func vias(_ relation: [FiresOn], _ a: RuleOccurrence, _ b: RuleOccurrence) -> Set<FiresOn.Via> {
        Set(relation.filter { $0.from == a && $0.to == b }.map(\.via))
    }

    /// Follows request spaces round `cycle` starting at rule `start` for two rounds. Returns
    /// the spaces seen at each step (index 0: where the first rule fires), nil when the cycle
    /// cannot be followed that far (the pairwise relation was too generous).
    func follow(_ cycle: [RuleOccurrence], from start: Int, entry: [RequestSpace], relation: [FiresOn]) -> [[RequestSpace]]? {
        let k = cycle.count
        var spaces = entry.flatMap { semantics.fire(cycle[start], $0).map(\.space) }
        guard !spaces.isEmpty else { return nil }
        var trail = [spaces]
        for step in 0..<(2 * k) {
            let a = cycle[(start + step) % k], b = cycle[(start + step + 1) % k]
            let allowed = vias(relation, a, b)
            var next: [RequestSpace] = []
            for s in spaces {
                for f in semantics.fire(a, s) {
                    for c in semantics.continuations(f) where c.reenters {
                        guard let via = c.kind.via, allowed.contains(via), let space = c.space else { continue }
                        next += semantics.fire(b, space).map(\.space)
                    }
                }
                if next.count > 6 { break }
            }
            guard !next.isEmpty else { return nil }
            spaces = Array(next.prefix(6))
            trail.append(spaces)
        }
        return trail
    }
}

/// Concrete requests from request spaces, readable first.
struct WitnessRequests {
    let topology: Topology

    /// Up to `limit` URLs of requests a browser could send, taken from `space`.
    func urls(_ space: RequestSpace, limit: Int) -> [String] {
        guard !space.internalRedirect else { return [] }
        var hosts = topology.hostNames.filter { space.host.accepts($0) }
        if let h = space.host.intersection(topology.ownHosts)?.enumerate(limit: 2) { hosts += h }
        var seen = Set<String>()
        hosts = hosts.filter { seen.insert($0).inserted }.prefix(3).map { $0 }
        let paths = space.path.enumerate(limit: 6)
        let queries = space.query.accepts("") ? [""] : space.query.enumerate(limit: 2)
        var out: [String] = []
        for path in paths {
            for host in hosts {
                for q in queries {
                    out.append("\(space.scheme)://\(host)\(WitnessRequests.encode(path))\(q.isEmpty ? "" : "?" + q)")
                    if out.count >= limit { return out }
                }
            }
        }
        return out
    }

    /// The request of `url` as a space of one request (path decoded as Apache decodes it).
    func space(_ url: String) -> RequestSpace? {
        guard let u = URLParts(url), let path = u.path.removingPercentEncoding else { return nil }
        return RequestSpace(scheme: u.scheme, host: .literal(u.host.lowercased()), path: .literal(path),
                            query: .literal(u.query ?? ""), internalRedirect: false, theRequest: nil)
    }

    /// Percent-encodes what cannot stand in a request target's path.
    static func encode(_ path: String) -> String {
        var out = ""
        for b in path.utf8 {
            let c = Character(Unicode.Scalar(b))
            if b >= 0x21, b < 0x7F, !"%?#\"<>\\^`{|}".contains(c) { out.append(c) } else {
                out += "%" + String(b, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
