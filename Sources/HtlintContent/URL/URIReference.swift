/// A URI reference split into the five components of RFC 3986 §3, each kept as written.
///
/// Parsing follows RFC 3986 Appendix B, except that text before the first `:` is a scheme only
/// when it is a valid one (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, §3.1), so
/// `1http:x` or `a b:c` stay relative paths as §4.2 requires.
public struct URIReference: Hashable, Sendable {
    /// The scheme as written (compare it case-insensitively); `nil` for a relative reference.
    public var scheme: String?
    /// The part after `//` up to the path; `nil` when there is no `//`.
    public var authority: String?
    /// The path, possibly empty.
    public var path: String
    /// The part after `?`, without it; `nil` when there is no `?`.
    public var query: String?
    /// The part after `#`, without it; `nil` when there is no `#`.
    public var fragment: String?

    /// Memberwise.
    public init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Splits `text` into components; never fails (every string is a URI reference to this parser).
    public init(parsing text: String) {
        // Appendix B on the UTF-8 view: every delimiter is ASCII, and Character-based
        // searching (grapheme breaking) would dominate the scan of a large page.
        let utf8 = text.utf8
        var end = utf8.endIndex
        fragment = nil
        query = nil
        if let hash = utf8.firstIndex(of: UInt8(ascii: "#")) {
            fragment = String(text[utf8.index(after: hash)...])
            end = hash
        }
        if let mark = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = String(text[utf8.index(after: mark)..<end])
            end = mark
        }
        var start = utf8.startIndex
        scheme = nil
        if let colon = utf8[..<end].firstIndex(of: UInt8(ascii: ":")), URIReference.isScheme(utf8[start..<colon]) {
            scheme = String(text[start..<colon])
            start = utf8.index(after: colon)
        }
        authority = nil
        let slash = UInt8(ascii: "/")
        if utf8[start..<end].starts(with: [slash, slash]) {
            start = utf8.index(start, offsetBy: 2)
            let pathStart = utf8[start..<end].firstIndex(of: slash) ?? end
            authority = String(text[start..<pathStart])
            start = pathStart
        }
        path = String(text[start..<end])
    }

    /// `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (§3.1).
    static func isScheme(_ s: Substring.UTF8View) -> Bool {
        guard let first = s.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A else { return false }
        return s.allSatisfy {
            (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// Component recomposition (RFC 3986 §5.3).
    public var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// Host of the authority: without user information and port, brackets kept for IPv6,
    /// lower-cased (host names are case-insensitive, §3.2.2).
    public var host: String? {
        guard let authority else { return nil }
        let (host, _) = URIReference.splitHostPort(authority)
        return host.lowercased()
    }

    /// Explicit port of the authority, if any and numeric.
    public var port: Int? {
        guard let authority else { return nil }
        return URIReference.splitHostPort(authority).port.flatMap { Int($0) }
    }

    /// Host (brackets kept for IPv6) and the text after its `:`, without user information.
    private static func splitHostPort(_ authority: String) -> (host: Substring, port: Substring?) {
        let utf8 = authority.utf8
        var start = utf8.startIndex
        if let at = utf8.lastIndex(of: UInt8(ascii: "@")) { start = utf8.index(after: at) }
        var hostEnd = utf8.endIndex
        var searchFrom = start
        if utf8[start...].first == UInt8(ascii: "["), let close = utf8[start...].firstIndex(of: UInt8(ascii: "]")) {
            searchFrom = utf8.index(after: close)
            hostEnd = searchFrom
        }
        if let colon = utf8[searchFrom...].lastIndex(of: UInt8(ascii: ":")) {
            return (authority[start..<colon], authority[utf8.index(after: colon)...])
        }
        return (authority[start..<hostEnd], nil)
    }

    /// Strict reference resolution (RFC 3986 §5.2.2); `self` is the reference, `base` must
    /// have a scheme (§5.2.1).
    public func resolved(against base: URIReference) -> URIReference {
        var target = URIReference(scheme: nil, authority: nil, path: "", query: nil, fragment: fragment)
        if scheme != nil {
            target.scheme = scheme
            target.authority = authority
            target.path = URIReference.removingDotSegments(path)
            target.query = query
        } else {
            if authority != nil {
                target.authority = authority
                target.path = URIReference.removingDotSegments(path)
                target.query = query
            } else {
                if path.isEmpty {
                    target.path = base.path
                    target.query = query ?? base.query
                } else {
                    if path.hasPrefix("/") {
                        target.path = URIReference.removingDotSegments(path)
                    } else {
                        target.path = URIReference.removingDotSegments(merge(base))
                    }
                    target.query = query
                }
                target.authority = base.authority
            }
            target.scheme = base.scheme
        }
        return target
    }

    /// §5.2.3: the reference's relative path appended to the base path's directory.
    private func merge(_ base: URIReference) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// §5.2.4 `remove_dot_segments`, step for step.
    public static func removingDotSegments(_ path: String) -> String {
        // Most paths have no "." or ".." segment; leave them untouched without the walk.
        var previous: UInt8 = UInt8(ascii: "/")
        var hasDotSegment = false
        for c in path.utf8 {
            if c == UInt8(ascii: "."), previous == UInt8(ascii: "/") { hasDotSegment = true; break }
            previous = c
        }
        guard hasDotSegment else { return path }
        var input = Substring(path)
        var output = ""
        func dropLastSegment() {
            if let slash = output.lastIndex(of: "/") { output.removeSubrange(slash...) } else { output = "" }
        }
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                dropLastSegment()
            } else if input == "/.." {
                input = "/"
                dropLastSegment()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let from = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[from...].firstIndex(of: "/") ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }
}
