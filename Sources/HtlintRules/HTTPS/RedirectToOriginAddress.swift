import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A redirect that sends visitors to the origin's own address behind a proxy (hygiene rule H10,
/// layers spec L17): Apache builds self-referential URLs from the `Host` it receives, and a
/// proxy that passes its upstream's name (nginx's default `proxy_set_header Host $proxy_host`)
/// makes that name the redirect's target.
struct RedirectToOriginAddress: LintRule {
    let description = RuleDescription(
        id: "HT316", name: "redirect-to-origin-address", family: .https,
        summary: "a redirect sends visitors to the origin's address behind the proxy (`https://127.0.0.1:8080/…`)",
        rationale: """
        Found by simulation. Apache makes every URL it builds itself — `%{HTTP_HOST}` and \
        `%{SERVER_NAME}` in a target, a relative `[R]` target, `Redirect /x`, mod_dir's trailing-slash \
        redirect — from the `Host` header it receives (`UseCanonicalName Off`). A proxy in front that \
        sends its upstream's name instead of the visitor's (nginx's default `proxy_set_header Host \
        $proxy_host`, CloudFront without Host forwarding) turns those into redirects to the origin: \
        the visitor lands on an address that is not reachable from outside or, when it is, bypasses \
        the proxy, its TLS and its filtering, and the origin's address is published. nginx's \
        `proxy_redirect default` repairs only `Location`s that start with the `proxy_pass` URL \
        itself (`http://127.0.0.1:8080/`), not an `https://` form or another port. Pass the \
        visitor's host on (`proxy_set_header Host $host`; CloudFront: forward `Host`), or set \
        `UseCanonicalName On` with a `ServerName`: Apache's own URLs and `%{SERVER_NAME}` then use \
        it (`%{HTTP_HOST}` stays the header as received).
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\n↓RewriteRule ^old$ https://%{HTTP_HOST}/new [R=301,L]", edge: "nginx"),
        ],
        nonTriggering: [
            // A URL-path target becomes http://127.0.0.1:8080/new, which proxy_redirect repairs.
            Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]", edge: "nginx"),
            Example("RewriteEngine On\nRewriteRule ^old$ https://%{HTTP_HOST}/new [R=301,L]", edge: "cloudflare-flexible"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        // A proxy_pass to a public name of the site itself is no hidden address.
        let backends = sim.internalHosts.filter { name in
            !sim.namesThisSite(URLParts("http://\(name)/")?.host ?? name)
        }
        guard !backends.isEmpty else { return [] }
        func leaks(_ hop: Hop) -> URLParts? {
            guard let from = URLParts(hop.url), let location = hop.location, let to = URLParts(from.resolve(location)) else { return nil }
            return backends.contains(to.host.lowercased()) || backends.contains(to.hostHeader.lowercased()) ? to : nil
        }
        let items = context.probes.compactMap { probe -> (range: SourceRange, probe: ProbeResult)? in
            guard let (hop, _) = probe.chain.firstHop(leaks),
                  let source = hop.redirectSource ?? HTTPSDowngrade.producer(of: hop, context).range else { return nil }
            return (source, probe)
        }
        return groupedByDirective(items).compactMap { group in
            // The group's first probe is one the filter above kept.
            guard let (hop, target) = group.first.chain.firstHop(leaks) else { return nil }
            let via = hop.redirectSource == nil ? " (\(HTTPSDowngrade.producer(of: hop, context).what))" : ""
            let host = hop.originRequest?.header("Host")
            let why = host.map { backends.contains($0.lowercased()) ? ": Apache received `Host: \($0)` from \(context.edgeName), not the visitor's host" : "" } ?? ""
            return finding("\(hop.url) redirects to \(target.text), the origin's address behind \(context.edgeName)\(via)\(why)"
                           + moreRequests(group.count), at: group.range)
        }
    }
}
