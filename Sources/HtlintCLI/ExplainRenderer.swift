import Foundation
import HtlintApache
import HtlintSimulation

/// `htlint explain`: each hop with its layer path, the variables Apache (or WordPress) saw and
/// why, the directives that fired with their conditions' values, where a cycle closes, why it
/// loops, and verified fixes (issue 4 item 4; layers-and-mixed-content §1.4).
enum ExplainRenderer {
    static let maxStepsPerHop = 24

    static func explanation(_ r: ChainResult, request: FixFinder.Request, simulator: ChainSimulator, style: TextStyle) -> String {
        let site = simulator.origin.site
        var out = style.bold("\(r.hops.first?.method ?? "GET") \(r.request)") + "\n"
        out += "topology: \(ChainRenderer.topology(simulator))\n"
        for line in ChainRenderer.healthChecks(simulator) { out += line + "\n" }
        for (i, hop) in r.hops.enumerated() {
            out += "\n" + style.bold("hop \(i + 1) · \(hop.method) \(hop.url)") + "\n"
            out += "  path: \(path(hop))\n"
            for line in layerNotes(hop) { out += "  " + line + "\n" }
            let analysis = HopDiagnosis.analyze(hop, site: site)
            if !analysis.variables.isEmpty {
                out += "  Apache saw:\n"
                for v in analysis.variables {
                    out += "      \(v.name) = \(style.bold(v.value.isEmpty ? "\"\"" : v.value))" + (v.why.map { style.dim(" — \($0)") } ?? "") + "\n"
                }
            }
            if let app = hop.app {
                out += "  WordPress saw:\n"
                for fact in app.facts { out += "      \(fact)\n" }
            }
            let steps = stepLines(analysis.steps, style)
            if !steps.isEmpty {
                out += "  what happened:\n"
                for line in steps.prefix(maxStepsPerHop) { out += "      \(line)\n" }
                if steps.count > maxStepsPerHop { out += "      … \(steps.count - maxStepsPerHop) more steps\n" }
            }
            out += "  answer: \(answer(hop, style))\n"
            if r.verdict == .loop, i == r.hops.count - 1, let start = r.loopStart {
                let length = r.hops.count - start
                out += "  " + style.yellow("↺ the next request is hop \(start + 1)'s again (\(r.hops[start].url)): the cycle closes here, "
                    + "\(length == 1 ? "a loop of 1 hop" : "a loop of \(length) hops")") + "\n"
            }
        }
        let v = ChainRenderer.verdict(r, maxHops: simulator.maxHops)
        out += "\nverdict: " + (r.verdict == .ok ? style.green(v) : style.red(v)) + "\n"
        let why = LoopExplanation.explain(r, simulator: simulator)
        if !why.isEmpty {
            out += "\nwhy:\n"
            for w in why { out += wrap(w, indent: "  ") }
        }
        guard [.loop, .tooManyRedirects, .internalRecursion].contains(r.verdict) else { return out }
        let fixes = FixFinder.fixes(for: r, request: request, simulator: simulator)
        if fixes.isEmpty {
            out += "\nfixes: none that htlint could verify; the directives listed above are where to start.\n"
            return out
        }
        out += "\nfixes, best first (each one verified by re-simulating with the change applied):\n"
        for (n, fix) in fixes.enumerated() {
            out += "  \(n + 1). " + style.bold(fix.title) + "\n"
            for s in fix.steps { out += "       \(s)\n" }
            if let caveat = fix.caveat { out += wrap("note: " + caveat, indent: "       ") }
            out += "     " + style.green("re-simulated:") + "\n"
            for v in fix.verification { out += "       \(summary(v))\n" }
        }
        return out
    }

    /// `browser ─https:443→ Cloudflare (Flexible) ─http:80→ Apache → WordPress`.
    static func path(_ hop: Hop) -> String {
        if let error = hop.error {
            return "browser ─\(URLParts(hop.url).map { "\($0.scheme):\($0.effectivePort)" } ?? "")→ ✗ \(error)"
        }
        if hop.answerer == .browser { return "browser (HSTS: the http URL is upgraded internally; nothing is sent)" }
        var s = "browser"
        for step in hop.path {
            if step.component == "WordPress" { s += " → WordPress"; continue }
            s += " ─\(step.received.scheme):\(step.received.port)→ \(step.component)"
            if step.forwarded == nil, step.component != "Apache" { s += " (answers itself)" }
        }
        return s
    }

    /// What each layer did to the request and to the answer, one line each.
    static func layerNotes(_ hop: Hop) -> [String] {
        var out: [String] = []
        for step in hop.path where step.component != "Apache" && step.component != "WordPress" {
            var lines = step.notes
            if let f = step.forwarded {
                if f.host != step.received.host, !lines.contains(where: { $0.contains("Host") }) { lines.append("Host: \(f.host)") }
                let set = step.setHeaders.filter { $0 != "Host" }
                if !set.isEmpty { lines.append("sets " + set.map { name in "\(name): \(f.header(name) ?? "")" }.joined(separator: ", ")) }
            }
            if !step.responseNotes.isEmpty { lines.append("on the way back: " + step.responseNotes.joined(separator: "; ")) }
            if let first = lines.first {
                out.append("\(step.component): \(first)")
                out += lines.dropFirst().map { String(repeating: " ", count: step.component.count + 2) + $0 }
            }
        }
        return out
    }

    /// The directives that fired and what Apache did. Rules with `-` as substitution are left
    /// out, and a rule that fires again in a later pass (DirectoryIndex subrequests, internal
    /// redirects) is shown once.
    static func stepLines(_ steps: [OriginStep], _ style: TextStyle) -> [String] {
        var out: [String] = []
        var shown: Set<String> = []
        var repeats = 0
        for step in steps {
            switch step.kind {
            case .ruleMatched:
                guard step.substitutes else { continue }
                guard shown.insert(step.location ?? step.text).inserted else { repeats += 1; continue }
                for c in step.conditions {
                    var because = ""
                    if let value = c.value {
                        because = "\(c.testString) is \"\(value)\"" + (c.holds.map { $0 ? ": true" : ": false ([OR])" } ?? "")
                    }
                    out.append("\(c.location)  \(c.text)" + (because.isEmpty ? "" : style.dim("   ← \(because)")))
                }
                let input = step.detail.range(of: "` matched `").map { String(step.detail[$0.upperBound...].dropLast()) }
                out.append("\(step.location ?? "")  \(style.bold(step.text))" + (input.map { style.dim("   ← matched \"\($0)\"") } ?? ""))
            case .alias:
                out.append("\(step.location ?? "")  \(style.bold(step.text))")
            default:
                if step.detail.hasPrefix("rewritten to "), repeats > 0 { continue }
                out.append(step.detail)
            }
        }
        if repeats > 0 { out.append("(the same rules fired \(repeats) more time\(repeats == 1 ? "" : "s") in later passes or DirectoryIndex subrequests)") }
        return out
    }

    static func answer(_ hop: Hop, _ style: TextStyle) -> String {
        if let error = hop.error { return style.red(error) }
        var s = "\(hop.status)" + (hop.location.map { " → \($0)" } ?? "") + " (\(hop.producer)"
        if let why = hop.reason, hop.answerer != .origin { s += ": \(why)" }
        s += ")"
        if let sts = hop.header("Strict-Transport-Security") { s += ", Strict-Transport-Security: \(sts)" }
        let layers = hop.path.filter { $0.forwarded != nil && $0.component != "Apache" }
        if hop.answerer != .edge, !layers.isEmpty, layers.allSatisfy({ $0.responseNotes.isEmpty }), hop.location != nil {
            s += ", passed back unchanged by " + layers.map(\.component).joined(separator: " and ")
        }
        return s
    }

    /// `http://example.org/ 301 → 200 (https://example.org/)`.
    static func summary(_ r: ChainResult) -> String {
        let statuses = r.hops.map { $0.error == nil ? String($0.status) : "error" }.joined(separator: " → ")
        let last = r.hops.last?.url ?? r.request
        let codes = r.codes.filter { !$0.hasPrefix("OK") }
        return "\(r.request) → \(statuses)" + (last == r.request ? "" : ", ends at \(last)")
            + (codes.isEmpty ? "" : " [\(codes.joined(separator: ", "))]")
    }

    /// Wraps prose at 100 columns.
    static func wrap(_ text: String, indent: String, width: Int = 100) -> String {
        var out = ""
        var line = indent
        for word in text.split(separator: " ") {
            if line.count + word.count + 1 > width, line != indent {
                out += line + "\n"
                line = indent + "  "
            }
            line += (line.hasSuffix(" ") || line == indent ? "" : " ") + word
        }
        return out + line + "\n"
    }
}
