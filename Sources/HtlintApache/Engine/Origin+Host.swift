import HtlintBytes
import HtlintRegex

extension Origin {
    /// The scheme Apache uses for self-referential URLs (apache-semantics §11.1).
    func scheme(_ chain: RequestChain) -> String {
        if chain.request.tls { return "https" }
        return site.serverNameScheme == "https" ? "https" : "http"
    }

    /// Host and port for self-referential URLs and `%{SERVER_NAME}`/`%{SERVER_PORT}` (§10.2).
    /// `subrequest`: the Host header's port is kept in the main request's parsed URI only (an
    /// internal redirect copies it, a subrequest does not), so a subrequest has the server's port.
    /// `r`: a `UseCanonicalName`/`UseCanonicalPhysicalPort` of its sections counts (per-directory
    /// in core; a `<Location>`'s already for server-context rules, merged before translate_name;
    /// recorded: section-directory-usecanonicalname, section-directory-canonical-physical-port).
    func serverNameAndPort(_ chain: RequestChain, _ r: RequestRecord?, subrequest: Bool = false) -> (host: String, port: Int) {
        let defaultPort = scheme(chain) == "https" ? 443 : 80
        // UseCanonicalPhysicalPort On: the port the connection came to (443 for TLS, else 80,
        // where the simulated Apache listens) before the scheme's default.
        let connectionPort = chain.request.tls ? 443 : 80
        let sections = r.flatMap { $0.config ?? $0.preTranslate }
        let physicalPort = sections?.canonicalPhysicalPort ?? site.useCanonicalPhysicalPort
        let canonicalName = sections?.canonicalName ?? site.canonicalName
        if canonicalName == .on {
            // ServerName's port first; without one the connection's under UseCanonicalPhysicalPort
            // (recorded: vhost-canonical-name-physical-port-without-servername-port).
            return (site.serverHostName, site.canonicalPort ?? (physicalPort ? connectionPort : defaultPort))
        }
        // Without a Host port, the connection's port before ServerName's.
        let fallbackPort = physicalPort ? connectionPort : site.canonicalPort ?? defaultPort
        var (host, port): (String, Int?) = (site.serverHostName, nil)
        if let hostHeader = chain.header("Host"), !hostHeader.isEmpty { (host, port) = splitHostHeader(hostHeader) }
        // UseCanonicalName DNS: the name of the address the connection reached, the port as Off
        // (recorded: vhost-usecanonicalname-dns-local-address).
        if canonicalName == .dns { host = Origin.localHostName(chain.request.serverAddress) ?? site.serverHostName }
        return (host, (subrequest ? nil : port) ?? fallbackPort)
    }

    /// ap_get_server_name under `UseCanonicalName DNS`: apr_getnameinfo of the connection's
    /// local address, asked with NI_NAMEREQD, lower-cased; nil (ServerName then) when the address
    /// has no name. The simulated host is the recordings': its hosts file names 127.0.0.1
    /// `localhost` and nothing else, so Apache behind an edge (on 127.0.0.2) answers with its
    /// ServerName (recorded: vhost-usecanonicalname-dns-local-address).
    public static func localHostName(_ address: String) -> String? {
        address == "127.0.0.1" ? "localhost" : nil
    }

    /// `scheme://host[:port]` + path, the port omitted when it is the scheme's default (§10.1).
    /// A subrequest's URLs (a DirectoryIndex candidate's redirect) carry the server's port
    /// (recorded: dirslash-port-lost-in-index-subrequest).
    func fullyQualify(_ path: String, _ chain: RequestChain, _ r: RequestRecord?, subrequest: Bool = false) -> String {
        let s = scheme(chain)
        let (host, port) = serverNameAndPort(chain, r, subrequest: subrequest)
        let defaultPort = s == "https" ? 443 : 80
        let portPart = port == defaultPort ? "" : ":\(port)"
        return "\(s)://\(host)\(portPart)\(path.hasBytePrefix("/") ? path : "/" + path)"
    }
}

/// Schemes mod_rewrite treats as absolute URLs (apache-semantics §4.8).
let absoluteSchemes = ["http://", "https://", "ws://", "wss://", "h2://", "h2c://", "ajp://", "balancer://",
                       "fcgi://", "scgi://", "ftp://", "gopher://", "ldap://", "nntp://", "news:", "mailto:", "unix:"]

/// The schemes' bytes, compared without building a lower-cased copy of the input.
private let absoluteSchemeBytes = absoluteSchemes.map { Array($0.utf8) }

/// The scheme prefix of an absolute URL as mod_rewrite recognises it, or nil. Compared by
/// bytes, case-insensitively, as Apache's `strncasecmp` does; this runs several times for every
/// rule that matches, so a path (`/…`) or a string without an early `:` is rejected at once.
func absoluteURLScheme(_ s: String) -> String? {
    guard let first = s.utf8.first, first != UInt8(ascii: "/") else { return nil }
    func find(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard let colon = b[..<min(b.count, 12)].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        candidates: for (k, scheme) in absoluteSchemeBytes.enumerated() where scheme.count > colon && scheme.count <= b.count {
            guard scheme[colon] == UInt8(ascii: ":") else { continue }
            for i in 0..<scheme.count {
                let c = b[i]
                if (c >= 0x41 && c <= 0x5A ? c | 0x20 : c) != scheme[i] { continue candidates }
            }
            return absoluteSchemes[k]
        }
        return nil
    }
    if let found = s.utf8.withContiguousStorageIfAvailable(find) { return found }
    return Array(s.utf8).withUnsafeBufferPointer(find)
}

/// Splits `scheme://host[:port]/path` into its prefix (through the host) and the path.
func splitAbsoluteURL(_ url: String) -> (prefix: String, path: String) {
    var url = url
    return url.withUTF8 { b in
        var sep = 0
        while sep + 2 < b.count, !(b[sep] == UInt8(ascii: ":") && b[sep + 1] == UInt8(ascii: "/") && b[sep + 2] == UInt8(ascii: "/")) {
            sep += 1
        }
        guard sep + 2 < b.count, let slash = b[(sep + 3)...].firstIndex(of: UInt8(ascii: "/")) else {
            return (String(decoding: b, as: UTF8.self), "")
        }
        return (String(decoding: UnsafeBufferPointer(rebasing: b[..<slash]), as: UTF8.self),
                String(decoding: UnsafeBufferPointer(rebasing: b[slash...]), as: UTF8.self))
    }
}

/// A `Host` value as httpd's fix_hostname reads it: lower case, the port split off (after the
/// `]` of an IPv6 literal), a trailing dot dropped.
/// apr_parse_addr_port takes a port only when digits follow the last `:`; a name that keeps a
/// `:` (`a.example:`, `a.example:80:80`, accepted under `HttpProtocolOptions Unsafe`) is put in
/// brackets like an IPv6 literal by ap_get_server_name_for_url: `[a.example:80]` (recorded:
/// vhost-http-protocol-options-unsafe-host).
public func splitHostHeader(_ value: String) -> (host: String, port: Int?) {
    var host = value.asciiLowercased()
    var port: Int? = nil
    if host.hasBytePrefix("[") {
        if let close = host.firstIndex(of: "]") {
            let after = host[host.index(after: close)...]
            if after.hasBytePrefix(":") { port = Int(after.dropFirst()) }
            host = String(host[...close])
        }
    } else if let colon = host.lastIndex(ofByte: UInt8(ascii: ":")) {
        let digits = host[host.index(after: colon)...]
        if !digits.isEmpty, digits.allBytes({ $0 >= 0x30 && $0 <= 0x39 }) {
            port = Int(digits)
            host = String(host[..<colon])
        }
    }
    if host.hasByteSuffix(".") { host.removeLast() }
    if !host.hasBytePrefix("["), host.utf8.contains(UInt8(ascii: ":")) { host = "[" + host + "]" }
    return (host, port)
}
