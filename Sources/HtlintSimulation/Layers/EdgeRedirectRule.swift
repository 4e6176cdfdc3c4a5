/// A redirect the edge performs before contacting the origin: Cloudflare Single Redirects,
/// Bulk Redirects or Page Rules forwarding (layers-and-mixed-content §2.3).
public struct EdgeRedirectRule: Sendable, Hashable {
    /// Scheme the request must use (`http`/`https`), nil for both.
    public var scheme: String?
    /// Host the request must name (case-insensitive), nil for any.
    public var host: String?
    /// Path pattern with `*` wildcards (Page Rules style), nil for any path.
    public var path: String?
    /// Target URL: `$1`… are the wildcards, `${path}` the request path, `${query}` its query
    /// (without `?`), `${uri}` path and query.
    public var target: String
    /// Redirect status (301 by default).
    public var status: Int
    /// Single Redirects drop the query unless "preserve query string" is on (§2.3).
    public var preserveQuery: Bool

    /// A rule; unset conditions match everything.
    public init(scheme: String? = nil, host: String? = nil, path: String? = nil, target: String, status: Int = 301,
                preserveQuery: Bool = false) {
        self.scheme = scheme
        self.host = host
        self.path = path
        self.target = target
        self.status = status
        self.preserveQuery = preserveQuery
    }

    /// The `Location` for a request, or nil when the rule does not match.
    public func apply(scheme s: String, host h: String, target t: String) -> String? {
        if let scheme, scheme.lowercased() != s { return nil }
        if let host, host.lowercased() != h.lowercased() { return nil }
        let pathPart = t.firstIndex(of: "?").map { String(t[..<$0]) } ?? t
        let query = t.firstIndex(of: "?").map { String(t[t.index(after: $0)...]) }
        var captures: [String] = []
        if let path {
            guard let c = EdgeRedirectRule.glob(path, pathPart) else { return nil }
            captures = c
        }
        var out = target
        out = out.replacingOccurrences(of: "${uri}", with: t)
        out = out.replacingOccurrences(of: "${path}", with: pathPart)
        out = out.replacingOccurrences(of: "${query}", with: query ?? "")
        for (i, c) in captures.enumerated().reversed() { out = out.replacingOccurrences(of: "$\(i + 1)", with: c) }
        if preserveQuery, let query, !out.contains("?") { out += "?" + query }
        return out
    }

    /// Matches a `*` pattern against the whole subject; returns what each `*` matched.
    static func glob(_ pattern: String, _ subject: String) -> [String]? {
        let p = Array(pattern), s = Array(subject)
        func match(_ i: Int, _ j: Int) -> [String]? {
            if i == p.count { return j == s.count ? [] : nil }
            if p[i] == "*" {
                for k in (j...s.count).reversed() {
                    if let rest = match(i + 1, k) { return [String(s[j..<k])] + rest }
                }
                return nil
            }
            guard j < s.count, p[i] == s[j] else { return nil }
            return match(i + 1, j + 1)
        }
        return match(0, 0)
    }
}
