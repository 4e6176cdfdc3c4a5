import HtlintDiagnostics
import HtlintGraph

/// A cycle of rules that may loop, which simulation could not confirm because it depends on
/// something the analysis cannot vary.
struct UnconfirmedLoop: LintRule {
    let description = RuleDescription(
        id: "HT309", name: "unconfirmed-loop", family: .https,
        summary: "rules that can fire on each other's output in a cycle, a loop that simulation could not confirm",
        rationale: """
        The all-URL analysis (see HT308) found a cycle of rules, but no simulated request went \
        round it, and the cycle depends on something the analysis cannot vary: the client's \
        address, the time, a cookie or user agent, an environment variable set by a rule, an \
        `expr` condition. Real visitors may still loop (for instance every visitor from the \
        network a `%{REMOTE_ADDR}` condition names, while the simulation connects from \
        127.0.0.1). Check the cycle by hand, or add a condition that excludes the rule's own target.
        """,
        severity: .note,
        triggering: [Example("RewriteEngine On\n# staff see the beta site\nRewriteCond %{REMOTE_ADDR} ^10\\.\n↓RewriteRule ^(.*)$ /$1?beta=1 [R=302,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteCond %{REMOTE_ADDR} ^10\\.\nRewriteCond %{QUERY_STRING} !(^|&)beta=1\nRewriteRule ^(.*)$ /$1?beta=1 [R=302,L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let analysis = context.graphAnalysis else { return [] }
        let probed = context.directivesLoopingOnProbes
        return analysis.loops.filter { $0.status == .unconfirmed && !$0.isCovered(by: probed) }.compactMap { loop in
            guard let first = loop.cycle.first else { return nil }
            let what = loop.kind == .redirect ? "redirect loop" : "internal rewrite loop"
            let cycle = loop.cycle.count == 1 ? "line \(first.line) can fire on its own output" : "lines \(loop.cycleLines) can fire on each other's output"
            let tried = loop.triedWitnesses.first.map { "; \($0) did not loop in simulation" }
                ?? "; no single request could be built that goes round it"
            return finding("possible \(what): \(cycle), depending on \(loop.unmodelled.joined(separator: ", "))\(tried)",
                           at: first.range, notes: loop.cycleNotes)
        }
    }
}
