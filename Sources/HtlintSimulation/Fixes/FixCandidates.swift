import HtlintApache

/// Candidate fixes for a problem chain, derived from who redirected and why
/// (layers-and-mixed-content §1.4 explanation categories, §2.10 causes, §11.4 conditions).
/// Candidates are unverified; `FixFinder` re-simulates each one.
enum FixCandidates {
    static func candidates(for result: ChainResult, simulator: ChainSimulator) -> [Fix] {
        let region: ArraySlice<Hop> = switch result.verdict {
        case .loop: result.hops[(result.loopStart ?? 0)...]
        case .internalRecursion: result.hops.suffix(1)
        default: result.hops[...]
        }
        var out: [Fix] = []
        let site = simulator.origin.site
        for hop in region {
            let visitorHTTPS = hop.url.hasPrefix("https://")
            let target = hop.location.flatMap { URLParts(hop.url)?.resolve($0) }.flatMap(URLParts.init)
            if hop.answerer == .origin, (300...399).contains(hop.status), let rule = redirectingRule(hop, site) {
                if target?.scheme == "https", visitorHTTPS, testsSchemeSignal(rule) {
                    out += forwardedSchemeConditions(rule, hop: hop, simulator)
                    out += edgeRedirect(replacing: rule, simulator)
                }
                if target?.scheme == "http", visitorHTTPS {
                    out += removal(of: rule, simulator, title: "Remove the rule that sends https visitors to http",
                                   preference: 1)
                }
                if target?.scheme == "https", !visitorHTTPS, hop.url.hasPrefix("http://"),
                   result.hops.contains(where: { $0.answerer == .browser && $0.isSynthetic }) {
                    out += edgeRedirect(replacing: rule, simulator)
                }
            }
            if let app = hop.app, let wordpress = simulator.app, hop.location != nil {
                out += wordpressFixes(hop, app, wordpress, simulator)
            }
            if hop.answerer == .edge, hop.reason == "edge redirect rule" {
                out += edgeRuleRemoval(hop, simulator)
            }
            out += hostForwarding(hop, simulator)
            if hop.cached != nil { out += cacheFixes(simulator) }
        }
        if region.contains(where: { $0.url.hasPrefix("https://") && $0.originRequest?.tls == false && $0.answerer != .edge }) {
            out += encryptedOrigin(simulator)
        }
        if region.contains(where: { $0.url.hasPrefix("https://") && $0.answerer == .edge && $0.location?.hasPrefix("http://") == true }) {
            out += encryptedOrigin(simulator)
        }
        if result.verdict == .internalRecursion, let hop = result.hops.last {
            out += recursionFixes(hop, simulator)
        }
        return out
    }

    // MARK: - origin rules

    /// The rewrite rule that produced an origin redirect (the last one with `[R]` or an absolute target).
    static func redirectingRule(_ hop: Hop, _ site: Site) -> RewriteRule? {
        let fired = (hop.origin?.trace ?? []).filter { $0.kind == .ruleMatched }.compactMap { $0.range.flatMap(site.rule(at:)) }
        return fired.last { rule in
            rule.flags.redirect.map { (300...399).contains($0) } ?? false || rule.rawSubstitution.lowercased().hasPrefix("http")
        }
    }

    static let connectionVariables: Set<String> = ["HTTPS", "SERVER_PORT", "REQUEST_SCHEME", "ENV:HTTPS"]

    /// Whether the rule decides on the connection's scheme rather than the visitor's (§11.3 P1–P5).
    static func testsConnectionScheme(_ rule: RewriteRule) -> Bool {
        rule.conditions.contains { c in HopDiagnosis.variables(in: c.testString).contains { connectionVariables.contains($0.uppercased()) } }
    }

    static let forwardedSchemeHeaders: Set<String> = ["HTTP:X-FORWARDED-PROTO", "HTTP:CF-VISITOR", "HTTP:X-FORWARDED-PORT",
                                                       "HTTP:FASTLY-SSL", "HTTP:CLOUDFRONT-FORWARDED-PROTO", "HTTP:FORWARDED"]

    /// Whether the rule decides on any scheme signal: the connection's, or a forwarded header (§11.1).
    static func testsSchemeSignal(_ rule: RewriteRule) -> Bool {
        testsConnectionScheme(rule) || rule.conditions.contains { c in
            HopDiagnosis.variables(in: c.testString).contains { forwardedSchemeHeaders.contains($0.uppercased()) }
        }
    }

    /// Lines of a rule and its conditions, when they are in one `.htaccess` of the source.
    static func lines(of rule: RewriteRule, _ simulator: ChainSimulator) -> (file: String, first: Int, all: [Int])? {
        guard let source = simulator.source, source.accessFile(rule.range.file) != nil else { return nil }
        let site = simulator.origin.site
        let condLines = rule.conditions.compactMap { site.line(of: $0.range) }
        guard let ruleLine = site.line(of: rule.range), rule.conditions.allSatisfy({ $0.range.file == rule.range.file }) else { return nil }
        return (rule.range.file, condLines.first ?? ruleLine, condLines + [ruleLine])
    }

    static func edited(_ simulator: ChainSimulator, _ edit: ConfigEdit) -> (ChainSimulator, [String])? {
        guard let source = simulator.source, let (_, file) = source.accessFile(edit.file),
              let changed = edit.applied(to: source) else { return nil }
        return (simulator.with(source: changed), edit.describe(original: String(decoding: file.bytes, as: UTF8.self)))
    }

    /// Test the visitor's scheme as the layer reports it (§11.4).
    static func forwardedSchemeConditions(_ rule: RewriteRule, hop: Hop, _ simulator: ChainSimulator) -> [Fix] {
        guard let request = hop.originRequest, let (file, first, _) = lines(of: rule, simulator) else { return [] }
        var out: [Fix] = []
        let xfp = request.header("X-Forwarded-Proto")
        if let xfp, xfp.contains("https"), testsConnectionScheme(rule),
           let (sim, steps) = edited(simulator, ConfigEdit(file: file, action: .insert(before: first, lines: ["RewriteCond %{HTTP:X-Forwarded-Proto} !https"]))) {
            out.append(Fix(.forwardedProtoCondition, "Test the visitor's scheme from X-Forwarded-Proto, not the connection's",
                           steps: steps, simulator: sim, preference: 2))
        }
        // Only when X-Forwarded-Proto does not carry the visitor's scheme (an inner proxy rewrote it).
        if xfp?.contains("https") != true, let visitor = request.header("CF-Visitor"), visitor.contains("https"),
           let (sim, steps) = edited(simulator, ConfigEdit(file: file, action: .insert(before: first, lines: [#"RewriteCond %{HTTP:CF-Visitor} '"scheme":"http"'"#]))) {
            out.append(Fix(.cfVisitorCondition, "Test Cloudflare's CF-Visitor header, which no inner proxy rewrites",
                           steps: steps, simulator: sim, preference: 4))
        }
        // An inner nginx replaced the outer layer's https with its own http (§11.3 P12, L39).
        for (i, layer) in simulator.layers.enumerated() {
            guard var nginx = layer as? NginxProxy, nginx.forwardedProto == .scheme, i > 0, xfp != "https" else { continue }
            nginx.forwardedProto = .incoming
            var sim = simulator
            sim.layers[i] = nginx
            out.append(Fix(.nginxPassesProto, "Let nginx pass the outer layer's X-Forwarded-Proto on",
                           steps: ["in nginx's proxy configuration, replace", "    proxy_set_header X-Forwarded-Proto $scheme;",
                                   "  with", "    proxy_set_header X-Forwarded-Proto $http_x_forwarded_proto;",
                                   "  (and trust it only from the outer layer's addresses)"],
                           simulator: sim, preference: 2))
        }
        return out
    }

    /// Remove the origin's redirect and let the outermost layer redirect http to https (§2.3, §10).
    static func edgeRedirect(replacing rule: RewriteRule, _ simulator: ChainSimulator) -> [Fix] {
        guard let front = simulator.layers.first, let (file, _, all) = lines(of: rule, simulator),
              let (removed, steps) = edited(simulator, ConfigEdit(file: file, action: .remove(all))) else { return [] }
        var sim = removed
        let what: String
        switch front {
        case var e as Edge where e.mode != .cloudflareOff:
            e.alwaysHTTPS = true
            sim.layers[0] = e
            what = e.isCloudflare ? "turn on Always Use HTTPS (SSL/TLS → Edge Certificates)" : "let the proxy redirect http to https"
        case var c as CloudFront:
            c.viewerPolicy = .redirectToHTTPS
            sim.layers[0] = c
            what = "set the viewer protocol policy to redirect-to-https"
        case var lb as LoadBalancer where lb.kind == .alb:
            lb.httpListener = .redirect
            sim.layers[0] = lb
            what = "give the HTTP:80 listener a redirect action (HTTPS, port 443, 301)"
        case var n as NginxProxy:
            n.httpServer = .redirect
            sim.layers[0] = n
            what = "in nginx's port-80 server: return 301 https://$host$request_uri;"
        case var h as HAProxy:
            h.redirectCode = 301
            sim.layers[0] = h
            what = "in HAProxy: redirect scheme https code 301 if !{ ssl_fc }"
        case var c as CachingProxy where c.kind == .fastly:
            c.forceTLS = true
            sim.layers[0] = c
            what = "turn on Force TLS"
        default: return []
        }
        return [Fix(.edgeRedirect, "Redirect to https at \(front.label) instead of at the origin",
                    steps: steps + ["at \(front.label): \(what)"], simulator: sim, preference: 1)]
    }

    static func removal(of rule: RewriteRule, _ simulator: ChainSimulator, title: String, preference: Int) -> [Fix] {
        guard let (file, _, all) = lines(of: rule, simulator),
              let (sim, steps) = edited(simulator, ConfigEdit(file: file, action: .remove(all))) else { return [] }
        return [Fix(.removeRule, title, steps: steps, simulator: sim, preference: preference)]
    }
}
