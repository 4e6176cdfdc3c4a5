import HtlintApache

/// Why a chain loops, recurses or runs past the redirect limit, in plain words. A loop
/// explanation names the belief mismatch: the component that redirected to scheme S did so
/// because the variable it tested said "not S", while the visitor already used S
/// (layers-and-mixed-content §1.4, with its secondary categories).
public enum LoopExplanation {
    /// Sentences for a loop, a too-long chain or internal recursion; empty for other verdicts.
    public static func explain(_ result: ChainResult, simulator: ChainSimulator) -> [String] {
        let site = simulator.origin.site
        switch result.verdict {
        case .internalRecursion: return [recursion(result, site)]
        case .loop, .tooManyRedirects: break
        default: return []
        }
        let region = result.verdict == .loop ? Array(result.hops[(result.loopStart ?? 0)...]) : result.hops
        var out: [String] = []
        for hop in region {
            guard let from = URLParts(hop.url), let location = hop.location, let target = URLParts(from.resolve(location)) else { continue }
            out += schemeMismatch(hop, from, target, site)
            out += hostMismatch(hop, from, target)
        }
        out += cacheReplay(region) + oppositeSchemes(region, site) + hostFight(region, site)
        if out.isEmpty, result.verdict == .loop, let last = region.last, let start = result.loopStart {
            out.append("The answer to \(last.url) (\(describe(last, site))) sends the browser back to \(result.hops[start].url), "
                + "which it has already requested: the same answers repeat forever.")
        }
        if out.isEmpty, result.verdict == .tooManyRedirects {
            out.append("Every answer redirects to a new URL, so the browser gives up after \(simulator.maxHops) redirects "
                + "(ERR_TOO_MANY_REDIRECTS).")
        }
        return out
    }

    static func recursion(_ result: ChainResult, _ site: Site) -> String {
        let rule = result.hops.last.flatMap { hop in
            (hop.origin?.trace ?? []).last { $0.kind == .ruleMatched }?.range.map(site.location(of:))
        }
        return "Apache rewrote the request internally more than \(site.limitInternalRecursion) times and gave up with 500. "
            + "After each internal redirect it runs the .htaccess rules again, and [L] ends only one pass, so "
            + (rule.map { "the rule at \($0)" } ?? "the rule") + " keeps matching its own result."
    }

    /// An https visitor redirected to https because something behind a TLS-terminating layer
    /// believed the visitor used http (§1.4 canonical example; P1, P12; WordPress §12.4).
    static func schemeMismatch(_ hop: Hop, _ from: URLParts, _ target: URLParts, _ site: Site) -> [String] {
        guard from.scheme == "https", target.scheme == "https", hop.originRequest?.tls == false else { return [] }
        var out: [String] = []
        let connector = hop.path.last { $0.forwarded != nil && $0.component != "Apache" }?.component ?? "the connection"
        let same = target.text == from.text ? "the very URL just requested" : target.text
        if hop.answerer == .origin, let rule = FixCandidates.redirectingRule(hop, site), FixCandidates.testsConnectionScheme(rule) {
            let tested = Set(rule.conditions.flatMap { HopDiagnosis.variables(in: $0.testString) }
                .filter { FixCandidates.connectionVariables.contains($0.uppercased()) }.map { "%{\($0)}" }).sorted()
            out.append("The visitor already uses https, but \(connector) reaches Apache over plain HTTP. "
                + "\(tested.joined(separator: " and ")) describe\(tested.count == 1 ? "s" : "") only that inner connection, "
                + "so the rule at \(site.location(of: rule.range)) takes the visitor for an http visitor and redirects to https — "
                + "to \(same).")
        } else if hop.answerer == .origin, hop.originRequest?.header("X-Forwarded-Proto") == "http" {
            out.append("The visitor uses https, but Apache receives X-Forwarded-Proto: http, so the redirect to https fires again.")
        }
        if let rewriter = hop.path.first(where: { $0.notes.contains { $0.contains("replaces the incoming") } }) {
            out.append("\(rewriter.component) replaced the outer layer's X-Forwarded-Proto: https with its own connection's "
                + "scheme (http) (§11.3 P12).")
        }
        if let app = hop.app, !app.environment.isSSL {
            out.append("WordPress's is_ssl() is false (\(app.environment.isSSLReason)), so \(app.producer) sends the visitor "
                + "to https — where it already is.")
        }
        return out
    }

    /// The origin saw a Host the layer made up (CloudFront's origin domain, nginx's port) and
    /// redirected the visitor to the URL it is already on (L15, L19 with WordPress).
    static func hostMismatch(_ hop: Hop, _ from: URLParts, _ target: URLParts) -> [String] {
        guard hop.answerer != .edge, let inner = hop.path.last(where: { $0.setHeaders.contains("Host") }),
              let host = hop.originRequest?.header("Host"), target.host.lowercased() == from.host.lowercased() else { return [] }
        let who = hop.answerer == .app ? "WordPress's \(hop.app?.producer ?? "redirect"), which compares host and port with home,"
            : "the origin's host test"
        return ["\(inner.component) sends Host: \(host) to the origin instead of \(from.hostHeader), so \(who) sees the wrong "
            + "name and redirects to \(target.text) — the URL just requested."]
    }

    /// A redirect stored for one scheme replayed to the other (CACHE_LOOP, §2.8).
    static func cacheReplay(_ region: [Hop]) -> [String] {
        guard let hit = region.first(where: { $0.cached != nil }), let cached = hit.cached else { return [] }
        return ["\(hit.producer) answers \(hit.url) from its cache with \(cached): its cache key ignores the visitor's scheme, "
            + "so a redirect made for another request is replayed to this one, and the same answer keeps coming back until the "
            + "entry expires or is purged."]
    }

    /// One component sends http to https while another sends https to http (L07, L08, L31).
    static func oppositeSchemes(_ region: [Hop], _ site: Site) -> [String] {
        func redirects(_ hop: Hop, from: String, to: String) -> Bool {
            guard hop.url.hasPrefix(from + "://"), let l = hop.location, let u = URLParts(hop.url) else { return false }
            return u.resolve(l).hasPrefix(to + "://")
        }
        guard let up = region.first(where: { redirects($0, from: "http", to: "https") }),
              let down = region.first(where: { redirects($0, from: "https", to: "http") }) else { return [] }
        let upBy = up.answerer == .browser ? "the browser's HSTS policy for \(URLParts(up.url)?.host ?? "")" : describe(up, site)
        return ["\(upBy) sends http to https, while \(describe(down, site)) sends https back to http: they pull in opposite directions."]
    }

    /// An edge rule and the origin or application disagree on the canonical host (L33).
    static func hostFight(_ region: [Hop], _ site: Site) -> [String] {
        let changes = region.compactMap { hop -> (Hop, String, String)? in
            guard let from = URLParts(hop.url), let to = hop.location.flatMap({ URLParts(from.resolve($0)) }),
                  from.host.lowercased() != to.host.lowercased() else { return nil }
            return (hop, from.host.lowercased(), to.host.lowercased())
        }
        var out: [String] = []
        for (a, x, y) in changes where a.answerer == .edge {
            guard let (b, _, _) = changes.first(where: { $0.1 == y && $0.2 == x && $0.0.answerer != .edge }) else { continue }
            out.append("\(describe(a, site)) sends \(x) to \(y), while \(describe(b, site)) sends \(y) back to \(x): "
                + "the two disagree on the canonical host.")
        }
        return out
    }

    /// "the rule at .htaccess:3", "Cloudflare (Full) (Always Use HTTPS)", "WordPress's redirect_canonical()".
    static func describe(_ hop: Hop, _ site: Site) -> String {
        switch hop.answerer {
        case .browser: return "the browser (\(hop.reason ?? "internal redirect"))"
        case .edge: return hop.producer + (hop.reason.map { " (\($0))" } ?? "")
        case .app: return "WordPress's \(hop.app?.producer ?? "redirect")"
        case .origin:
            if let rule = FixCandidates.redirectingRule(hop, site) { return "the rule at \(site.location(of: rule.range))" }
            if let r = hop.origin?.trace.last(where: { $0.kind == .externalRedirect || $0.kind == .directorySlash }) {
                return "Apache (\(r.range.map(site.location(of:)) ?? r.detail))"
            }
            return "Apache"
        }
    }
}
