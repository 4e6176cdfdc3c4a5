import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintGraph
import HtlintSimulation

/// The all-URL analysis of a lint context's site, computed once and shared by the graph rules
/// (HT215, HT308, HT309, HT312). Keyed by the simulator's origin, held weakly.
final class GraphAnalysisCache: @unchecked Sendable {
    static let shared = GraphAnalysisCache()

    private struct Entry {
        weak var origin: Origin?
        var edge: Edge
        var analyzer: SiteAnalyzer
    }

    private let lock = NSLock()
    private var entries: [Entry] = []

    func analyzer(_ context: LintContext) -> SiteAnalyzer? {
        guard let simulator = context.simulator else { return nil }
        lock.lock()
        defer { lock.unlock() }
        entries.removeAll { $0.origin == nil }
        if let e = entries.first(where: { $0.origin === simulator.origin && $0.edge == context.edge }) { return e.analyzer }
        let analyzer = SiteAnalyzer(simulator: simulator, edge: context.edge)
        entries.append(Entry(origin: simulator.origin, edge: context.edge, analyzer: analyzer))
        if entries.count > 16 { entries.removeFirst() }
        return analyzer
    }
}

extension LintContext {
    /// The graph analysis of the site (nil without a simulator).
    var graphAnalysis: GraphAnalysis? { GraphAnalysisCache.shared.analyzer(self)?.analyze() }

    /// Directives that the probe requests already show looping (HT301/HT302 report those).
    var directivesLoopingOnProbes: Set<SourceRange> {
        var out = Set<SourceRange>()
        for probe in loopProbes {
            let chain = probe.chain
            let loops = chain.outcome == .loop || chain.outcome == .tooManyHops
            for hop in chain.hops where loops || hop.origin?.recursionLimitExceeded == true {
                for event in hop.origin?.trace ?? [] {
                    if let r = event.range, event.kind == .ruleMatched || event.kind == .externalRedirect { out.insert(r) }
                }
            }
        }
        return out
    }
}

extension LoopCandidate {
    /// Whether the probe requests already hit this loop.
    func isCovered(by probed: Set<SourceRange>) -> Bool { cycle.contains { probed.contains($0.range) } }

    /// One note per rule of the cycle, saying what feeds it.
    var cycleNotes: [Note] {
        cycle.enumerated().map { i, rule in
            let previous = cycle[(i + cycle.count - 1) % cycle.count]
            let how = via[(i + cycle.count - 1) % cycle.count]
            let verb = how.contains("internal") ? "rewritten internally" : how.contains("same-pass") ? "passed on" : "redirected"
            return Note(message: cycle.count == 1 ? "`\(rule.text)` fires again on what it \(verb) to"
                            : "`\(rule.text)` fires on what line \(previous.line) \(verb) to",
                        range: rule.range)
        }
    }

    /// "lines 3 → 6 → 3".
    var cycleLines: String { (cycle.map { "\($0.line)" } + [cycle.first.map { "\($0.line)" } ?? ""]).joined(separator: " → ") }
}
