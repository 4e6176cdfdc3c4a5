/// A URI split as apr_uri_parse splits it (apr-util's apr_uri.c), for the callers that take it
/// apart and join it again with apr_uri_unparse (mod_alias's `RedirectMatch` and expression
/// targets). The parse stops where apr_uri_parse returns APR_EGENERAL (a port with characters
/// strtol does not read, `[` without `]`) and callers ignore that status, as mod_alias does: what
/// was read stays, path, query and fragment are then absent (`https://%{HTTP_HOST}:%{SERVER_PORT}/y`
/// is `https://%{HTTP_HOST}`, its port read as 0, the default).
struct AprURI {
    var scheme: Substring?
    var user: Substring?
    var password: Substring?
    var hostname: Substring?
    var portString: Substring?
    /// apr_port_t: strtol's value cut to 16 bits.
    var port: UInt16 = 0
    var path: Substring?
    var query: Substring?
    var fragment: Substring?

    init(parsing s: String) {
        let u = s.utf8, end = u.endIndex
        func at(_ i: String.Index) -> UInt8 { i < end ? u[i] : 0 }
        func after(_ i: String.Index, _ n: Int = 1) -> String.Index { u.index(i, offsetBy: n) }
        var pathStart: String.Index? = u.startIndex
        var authority: String.Index? = nil
        let first = at(u.startIndex)
        if first == UInt8(ascii: "/") {
            // Two leading slashes (not three) start an authority.
            if at(after(u.startIndex)) == UInt8(ascii: "/") && at(after(u.startIndex, 2)) != UInt8(ascii: "/") {
                authority = after(u.startIndex, 2)
            }
        } else if AprURI.isAlpha(first) {
            var i = after(u.startIndex)
            while AprURI.isSchemeByte(at(i)) { i = after(i) }
            if at(i) == UInt8(ascii: ":") {
                scheme = s[u.startIndex..<i]
                if at(after(i)) == UInt8(ascii: "/") && at(after(i, 2)) == UInt8(ascii: "/") {
                    authority = after(i, 3)
                } else {
                    pathStart = after(i)
                }
            }
        }
        if let a = authority { pathStart = readAuthority(s, from: a) }
        guard var i = pathStart else { return }
        let p = i
        while i < end, u[i] != UInt8(ascii: "?"), u[i] != UInt8(ascii: "#") { i = after(i) }
        if i != p { path = s[p..<i] }
        guard i < end else { return }
        if u[i] == UInt8(ascii: "?") {
            let q = after(i)
            if let hash = u[q...].firstIndex(of: UInt8(ascii: "#")) {
                query = s[q..<hash]
                fragment = s[after(hash)...]
            } else {
                query = s[q...]
            }
        } else {
            fragment = s[after(i)...]
        }
    }

    /// deal_with_authority and deal_with_host: where the path starts, nil for APR_EGENERAL.
    private mutating func readAuthority(_ s: String, from start: String.Index) -> String.Index? {
        let u = s.utf8
        var uri = start
        while uri < u.endIndex, ![UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")].contains(u[uri]) {
            uri = u.index(after: uri)
        }
        var hostinfo = start
        // The last @ ends the user information; its first colon splits user and password.
        if let at = u[start..<uri].lastIndex(of: UInt8(ascii: "@")) {
            if let colon = u[start..<at].firstIndex(of: UInt8(ascii: ":")) {
                user = s[start..<colon]
                password = s[u.index(after: colon)..<at]
            } else {
                user = s[start..<at]
            }
            hostinfo = u.index(after: at)
        }
        var colon: String.Index?
        var v6 = 0
        if hostinfo < uri, u[hostinfo] == UInt8(ascii: "[") {
            v6 = 1
            guard let close = u[hostinfo..<uri].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let next = u.index(after: close)
            colon = next < u.endIndex && u[next] == UInt8(ascii: ":") ? next : nil
        } else {
            colon = u[hostinfo..<uri].firstIndex(of: UInt8(ascii: ":"))
        }
        // An IPv6 literal loses its first byte and the one before the port or the path.
        let nameEnd = colon ?? uri
        let from = u.index(hostinfo, offsetBy: v6)
        let to = v6 == 1 ? u.index(nameEnd, offsetBy: -1) : nameEnd
        hostname = from <= to ? s[from..<to] : s[from..<from]
        guard let c = colon else { return uri }
        let digits = u.index(after: c)
        portString = s[digits..<uri]
        guard digits != uri else {
            port = AprURI.portOfScheme(scheme)
            return uri
        }
        let (value, complete) = strtol64(u[digits..<uri])
        port = UInt16(truncatingIfNeeded: Int32(truncatingIfNeeded: value))
        return complete ? uri : nil
    }

    /// apr_uri_unparse with APR_URI_UNP_OMITQUERY: user information (a password as
    /// `XXXXXXXX`), `//host`, the port unless it is absent, 0 or the scheme's, the scheme, the path.
    var unparsedWithoutQuery: String {
        var out = ""
        if user != nil || password != nil {
            out = String(user ?? "")
            if password != nil { out += ":XXXXXXXX" }
            out += "@"
        }
        if let host = hostname {
            let isDefaultPort = portString == nil || port == 0 || port == AprURI.portOfScheme(scheme)
            let v6 = host.utf8.contains(UInt8(ascii: ":"))
            out = "//" + out + (v6 ? "[" : "") + host + (v6 ? "]" : "")
            if !isDefaultPort, let p = portString { out += ":" + p }
        }
        if let scheme { out = scheme + ":" + out }
        if let path { out += path }
        return out
    }

    private static func isAlpha(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// T_SCHEME: letters, digits, `+`, `-`, `.`.
    private static func isSchemeByte(_ b: UInt8) -> Bool {
        isAlpha(b) || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// apr_uri_port_of_scheme (case-insensitive; 0 for none or an unknown scheme).
    static func portOfScheme(_ scheme: Substring?) -> UInt16 {
        guard let scheme else { return 0 }
        switch scheme.asciiLowercased() {
        case "http": return 80
        case "https": return 443
        case "ftp": return 21
        case "ssh": return 22
        case "telnet": return 23
        case "gopher": return 70
        case "pop": return 110
        case "nntp": return 119
        case "imap": return 143
        case "prospero": return 191
        case "wais", "z39.50r", "z39.50s": return 210
        case "ldap": return 389
        case "rtsp": return 554
        case "snews": return 563
        case "acap": return 674
        case "nfs": return 2049
        case "tip": return 3372
        case "sip": return 5060
        default: return 0
        }
    }
}
