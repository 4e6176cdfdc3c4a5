/// Resolves references the way htlint needs them.
public enum URLResolver {
    /// RFC 3986 §5.2 strict resolution of `reference` against `base`; `nil` when `base` has no
    /// scheme. `resolve("../g", against: "http://a/b/c/d;p?q") == "http://a/b/g"`.
    public static func resolve(_ reference: String, against base: String) -> String? {
        let base = URIReference(parsing: base)
        guard base.scheme != nil else { return nil }
        return URIReference(parsing: reference).resolved(against: base).text
    }

    /// Whether `url` names its own scheme (so no base URL is involved in resolving it).
    static func hasScheme(_ url: String) -> Bool {
        URIReference(parsing: url.trimmingASCIISpaces).scheme != nil
    }

    /// Schemes the WHATWG URL Standard calls special: browsers read `\` as `/` in them and
    /// always give them a host.
    static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]

    /// Resolves a URL taken from HTML or CSS as a browser would (WHATWG URL Standard), on top of
    /// the RFC 3986 algorithm: leading and trailing C0 controls and spaces are removed and tabs
    /// and newlines anywhere; in special schemes `\` counts as `/`; `http:x` is relative when the
    /// base is also `http` and means `http://x` otherwise; the scheme and host are lower-cased,
    /// the scheme's default port dropped and an empty path becomes `/`. `nil` when the reference
    /// is relative and there is no base.
    public static func resolveAsBrowser(_ reference: String, against base: String?) -> String? {
        resolveAsBrowser(reference, againstParsed: base.map(URIReference.init(parsing:)))
    }

    /// `resolveAsBrowser(_:against:)` with the base already parsed (a page resolves every
    /// reference against the same base).
    static func resolveAsBrowser(_ reference: String, againstParsed baseRef: URIReference?) -> String? {
        var text = reference
        let utf8 = reference.utf8
        if utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
            || (utf8.first ?? 0x21) <= 0x20 || (utf8.last ?? 0x21) <= 0x20 {
            text = String(String.UnicodeScalarView(reference.unicodeScalars.filter {
                $0 != "\t" && $0 != "\n" && $0 != "\r"
            })).trimmingASCIISpaces
        }
        var ref = URIReference(parsing: text)
        let baseScheme = baseRef?.scheme?.lowercased()
        let scheme = (ref.scheme ?? baseScheme)?.lowercased()
        if let scheme, specialSchemes.contains(scheme) {
            // Backslashes before the query are slashes in special URLs (URL Standard, path state).
            let cut = text.utf8.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.endIndex
            if text.utf8[..<cut].contains(UInt8(ascii: "\\")) {
                text = String(text[..<cut].map { $0 == "\\" ? "/" : $0 }) + text[cut...]
                ref = URIReference(parsing: text)
            }
            if let own = ref.scheme?.lowercased(), ref.authority == nil {
                let rest = String(text.dropFirst(own.count + 1))
                if own == baseScheme {
                    ref = URIReference(parsing: rest)   // special relative or authority state
                } else {
                    ref = URIReference(parsing: own + "://" + rest.drop { $0 == "/" })
                }
            }
        }
        var resolved: URIReference
        if ref.scheme != nil {
            resolved = ref.resolved(against: ref)   // only removes dot segments
        } else {
            guard let baseRef, baseRef.scheme != nil else { return nil }
            resolved = ref.resolved(against: baseRef)
        }
        return normalized(resolved).text
    }

    private static func normalized(_ uri: URIReference) -> URIReference {
        var uri = uri
        guard let scheme = uri.scheme?.lowercased() else { return uri }
        uri.scheme = scheme
        guard specialSchemes.contains(scheme), let authority = uri.authority else { return uri }
        if uri.path.isEmpty { uri.path = "/" }
        // Already canonical (no upper case, no port, no user information): the common case.
        if !authority.utf8.contains(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "@") }) {
            return uri
        }
        var userinfo = ""
        if let at = authority.lastIndex(of: "@") { userinfo = String(authority[...at]) }
        let defaultPort: Int? = switch scheme {
        case "http", "ws": 80
        case "https", "wss": 443
        case "ftp": 21
        default: nil
        }
        let port = uri.port.flatMap { $0 == defaultPort ? nil : $0 }
        uri.authority = userinfo + (uri.host ?? "") + (port.map { ":\($0)" } ?? "")
        return uri
    }
}
