import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A request whose redirects come back to a URL already visited.
struct RedirectLoop: LintRule {
    let description = RuleDescription(
        id: "HT301", name: "redirect-loop", family: .https,
        summary: "a redirect chain that returns to a URL it already visited (ERR_TOO_MANY_REDIRECTS)",
        rationale: """
        Found by simulation: htlint requests every host over http and https, `/`, a URL for each \
        rule and each directory, a missing page where an `ErrorDocument` is set (a full-URL \
        `ErrorDocument 404` to a page that is missing too loops for every such URL), through the \
        configured edge, and follows the redirects like a browser. Where a condition or `<If>` \
        reads `%{REQUEST_METHOD}`, the URLs are requested again with the methods it names, HEAD \
        and POST (the finding names the method: `htlint explain --method HEAD URL`). The classic cause is an https redirect keyed on `%{HTTPS}` behind a CDN that \
        reaches the origin over plain HTTP (Cloudflare Flexible): `%{HTTPS}` is always `off` there. \
        Where the configuration puts `HTTPS=on` into the environment instead (`SetEnvIf \
        X-Forwarded-Proto ^https$ HTTPS=on`, as hosts with an nginx front end and no mod_ssl do), the \
        finding says to test `%{ENV:HTTPS}`: mod_rewrite's `%{HTTPS}` is mod_ssl's connection state, \
        not that variable (the changed condition is re-simulated when the site can be rebuilt). \
        Run `htlint explain URL` with the witness for the hop-by-hop story and verified fixes.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteCond %{HTTPS} !=on\n↓RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]",
                             edge: "cloudflare-flexible"),
                     // Every URL is rewritten to the directory without its slash; mod_dir adds it
                     // with a 301, and /blog/ is rewritten to /blog again.
                     Example("RewriteEngine On\n↓RewriteRule ^(.*)$ blog [L]", pages: ["/blog/index.html": "<p>blog</p>"]),
                     // RedirectMatch searches the whole URL-path: its own target matches again and
                     // grows by one segment per hop (/credits/software-credits/software-credits/…).
                     Example("↓RedirectMatch 301 ^/credits/(.*) /credits/software-credits/$1"),
                     // The environment says https, mod_ssl's %{HTTPS} does not (S06): the finding
                     // suggests %{ENV:HTTPS}.
                     Example("SetEnvIf X-Forwarded-Proto ^https$ HTTPS=on\nRewriteEngine On\nRewriteCond %{HTTPS} !=on\n↓RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                             edge: "proxy")],
        nonTriggering: [Example("RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"),
                        Example("RedirectMatch 301 ^/credits/(?!software-credits/)(.*) /credits/software-credits/$1"),
                        Example("SetEnvIf X-Forwarded-Proto ^https$ HTTPS=on\nRewriteEngine On\nRewriteCond %{ENV:HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                                edge: "proxy"),
                        Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} !https\nRewriteCond %{HTTPS} !=on\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]",
                                edge: "cloudflare-flexible")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let items = context.loopProbes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            let chain = probe.chain
            guard chain.outcome == .loop || chain.outcome == .tooManyHops else { return nil }
            let cycle = chain.loopStart.map { Array(chain.hops[$0...]) } ?? chain.hops
            // A redirect no directive issued (mod_dir's DirectorySlash after a rewrite into a
            // directory) is pinned on the rule that rewrote the request in the cycle.
            guard let source = cycle.lazy.compactMap(\.redirectSource).first
                    ?? chain.hops.lazy.compactMap(\.redirectSource).first
                    ?? cycle.lazy.compactMap(\.rewriteSources.last).first
                    ?? chain.hops.lazy.compactMap(\.rewriteSources.last).first
                    // Made by the layers alone (Cloudflare with SSL off against the browser's
                    // HSTS, conflicting edge redirects): reported at the configuration's start.
                    ?? context.fallbackRange else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).map { group in
            let chain = group.first.chain
            let cycle = chain.loopStart.map { Array(chain.hops[$0...]) } ?? chain.hops
            // A path that grows each hop: the first hops show the pattern, not all twenty.
            let shown = chain.outcome == .tooManyHops && cycle.count > 3 ? Array(cycle.prefix(3)) : cycle
            var notes = shown.map { hop in
                Note(message: "\(hop.url) → \(hop.status) \(hop.location ?? "")" + (hop.answeredBy == "edge" ? " (edge)" : ""),
                     range: hop.redirectSource)
            }
            if shown.count < cycle.count {
                let growing = zip(cycle, cycle.dropFirst()).allSatisfy { $1.url.utf8.count > $0.url.utf8.count }
                notes.append(Note(message: "… \(cycle.count - shown.count) more redirects" + (growing ? " of the same kind, each URL longer than the last" : "")))
            }
            let what = chain.outcome == .loop
                ? (cycle.count == 1 ? "redirects to itself" : "loops through \(cycle.count) URLs")
                : "is redirected more than \(chain.hops.count) times"
            // Name the URL that loops when the probe only leads to it.
            let start = cycle.first?.url ?? group.first.url
            let subject = chain.outcome == .loop && start != group.first.url
                ? "\(group.first.request) leads to \(start), which" : group.first.request
            // Name the redirects a layer, the browser or the application adds to the cycle, and say
            // when no directive of these files takes part at all.
            let producers = cycle.filter { $0.redirectSource == nil && $0.location != nil && $0.answerer != .origin }
            let directiveless = !cycle.contains(where: { $0.redirectSource != nil || !$0.rewriteSources.isEmpty })
            let via = producers.isEmpty ? ""
                : " (" + producers.map { "\($0.status) by \($0.answerer == .app && !$0.producer.hasPrefix("WordPress") ? "WordPress's " : "")\($0.producer)\($0.reason.map { ": \($0)" } ?? "")" }.uniqued().joined(separator: ", then ")
                    + (directiveless ? "; no directive of these files takes part)" : ")")
            let envHTTPS = envHTTPSFix(cycle, probe: group.first, context)
            return finding("redirect loop: \(subject) \(what)\(edgeNote(context))\(via)\(moreRequests(group.count))"
                           + (envHTTPS.map { "; " + $0.hint } ?? ""),
                           at: group.range, notes: notes, fixes: envHTTPS.map { [$0.fix] } ?? [])
        }
    }

    /// Scenario S06: a redirect keyed on `%{HTTPS}` behind a layer that ends TLS, on a host whose
    /// configuration sets `HTTPS=on` in the environment (`SetEnvIf X-Forwarded-Proto …`, as
    /// hosts with an nginx front end do). mod_rewrite's `%{HTTPS}` is mod_ssl's connection state,
    /// always off there; `%{ENV:HTTPS}` reads the environment. Offered when the looping https
    /// request had `HTTPS` on in the environment and, when the site can be rebuilt, the changed
    /// condition ends the loop.
    private func envHTTPSFix(_ cycle: [Hop], probe: ProbeResult, _ context: LintContext) -> (hint: String, fix: FixIt)? {
        guard context.tlsTerminatedInFront, let simulator = context.simulator else { return nil }
        for hop in cycle where hop.url.lowercased().hasPrefix("https://") {
            guard let source = hop.redirectSource, let request = hop.originRequest,
                  let file = context.file(containing: source),
                  let rule = file.rules.first(where: { $0.range == source }),
                  let condition = rule.conditions.first(where: { $0.rawTestString.uppercased() == "%{HTTPS}" }),
                  // One look-up: `directivesByRange` would index every directive of the file.
                  let word = file.directives.first(where: { $0.range == condition.range })?.words.first,
                  word.range.file == file.source.path else { continue }
            let env = OriginVariables(request: request, site: simulator.origin.site, uri: "/", query: nil).value("ENV:HTTPS") ?? ""
            guard !["", "off", "0"].contains(env.lowercased()) else { continue }
            let replacement = "%{ENV:HTTPS}"
            if let siteSource = simulator.source, siteSource.accessFile(file.source.path) != nil {
                var bytes = file.source.bytes
                bytes.replaceSubrange(word.range.start..<word.range.end, with: Array(replacement.utf8))
                let changed = simulator.with(source: siteSource.replacingAccessFile(file.source.path, text: String(decoding: bytes, as: UTF8.self)))
                let outcome = changed.run(probe.url, method: probe.method).outcome
                guard outcome != .loop, outcome != .tooManyHops else { continue }
            } else {
                // Not verifiable: offered only when no other condition reads the connection's scheme or port.
                let others = rule.conditions.filter { $0.range != condition.range }.flatMap(\.variables)
                guard Set(others).isDisjoint(with: ["HTTPS", "SERVER_PORT", "REQUEST_SCHEME"]) else { continue }
            }
            let hint = "`%{HTTPS}` is mod_ssl's connection state, off behind a layer that ends TLS, while this host sets `HTTPS=\(env)` "
                + "in the environment: test `\(replacement)` instead (`RewriteCond \(replacement) \(condition.rawPattern)`)"
            let fix = FixIt(title: "Test `\(replacement)`, the environment variable, instead of mod_ssl's `%{HTTPS}`",
                            edits: [TextEdit(range: word.range, replacement: replacement)], applicability: .unsafe)
            return (hint, fix)
        }
        return nil
    }

    private func edgeNote(_ context: LintContext) -> String {
        context.edge.mode == .none ? "" : " behind the \(context.edgeName) edge"
    }
}

private extension Array where Element == String {
    /// The strings in order, each once.
    func uniqued() -> [String] {
        var seen = Set<String>()
        return filter { seen.insert($0).inserted }
    }
}
