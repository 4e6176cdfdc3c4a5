import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A redirect whose target has no usable host name: `https:///page` (an empty `%1`),
/// `https://www./page` (`www.%1` with `%1` empty; recorded: rewrite-backref-missing-groups-expand-empty),
/// `https://%25%7bHTTP_HOST%7d/` (mod_alias does not expand variables; recorded:
/// alias-redirectmatch-escapes-whole-url).
struct RedirectToInvalidHost: LintRule {
    let description = RuleDescription(
        id: "HT319", name: "redirect-to-invalid-host", family: .https,
        summary: "a redirect whose target has no usable host name (`https:///page`, `https://www./page`, `https://%25%7bHTTP_HOST%7d/`)",
        rationale: """
        Found by simulation. The target's host is built from parts of the request, and for some \
        requests a part is empty or was never expanded: `%1` of a condition that did not capture \
        (a negated pattern, an `[OR]` alternative that was skipped) leaves `https:///page` or \
        `https://www./page`, and `Redirect`/`RedirectMatch` do not expand `%{HTTP_HOST}` at all, \
        so the target holds the escaped text `%25%7bHTTP_HOST%7d`. Browsers fail such a redirect \
        (no such host) or go somewhere else entirely. Build the host from a group every request \
        sets, write it out, or redirect with `RewriteRule`, which expands `%{HTTP_HOST}`.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\n↓RewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\. [NC]\n↓RewriteRule ^ https://www.%1%{REQUEST_URI} [R=301,L]"),
            Example("↓RedirectMatch 301 ^/old/(.*)$ https://%{HTTP_HOST}/new/$1"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$ [NC]\nRewriteRule ^ https://www.%1%{REQUEST_URI} [R=301,L]"),
            Example("RedirectMatch 301 ^/old/(.*)$ https://example.com/new/$1"),
            Example("RewriteEngine On\nRewriteRule ^old/(.*)$ https://%{HTTP_HOST}/new/$1 [R=301,L]"),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard context.simulator != nil else { return [] }
        func problem(_ hop: Hop) -> (url: String, why: String)? {
            guard let from = URLParts(hop.url), let location = hop.location else { return nil }
            let resolved = from.resolve(location)
            // A target that does not parse as a URL (`https:///…` does) is not this rule's.
            guard let to = URLParts(resolved), let why = Self.hostProblem(to.host) else { return nil }
            return (resolved, why)
        }
        return redirectProblemFindings(context, problem: problem) { hop in cause(hop, context) }
    }

    /// Why `host` names no site a browser can reach, or nil when it may be one.
    static func hostProblem(_ host: String) -> String? {
        if host.isEmpty { return "the target has no host name" }
        // An IPv6 literal is HT409's concern; a name beyond ASCII is an internationalised one.
        if host.hasPrefix("[") { return nil }
        if let bad = host.unicodeScalars.first(where: { $0.isASCII && !Self.hostCharacters.contains($0) }) {
            return "the host `\(host)` is no host name (it holds `\(bad.escaped(asASCII: true))`)"
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.dropLast().contains(where: \.isEmpty) {
            return "the host `\(host)` has an empty label"
        }
        // `www.`: the prefix of `www.%1` with the rest empty. (Other one-label names with a
        // dot, `localhost.`, are valid absolute names.)
        if labels.count == 2, labels[1].isEmpty, labels[0].lowercased() == "www" {
            return "the host `\(host)` ends at the dot: the name after it is empty"
        }
        return nil
    }

    /// What may stand in a host name as browsers take it (letters, digits, `-`, `.`, and `_`,
    /// which they accept although DNS host names do not).
    private static let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._".unicodeScalars)

    /// Names what in the directive left the host unusable: a `%{…}` mod_alias does not expand,
    /// or a back-reference in the target's host that expanded to nothing.
    private func cause(_ hop: Hop, _ context: LintContext) -> String {
        guard let source = hop.redirectSource, let file = context.file(containing: source) else { return "" }
        if let redirect = file.redirects.first(where: { $0.range == source }) {
            if case .everything = redirect.matcher { return "" }
            return redirect.target?.contains("%{") == true
                ? "; `Redirect` and `RedirectMatch` do not expand `%{…}`: write the host, or use `RewriteRule … [R=301,L]`" : ""
        }
        // A back-reference written in the host part of the target.
        guard let rule = context.rewriteRule(at: source), let sep = rule.rawSubstitution.range(of: "://") else { return "" }
        let authority = Array(rule.rawSubstitution[sep.upperBound...].prefix { $0 != "/" && $0 != "?" })
        guard let at = authority.indices.dropLast().first(where: { (authority[$0] == "%" || authority[$0] == "$") && authority[$0 + 1].isASCII
                                                                    && authority[$0 + 1].isNumber }) else { return "" }
        return "; the host takes `\(authority[at])\(authority[at + 1])`, empty for this request"
    }
}
