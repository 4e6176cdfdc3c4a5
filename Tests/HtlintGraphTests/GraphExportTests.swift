import Foundation
import Testing
import HtlintSimulation
@testable import HtlintGraph

/// The rule graph as a value, and its exports: DOT through Graphviz's own parser, SVG through
/// Graphviz's layout, Mermaid checked structurally.
struct GraphExportTests {
    static let root = """
        RewriteEngine On
        RewriteCond %{HTTP_HOST} ^example\\.net$ [NC,OR]
        RewriteCond %{HTTP_HOST} ^www\\.example\\.net$ [NC]
        RewriteRule ^(.*)$ https://example.com/$1 [R=301,L]
        RewriteRule ^docs/(.*)\\.htm$ docs/$1 [C]
        RewriteRule ^(.*)$ $1.html [L]
        RewriteRule ^skip-me$ - [S=1]
        RewriteRule ^private/ - [F]
        RewriteCond %{QUERY_STRING} (^|&)utm_[a-z]+= [NC]
        RewriteRule ^(.*)$ /$1 [R=301,L]
        RewriteRule ^say-"hi"|x#y$ /index.html [R=302,L]
        """
    static let blog = "RewriteEngine On\nRewriteBase /blog/\nRewriteRule ^post-([0-9]+)$ index.php?p=$1 [L]"

    static func analyzer() -> SiteAnalyzer {
        SiteAnalyzer(simulator: TestSites.simulator(root, aliases: ["example.net", "www.example.net"],
                                                    files: ["/index.html", "/docs/a.html", "/blog/index.php"],
                                                    subdirectories: ["/blog": blog]))
    }

    /// F, G and R=code write one status, the last wins (recorded: rewrite-flags-status-flag-order).
    @Test func statusFlagsEndWhereTheLastOneSays() {
        let htaccess = "RewriteEngine On\nRewriteRule ^a$ - [F,R=307]\nRewriteRule ^b$ - [R=301,G]\nRewriteRule ^c$ - [R=403]\nRewriteRule ^d$ - [G,F]"
        let graph = SiteAnalyzer(simulator: TestSites.simulator(htaccess)).graph()
        let edges = Set(graph.edges.map { "\($0.from)>\($0.to)>\($0.kind.rawValue)>\($0.label ?? "")" })
        #expect(edges.contains("c0_r0>exit_status_307>status>R=307"))
        #expect(edges.contains("c0_r1>exit_gone>gone>G"))
        #expect(edges.contains("c0_r2>exit_forbidden>forbidden>R=403"))
        #expect(edges.contains("c0_r3>exit_forbidden>forbidden>F"))
    }

    @Test func graphHasAClusterPerRuleSetAndTheControlEdges() throws {
        let graph = Self.analyzer().graph()
        #expect(graph.contexts.map(\.name) == ["/", "/blog/"])
        let edges = Set(graph.edges.map { "\($0.from)>\($0.to)>\($0.kind.rawValue)" })
        // [C]: the chained rule runs after a match; a failing head skips the whole chain.
        #expect(edges.contains("c0_r1>c0_r2>chain") && edges.contains("c0_r1>c0_r3>no-match"))
        #expect(edges.contains("c0_r3>c0_r5>skip"))
        #expect(edges.contains("c0_r4>exit_forbidden>forbidden"))
        #expect(edges.contains("c0_r0>c0_r0_redirect>redirect") && edges.contains("c0_r0_redirect>c0>follow"))
        #expect(edges.contains("c1_r0>c1>internal-redirect"))
        #expect(edges.contains("request>c1>enter") && edges.contains("c1_end>exit_served>serve"))
        let rule = try #require(graph.node("c0_r0")?.rule)
        #expect(rule.conditionGroups == [["%{HTTP_HOST} ^example\\.net$ [NC,OR]", "%{HTTP_HOST} ^www\\.example\\.net$ [NC]"]])
        #expect(rule.flags == "R=301,L")
    }

    @Test func loopsAreHighlighted() throws {
        let analyzer = Self.analyzer()
        let highlights = analyzer.loopHighlights()
        let loop = try #require(highlights.first)
        #expect(highlights.count == 1)
        #expect(loop.isLoop && loop.nodes == ["c0_r5", "c0_r5_redirect"])
        #expect(loop.edges.contains { $0.kind == .fires && $0.from == "c0_r5_redirect" && $0.to == "c0_r5" })
        let dot = DOTExporter.dot(analyzer.graph(highlighting: highlights))
        #expect(dot.contains("\"c0_r5_redirect\" -> \"c0_r5\" [label=\"loops back\", style=dashed, constraint=false, color=\"#d62728\""))
    }

    @Test func urlPathIsHighlighted() throws {
        let analyzer = Self.analyzer()
        let h = analyzer.highlight(for: analyzer.simulator.run("http://example.net/docs/a.htm"))
        #expect(!h.isLoop)
        #expect(h.nodes == ["request", "c0_r0", "c0_r0_redirect", "c0_r1", "c0_r2", "exit_served"])
        #expect(h.edges.map(\.kind) == [.trace, .redirect, .trace, .chain, .trace])
        let blog = analyzer.highlight(for: analyzer.simulator.run("http://example.com/blog/post-7"))
        #expect(blog.nodes == ["request", "c1_r0", "exit_served"])
    }

    @Test func dotParsesWithGraphvizAndRendersAsSVG() throws {
        let analyzer = Self.analyzer()
        let graph = analyzer.graph(highlighting: analyzer.loopHighlights())
        let dot = DOTExporter.dot(graph)
        let parsed = try Graphviz.parse(dot)
        #expect(parsed.nodes == graph.nodes.count)
        let extra = Set(graph.highlights.flatMap(\.edges).filter { $0.kind == .fires }.map { "\($0.from)>\($0.to)" })
        #expect(parsed.edges == graph.edges.count + extra.count)
        let svg = try Graphviz.svg(dot)
        #expect(svg.contains("<svg") && svg.contains("<title>c0_r5</title>"))
        #expect(Graphviz.inlineSVG(svg).hasPrefix("<svg"))
        // The pattern with quotes, `|` and `#` survives in the label.
        #expect(svg.contains("say&#45;&quot;hi&quot;|x#y"))
    }

    /// Labelled edges from outside a cluster into it and back (a redirect the browser follows to
    /// its own rule set) made Graphviz 2.42's layout cleanup free memory twice, and htlint
    /// aborted. This renders that graph repeatedly; whether glibc notices the double free
    /// depends on the heap, so valgrind (an invalid free in gvFreeLayout) is the sure check.
    @Test func labelledEdgesBackIntoAClusterRenderAsSVG() throws {
        let dot = """
            digraph "htlint" {
              subgraph "cluster_c0" { "c0_r0" [label="line 4"]; "c0_r1" [label="line 8"]; }
              "c0" -> "c0_r0";
              "c0_r0" -> "c0_r1" [label="no match"];
              "c0_r0" -> "c0_r0_redirect" [label="R=301"];
              "c0_r0_redirect" -> "c0" [label="browser follows"];
              "c0_r1" -> "c0_r1_redirect" [label="R=301"];
              "c0_r1_redirect" -> "c0" [label="browser follows"];
            }
            """
        for _ in 0..<3 {
            let svg = try Graphviz.svg(dot)
            #expect(svg.contains("<title>c0_r1_redirect&#45;&gt;c0</title>") && svg.contains(">browser follows<"))
        }
    }

    @Test func graphvizReportsBadDOTAndRecovers() throws {
        #expect(throws: Graphviz.Failure.self) { try Graphviz.parse("digraph { a -> }") }
        do { _ = try Graphviz.parse("digraph { a -> ; }") } catch { #expect(!error.message.isEmpty) }
        #expect(try Graphviz.parse("digraph { a -> b; b -> c }") == (nodes: 3, edges: 2))
    }

    @Test func mermaidIsStructurallyValid() throws {
        let analyzer = Self.analyzer()
        let text = MermaidExporter.mermaid(analyzer.graph(highlighting: analyzer.loopHighlights()))
        #expect(MermaidCheck.problems(text) == [])
        #expect(text.contains("class c0_r5,c0_r5_redirect loop"))
        #expect(text.contains("say-#quot;hi#quot;#124;x#35;y"))
        // The checker itself catches the usual mistakes.
        #expect(!MermaidCheck.problems("flowchart TD\n  a[\"x\"] --> b\n").isEmpty)
        #expect(!MermaidCheck.problems("flowchart TD\n  subgraph s [\"x\"]\n  a[\"y\"]\n").isEmpty)
    }

    @Test func jsonHasVersionGraphAndAnalysis() throws {
        let analyzer = Self.analyzer()
        let json = JSONExporter.json(analyzer.graph(), analysis: analyzer.analyze())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        let analysis = try #require(object["analysis"] as? [String: Any])
        let loops = try #require(analysis["loops"] as? [[String: Any]])
        #expect(loops.contains { $0["status"] as? String == "confirmed" && $0["witness"] as? String == "http://example.com/?utm_a=" })
        #expect((object["graph"] as? [String: Any])?["nodes"] != nil)
    }

    @Test func chainDiagramDrawsTheLoopBack() throws {
        let simulator = TestSites.simulator(TestSites.queryLoop)
        let dot = ChainDiagram.dot(simulator.run("http://example.com/?utm_source=x"))
        #expect(try Graphviz.parse(dot).nodes == 1)
        #expect(dot.contains("(seen before)"))
    }
}

/// A structural check of Mermaid flowchart text (no Mermaid runtime here): header, node ids
/// declared once, edges between declared nodes, balanced subgraphs, valid `class` and
/// `linkStyle` references, and no raw quote inside a quoted label.
enum MermaidCheck {
    static func problems(_ text: String) -> [String] {
        var out: [String] = []
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "flowchart TD" else { return ["missing `flowchart TD` header"] }
        var declared = Set<String>(), classes = Set<String>()
        var depth = 0, edges = 0
        let nodeShape = #/^([A-Za-z_][A-Za-z0-9_]*)(\(\[|\[\[|\[/|\[)"([^"]*)"(\]\)|\]\]|/\]|\])$/#
        let edge = #/^([A-Za-z_][A-Za-z0-9_]*) (-->|-\.->|==>)(\|"([^"]*)"\|)? ([A-Za-z_][A-Za-z0-9_]*)$/#
        var uses: [String] = []
        for line in lines.dropFirst() where !line.isEmpty {
            if line.hasPrefix("subgraph ") {
                depth += 1
                if line.split(separator: " ").count < 2 { out.append("subgraph without id: \(line)") }
            } else if line == "end" {
                depth -= 1
                if depth < 0 { out.append("`end` without subgraph") }
            } else if let m = line.wholeMatch(of: nodeShape) {
                if !declared.insert(String(m.1)).inserted { out.append("node \(m.1) declared twice") }
            } else if let m = line.wholeMatch(of: edge) {
                uses += [String(m.1), String(m.5)]
                edges += 1
            } else if line.hasPrefix("classDef ") {
                classes.insert(String(line.split(separator: " ")[1]))
            } else if line.hasPrefix("class ") {
                let parts = line.split(separator: " ")
                guard parts.count == 3 else { out.append("bad class line: \(line)"); continue }
                uses += parts[1].split(separator: ",").map(String.init)
                if !classes.contains(String(parts[2])) { out.append("undefined class \(parts[2])") }
            } else if line.hasPrefix("linkStyle ") {
                let indices = line.split(separator: " ")[1].split(separator: ",").compactMap { Int($0) }
                if indices.contains(where: { $0 >= edges }) { out.append("linkStyle index out of range: \(line)") }
            } else {
                out.append("unrecognised line: \(line)")
            }
        }
        if depth != 0 { out.append("unbalanced subgraph/end") }
        for id in uses where !declared.contains(id) { out.append("undeclared node \(id)") }
        return out
    }
}
