import HtlintSimulation

/// A simulated redirect chain as a left-to-right hop diagram (DOT): one box per request with
/// its answer, arrows for the redirects, and the arrow back for a loop.
public enum ChainDiagram {
    /// DOT text for the hops of `chain`.
    public static func dot(_ chain: ChainResult) -> String {
        var out = """
            digraph "chain" {
              graph [rankdir=LR, fontname="Helvetica", fontsize=10, nodesep=0.3];
              node [fontname="Helvetica", fontsize=10, shape=box, style="rounded,filled"];
              edge [fontname="Helvetica", fontsize=9];

            """
        for (i, hop) in chain.hops.enumerated() {
            let inLoop = chain.loopStart.map { i >= $0 } ?? false
            let colour = inLoop ? "#fde0dd" : hop.status >= 500 || hop.status == 0 ? "#fee0d2"
                : (300...399).contains(hop.status) ? "#deebf7" : hop.status >= 400 ? "#fee0d2" : "#e5f5e0"
            var lines = ["\(i + 1). \(hop.method) \(hop.url)",
                         hop.status == 0 ? "no answer" : "\(hop.status) from \(hop.answeredBy)"]
            if let served = hop.served { lines.append("serves \(served)") }
            if hop.origin?.recursionLimitExceeded == true { lines.append("more than the internal redirect limit") }
            let label = lines.map(DOTExporter.escape).joined(separator: "\\n")
            out += "  \"h\(i)\" [label=\"\(label)\", fillcolor=\"\(colour)\"\(inLoop ? ", color=\"#d62728\", penwidth=2" : "")];\n"
        }
        for i in chain.hops.indices.dropLast() {
            let location = chain.hops[i].location.map { DOTExporter.quote($0) } ?? "\"\""
            out += "  \"h\(i)\" -> \"h\(i + 1)\" [label=\(location)];\n"
        }
        if let start = chain.loopStart, let last = chain.hops.indices.last {
            let location = chain.hops[last].location.map { DOTExporter.quote("\($0) (seen before)") } ?? "\"\""
            out += "  \"h\(last)\" -> \"h\(start)\" [label=\(location), color=\"#d62728\", fontcolor=\"#d62728\", penwidth=2, constraint=false];\n"
        }
        if chain.outcome == .offsite, let url = chain.offsiteURL, let last = chain.hops.indices.last {
            out += "  \"offsite\" [label=\(DOTExporter.quote("leaves the site: " + url)), fillcolor=\"#f0f0f0\"];\n"
            out += "  \"h\(last)\" -> \"offsite\";\n"
        }
        return out + "}\n"
    }
}
