import Foundation
import HtlintDiagnostics
import HtlintGraph
import HtlintRules
import HtlintSimulation

/// `htlint report --html OUT.html`: one self-contained page (inline CSS and SVG, no scripts, no
/// network) with the lint findings, each simulated chain as a hop diagram, the rule graph with
/// its loops highlighted, and the mixed-content findings.
struct ReportCommand {
    static let help = """
    usage: htlint report --html OUT.html [site options] [URL...]

    Writes one self-contained HTML page about the site: the lint findings (`htlint lint`), each
    URL's simulated redirect chain as a hop diagram (default: / over http and https), the rule
    graph with every loop highlighted, and the mixed-content findings. The page has inline CSS
    and SVG only: it needs no network and no JavaScript.

    options:
      --html FILE       where to write the page (required)

    \(SiteOptions.help)

    exit status: 0 written and no error-level finding, 1 written with error-level findings,
    2 usage error or unreadable input
    """

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: SiteOptions.valued.union(["--html"]), booleans: SiteOptions.booleans.union(["-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard let path = a.value("--html") else {
            out.err("htlint: report needs --html OUT.html\n\n" + help)
            return .failure
        }
        if let problem = a.positionals.lazy.compactMap(StartURL.problem).first {
            out.err("htlint: " + problem)
            return .failure
        }
        let context: LintContext
        let simulator: ChainSimulator
        do {
            context = try LintCommand.siteContext(options, io: io, simulate: true)
            guard let s = context.simulator else { throw CLIError.usage("no site to simulate") }
            simulator = s
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let findings = Linter().run(context)
        let host = simulator.origin.site.canonicalHost
        let urls = a.positionals.isEmpty ? ["http://\(host)/", "https://\(host)/"] : a.positionals
        let chains = urls.map { simulator.run($0) }
        let analyzer = SiteAnalyzer(simulator: simulator, edge: context.edge)
        let page = ReportPage(context: context, findings: findings, chains: chains, analyzer: analyzer).html()
        do { try io.writeFile(path, page) } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        out.out("wrote \(path): \(findings.count) finding\(findings.count == 1 ? "" : "s"), \(chains.count) chain\(chains.count == 1 ? "" : "s")")
        return findings.contains { $0.severity == .error } ? .findings : .clean
    }
}

/// The HTML of the report; pure given its inputs.
struct ReportPage {
    let context: LintContext
    let findings: [Diagnostic]
    let chains: [ChainResult]
    let analyzer: SiteAnalyzer

    func html() -> String {
        let site = analyzer.simulator.origin.site
        let analysis = analyzer.analyze()
        let mixed = findings.filter { $0.code.hasPrefix("HT5") }
        let other = findings.filter { !$0.code.hasPrefix("HT5") }
        var body = "<header><h1>htlint report: \(esc(site.canonicalHost))</h1>\n"
        body += "<p class=\"meta\">edge: \(esc(analyzer.edge.mode.rawValue)) · hosts: \(esc(([site.canonicalHost] + site.serverAliases).joined(separator: ", "))) · htlint \(CLI.version)</p></header>\n"
        body += summary(other, mixed, analysis)
        body += "<section id=\"findings\"><h2>Findings</h2>\n" + table(other, empty: "No findings.") + "</section>\n"
        body += "<section id=\"chains\"><h2>Simulated requests</h2>\n"
        for (i, chain) in chains.enumerated() { body += chainFigure(chain, index: i) }
        body += "</section>\n"
        body += graphSection(analysis)
        body += "<section id=\"mixed-content\"><h2>Mixed content</h2>\n" + table(mixed, empty: "No mixed-content findings.") + "</section>\n"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>htlint report: \(esc(site.canonicalHost))</title>
            <style>\(ReportPage.css)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    private func summary(_ other: [Diagnostic], _ mixed: [Diagnostic], _ analysis: GraphAnalysis) -> String {
        let errors = other.filter { $0.severity == .error }.count
        let loops = analysis.loops.filter(\.confirmed).count
        return """
            <section id="summary"><ul class="counts">
            <li class="\(errors > 0 ? "bad" : "good")"><strong>\(errors)</strong> error\(errors == 1 ? "" : "s")</li>
            <li><strong>\(other.count)</strong> finding\(other.count == 1 ? "" : "s")</li>
            <li class="\(loops > 0 ? "bad" : "good")"><strong>\(loops)</strong> confirmed loop\(loops == 1 ? "" : "s")</li>
            <li><strong>\(chains.count)</strong> simulated request\(chains.count == 1 ? "" : "s")</li>
            <li><strong>\(mixed.count)</strong> mixed-content finding\(mixed.count == 1 ? "" : "s")</li>
            </ul></section>

            """
    }

    private func table(_ list: [Diagnostic], empty: String) -> String {
        guard !list.isEmpty else { return "<p class=\"empty\">\(esc(empty))</p>\n" }
        var out = "<table class=\"findings\"><thead><tr><th>where</th><th>severity</th><th>rule</th><th>finding</th></tr></thead><tbody>\n"
        for d in list {
            let notes = d.notes.map { "<li>\(esc($0.message))</li>" }.joined()
            out += "<tr class=\"finding severity-\(d.severity.rawValue)\" data-code=\"\(d.code)\"><td class=\"where\">\(esc(location(d.range)))</td>"
            out += "<td class=\"severity\">\(d.severity.rawValue)</td><td class=\"code\">\(d.code)</td>"
            out += "<td class=\"message\">\(esc(d.message))\(notes.isEmpty ? "" : "<ul class=\"notes\">\(notes)</ul>")</td></tr>\n"
        }
        return out + "</tbody></table>\n"
    }

    private func location(_ r: SourceRange) -> String {
        guard let file = context.files.first(where: { $0.source.path == r.file }) else { return r.file }
        let p = file.source.lines.position(of: r.start)
        return "\(r.file):\(p.line):\(p.column)"
    }

    private func chainFigure(_ chain: ChainResult, index: Int) -> String {
        let outcome = chain.outcome == .final ? "\(chain.finalStatus)" : chain.outcome.rawValue
        var out = "<figure class=\"chain outcome-\(chain.outcome.rawValue)\" id=\"chain-\(index)\">\n"
        out += "<figcaption><code>\(esc(chain.request))</code> → \(esc(outcome)) after \(chain.hops.count) hop\(chain.hops.count == 1 ? "" : "s")</figcaption>\n"
        out += svg(ChainDiagram.dot(chain), prefix: "chain\(index)-")
        out += "<ol class=\"hops\">" + chain.hops.map { hop in
            "<li>\(esc(hop.method)) <code>\(esc(hop.url))</code> → \(hop.status)" + (hop.location.map { " <code>\(esc($0))</code>" } ?? "")
                + " <span class=\"by\">(\(esc(hop.answeredBy)))</span></li>"
        }.joined() + "</ol>\n</figure>\n"
        return out
    }

    private func graphSection(_ analysis: GraphAnalysis) -> String {
        let graph = analyzer.graph(highlighting: analyzer.loopHighlights())
        var out = "<section id=\"graph\"><h2>Rule graph</h2>\n"
        let shown = analysis.loops.filter { $0.status != .refuted }
        if shown.isEmpty {
            out += "<p class=\"empty\">No loop for any URL: the all-URL analysis found no cycle that simulation confirms or cannot rule out.</p>\n"
        } else {
            out += "<ul class=\"loops\">" + shown.map { loop in
                let rules = loop.cycle.map { "line \($0.line)" }.joined(separator: " → ")
                let witness = loop.witness.map { " e.g. <code>\(esc($0))</code>" } ?? ""
                return "<li class=\"loop \(loop.status.rawValue)\">\(loop.kind == .redirect ? "redirect loop" : "internal rewrite loop") (\(loop.status.rawValue)): \(esc(rules))\(witness)</li>"
            }.joined() + "</ul>\n"
        }
        out += "<figure class=\"rule-graph\">\n" + svg(DOTExporter.dot(graph), prefix: "graph-") + "</figure>\n</section>\n"
        return out
    }

    /// Graphviz's SVG, inlined, with ids made unique on the page.
    private func svg(_ dot: String, prefix: String) -> String {
        guard let document = try? Graphviz.svg(dot) else { return "<p class=\"empty\">(Graphviz could not draw this)</p>\n" }
        return Graphviz.inlineSVG(document).replacingOccurrences(of: " id=\"", with: " id=\"\(prefix)") + "\n"
    }

    private func esc(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }

    static let css = """
        body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;margin:2em auto;max-width:1200px;color:#222;padding:0 1em}
        h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:1px solid #ddd;padding-bottom:.2em;margin-top:2em}
        .meta{color:#666;margin-top:0}code{font-family:Menlo,Consolas,monospace;font-size:.92em}
        ul.counts{list-style:none;padding:0;display:flex;gap:1em;flex-wrap:wrap}
        ul.counts li{border:1px solid #ddd;border-radius:6px;padding:.5em 1em;background:#fafafa}
        ul.counts li.bad{border-color:#d62728;background:#fde0dd}ul.counts li.good{border-color:#31a354;background:#e5f5e0}
        table.findings{border-collapse:collapse;width:100%}table.findings th,table.findings td{border-bottom:1px solid #eee;padding:.4em;text-align:left;vertical-align:top}
        tr.severity-error td.severity{color:#d62728;font-weight:bold}tr.severity-warning td.severity{color:#e6550d}tr.severity-note td.severity{color:#3182bd}
        td.where,td.code{white-space:nowrap;font-family:Menlo,Consolas,monospace;font-size:.9em}ul.notes{margin:.3em 0 0 1em;padding:0;color:#555;font-size:.9em}
        figure{margin:1em 0;border:1px solid #eee;border-radius:6px;padding:.5em;overflow-x:auto}figcaption{font-weight:bold;margin-bottom:.5em}
        figure.outcome-loop{border-color:#d62728}ol.hops{font-size:.9em;color:#444}span.by{color:#888}
        li.loop.confirmed{color:#d62728}li.loop.unconfirmed{color:#e6550d}.empty{color:#666;font-style:italic}
        svg{max-width:100%;height:auto}
        """
}
