/// The rule graph as a Mermaid flowchart (for Markdown pages), highlighted paths styled with
/// `classDef`/`linkStyle`.
public enum MermaidExporter {
    /// A `flowchart TD` for `graph`, highlights included.
    public static func mermaid(_ graph: SiteRuleGraph) -> String {
        let (hiNodes, hiEdges, loopNodes) = DOTExporter.highlightSets(graph)
        var out = "flowchart TD\n"
        func nodeLine(_ n: SiteRuleGraph.Node) -> String {
            let text = label(n)
            switch n.kind {
            case .request: return "\(n.id)([\"\(text)\"])"
            case .context: return "\(n.id)[/\"\(text)\"/]"
            case .end: return "\(n.id)[\"\(text)\"]"
            case .rule: return "\(n.id)[\"\(text)\"]"
            case .exit: return "\(n.id)[[\"\(text)\"]]"
            }
        }
        out += "  " + nodeLine(graph.nodes[0]) + "\n"
        for c in graph.contexts {
            out += "  subgraph \(c.id)_group [\"\(escape(c.name == "server" ? "server context" : c.name))\"]\n"
            for n in graph.nodes where n.context == c.id { out += "    " + nodeLine(n) + "\n" }
            out += "  end\n"
        }
        for n in graph.nodes where n.kind == .exit { out += "  " + nodeLine(n) + "\n" }
        var index = 0
        var loopLinks: [Int] = [], pathLinks: [Int] = []
        var drawn = Set<String>()
        func edgeLine(_ e: SiteRuleGraph.Edge) -> String {
            let arrow: String
            switch e.kind {
            case .noMatch, .internalRedirect, .follow, .fires, .trace: arrow = "-.->"
            case .chain: arrow = "==>"
            default: arrow = "-->"
            }
            let text = e.label.map { "|\"\(escape($0))\"|" } ?? ""
            return "  \(e.from) \(arrow)\(text) \(e.to)\n"
        }
        for e in graph.edges + graph.highlights.flatMap(\.edges) {
            let k = "\(e.from)>\(e.to)>\(e.kind.rawValue)"
            guard drawn.insert(k).inserted else { continue }
            out += edgeLine(e)
            if let loop = hiEdges[k] { if loop { loopLinks.append(index) } else { pathLinks.append(index) } }
            index += 1
        }
        out += "  classDef exit fill:#f0f0f0,stroke:#888888\n"
        out += "  classDef loop fill:#fde0dd,stroke:#d62728,stroke-width:3px\n"
        out += "  classDef path fill:#deebf7,stroke:#1f77b4,stroke-width:3px\n"
        let exits = graph.nodes.filter { $0.kind == .exit }.map(\.id)
        if !exits.isEmpty { out += "  class \(exits.joined(separator: ",")) exit\n" }
        let loops = graph.nodes.map(\.id).filter { loopNodes.contains($0) }
        let paths = graph.nodes.map(\.id).filter { hiNodes.contains($0) && !loopNodes.contains($0) }
        if !loops.isEmpty { out += "  class \(loops.joined(separator: ",")) loop\n" }
        if !paths.isEmpty { out += "  class \(paths.joined(separator: ",")) path\n" }
        if !loopLinks.isEmpty { out += "  linkStyle \(loopLinks.map(String.init).joined(separator: ",")) stroke:#d62728,stroke-width:3px\n" }
        if !pathLinks.isEmpty { out += "  linkStyle \(pathLinks.map(String.init).joined(separator: ",")) stroke:#1f77b4,stroke-width:3px\n" }
        return out
    }

    static func label(_ n: SiteRuleGraph.Node) -> String {
        guard let r = n.rule else { return escape(n.label) }
        var lines = ["line \(r.line): \(r.pattern) → \(r.substitution)" + (r.flags.isEmpty ? "" : " [\(r.flags)]")]
        for (i, group) in r.conditionGroups.enumerated() {
            lines.append((i == 0 ? "if " : "and ") + group.joined(separator: " OR "))
        }
        return lines.map(escape).joined(separator: "<br/>")
    }

    /// Mermaid entity codes for what would end a label or start markup.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "#": out += "#35;"
            case "\"": out += "#quot;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "&": out += "#amp;"
            case "|": out += "#124;"
            case "`": out += "#96;"
            case "\n", "\r": out += " "
            default: out.append(c)
            }
        }
        return out
    }
}
