import Foundation
import HtlintGraph
import HtlintSimulation

/// `htlint graph`: the site's compiled rule graph as DOT, Mermaid, JSON or SVG, with every
/// loop the all-URL analysis finds (or the path of `--url`) highlighted.
struct GraphCommand {
    static let help = """
    usage: htlint graph [site options] [--format dot|mermaid|json|svg] [--url URL]...

    Draws the site's compiled rule graph: one cluster per rule set (the server configuration and
    each directory after .htaccess inheritance), its rules with their condition groups, and the
    edges requests take — no match, next, skip, chain, stop, internal redirect, the browser
    following a redirect — down to the exits (redirect, 403, 410, proxy, served file).
    Loops found by analysing all URLs are drawn in red; with --url, that request's path in blue.

    options:
      --format FORMAT   dot (default), mermaid, json (graph and analysis) or svg (laid out
                        with Graphviz's library; no external command)
      --url URL         highlight the path this request takes (repeatable)

    \(SiteOptions.help)

    exit status: 0 graph written, 2 usage error or unreadable input
    """

    static let formats = ["dot", "mermaid", "json", "svg"]

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: SiteOptions.valued.union(["--format", "--url"]),
                              booleans: SiteOptions.booleans.union(["-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard a.positionals.isEmpty else {
            out.err("htlint: graph takes no positional arguments (use --url URL)\n\n" + help)
            return .failure
        }
        let format = a.value("--format") ?? "dot"
        guard formats.contains(format) else {
            out.err("htlint: unknown format '\(format)'; expected one of: \(formats.joined(separator: ", "))")
            return .failure
        }
        let urls = a.all("--url")
        if let problem = urls.lazy.compactMap(StartURL.problem).first {
            out.err("htlint: " + problem)
            return .failure
        }
        let simulator: ChainSimulator
        do {
            simulator = try options.simulator(defaultHost: urls.first.flatMap { URLParts($0)?.host } ?? "example.com", io: io)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let analyzer = SiteAnalyzer(simulator: simulator)
        let highlights = urls.isEmpty ? analyzer.loopHighlights() : urls.map { analyzer.highlight(for: simulator.run($0)) }
        let graph = analyzer.graph(highlighting: highlights)
        switch format {
        case "mermaid": out.stdout += MermaidExporter.mermaid(graph)
        case "json": out.stdout += JSONExporter.json(graph, analysis: analyzer.analyze())
        case "svg":
            do { out.stdout += try Graphviz.svg(DOTExporter.dot(graph)) } catch {
                out.err("htlint: \(error)")
                return .failure
            }
        default: out.stdout += DOTExporter.dot(graph)
        }
        return .clean
    }
}
