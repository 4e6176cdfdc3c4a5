import HtlintApache
import HtlintDiagnostics

/// A redirect whose target host is the `Host` header as received, with no condition pinning it
/// to the site's names (hygiene rule H12, layers spec L24 b). Opt-in: a name-based virtual host
/// only receives its own names, so the usual `https://%{HTTP_HOST}%{REQUEST_URI}` is harmless
/// unless the vhost is the default one for its address or a cache keys on the path alone.
struct HostHeaderReflected: LintRule {
    let description = RuleDescription(
        id: "HT415", name: "host-header-reflected", family: .security,
        summary: "a redirect target takes its host from the request's `Host` header without a condition pinning it to the site's names",
        rationale: """
        `%{HTTP_HOST}` is whatever the client sent, and so is `%{SERVER_NAME}` under the default \
        `UseCanonicalName Off`; `%{HTTP:X-Forwarded-Host}` even passes through most proxies. A \
        redirect built from them sends `Host: evil.example` to `https://evil.example/…`. That matters \
        when such a request reaches the rule — on the default virtual host of an address (the first \
        `<VirtualHost>` for it, or a server without virtual hosts), which answers every unknown \
        name — and most when a cache in front stores the redirect under the path alone, so that \
        one crafted request redirects every later visitor (OWASP WSTG, Host header injection). A \
        name-based virtual host receives only its own names, so the rule is opt-in: enable it for \
        origins reachable directly or behind a shared cache. Pin the host with a condition before \
        the redirect (`RewriteCond %{HTTP_HOST} ^(www\\.)?example\\.com$ [NC]`), write the canonical \
        host literally, or set `UseCanonicalName On` with a `ServerName` and use `%{SERVER_NAME}`.
        """,
        severity: .note,
        triggering: [Example("RewriteCond %{HTTPS} off\nRewriteRule ^ ↓https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
                     Example("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^(.*)$ ↓https://%1/$1 [R=301,L]"),
                     Example("RewriteCond %{HTTP_HOST} !^www\\. [NC]\nRewriteRule ^(.*)$ ↓https://www.%{HTTP_HOST}/$1 [R=301,L]"),
                     Example("RewriteRule ^old$ ↓https://%{HTTP:X-Forwarded-Host}/new [R=302,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^(www\\.)?example\\.com$ [NC]\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^www\\.(example\\.com)$ [NC]\nRewriteRule ^(.*)$ https://%1/$1 [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} =example.com\nRewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]"),
                        Example("RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]"),
                        Example("RewriteRule ^old$ /new [R=301,L]")],
        optIn: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        // Under DNS too the server name is not the client's Host.
        let canonicalServerName = context.simulator.map { $0.origin.site.canonicalName != .off } ?? false
        return context.files.flatMap { $0.rules }.compactMap { rule in
            // `[P]` to the client's host is a different fault (the server fetches it).
            guard rule.redirects || rule.targetsURL, !rule.flags.proxy,
                  let source = reflectedHost(rule, canonicalServerName: canonicalServerName) else { return nil }
            let pin = pinningCondition(context.hosts)
            return finding("the redirect target `\(rule.rawSubstitution)` takes its host from \(source), which the client chooses: "
                           + "a request with `Host: evil.example` that reaches this rule is sent to evil.example",
                           at: rule.substitutionRange,
                           fixes: [FixIt(title: "Pin the host first: `\(pin)`", edits: [], applicability: .displayOnly)])
        }
    }

    /// What the target's host is built from, when the client controls it; nil when the host is
    /// a literal, comes from the path, or a condition limits it to known names.
    private func reflectedHost(_ rule: RewriteRule, canonicalServerName: Bool) -> String? {
        var parts = rule.substitution.parts[...]
        // The scheme: a literal `https://` or `%{REQUEST_SCHEME}://`.
        var schemes = ["https://", "http://"]
        if case .variable(let v)? = parts.first, v.uppercased() == "REQUEST_SCHEME" { parts = parts.dropFirst(); schemes = ["://"] }
        guard case .literal(let scheme)? = parts.first else { return nil }
        let lower = scheme.lowercased()
        guard let schemeEnd = schemes.first(where: lower.hasPrefix) else { return nil }
        // A literal host (`https://example.com/…`) ends the host before any variable.
        let afterScheme = lower.dropFirst(schemeEnd.count)
        if afterScheme.contains("/") || afterScheme.contains(":") { return nil }
        parts = parts.dropFirst()
        guard let host = parts.first else { return nil }
        if rule.conditions.contains(where: pins) { return nil }
        switch host {
        case .variable(let v):
            let name = v.uppercased()
            if name == "HTTP_HOST" || name == "HTTP:HOST" || name == "HTTP:X-FORWARDED-HOST" { return "`%{\(v)}`" }
            if name == "SERVER_NAME", !canonicalServerName { return "`%{SERVER_NAME}` (the `Host` header under `UseCanonicalName Off`)" }
            return nil
        case .conditionCapture(let n):
            // `%N` comes from the last condition that matched with a regex.
            guard let c = rule.conditions.last(where: { if case .regex = $0.test { !$0.negated } else { false } }),
                  c.variables.contains(where: Self.hostVariables.contains) else { return nil }
            return "`%\(n)`, a part of `\(c.rawTestString)`"
        default:
            return nil
        }
    }

    static let hostVariables: Set<String> = ["HTTP_HOST", "HTTP:HOST", "SERVER_NAME", "HTTP:X-FORWARDED-HOST"]

    /// A condition every match must pass that limits the host to names written in it: a regex
    /// naming a domain (`^(www\.)?example\.com$`) or an equality (`=example.com`). Conditions in
    /// an `[OR]` group do not count, as another member can hold instead.
    private func pins(_ c: RewriteCondition) -> Bool {
        guard !c.negated, !c.orNext, c.variables.contains(where: Self.hostVariables.contains) else { return false }
        switch c.test {
        case .regex: return Self.namesDomain(c.rawPattern)
        case .string(let op, _): return op == "=" && c.rawPattern.dropFirst().contains(".")
        default: return false
        }
    }

    /// The pattern spells a dotted name (`example\.com`, `example.com`).
    static func namesDomain(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        func label(_ b: UInt8) -> Bool { b == UInt8(ascii: "-") || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) }
        var i = 0
        while i < bytes.count {
            guard label(bytes[i]) else { i += 1; continue }
            while i < bytes.count, label(bytes[i]) { i += 1 }
            var j = i
            if j < bytes.count, bytes[j] == UInt8(ascii: "\\") { j += 1 }
            guard j < bytes.count, bytes[j] == UInt8(ascii: ".") else { continue }
            j += 1
            var letters = 0
            while j < bytes.count, label(bytes[j]) { letters += 1; j += 1 }
            if letters >= 2 { return true }
            i = j
        }
        return false
    }

    /// The condition to add, with the site's names when they are known.
    private func pinningCondition(_ hosts: [String]) -> String {
        let names = hosts.isEmpty ? ["example.com", "www.example.com"] : hosts
        let escaped = names.map { $0.replacingOccurrences(of: ".", with: "\\.") }
        let alternation = escaped.count == 1 ? escaped[0] : "(?:" + escaped.joined(separator: "|") + ")"
        return "RewriteCond %{HTTP_HOST} ^\(alternation)$ [NC]"
    }
}
