import Foundation
import HtlintApache
import HtlintDiagnostics

/// `%{HTTP_X_FORWARDED_PROTO}` and other names mod_rewrite does not know expand to nothing.
struct AlwaysEmptyVariable: LintRule {
    /// Names mod_rewrite knows (apache-semantics §7.2); `HTTP:`, `ENV:`, `SSL:`, `LA-U:`, `LA-F:` forms are always valid.
    static let known: Set<String> = [
        "HTTP_ACCEPT", "HTTP_COOKIE", "HTTP_FORWARDED", "HTTP_HOST", "HTTP_PROXY_CONNECTION", "HTTP_REFERER",
        "HTTP_USER_AGENT", "REQUEST_URI", "REQUEST_FILENAME", "SCRIPT_FILENAME", "PATH_INFO", "QUERY_STRING",
        "THE_REQUEST", "REQUEST_METHOD", "SERVER_PROTOCOL", "REQUEST_SCHEME", "HTTPS", "SERVER_NAME", "SERVER_PORT",
        "SERVER_ADDR", "SERVER_ADMIN", "SERVER_SOFTWARE", "REMOTE_ADDR", "CONN_REMOTE_ADDR", "REMOTE_HOST",
        "REMOTE_PORT", "REMOTE_USER", "REMOTE_IDENT", "AUTH_TYPE", "DOCUMENT_ROOT", "CONTEXT_PREFIX",
        "CONTEXT_DOCUMENT_ROOT", "IS_SUBREQ", "IPV6", "API_VERSION", "SCRIPT_USER", "SCRIPT_GROUP", "TIME",
        "TIME_YEAR", "TIME_MON", "TIME_DAY", "TIME_HOUR", "TIME_MIN", "TIME_SEC", "TIME_WDAY", "DOCUMENT_URI",
    ]

    let description = RuleDescription(
        id: "HT208", name: "always-empty-variable", family: .semantics,
        summary: "a `%{NAME}` mod_rewrite does not know: it is always empty",
        rationale: """
        mod_rewrite knows a fixed list of variables. Any other name — notably \
        `%{HTTP_X_FORWARDED_PROTO}`, `%{REDIRECT_STATUS}` or `%{SCRIPT_URL}` — expands to the empty \
        string, so a condition on it is constant (apache-semantics §7.2). Read request headers with \
        `%{HTTP:X-Forwarded-Proto}` and environment variables with `%{ENV:REDIRECT_STATUS}`.
        """,
        severity: .error,
        triggering: [Example("RewriteCond ↓%{HTTP_X_FORWARDED_PROTO} !https\nRewriteRule ^ https://example.com/ [R=301,L]"),
                     Example("RewriteCond ↓%{REDIRECT_STATUS} ^$\nRewriteRule ^(.*)$ /app/$1 [L]")],
        nonTriggering: [Example("RewriteCond %{HTTP:X-Forwarded-Proto} !https\nRewriteRule ^ https://example.com/ [R=301,L]"),
                        Example("RewriteCond %{ENV:REDIRECT_STATUS} ^$\nRewriteRule ^(.*)$ /app/$1 [L]"),
                        Example("RewriteCond %{request_uri} !^/app/\nRewriteRule ^(.*)$ /app/$1 [L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.flatMap { rule -> [Diagnostic] in
                var out: [Diagnostic] = []
                for c in rule.conditions {
                    for name in c.variables where !isKnown(name) {
                        let text = file.text(c.range)
                        let needle = "%{" 
                        var at = c.range.start
                        if let r = text.range(of: needle + name, options: .caseInsensitive) {
                            at += text.utf8.distance(from: text.startIndex, to: r.lowerBound)
                        }
                        out.append(finding("`%{\(name)}` is not a mod_rewrite variable and is always empty\(hint(name))",
                                           at: SourceRange(file: c.range.file, start: at, end: at + name.utf8.count + 3)))
                    }
                }
                return out
            }
        }
    }

    private func isKnown(_ name: String) -> Bool {
        if let colon = name.firstIndex(of: ":") {
            return ["HTTP", "ENV", "SSL", "LA-U", "LA-F"].contains(String(name[..<colon]))
        }
        return name.count < 4 || AlwaysEmptyVariable.known.contains(name)
    }

    private func hint(_ name: String) -> String {
        if name.hasPrefix("HTTP_") {
            let header = name.dropFirst(5).split(separator: "_").map { $0.prefix(1) + $0.dropFirst().lowercased() }.joined(separator: "-")
            return "; use `%{HTTP:\(header)}`"
        }
        return "; use `%{ENV:\(name)}` for an environment variable"
    }
}
