import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// Renders simulated chains for people (text, explanation) and machines (JSON).
enum ChainRenderer {
    static func verdict(_ r: ChainResult) -> String {
        switch r.outcome {
        case .final:
            let last = r.hops.last
            if let s = last?.status, s >= 500, last?.origin?.recursionLimitExceeded == true {
                return "500 Internal Server Error: more than 10 internal redirects (AH00124), an internal rewrite loop"
            }
            return "final answer \(r.finalStatus)" + (last?.served.map { ", serves \($0)" } ?? "")
        case .loop:
            let cycle = r.cycle
            if cycle.count == 1 { return "redirect loop: \(cycle[0]) redirects to itself (ERR_TOO_MANY_REDIRECTS)" }
            return "redirect loop of \(cycle.count) URLs (ERR_TOO_MANY_REDIRECTS): " + (cycle + [cycle[0]]).joined(separator: " → ")
        case .offsite: return "leaves the site: \(r.offsiteURL ?? "")"
        case .tooManyHops: return "more than 20 redirects (ERR_TOO_MANY_REDIRECTS)"
        case .error: return "invalid redirect target: \(r.offsiteURL ?? "")"
        }
    }

    static func text(_ r: ChainResult) -> String {
        var out = "\(r.hops.first?.method ?? "GET") \(r.request)\n"
        for (i, hop) in r.hops.enumerated() {
            var line = "  \(i + 1). \(hop.status) \(hop.url)"
            if let l = hop.location { line += " → \(l)" }
            if hop.answeredBy == "edge" { line += "  (answered by the edge)" }
            if let s = hop.served { line += "  [serves \(s)]" }
            out += line + "\n"
        }
        out += "  verdict: \(verdict(r))\n"
        return out
    }

    /// Line numbers for trace ranges, from the site's configuration files.
    static func locate(_ range: SourceRange?, _ site: Site) -> String? {
        guard let range else { return nil }
        let file = site.files.accessFiles.values.first { $0.path == range.file }
            ?? (site.vhost.path == range.file ? nil : nil)
        guard let f = file else { return range.file }
        let p = f.lines.position(of: range.start)
        return "\(range.file):\(p.line)"
    }

    static func explanation(_ r: ChainResult, simulator: ChainSimulator) -> String {
        let site = simulator.origin.site
        var out = "\(r.hops.first?.method ?? "GET") \(r.request)\n"
        for (i, hop) in r.hops.enumerated() {
            out += "\nhop \(i + 1): \(hop.method) \(hop.url)\n"
            if hop.answeredBy == "edge" {
                out += "  the edge answers itself: \(hop.status) → \(hop.location ?? "")\n"
                continue
            }
            if let req = hop.originRequest {
                let xfp = req.header("X-Forwarded-Proto").map { ", X-Forwarded-Proto: \($0)" } ?? ""
                out += "  Apache receives \(req.method) \(req.target) over \(req.tls ? "TLS (%{HTTPS} = on)" : "plain HTTP (%{HTTPS} = off)")\(xfp)\n"
            }
            for event in hop.origin?.trace ?? [] where event.kind != .request {
                let at = locate(event.range, site).map { " (\($0))" } ?? ""
                out += "  - \(event.detail)\(at)\n"
            }
            out += "  answer: \(hop.status)\(hop.location.map { " Location: \($0)" } ?? "")\n"
        }
        out += "\nverdict: \(verdict(r))\n"
        out += advice(r, simulator: simulator)
        return out
    }

    /// Why a loop happens and what fixes it, for the common patterns.
    static func advice(_ r: ChainResult, simulator: ChainSimulator) -> String {
        guard r.outcome == .loop || r.outcome == .tooManyHops, let start = r.loopStart ?? Optional(0) else {
            if r.hops.last?.origin?.recursionLimitExceeded == true {
                return """
                why: a per-directory rewrite keeps matching its own result: after an internal redirect Apache
                runs the .htaccess rules again, and [L] only ends one pass.
                fix: use [END] instead of [L], or exclude the target with a condition such as
                     RewriteCond %{REQUEST_URI} !^/target/

                """
            }
            return ""
        }
        let cycle = Array(r.hops[start...])
        let httpsToItself = cycle.contains { hop in
            hop.url.hasPrefix("https://") && (hop.location?.hasPrefix("https://") ?? false) && hop.originRequest?.tls == false
        }
        if httpsToItself && simulator.edge.isProxy {
            return """
            why: the edge ends TLS and reaches Apache over plain HTTP, so %{HTTPS} is "off" at the origin for
            every request, including https ones; the rule that sends http visitors to https fires again.
            fix: set the edge to Full (or Full strict) so that it connects to the origin over HTTPS, or test
                 the visitor's scheme instead of the connection's:
                 RewriteCond %{HTTP:X-Forwarded-Proto} !https
                 RewriteCond %{HTTPS} off

            """
        }
        return """
        why: the answer to the last URL of the cycle sends the browser back to its first URL.
        fix: make the redirecting rule's condition false for its own target (see the rules listed above).

        """
    }

    struct HopOut: Encodable {
        var url: String
        var method: String
        var status: Int
        var location: String?
        var answeredBy: String
        var served: String?
        var uri: String?
        var query: String?
        var filename: String?
        var internalRedirects: Int?
        var recursionLimitExceeded: Bool?
        var errors: [String]?
    }
    struct ChainOut: Encodable {
        var request: String
        var outcome: String
        var finalStatus: Int
        var verdict: String
        var cycle: [String]?
        var offsiteURL: String?
        var hops: [HopOut]
    }
    struct Document: Encodable {
        var version = 1
        var chains: [ChainOut]
    }

    static func json(_ results: [ChainResult]) -> String {
        let chains = results.map { r in
            ChainOut(request: r.request, outcome: r.outcome.rawValue, finalStatus: r.finalStatus, verdict: verdict(r),
                     cycle: r.outcome == .loop ? r.cycle : nil, offsiteURL: r.offsiteURL,
                     hops: r.hops.map { h in
                         HopOut(url: h.url, method: h.method, status: h.status, location: h.location, answeredBy: h.answeredBy,
                                served: h.served, uri: h.origin?.final.uri, query: h.origin?.final.query,
                                filename: h.origin?.final.filename, internalRedirects: h.origin?.internalRedirects,
                                recursionLimitExceeded: h.origin?.recursionLimitExceeded, errors: h.origin?.errors)
                     })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(Document(chains: chains))) ?? Data(), as: UTF8.self) + "\n"
    }
}
