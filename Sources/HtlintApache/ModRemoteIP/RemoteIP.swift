#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// mod_remoteip's settings of a virtual host (`RemoteIPHeader` and its proxy lists).
public struct RemoteIPSettings: Sendable {
    /// `RemoteIPHeader`: the request header naming the client and the proxies on the way.
    public var header: String? = nil
    /// `RemoteIPInternalProxy` (internal) and `RemoteIPTrustedProxy` addresses and subnets, in order.
    public var proxies: [(spec: String, isInternal: Bool)] = []

    public init() {}

    /// What mod_remoteip's post_read_request makes of a request from `peer` whose header holds
    /// `value`: the user-agent address and what is left of the header (nil: removed). nil when
    /// nothing changes. Recorded on Apache 2.4 (fixtures/apache/access-remoteip-*):
    /// - the peer, then each address taken, must be on the proxy list (any peer when there is
    ///   none); an address is taken from the right of the list, trimmed of spaces;
    /// - an empty element or one that is not an address stops the walk and stays in the header;
    /// - unless every proxy so far was internal (`RemoteIPInternalProxy`; no list counts as
    ///   external), private addresses (10/8, 127/8, 169.254/16, 172.16/12, 192.168/16, and IPv6
    ///   outside 2000::/3) stop it too.
    public func resolve(peer: String, header value: String?) -> (address: String, header: String?)? {
        guard header != nil, let value else { return nil }
        var remaining: Substring? = Substring(value)
        var address = peer
        var allInternal = !proxies.isEmpty
        var changed = false
        while let rest = remaining {
            if !proxies.isEmpty {
                guard let proxy = proxies.first(where: { ipMatches($0.spec, address) }) else { break }
                if !proxy.isInternal { allInternal = false }
            }
            let comma = rest.lastIndex(of: ",")
            let prefix = comma.map { rest[..<$0] }
            let element = comma.map { rest[rest.index(after: $0)...] } ?? rest
            let trimmed = element.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
            guard !trimmed.isEmpty, let ip = RemoteIPSettings.address(String(trimmed)), allInternal || !ip.isPrivate else {
                remaining = Substring(RemoteIPSettings.keptHeader(prefix: prefix, element: element))
                break
            }
            address = ip.text
            changed = true
            remaining = prefix
        }
        return changed ? (address, remaining.map(String.init)) : nil
    }

    /// The header after the walk stopped on `element`: mod_remoteip trimmed the element in place
    /// before judging it and then only put the comma back, so a later element keeps its leading
    /// spaces but loses its trailing ones (a blank one keeps its spaces), and the first element
    /// (no comma before it) is left trimmed on both sides.
    static func keptHeader(prefix: Substring?, element: Substring) -> String {
        let leading = element.prefix { $0 == " " }
        let body = element.dropFirst(leading.count)
        let trailingTrimmed = body.isEmpty ? element : leading + body.reversed().drop { $0 == " " }.reversed()
        guard let prefix else { return String(body.reversed().drop { $0 == " " }.reversed()) }
        return prefix + "," + trailingTrimmed
    }

    /// A numeric address as apr_sockaddr_info_get parses it (`localhost` from /etc/hosts), in
    /// the form Apache prints; nil for anything else (names would need DNS).
    static func address(_ text: String) -> (text: String, isPrivate: Bool)? {
        if text == "localhost" { return ("127.0.0.1", true) }
        // getaddrinfo reads IPv4 as inet_aton does (`1.2.3` is 1.2.0.3, `010.0.0.1` octal),
        // but exactly: nothing may follow, not even after a space.
        var v4 = in_addr()
        if !text.contains(where: \.isWhitespace), inet_aton(text, &v4) == 1 {
            return ipv4(withUnsafeBytes(of: v4) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        // An IPv4-mapped address (`::ffff:10.0.0.1`) is taken as the IPv4 address it maps.
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF { return ipv4(Array(bytes[12...])) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        let first = withUnsafeBytes(of: v6) { $0[0] }
        // Only global unicast (2000::/3) counts as a public address.
        return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), first & 0xE0 != 0x20)
    }

    /// Dotted form and mod_remoteip's private ranges (10/8, 127/8, 169.254/16, 172.16/12, 192.168/16).
    private static func ipv4(_ b: [UInt8]) -> (text: String, isPrivate: Bool) {
        let isPrivate = b[0] == 10 || b[0] == 127 || (b[0] == 169 && b[1] == 254)
            || (b[0] == 172 && b[1] & 0xF0 == 16) || (b[0] == 192 && b[1] == 168)
        return (b.map(String.init).joined(separator: "."), isPrivate)
    }
}
