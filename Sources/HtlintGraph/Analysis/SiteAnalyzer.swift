import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// The all-URL analysis of a site behind its layers: builds the rule graph, finds the cycles of
/// the fires-on relation (candidate loops) and confirms them by simulation with synthesized
/// witnesses, and finds dead rules and redirect targets nothing serves. Computed once, on first use.
public final class SiteAnalyzer: @unchecked Sendable {
    /// The simulator witnesses are confirmed with (and whose origin is analysed).
    public let simulator: ChainSimulator
    /// The layer in front of Apache that the variables' ranges come from.
    public let edge: Edge
    let topology: Topology
    let contexts: RuleContexts
    let semantics: RuleSemantics
    private let sources: [String: SourceFile]
    private let lock = NSLock()
    private var cached: GraphAnalysis?

    /// Rule occurrences beyond this are not analysed for loops (each pair is examined).
    public static let ruleLimit = 300
    /// Witness requests simulated per analysis, over all candidates.
    public static let simulationBudget = 48

    /// `edge` defaults to the simulator's.
    public init(simulator: ChainSimulator, edge: Edge? = nil) {
        self.simulator = simulator
        self.edge = edge ?? simulator.edge
        topology = Topology(origin: simulator.origin, edge: self.edge)
        contexts = RuleContexts(topology: topology)
        semantics = RuleSemantics(topology: topology, contexts: contexts)
        var sources: [String: SourceFile] = [:]
        for (_, file) in simulator.origin.site.files.accessFileEntries { sources[file.path] = file }
        self.sources = sources
    }

    /// The analysis (computed on first call, then shared).
    public func analyze() -> GraphAnalysis {
        lock.lock()
        defer { lock.unlock() }
        if let cached { return cached }
        var result = GraphAnalysis()
        let occurrences = contexts.occurrences
        if occurrences.count > SiteAnalyzer.ruleLimit {
            result.limits.append("\(occurrences.count) rule occurrences: loops, dead rules and unserved targets are analysed for sites up to \(SiteAnalyzer.ruleLimit)")
            cached = result
            return result
        }
        let search = LoopSearch(semantics: semantics)
        let relation = search.relation()
        result.relation = relation.map { FiresOnPair(from: nodeID($0.from), to: nodeID($0.to), via: $0.via.rawValue) }
        let cycles = search.cycles(relation)
        if cycles.count >= LoopSearch.maxCycles { result.limits.append("only the first \(LoopSearch.maxCycles) cycles were examined") }
        var budget = SiteAnalyzer.simulationBudget
        var confirmedRules = Set<RuleOccurrence>()
        for cycle in cycles {
            // A longer cycle through a confirmed loop's rules is the same loop seen again.
            if cycle.contains(where: confirmedRules.contains) { continue }
            guard let candidate = loop(cycle, relation: relation, search: search, budget: &budget) else { continue }
            if candidate.confirmed { confirmedRules.formUnion(cycle) }
            result.loops.append(candidate)
        }
        if budget <= 0 { result.limits.append("the simulation budget (\(SiteAnalyzer.simulationBudget) requests) ran out; later candidates were not simulated") }
        result.deadRules = deadRules()
        result.unservedTargets = unservedTargets()
        cached = result
        return result
    }

    // MARK: - References

    func nodeID(_ o: RuleOccurrence) -> String { "c\(o.context)_r\(o.index)" }

    func reference(_ o: RuleOccurrence) -> RuleReference {
        let rule = semantics.rule(o)
        return RuleReference(node: nodeID(o), context: contexts.contexts[o.context].id, line: rule.line, range: rule.range,
                             text: directiveText(rule.range) ?? SiteAnalyzer.reconstruct(rule))
    }

    func reference(_ c: RewriteCondition) -> ConditionReference {
        let line = sources[c.range.file].map { $0.lines.position(of: c.range.start).line } ?? 0
        return ConditionReference(line: line, range: c.range,
                                  text: directiveText(c.range) ?? "RewriteCond \(c.rawTestString) \(c.rawPattern)")
    }

    /// The directive's text from its file, on one line.
    func directiveText(_ range: SourceRange) -> String? {
        guard let file = sources[range.file], range.end <= file.bytes.count else { return nil }
        var text = file.text(range.start..<range.end)
        text = text.replacingOccurrences(of: "\\\r\n", with: " ").replacingOccurrences(of: "\\\n", with: " ")
        return text.split(whereSeparator: \.isNewline).first.map { String($0).trimmingCharacters(in: .whitespaces) }
    }

    static func reconstruct(_ rule: RewriteRule) -> String {
        "RewriteRule \(rule.negated ? "!" : "")\(rule.pattern) \(rule.rawSubstitution)"
    }

    // MARK: - Loops

    private func loop(_ cycle: [RuleOccurrence], relation: [FiresOn], search: LoopSearch, budget: inout Int) -> LoopCandidate? {
        let k = cycle.count
        let witnesses = WitnessRequests(topology: topology)
        let viaKinds = (0..<k).map { i in search.vias(relation, cycle[i], cycle[(i + 1) % k]) }
        let kind: LoopCandidate.Kind = viaKinds.contains { $0.contains(.redirect) } ? .redirect : .internalRedirect
        var best: (start: Int, trail: [[RequestSpace]])? = nil
        var tried: [String] = []
        var unmodelled: [String] = []
        for start in 0..<k {
            // The first request comes from a browser: every rule set's entry is tried.
            let entries = semantics.entrySpaces(cycle[start].context)
            guard let trail = search.follow(cycle, from: start, entry: entries, relation: relation) else { continue }
            if best == nil { best = (start, trail) }
            for s in trail.joined() { for v in s.freeVariables where !unmodelled.contains(v) { unmodelled.append(v) } }
            // Requests a browser can send that the cycle produced, latest round first; then the entry.
            var spaces: [(Int, RequestSpace)] = []
            for (step, list) in trail.enumerated().reversed() { for s in list where !s.internalRedirect { spaces.append((step, s)) } }
            // Step i of the trail is where rule (start + i) fires.
            var urls: [(url: String, rule: Int)] = []
            for (step, s) in spaces { urls += witnesses.urls(s, limit: 4).map { ($0, (start + step) % k) } }
            var seen = Set(tried)
            urls = urls.filter { seen.insert($0.url).inserted }
            // A handful of requests per cycle: the spaces are precise, the first usually loops.
            // Each must go round the cycle as a single request before it is simulated.
            for (url, first) in urls where tried.count < 6 && budget > 0 {
                guard let space = witnesses.space(url),
                      search.follow(cycle, from: first, entry: [space], relation: relation) != nil else { continue }
                tried.append(url)
                budget -= 1
                let chain = simulator.run(url)
                if confirms(chain, cycle: cycle, kind: kind) {
                    return candidate(cycle, rotatedTo: first, via: viaKinds, kind: kind, confirmed: true, witness: url,
                                     tried: tried, chain: chain, unmodelled: unmodelled)
                }
            }
        }
        guard let best else { return nil }
        return candidate(cycle, rotatedTo: best.start, via: viaKinds, kind: kind, confirmed: false, witness: tried.first,
                         tried: tried, chain: nil, unmodelled: unmodelled)
    }

    private func candidate(_ cycle: [RuleOccurrence], rotatedTo start: Int, via: [Set<FiresOn.Via>], kind: LoopCandidate.Kind,
                           confirmed: Bool, witness: String?, tried: [String], chain: ChainResult?, unmodelled: [String]) -> LoopCandidate {
        let k = cycle.count
        let order = (0..<k).map { (start + $0) % k }
        let hops = chain?.hops.map { hop in
            "\(hop.url) → \(hop.status)" + (hop.location.map { " \($0)" } ?? "")
                + (hop.origin?.recursionLimitExceeded == true ? " (more than \(topology.site.limitInternalRecursion) internal redirects)" : "")
        } ?? []
        let status: LoopCandidate.Status = confirmed ? .confirmed : unmodelled.isEmpty ? .refuted : .unconfirmed
        return LoopCandidate(kind: kind, cycle: order.map { reference(cycle[$0]) },
                             via: order.map { i in via[i].map(\.rawValue).sorted().joined(separator: "|") },
                             status: status, witness: witness, triedWitnesses: tried, chain: hops, unmodelled: unmodelled)
    }

    /// Whether a simulated chain loops through at least one rule of the cycle.
    private func confirms(_ chain: ChainResult, cycle: [RuleOccurrence], kind: LoopCandidate.Kind) -> Bool {
        let ranges = Set(cycle.map { semantics.rule($0).range })
        switch kind {
        case .redirect:
            guard chain.outcome == .loop || chain.outcome == .tooManyHops else { return false }
            let loopHops = chain.loopStart.map { Array(chain.hops[$0...]) } ?? chain.hops
            return loopHops.contains { hop in
                hop.origin?.trace.contains { ($0.kind == .externalRedirect || $0.kind == .ruleMatched) && $0.range.map(ranges.contains) == true } == true
            }
        case .internalRedirect:
            return chain.hops.contains { hop in
                hop.origin?.recursionLimitExceeded == true
                    && hop.origin?.trace.contains { $0.kind == .ruleMatched && $0.range.map(ranges.contains) == true } == true
            }
        }
    }
}
