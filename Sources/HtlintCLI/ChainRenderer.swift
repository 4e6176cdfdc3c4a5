import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// Renders simulated chains compactly for people (`simulate`) and as JSON for machines.
enum ChainRenderer {
    /// `browser → Cloudflare (Flexible) → Apache (no TLS) → WordPress`.
    static func topology(_ s: ChainSimulator) -> String {
        var parts = [s.browser.name == "chrome" ? "browser" : "browser (\(s.browser.name))"]
        parts += s.layers.map(\.label)
        parts.append("Apache" + (s.originServer.tls == .valid ? "" : s.originServer.tls == .none ? " (no TLS)" : " (TLS: \(s.originServer.tls.rawValue))"))
        if let wp = s.app { parts.append("WordPress (home \(wp.home))") }
        return parts.joined(separator: " → ")
    }

    /// One line per load balancer's health check and how Apache answers it.
    static func healthChecks(_ s: ChainSimulator) -> [String] {
        s.healthChecks().map { r in
            let answer = "\(r.answer.status)" + (r.answer.location.map { " → \($0)" } ?? "")
            let verdict = r.healthy ? "healthy" : "unhealthy: the check expects \(r.check.codesText)"
            return "health check: \(r.balancer.label) GET \(r.url) → \(answer) (\(verdict))"
        }
    }

    /// Who answered a hop, briefly.
    static func producer(_ hop: Hop, _ site: Site) -> String {
        if let error = hop.error { return "browser: \(error)" }
        switch hop.answerer {
        case .browser: return "browser: HSTS upgrade, no request sent"
        case .edge: return hop.producer + (hop.reason.map { ": \($0)" } ?? "")
        case .app: return hop.app.map { $0.producer.hasPrefix("WordPress") ? $0.producer : "WordPress: \($0.producer)" } ?? "WordPress"
        case .origin:
            let trace = hop.origin?.trace ?? []
            if let rule = (hop.location != nil ? trace.last { $0.kind == .ruleMatched || $0.kind == .alias } : nil),
               let range = rule.range {
                return "Apache: \(site.location(of: range))"
            }
            if trace.contains(where: { $0.kind == .directorySlash }) { return "Apache: DirectorySlash" }
            if hop.origin?.recursionLimitExceeded == true { return "Apache: AH00124" }
            return "Apache"
        }
    }

    static func verdict(_ r: ChainResult, maxHops: Int) -> String {
        let codes = r.codes == ["OK"] ? "" : "  [\(r.codes.joined(separator: ", "))]"
        let text: String
        switch r.verdict {
        case .ok:
            let last = r.hops.last
            text = "ok — final answer \(r.finalStatus)" + (last?.served.map { ", serves \($0)" } ?? "")
        case .loop:
            let cycle = r.cycle
            if cycle.count == 1 {
                text = "loop — \(cycle[0]) redirects to itself; the browser stops with ERR_TOO_MANY_REDIRECTS"
            } else {
                text = "loop of \(cycle.count) hops — " + (cycle + [cycle[0]]).joined(separator: " → ")
                    + "; the browser stops with ERR_TOO_MANY_REDIRECTS"
            }
        case .internalRecursion:
            text = "internal recursion — 500 after more than 10 internal redirects (AH00124)"
        case .tooManyRedirects:
            text = "too many redirects — no URL repeats, but the browser gives up after \(maxHops) hops"
        case .offsite: text = "offsite — leaves the site for \(r.offsiteURL ?? "")"
        case .error:
            text = "error — " + (r.errorMessage ?? r.hops.last.map { "\($0.status) from \($0.producer)" + ($0.reason.map { ": \($0)" } ?? "") } ?? "")
        }
        return text + codes
    }

    static func text(_ r: ChainResult, simulator: ChainSimulator, style: TextStyle) -> String {
        let site = simulator.origin.site
        var out = style.bold("\(r.hops.first?.method ?? "GET") \(r.request)") + "\n"
        for (i, hop) in r.hops.enumerated() {
            let status = hop.error == nil ? String(hop.status) : "---"
            var line = "  \(i + 1). \(colour(status, hop.status, style)) \(hop.url)"
            if let l = hop.location { line += " → \(l)" }
            line += style.dim("  (\(producer(hop, site)))")
            if let s = hop.served, hop.location == nil, hop.answerer != .app, i < r.hops.count - 1 { line += "  [serves \(s)]" }
            out += line + "\n"
        }
        let v = verdict(r, maxHops: simulator.maxHops)
        out += "  verdict: " + (r.verdict == .ok ? style.green(v) : r.verdict == .offsite ? style.yellow(v) : style.red(v)) + "\n"
        return out
    }

    static func colour(_ status: String, _ code: Int, _ style: TextStyle) -> String {
        switch code {
        case 200..<300: return style.green(status)
        case 300..<400: return style.cyan(status)
        default: return style.red(status)
        }
    }

    // MARK: - JSON

    /// `{"requests":[…]}` in the shape of issue 4, with more fields (method, codes, path, …).
    /// With `fixes` (explain), each request also lists its verified fixes.
    static func json(_ results: [ChainResult], simulator: ChainSimulator, fixes: [[Fix]]? = nil) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let checks = simulator.healthChecks().map(HealthCheckOut.init)
        let doc = Document(requests: results.enumerated().map { i, r in
            var out = RequestOut(r, simulator)
            out.fixes = fixes?[i].map(FixOut.init)
            if fixes != nil { out.why = LoopExplanation.explain(r, simulator: simulator) }
            return out
        }, healthChecks: checks.isEmpty ? nil : checks)
        return String(decoding: (try? encoder.encode(doc)) ?? Data(), as: UTF8.self) + "\n"
    }

    struct Document: Encodable {
        var version = 2
        var requests: [RequestOut]
        /// Each load balancer's health check; absent without one.
        var healthChecks: [HealthCheckOut]?
    }

    struct HealthCheckOut: Encodable {
        var layer: String
        var url: String
        var status: Int
        var location: String?
        var healthy: Bool
        var successCodes: String
        init(_ r: HealthCheckResult) {
            layer = r.balancer.label
            url = r.url
            status = r.answer.status
            location = r.answer.location
            healthy = r.healthy
            successCodes = r.check.codesText
        }
    }

    struct FixOut: Encodable {
        var kind: String
        var title: String
        var steps: [String]
        var caveat: String?
        var verification: [[String: String]]
        init(_ f: Fix) {
            kind = f.kind.rawValue
            title = f.title
            steps = f.steps
            caveat = f.caveat
            verification = f.verification.map { r in
                ["url": r.request, "verdict": r.verdict.rawValue, "statuses": r.hops.map { String($0.status) }.joined(separator: " "),
                 "finalURL": r.hops.last?.url ?? r.request]
            }
        }
    }

    struct RequestOut: Encodable {
        let r: ChainResult
        let site: Site
        let maxHops: Int
        var fixes: [FixOut]?
        var why: [String]?
        init(_ r: ChainResult, _ s: ChainSimulator) { self.r = r; self.site = s.origin.site; self.maxHops = s.maxHops }

        enum K: String, CodingKey { case url, method, verdict, codes, summary, hops, cycle, finalStatus, offsiteURL, error, why, fixes }
        struct Cycle: Encodable { var start: Int; var length: Int }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(r.request, forKey: .url)
            try c.encode(r.hops.first?.method ?? "GET", forKey: .method)
            try c.encode(r.verdict.rawValue, forKey: .verdict)
            try c.encode(r.codes, forKey: .codes)
            try c.encode(ChainRenderer.verdict(r, maxHops: maxHops), forKey: .summary)
            try c.encode(r.hops.map { HopOut(hop: $0, site: site) }, forKey: .hops)
            try c.encode(r.loopStart.map { Cycle(start: $0, length: r.hops.count - $0) }, forKey: .cycle)
            try c.encode(r.finalStatus, forKey: .finalStatus)
            try c.encodeIfPresent(r.verdict == .offsite ? r.offsiteURL : nil, forKey: .offsiteURL)
            try c.encodeIfPresent(r.errorMessage, forKey: .error)
            try c.encodeIfPresent(why, forKey: .why)
            try c.encodeIfPresent(fixes, forKey: .fixes)
        }
    }

    struct HopOut: Encodable {
        let hop: Hop
        let site: Site

        enum K: String, CodingKey { case url, method, status, location, answeredBy, producer, reason, headers, origin, served, path, app, error }
        struct OriginOut: Encodable {
            var uri: String
            var query: String
            var filename: String?
            var internalRedirects: Int
            var recursionLimitExceeded: Bool
            enum K: String, CodingKey { case uri, query, filename, internalRedirects, recursionLimitExceeded }
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: K.self)
                try c.encode(uri, forKey: .uri)
                try c.encode(query, forKey: .query)
                try c.encode(filename, forKey: .filename)
                try c.encode(internalRedirects, forKey: .internalRedirects)
                try c.encode(recursionLimitExceeded, forKey: .recursionLimitExceeded)
            }
        }
        struct StepOut: Encodable {
            var component: String
            var received: String
            var forwardedTo: String?
            var setHeaders: [String]?
            var notes: [String]?
        }
        struct AppOut: Encodable {
            var producer: String
            var isSSL: Bool
            var facts: [String]
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: K.self)
            try c.encode(hop.url, forKey: .url)
            try c.encode(hop.method, forKey: .method)
            try c.encode(hop.status, forKey: .status)
            try c.encode(hop.location, forKey: .location)
            try c.encode(hop.answerer.rawValue, forKey: .answeredBy)
            try c.encode(hop.producer, forKey: .producer)
            try c.encodeIfPresent(hop.reason, forKey: .reason)
            var headers: [String: String] = [:]
            if let l = hop.location { headers["Location"] = l }
            for h in hop.headers { headers[h.name] = headers[h.name].map { $0 + ", " + h.value } ?? h.value }
            try c.encode(headers, forKey: .headers)
            try c.encode(hop.origin.map {
                OriginOut(uri: $0.final.uri, query: $0.final.query, filename: $0.final.filename,
                          internalRedirects: $0.internalRedirects, recursionLimitExceeded: $0.recursionLimitExceeded)
            }, forKey: .origin)
            try c.encodeIfPresent(hop.served, forKey: .served)
            if !hop.path.isEmpty {
                try c.encode(hop.path.map { step in
                    StepOut(component: step.component, received: "\(step.received.scheme):\(step.received.port) Host: \(step.received.host)",
                            forwardedTo: step.forwarded.map { "\($0.scheme):\($0.port) Host: \($0.host)" },
                            setHeaders: step.setHeaders.isEmpty ? nil : step.setHeaders,
                            notes: (step.notes + step.responseNotes).isEmpty ? nil : step.notes + step.responseNotes)
                }, forKey: .path)
            }
            try c.encodeIfPresent(hop.app.map { AppOut(producer: $0.producer, isSSL: $0.environment.isSSL, facts: $0.facts) }, forKey: .app)
            try c.encodeIfPresent(hop.error, forKey: .error)
        }
    }
}
