/// The rule graph in Graphviz's DOT language: one cluster per rule set, exits at the bottom,
/// highlighted paths in colour (loops red, a URL's path blue).
public enum DOTExporter {
    /// DOT text for `graph`, highlights included.
    public static func dot(_ graph: SiteRuleGraph) -> String {
        let (hiNodes, hiEdges, loopNodes) = highlightSets(graph)
        var out = """
            digraph "htlint" {
              graph [rankdir=TB, fontname="Helvetica", fontsize=11, nodesep=0.35, ranksep=0.45, label=\(quote("rule graph of " + graph.site + (graph.edge == "none" ? "" : " behind " + graph.edge))), labelloc=t];
              node [fontname="Helvetica", fontsize=10, shape=box, style="rounded"];
              edge [fontname="Helvetica", fontsize=9, color="#555555"];

            """
        func nodeLine(_ n: SiteRuleGraph.Node, indent: String) -> String {
            var attrs = ["label=" + label(n)]
            switch n.kind {
            case .request: attrs.append("shape=oval")
            case .context: attrs += ["shape=tab", "style=filled", "fillcolor=\"#eeeeee\""]
            case .end: attrs += ["shape=box", "style=\"rounded,dashed\""]
            case .rule: break
            case .exit:
                attrs += ["shape=box", "style=\"filled\"", "fillcolor=" + quote(exitColour(n.id))]
            }
            if hiNodes.contains(n.id) {
                let loop = loopNodes.contains(n.id)
                attrs += ["color=" + quote(loop ? "#d62728" : "#1f77b4"), "penwidth=2.5"]
                if n.kind == .rule { attrs += ["style=\"rounded,filled\"", "fillcolor=" + quote(loop ? "#fde0dd" : "#deebf7")] }
            }
            return "\(indent)\(quote(n.id)) [\(attrs.joined(separator: ", "))];\n"
        }
        out += nodeLine(graph.nodes[0], indent: "  ")
        for c in graph.contexts {
            out += "  subgraph \(quote("cluster_" + c.id)) {\n"
            out += "    label=\(quote(c.name == "server" ? "server context" : c.name)); style=\"rounded,dashed\"; color=\"#999999\";\n"
            for n in graph.nodes where n.context == c.id { out += nodeLine(n, indent: "    ") }
            out += "  }\n"
        }
        for n in graph.nodes where n.kind == .exit { out += nodeLine(n, indent: "  ") }
        out += "\n"
        var drawn = Set<String>()
        for e in graph.edges {
            out += edgeLine(e, highlighted: hiEdges[key(e)])
            drawn.insert(key(e))
        }
        // Analysis edges of the highlights (a loop closing, a simulated step).
        for h in graph.highlights {
            for e in h.edges where !drawn.contains(key(e)) {
                drawn.insert(key(e))
                out += edgeLine(e, highlighted: h.isLoop)
            }
        }
        return out + "}\n"
    }

    private static func key(_ e: SiteRuleGraph.Edge) -> String { "\(e.from)>\(e.to)>\(e.kind.rawValue)" }

    /// Highlighted nodes, highlighted edges (true: part of a loop), loop nodes.
    static func highlightSets(_ graph: SiteRuleGraph) -> (Set<String>, [String: Bool], Set<String>) {
        var nodes = Set<String>(), loops = Set<String>()
        var edges: [String: Bool] = [:]
        for h in graph.highlights {
            nodes.formUnion(h.nodes)
            if h.isLoop { loops.formUnion(h.nodes) }
            for e in h.edges { edges[key(e)] = (edges[key(e)] ?? false) || h.isLoop }
        }
        return (nodes, edges, loops)
    }

    private static func edgeLine(_ e: SiteRuleGraph.Edge, highlighted: Bool?) -> String {
        var attrs: [(String, String)] = []
        func set(_ key: String, _ value: String) {
            if let i = attrs.firstIndex(where: { $0.0 == key }) { attrs[i].1 = value } else { attrs.append((key, value)) }
        }
        if let l = e.label { set("label", quote(l)) }
        switch e.kind {
        case .noMatch: set("style", "dashed"); set("color", "\"#999999\""); set("fontcolor", "\"#777777\"")
        case .chain: set("style", "bold")
        case .internalRedirect: set("style", "dashed"); set("color", "\"#7b3294\""); set("fontcolor", "\"#7b3294\"")
        case .redirect: set("color", "\"#2171b5\""); set("fontcolor", "\"#2171b5\"")
        case .follow: set("style", "dotted"); set("color", "\"#2171b5\"")
        case .fires, .trace: set("style", "dashed"); set("constraint", "false")
        default: break
        }
        if let loop = highlighted {
            let colour = quote(loop ? "#d62728" : "#1f77b4")
            set("color", colour)
            set("fontcolor", colour)
            set("penwidth", "2.5")
        }
        let list = attrs.map { "\($0.0)=\($0.1)" }.joined(separator: ", ")
        return "  \(quote(e.from)) -> \(quote(e.to))" + (attrs.isEmpty ? "" : " [\(list)]") + ";\n"
    }

    private static func exitColour(_ id: String) -> String {
        if id == "exit_served" { return "#e5f5e0" }
        if id.hasSuffix("_redirect") { return "#deebf7" }
        if id == "exit_offsite" { return "#f0f0f0" }
        return "#fee0d2"
    }

    /// A node's label; rule labels are left-aligned lines.
    static func label(_ n: SiteRuleGraph.Node) -> String {
        guard let r = n.rule else { return quote(n.label) }
        var lines = ["line \(r.line): \(r.pattern)  →  \(r.substitution)" + (r.flags.isEmpty ? "" : "  [\(r.flags)]")]
        for (i, group) in r.conditionGroups.enumerated() {
            lines.append((i == 0 ? "if " : "and ") + group.joined(separator: "  OR  "))
        }
        return "\"" + lines.map(escape).joined(separator: "\\l") + "\\l\""
    }

    /// A DOT string literal.
    static func quote(_ s: String) -> String { "\"" + escape(s) + "\"" }

    /// Backslashes and quotes escaped, so `\.` in a pattern is not read as a DOT escape.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n", "\r": out += " "
            default: out.append(c)
            }
        }
        return out
    }
}
