import Foundation
import HtlintContent
import HtlintDiagnostics
import HtlintSimulation

/// An https request redirected to a login or admin page over plain http.
struct CredentialsRedirectToHTTP: LintRule {
    let description = RuleDescription(
        id: "HT410", name: "credentials-redirect-to-http", family: .security,
        summary: "an https request redirected to a login or admin page over http: credentials sent in clear",
        rationale: """
        Found by simulation, for the URLs the rules match and for the usual login and admin paths \
        the site has (`/wp-login.php`, `/wp-admin/` on a WordPress site, `/admin/`, `/login`, \
        `/user/login`, `/administrator/`). When an https request ends on one of them over `http://`, the login \
        form is served and submitted in clear: passwords and session cookies can be read and \
        changed by anyone on the network path. HT303 reports every https→http redirect as a \
        warning; this one is an error because credentials are at stake. Redirect to \
        `https://`, and exclude login and admin paths from any rule that sends visitors to http.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\n↓RewriteRule ^signin$ http://example.com/wp-login.php [R=301,L]"),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} on
                ↓RewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]
                """, pages: ["/wp-login.php": "<?php require __DIR__ . '/wp-load.php';"]),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule ^signin$ https://example.com/wp-login.php [R=301,L]"),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} on
                RewriteCond %{REQUEST_URI} !(^|/)(wp-admin|wp-login\\.php|admin|login|administrator)(/|$)
                RewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]
                """),
            // A site without login pages: the made-up /wp-login.php and /admin/ are not probed (HT303 reports the downgrade).
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} on
                RewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]
                """),
        ],
        usesSimulation: true)

    /// Path segments that name a login or administration page.
    static let credentialSegments: Set<String> = ["wp-login.php", "wp-admin", "admin", "login", "administrator"]
    static let credentialPaths = ["/wp-login.php", "/wp-admin/", "/admin/", "/login", "/user/login", "/administrator/"]

    static func isCredentialPath(_ url: String) -> Bool {
        guard let parts = URLParts(url) else { return false }
        let path = parts.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        let decoded = (path.removingPercentEncoding ?? path).lowercased()
        return decoded.split(separator: "/").contains { credentialSegments.contains(String($0)) }
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        let host = context.hosts.first ?? sim.origin.site.canonicalHost
        // Made-up login paths only where they exist (WordPress's on a WordPress site): elsewhere
        // they are 404s nobody logs in at, and the https→http redirect itself is HT303's.
        let site = sim.origin.site
        let root = site.documentRoot
        func exists(_ path: String) -> Bool { site.files.isFile(root + path) || site.files.isDirectory(root + path) }
        let wordPress = ["/wp-config.php", "/wp-login.php", "/wp-admin", "/wp-includes"].contains(where: exists)
        let paths = Self.credentialPaths.filter { path in
            (path.hasPrefix("/wp-") && wordPress) || exists(path.hasSuffix("/") ? String(path.dropLast()) : path)
        }
        let extra = paths.map { path in
            ProbeResult(url: "https://\(host)\(path)", chain: sim.run("https://\(host)\(path)"))
        }
        var items: [(range: SourceRange, probe: ProbeResult)] = []
        var hops: [String: Hop] = [:]
        for probe in context.probes + extra {
            guard let hop = probe.chain.hops.first(where: isDowngradeToCredentials),
                  let source = hop.redirectSource ?? context.siteWideLocation else { continue }
            items.append((source, probe))
            hops[probe.url] = hop
        }
        return groupedByDirective(items).map { group in
            let hop = hops[group.first.url]!
            let via = hop.redirectSource == nil ? " (\(HTTPSDowngrade.producer(of: hop, context).what))" : ""
            return finding("\(hop.url) redirects to \(hop.location ?? "") over http\(via): credentials sent in clear",
                           at: group.range)
        }
    }

    /// An https hop whose redirect lands on an http login or admin URL.
    private func isDowngradeToCredentials(_ hop: Hop) -> Bool {
        guard hop.url.lowercased().hasPrefix("https://"), (300..<400).contains(hop.status), let location = hop.location,
              let target = URLResolver.resolveAsBrowser(location, against: hop.url) else { return false }
        return target.lowercased().hasPrefix("http://") && Self.isCredentialPath(target)
    }
}
