import HtlintApache

/// Fixes that change a layer: encryption to the origin, Host forwarding, edge rules, caches.
extension FixCandidates {
    /// Have the edge reach the origin over https (Cloudflare Full (strict), CloudFront match-viewer).
    static func encryptedOrigin(_ simulator: ChainSimulator) -> [Fix] {
        var sim = simulator
        var steps: [String] = []
        var title = ""
        for (i, layer) in simulator.layers.enumerated() {
            if var e = layer as? Edge, [.cloudflareFlexible, .cloudflareOff].contains(e.mode) {
                title = "Switch Cloudflare SSL/TLS from \(e.mode == .cloudflareOff ? "Off" : "Flexible") to Full (strict)"
                e.mode = .cloudflareStrict
                sim.layers[i] = e
                steps.append("Cloudflare dashboard → SSL/TLS → Overview: Full (strict)")
                break
            }
            if var c = layer as? CloudFront, c.originPolicy == .httpOnly {
                title = "Have CloudFront reach the origin with the viewer's scheme"
                c.originPolicy = .matchViewer
                sim.layers[i] = c
                steps.append("CloudFront origin settings: protocol policy Match viewer")
                break
            }
        }
        guard !title.isEmpty else { return [] }
        var caveat: String? = nil
        if simulator.originServer.tls != .valid {
            sim.originServer.tls = .valid
            caveat = "needs a valid certificate on the origin for the site's names (e.g. a Cloudflare Origin CA certificate); verified assuming one is installed"
            steps.append("install a certificate on the origin")
        }
        return [Fix(.edgeEncryptsOrigin, title, steps: steps, caveat: caveat, simulator: sim, preference: 3)]
    }

    /// CloudFront sends its origin domain as Host unless told to forward the viewer's (§3.3, L15);
    /// nginx sends `$proxy_host` by default, or whatever `proxy_set_header Host` says (§5.1).
    static func hostForwarding(_ hop: Hop, _ simulator: ChainSimulator) -> [Fix] {
        guard hop.path.contains(where: { $0.setHeaders.contains("Host") }) else { return [] }
        for (i, layer) in simulator.layers.enumerated() {
            if var n = layer as? NginxProxy, n.hostHeader != .host {
                let before = n.hostHeader.rawValue
                n.hostHeader = .host
                var sim = simulator
                sim.layers[i] = n
                return [Fix(.forwardHost, "Let nginx pass the visitor's host name on",
                            steps: ["in nginx's proxy configuration: proxy_set_header Host $host;  (instead of \(before))"],
                            simulator: sim, preference: 2)]
            }
            guard var c = layer as? CloudFront, !c.forwardHost else { continue }
            c.forwardHost = true
            var sim = simulator
            sim.layers[i] = c
            return [Fix(.forwardHost, "Forward the viewer's Host header to the origin",
                        steps: ["CloudFront: add Host to the origin request policy (forward the viewer's Host)"],
                        simulator: sim, preference: 2)]
        }
        return []
    }

    static func edgeRuleRemoval(_ hop: Hop, _ simulator: ChainSimulator) -> [Fix] {
        guard let request = hop.path.first?.received else { return [] }
        var out: [Fix] = []
        for (i, layer) in simulator.layers.enumerated() {
            guard let e = layer as? Edge else { continue }
            for (j, rule) in e.redirectRules.enumerated()
            where rule.apply(scheme: request.scheme, host: request.hostName, target: request.target) != nil {
                var changed = e
                changed.redirectRules.remove(at: j)
                var sim = simulator
                sim.layers[i] = changed
                out.append(Fix(.removeEdgeRule, "Remove the edge redirect rule to \(rule.target)",
                               steps: ["Cloudflare Rules: delete or narrow the redirect \(rule.host.map { "for host \($0) " } ?? "")to \(rule.target)"],
                               simulator: sim, preference: 3))
            }
        }
        return out
    }

    /// A loop kept alive by a cached redirect: keep http requests away from the cache, or put
    /// the scheme in the key (§2.8, §3.2, H15). Re-simulation starts with an empty cache, hence the purge.
    static func cacheFixes(_ simulator: ChainSimulator) -> [Fix] {
        var out: [Fix] = []
        for (i, layer) in simulator.layers.enumerated() {
            if var e = layer as? Edge, e.isCloudflare, e.mode != .cloudflareOff, !e.alwaysHTTPS {
                e.alwaysHTTPS = true
                var sim = simulator
                sim.layers[i] = e
                out.append(Fix(.edgeRedirect, "Turn on Always Use HTTPS so that http requests never reach the cache",
                               steps: ["Cloudflare: SSL/TLS → Edge Certificates → Always Use HTTPS: on",
                                       "then purge the cached redirect (Caching → Purge Cache)"],
                               simulator: sim, preference: 1))
            }
            if var p = layer as? CachingProxy, !p.keyIncludesScheme {
                var sim = simulator
                let steps: [String]
                if p.kind == .fastly, !p.forceTLS {
                    p.forceTLS = true
                    steps = ["Fastly: turn on Force TLS (http requests get a 301 before the cache)", "then purge the cached redirect"]
                } else {
                    p.keyIncludesScheme = true
                    steps = p.kind == .varnish
                        ? ["in vcl_hash: hash_data(req.http.X-Forwarded-Proto);", "then ban the cached redirect"]
                        : ["Fastly: keep http and https apart in the cache key", "then purge the cached redirect"]
                }
                sim.layers[i] = p
                out.append(Fix(p.forceTLS ? .edgeRedirect : .cacheKeyScheme,
                               p.forceTLS ? "Redirect http to https at Fastly, before the cache" : "Cache http and https answers separately",
                               steps: steps, simulator: sim, preference: 1))
            }
            if var c = layer as? CloudFront, !c.forwardedProtoHeader {
                c.forwardedProtoHeader = true
                var sim = simulator
                sim.layers[i] = c
                out.append(Fix(.cacheKeyScheme, "Cache http and https answers separately",
                               steps: ["CloudFront: add CloudFront-Forwarded-Proto to the cache policy's headers",
                                       "then invalidate the cached redirect"],
                               simulator: sim, preference: 2))
            }
        }
        return out
    }
}
