import Testing
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Messages and boundaries of the hygiene rules that simulate what the layers do: HT315–HT318.
struct LayerHygieneRuleTests {
    func run(_ id: String, _ htaccess: String, layers: [any Layer] = [], pages: [String: String] = [:]) -> [Diagnostic] {
        Linter(rules: [rule(named: id)!]).run(LintContext(htaccess: htaccess, layers: layers, pages: pages))
    }

    @Test func originAddressNamesTheHostApacheReceived() {
        let d = run("HT316", "RewriteEngine On\nRewriteRule ^old$ https://%{HTTP_HOST}/new [R=301,L]", layers: [NginxProxy(httpServer: .proxy)])
        #expect(d.first?.message == "http://example.com/old redirects to https://127.0.0.1:8080/new, the origin's address behind nginx: "
                + "Apache received `Host: 127.0.0.1:8080` from nginx, not the visitor's host (and 3 more probe requests)")
    }

    @Test func aProxyPassToTheSitesOwnNameIsNoHiddenAddress() {
        let nginx = NginxProxy(httpServer: .redirect, upstreamHost: "example.com", upstreamPort: 8080, hostHeader: .host)
        #expect(run("HT316", "RewriteEngine On\nRewriteRule ^old$ https://%{HTTP_HOST}/new [R=301,L]", layers: [nginx]).isEmpty)
    }

    @Test func unreachablePortSaysWhereThePortCameFrom() {
        let d = run("HT317", "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{SERVER_NAME}:%{SERVER_PORT}%{REQUEST_URI} [R=301,L]")
        #expect(d.first?.message.hasPrefix("http://example.com/ redirects to https://example.com:80/: Apache speaks plain HTTP on port 80 "
                + "of example.com, not TLS: the browser cannot connect (ERR_SSL_PROTOCOL_ERROR); `%{SERVER_PORT}` is the port of "
                + "the request Apache received, not the one the target needs") == true)
        // A port-less Location the front does not serve is HT303's or the chain's business, not a port finding.
        #expect(run("HT317", "Redirect 301 /a http://example.com/b", layers: [NginxProxy(httpServer: .none)]).isEmpty)
    }

    static let slashRule = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*[^/])$ /$1/ [R=REDIRECT,L]\nRewriteRule ^contact/$ contact.php [L]"

    @Test(arguments: [("301", true), ("302", true), ("303", false), ("307", false)])
    func onlyRedirectsThatTurnThePostIntoAGetCount(_ status: String, _ reported: Bool) {
        let d = run("HT318", Self.slashRule.replacingOccurrences(of: "REDIRECT", with: status),
                    pages: ["/index.html": "<form method=post action=\"/contact\"></form>", "/contact.php": "<?php"])
        #expect(!d.isEmpty == reported)
    }

    @Test func theFixKeepsARelativeActionRelative() {
        let d = run("HT318", Self.slashRule.replacingOccurrences(of: "REDIRECT", with: "301"),
                    pages: ["/index.html": "<form method=post action=\"/contact\"></form>", "/contact.php": "<?php"])
        #expect(d.first?.message == "`<form action>` posts to `/contact`, which answers 301 → `https://example.com/contact/`: "
                + "the browser follows with a GET, without the form's data (307 or 308 would keep the POST)")
        #expect(d.first?.fixIts.first?.edits.first?.replacement == "/contact/")
    }
}
