import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A redirect to this site on a port the browser cannot use that way (hygiene rules H17, H20):
/// `https://host:80/`, `http://host:443/`, or a port nothing in front listens on.
struct RedirectToUnreachablePort: LintRule {
    let description = RuleDescription(
        id: "HT317", name: "redirect-to-unreachable-port", family: .https,
        summary: "a redirect to this site names a port that does not serve the URL's scheme (`https://host:80/`, `http://host:443/`, a port the CDN does not proxy)",
        rationale: """
        Found by simulation. A target that carries a port — usually copied from the request: \
        `https://%{SERVER_NAME}:%{SERVER_PORT}/…` on an http request, or a `Host` header with a \
        port that a proxy added (`$host:$server_port`) — sends the browser to `https://host:80/`, \
        where plain HTTP answers the TLS handshake (ERR_SSL_PROTOCOL_ERROR), to `http://host:443/`, \
        where the TLS listener answers 400, or to a port nothing in front of the site listens on \
        (Cloudflare proxies only a fixed list of ports). Write targets without a port, or with the \
        port the scheme needs.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} off\n↓RewriteRule ^ https://%{SERVER_NAME}:%{SERVER_PORT}%{REQUEST_URI} [R=301,L]"),
            Example("RewriteEngine On\n↓RewriteRule ^old$ https://example.com:9443/new [R=301,L]", edge: "cloudflare-full"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{SERVER_NAME}%{REQUEST_URI} [R=301,L]"),
            // Cloudflare proxies 8443 over TLS.
            Example("RewriteEngine On\nRewriteRule ^old$ https://example.com:8443/new [R=301,L]", edge: "cloudflare-strict"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        func problem(_ hop: Hop) -> (url: String, why: String)? {
            guard let from = URLParts(hop.url), let location = hop.location, let to = URLParts(from.resolve(location)) else { return nil }
            if let why = sim.unreachableReason(to) { return (to.text, why) }
            // Plain HTTP to a TLS port is answered, with a 400 (nginx: "The plain HTTP request was
            // sent to HTTPS port"; mod_ssl: "You're speaking plain HTTP to an SSL-enabled server port").
            if to.scheme == "http", !to.hasDefaultPort, sim.isOnSite(to), sim.frontSpeaksTLS(on: to.effectivePort) {
                return (to.text, "port \(to.effectivePort) of \(to.host) speaks TLS: plain HTTP there is answered 400")
            }
            return nil
        }
        return redirectProblemFindings(context, problem: problem) { hop in portHint(hop, context) }
    }

    /// Says where the port came from when the rule copies `%{SERVER_PORT}` or the `Host` header.
    private func portHint(_ hop: Hop, _ context: LintContext) -> String {
        guard let source = hop.redirectSource, let rule = context.rewriteRule(at: source) else { return "" }
        let target = rule.rawSubstitution.uppercased()
        if target.contains("%{SERVER_PORT}") {
            return "; `%{SERVER_PORT}` is the port of the request Apache received, not the one the target needs"
        }
        if target.contains("%{HTTP_HOST}"), let host = hop.originRequest?.header("Host"), host.contains(":") {
            return "; `%{HTTP_HOST}` is `\(host)`, with the port of the request Apache received"
        }
        return ""
    }
}
