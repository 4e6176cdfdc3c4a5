import HtlintApache
/// A URL as the simulated browser handles it: scheme, host, port and the request target,
/// kept as written (no normalisation of the path).
public struct URLParts: Sendable, Hashable {
    /// Lower-case scheme.
    public var scheme: String
    /// Host as written.
    public var host: String
    /// Explicit port, nil when none is written.
    public var port: Int?
    /// Path and query as written, e.g. `/a%20b?x=1`.
    public var target: String
    /// Fragment, never sent to the server.
    public var fragment: String?

    /// Parses `scheme://authority/target`; nil without `://`.
    public init?(_ text: String) {
        // Byte searches throughout: every delimiter is ASCII (and Character searches are slow).
        let u = text.utf8
        guard let sep = schemeSeparator(in: text) else { return nil }
        scheme = text[..<sep].lowercased()
        var rest = text[u.index(sep, offsetBy: 3)...]
        fragment = nil
        if let hash = rest.utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(rest[rest.utf8.index(after: hash)...])
            rest = rest[..<hash]
        }
        let slash = rest.utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
        var authority = rest[..<slash]
        if let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")) { authority = authority[authority.utf8.index(after: at)...] }
        port = nil
        if let colon = authority.utf8.lastIndex(of: UInt8(ascii: ":")), authority.utf8.last != UInt8(ascii: "]") {
            port = Int(authority[authority.utf8.index(after: colon)...])
            authority = authority[..<colon]
        }
        host = String(authority)
        let t = rest[slash...]
        target = t.isEmpty ? "/" : (t.utf8.first == UInt8(ascii: "?") ? "/" + t : String(t))
    }

    /// The scheme's default port.
    public var defaultPort: Int { scheme == "https" ? 443 : 80 }
    /// No port, or the scheme's default one.
    public var hasDefaultPort: Bool { port == nil || port == defaultPort }

    /// `Host` header value.
    public var hostHeader: String { hasDefaultPort ? host : "\(host):\(port!)" }

    /// The URL as the browser shows it (default port omitted).
    public var text: String { "\(scheme)://\(hostHeader)\(target)" + (fragment.map { "#" + $0 } ?? "") }

    /// Identity for loop detection: scheme and host case-insensitive, default port ignored.
    public var identity: String { "\(scheme)://\(host.lowercased())\(hasDefaultPort ? "" : ":\(port!)")\(target)" }

    /// The port the connection goes to.
    public var effectivePort: Int { port ?? defaultPort }

    /// The URL the browser's HSTS upgrade produces: `https`, port 80 becomes 443 (omitted), any
    /// other explicit port is kept (RFC 6797 §8.3).
    public var upgradedToHTTPS: URLParts {
        var u = self
        u.scheme = "https"
        if port == 80 { u.port = nil }
        return u
    }

    /// An IPv4 or bracketed IPv6 literal.
    public var isIPLiteral: Bool { URLParts.isIPLiteral(host) }

    /// Whether a host name is an IP address literal (no HSTS, no upgrade of mixed content).
    public static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) && Int($0).map { $0 < 256 } == true }
    }

    /// Path without the query.
    public var path: String { target.firstIndex(of: "?").map { String(target[..<$0]) } ?? target }

    /// Query without `?`, nil when there is none.
    public var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }

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
