/// A URL as the simulated browser handles it: scheme, host, port and the request target,
/// kept as written (no normalisation of the path).
public struct URLParts: Sendable, Hashable {
    public var scheme: String
    public var host: String
    public var port: Int?
    /// Path and query as written, e.g. `/a%20b?x=1`.
    public var target: String
    /// Fragment, never sent to the server.
    public var fragment: String?

    public init?(_ text: String) {
        guard let r = text.range(of: "://") else { return nil }
        scheme = text[..<r.lowerBound].lowercased()
        var rest = text[r.upperBound...]
        fragment = nil
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = String(rest[..<slash])
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        port = nil
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            port = Int(authority[authority.index(after: colon)...])
            authority = String(authority[..<colon])
        }
        host = authority
        let t = String(rest[slash...])
        target = t.isEmpty ? "/" : (t.hasPrefix("?") ? "/" + t : t)
    }

    public var defaultPort: Int { scheme == "https" ? 443 : 80 }
    public var hasDefaultPort: Bool { port == nil || port == defaultPort }

    /// `Host` header value.
    public var hostHeader: String { hasDefaultPort ? host : "\(host):\(port!)" }

    public var text: String { "\(scheme)://\(hostHeader)\(target)" + (fragment.map { "#" + $0 } ?? "") }

    /// Identity for loop detection: scheme and host case-insensitive, default port ignored.
    public var identity: String { "\(scheme)://\(host.lowercased())\(hasDefaultPort ? "" : ":\(port!)")\(target)" }

    /// Resolves a `Location` against this URL.
    public func resolve(_ location: String) -> String {
        if location.contains("://") { return location }
        if location.hasPrefix("//") { return scheme + ":" + location }
        if location.hasPrefix("/") { return "\(scheme)://\(hostHeader)\(location)" }
        var base = target
        if let q = base.firstIndex(of: "?") { base = String(base[..<q]) }
        if location.hasPrefix("?") { return "\(scheme)://\(hostHeader)\(base)\(location)" }
        let dir = base[...(base.lastIndex(of: "/") ?? base.startIndex)]
        return "\(scheme)://\(hostHeader)\(dir)\(location)"
    }
}
