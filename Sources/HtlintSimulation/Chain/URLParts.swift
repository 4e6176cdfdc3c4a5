import HtlintApache
import HtlintBytes
import HtlintRegex
/// A URL as the simulated browser handles it: scheme, host, port and the request target,
/// kept as written (no normalisation of the path).
public struct URLParts: Sendable, Hashable {
    /// Lower-case scheme.
    public var scheme: String { didSet { writtenScheme = nil } }
    /// The scheme as a Location wrote it when that was not lower case (`HTTPS://…`): the
    /// recording client requests and records the URL so (x-odd-targets: hop URL
    /// `HTTPS://site.example/x`); nil otherwise.
    public var writtenScheme: String? = nil
    /// Host as written.
    public var host: String
    /// Explicit port, nil when none is written.
    public var port: Int? { didSet { writtenPort = nil } }
    /// Path and query as written, e.g. `/a%20b?x=1`.
    public var target: String { didSet { pathOmitted = false } }
    /// Fragment, never sent to the server.
    public var fragment: String?
    /// Written without a path (`https://host`, `https://host?q`): `target` starts with the `/`
    /// that is sent, `text` leaves it out as written (the recording client records it so).
    public var pathOmitted = false
    /// User information before `@` as written (`user:XXXXXXXX` from a `RedirectMatch` target),
    /// nil without `@`: the browser (and the recording client) keeps it in the URL it requests,
    /// sends no part of it in `Host`, and loop identity ignores it.
    public var userInfo: String? = nil
    /// The port's text when it is not how `port` prints (`host:` with none, `host:0443`): the
    /// URL is requested and recorded as written; `Host` and loop identity use the number.
    public var writtenPort: String? = nil

    /// Two URLs are the same request when they are written with the same bytes: Swift's
    /// `String` equality would take `/café` with a precomposed é and with a combining accent
    /// for one URL (one hop memo entry, one loop), where the browser and Apache see two.
    @inline(__always)
    public static func == (a: URLParts, b: URLParts) -> Bool {
        a.port == b.port && a.pathOmitted == b.pathOmitted
            && ByteKey.sameBytes(a.target, b.target) && ByteKey.sameBytes(a.host, b.host)
            && ByteKey.sameBytes(a.scheme, b.scheme) && sameBytes(a.writtenScheme, b.writtenScheme)
            && sameBytes(a.fragment, b.fragment) && sameBytes(a.userInfo, b.userInfo)
            && sameBytes(a.writtenPort, b.writtenPort)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ByteKey.hash(target))
        hasher.combine(ByteKey.hash(host))
        hasher.combine(port)
    }

    private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): ByteKey.sameBytes(x, y)
        default: false
        }
    }

    /// Parses `scheme://authority/target`; nil without `://`. One pass over contiguous bytes:
    /// every delimiter is ASCII, and this runs several times a hop.
    public init?(_ text: String) {
        var text = text
        guard let parts = text.withUTF8({ URLParts.parse($0) }) else { return nil }
        self = parts
    }

    private init(scheme: String, writtenScheme: String?, userInfo: String?, host: String, port: Int?, writtenPort: String?,
                 target: String, pathOmitted: Bool, fragment: String?) {
        self.scheme = scheme
        self.writtenScheme = writtenScheme
        self.userInfo = userInfo
        self.host = host
        self.port = port
        self.writtenPort = writtenPort
        self.target = target
        self.pathOmitted = pathOmitted
        self.fragment = fragment
    }

    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> URLParts? {
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        var sep = 0
        while sep + 2 < b.count, !(b[sep] == UInt8(ascii: ":") && b[sep + 1] == UInt8(ascii: "/") && b[sep + 2] == UInt8(ascii: "/")) {
            sep += 1
        }
        guard sep + 2 < b.count else { return nil }
        let upper = b[..<sep].contains { $0 >= 0x41 && $0 <= 0x5A }
        let written = upper ? text(0..<sep) : nil
        let scheme = upper ? String(decoding: b[..<sep].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self) : text(0..<sep)
        let start = sep + 3
        var end = b.count
        var fragment: String? = nil
        if let hash = b[start...].firstIndex(of: UInt8(ascii: "#")) {
            fragment = text((hash + 1)..<end)
            end = hash
        }
        let slash = b[start..<end].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? end
        var hostStart = start, hostEnd = slash
        var userInfo: String? = nil
        if let at = b[hostStart..<hostEnd].lastIndex(of: UInt8(ascii: "@")) {
            userInfo = text(hostStart..<at)
            hostStart = at + 1
        }
        var port: Int? = nil
        var writtenPort: String? = nil
        if let colon = b[hostStart..<hostEnd].lastIndex(of: UInt8(ascii: ":")), b[hostEnd - 1] != UInt8(ascii: "]") {
            // A port that is not digits (`host:443a b.html` from `%1$1`) makes no URL: the
            // recording client calls it offsite, a browser fails the redirect.
            guard b[(colon + 1)..<hostEnd].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            // So does one too large for any integer (`:99999999999999999999`); `host:` has none.
            if colon + 1 < hostEnd {
                guard let p = Int(text((colon + 1)..<hostEnd)) else { return nil }
                port = p
                if b[colon + 1] == UInt8(ascii: "0"), colon + 2 < hostEnd { writtenPort = text((colon + 1)..<hostEnd) }
            } else {
                writtenPort = ""
            }
            hostEnd = colon
        }
        let omitted = slash == end || b[slash] == UInt8(ascii: "?")
        let target = slash == end ? "/" : (omitted ? "/" + text(slash..<end) : text(slash..<end))
        // Every field at once: setting them one by one on a `var` copied the value twice.
        return URLParts(scheme: scheme, writtenScheme: written, userInfo: userInfo, host: text(hostStart..<hostEnd), port: port,
                        writtenPort: writtenPort, target: target, pathOmitted: omitted, fragment: fragment)
    }

    /// The scheme's default port.
    public var defaultPort: Int { scheme == "https" ? 443 : 80 }
    /// No port, or the scheme's default one.
    public var hasDefaultPort: Bool { port == nil || port == defaultPort }

    /// User information, host and port as written; relative Locations resolve against it (an
    /// explicit `:80` stays).
    public var authority: String {
        let hostPort = writtenPort.map { host + ":" + $0 } ?? port.map { host + ":" + String($0) } ?? host
        return userInfo.map { $0 + "@" + hostPort } ?? hostPort
    }

    /// `Host` header value. Browsers (and the recording client) send the host lower-cased
    /// whatever case a Location wrote it in.
    public var hostHeader: String {
        let h = host.containsByte(where: { $0 >= 0x41 && $0 <= 0x5A }) ? host.lowercased() : host
        return hasDefaultPort ? h : h + ":" + String(port!)
    }

    /// The URL as written: an explicit port stays even when it is the default one (a Location
    /// `http://host:80/x` is requested, and recorded, as such; only `Host` and loop identity drop it).
    public var text: String {
        // The parts' bytes copied into one buffer: appending string to string cost some 1,900
        // instructions a URL (interpolation several times as much), and this runs every hop.
        let schemeText = writtenScheme ?? scheme
        let portText = writtenPort ?? port.map(String.init)
        let pathBytes = target.utf8.count - (pathOmitted ? 1 : 0)
        var count = schemeText.utf8.count + 3 + host.utf8.count + max(pathBytes, 0)
        if let userInfo { count += userInfo.utf8.count + 1 }
        if let portText { count += portText.utf8.count + 1 }
        if let fragment { count += fragment.utf8.count + 1 }
        return String(unsafeUninitializedCapacity: count) { out in
            var at = 0
            func put(_ part: String, droppingFirst: Bool = false) {
                var part = part
                part.withUTF8 { bytes in
                    let from = droppingFirst ? min(1, bytes.count) : 0
                    guard let source = bytes.baseAddress, let sink = out.baseAddress, bytes.count > from else { return }
                    (sink + at).initialize(from: source + from, count: bytes.count - from)
                    at += bytes.count - from
                }
            }
            func put(_ byte: UInt8) {
                out[at] = byte
                at += 1
            }
            put(schemeText)
            put(UInt8(ascii: ":")); put(UInt8(ascii: "/")); put(UInt8(ascii: "/"))
            if let userInfo { put(userInfo); put(UInt8(ascii: "@")) }
            put(host)
            if let portText { put(UInt8(ascii: ":")); put(portText) }
            put(target, droppingFirst: pathOmitted)
            if let fragment { put(UInt8(ascii: "#")); put(fragment) }
            return at
        }
    }

    /// What tells URLs apart for loop detection: scheme and host case-insensitive, a default
    /// port the same as none, user information and the port's spelling ignored. Compared field
    /// by field, not as one string built per hop.
    public struct LoopKey: Equatable, Sendable {
        let scheme: String
        let host: String
        let port: Int
        let target: String

        /// By bytes, like the URLs themselves (see `==` on `URLParts`).
        public static func == (a: LoopKey, b: LoopKey) -> Bool {
            a.port == b.port && ByteKey.sameBytes(a.target, b.target) && ByteKey.sameBytes(a.host, b.host)
                && ByteKey.sameBytes(a.scheme, b.scheme)
        }
    }

    public var loopKey: LoopKey { LoopKey(scheme: scheme, host: comparableHost, port: effectivePort, target: target) }

    /// The host as loop detection compares it: case-insensitive.
    public var comparableHost: String {
        // Only upper-case ASCII and non-ASCII bytes can change when lower-cased.
        host.containsByte(where: { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }) ? host.lowercased() : host
    }

    /// The port the connection goes to.
    public var effectivePort: Int { port ?? defaultPort }

    /// The URL the browser's HSTS upgrade produces: `https`, port 80 becomes 443 (omitted), any
    /// other explicit port is kept (RFC 6797 §8.3).
    public var upgradedToHTTPS: URLParts {
        var u = self
        u.scheme = "https"
        // The browser builds this URL itself, so https's default port is not written either.
        if port == 80 || port == 443 { u.port = nil }
        return u
    }

    /// An IPv4 or bracketed IPv6 literal.
    public var isIPLiteral: Bool { URLParts.isIPLiteral(host) }

    /// Whether a host name is an IP address literal (no HSTS, no upgrade of mixed content).
    public static func isIPLiteral(_ host: String) -> Bool {
        let u = host.utf8
        if u.first == UInt8(ascii: "[") { return true }
        // Four dot-separated decimal numbers below 256, by bytes (host names are checked every hop).
        var parts = 0, value = 0, digits = 0
        for c in u {
            if c == UInt8(ascii: ".") {
                guard digits > 0 else { return false }
                parts += 1; value = 0; digits = 0
            } else if c >= 0x30 && c <= 0x39 {
                value = value * 10 + Int(c - 0x30)
                digits += 1
                guard value < 256 else { return false }
            } else {
                return false
            }
        }
        return digits > 0 && parts == 3
    }

    /// Path without the query.
    public var path: String { target.firstIndex(ofByte: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target }

    /// Query without `?`, nil when there is none.
    public var query: String? { target.firstIndex(ofByte: UInt8(ascii: "?")).map { String(target[target.utf8.index(after: $0)...]) } }

    /// Resolves a `Location` against this URL, then percent-encodes what a browser does not
    /// send raw (spaces, controls, non-ASCII, `"<>` and more).
    /// `likeRecordingClient`: resolved as the conformance recorder's `urllib.parse.urljoin` does.
    public func resolve(_ location: String, likeRecordingClient: Bool = false) -> String {
        URLParts.browserEncoded(likeRecordingClient ? resolvedLikeURLJoin(location) : resolvedRaw(location))
    }

    /// Python's urljoin (the recording client): a relative path drops the base's empty segments
    /// and its own inner ones (`x, http://h/sub/` becomes `/x, http:/h/sub/`), and `.`/`..` are
    /// resolved in any path reference.
    /// urlunparse writes no empty query or fragment, so `/x.html?` is followed as `/x.html`
    /// (only an absolute Location is taken as written).
    private func resolvedLikeURLJoin(_ location: String) -> String {
        if URLParts.hasScheme(location) { return resolvedRaw(location) }
        let end = location.firstIndex { $0 == "?" || $0 == "#" } ?? location.endIndex
        let refPath = String(location[..<end])
        let (refQuery, refFragment) = URLParts.queryAndFragment(location[end...])
        if location.hasPrefix("//") {
            return URLParts.joinedLikeURLUnparse(scheme + ":" + refPath, query: refQuery, fragment: refFragment)
        }
        if refPath.isEmpty {
            // No path: the base's, and its query unless the reference has a non-empty one.
            return URLParts.joinedLikeURLUnparse("\(scheme)://\(authority)\(path)",
                                                 query: refQuery.isEmpty ? query ?? "" : refQuery, fragment: refFragment)
        }
        let rest = URLParts.joinedLikeURLUnparse("", query: refQuery, fragment: refFragment)
        var segments: [Substring]
        if refPath.hasPrefix("/") {
            segments = refPath.split(separator: "/", omittingEmptySubsequences: false)
        } else {
            var base = path.split(separator: "/", omittingEmptySubsequences: false)
            if base.last != "" { base.removeLast() }
            segments = base + refPath.split(separator: "/", omittingEmptySubsequences: false)
            if segments.count > 2 { segments = [segments[0]] + segments[1..<(segments.count - 1)].filter { !$0.isEmpty } + [segments[segments.count - 1]] }
        }
        var resolved: [Substring] = []
        for seg in segments {
            if seg == ".." { if !resolved.isEmpty { resolved.removeLast() } } else if seg != "." { resolved.append(seg) }
        }
        if segments.last == "." || segments.last == ".." { resolved.append("") }
        let joined = resolved.joined(separator: "/")
        return "\(scheme)://\(authority)\(joined.isEmpty ? "/" : joined)\(rest)"
    }

    /// The query and fragment of `tail` (which starts with `?`, `#` or is empty), without their marks.
    private static func queryAndFragment(_ tail: Substring) -> (query: String, fragment: String) {
        let hash = tail.firstIndex(of: "#") ?? tail.endIndex
        let query = tail.hasPrefix("?") ? String(tail[tail.index(after: tail.startIndex)..<hash]) : ""
        let fragment = hash < tail.endIndex ? String(tail[tail.index(after: hash)...]) : ""
        return (query, fragment)
    }

    private static func joinedLikeURLUnparse(_ head: String, query: String, fragment: String) -> String {
        head + (query.isEmpty ? "" : "?" + query) + (fragment.isEmpty ? "" : "#" + fragment)
    }

    private func resolvedRaw(_ location: String) -> String {
        // Any `scheme:` makes it absolute (RFC 3986 §3.1): `mailto:…` is not a relative path.
        if URLParts.hasScheme(location) { return location }
        if location.hasPrefix("//") { return scheme + ":" + location }
        if location.hasPrefix("/") { return "\(scheme)://\(authority)\(location)" }
        var base = target
        if let q = base.firstIndex(ofByte: UInt8(ascii: "?")) { base = String(base[..<q]) }
        if location.hasPrefix("?") { return "\(scheme)://\(authority)\(base)\(location)" }
        let dir = base[...(base.lastIndex(ofByte: UInt8(ascii: "/")) ?? base.startIndex)]
        return "\(scheme)://\(authority)\(dir)\(location)"
    }

    /// Starts with `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`.
    public static func hasScheme(_ s: String) -> Bool {
        guard let first = s.utf8.first, isLetter(first) else { return false }
        for c in s.utf8.dropFirst().prefix(63) {
            if c == UInt8(ascii: ":") { return true }
            guard isLetter(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
                || c == UInt8(ascii: ".") else { return false }
        }
        return false
    }

    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }

    /// A `Location` value that holds bytes which are not UTF-8 (`[NE]` on `/caf%e9`) is read
    /// byte by byte as Latin-1, as Fetch's header decoding does (and the recording client):
    /// 0xE9 becomes `é`, which the URL then carries as `%C3%A9`.
    private static func latin1IfNotUTF8(_ url: String) -> [UInt8] {
        let raw = url.rawBytes
        guard String(validating: raw, as: UTF8.self) == nil else { return raw }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 8)
        for b in raw {
            if b < 0x80 { out.append(b) } else { out.append(0xC0 | b >> 6); out.append(0x80 | b & 0x3F) }
        }
        return out
    }

    /// A URL as a browser sends it after following a `Location`: in the path, bytes up to space,
    /// from DEL up, and `"<>`{}` are percent-encoded; in the query the same but `{}` (WHATWG
    /// URL's path and query percent-encode sets). URLs without `scheme://` stay as they are.
    public static func browserEncoded(_ url: String) -> String {
        func needs(_ c: UInt8, path: Bool) -> Bool {
            c <= 0x20 || c >= 0x7F || c == UInt8(ascii: "\"") || c == UInt8(ascii: "<") || c == UInt8(ascii: ">")
                || c == UInt8(ascii: "`") || (path && (c == UInt8(ascii: "{") || c == UInt8(ascii: "}")))
        }
        // Almost every Location needs nothing: decided without a copy (this runs every hop).
        guard url.containsByte(where: { needs($0, path: true) }), let sep = schemeSeparator(in: url) else { return url }
        let bytes = latin1IfNotUTF8(url)
        let start = url.utf8.distance(from: url.utf8.startIndex, to: sep) + 3
        var i = start
        while i < bytes.count, bytes[i] != UInt8(ascii: "/"), bytes[i] != UInt8(ascii: "?"), bytes[i] != UInt8(ascii: "#") { i += 1 }
        var out = Array(bytes[..<i])
        var inPath = true
        let hex = Array("0123456789ABCDEF".utf8)
        while i < bytes.count {
            let c = bytes[i]
            if c == UInt8(ascii: "#") { out += bytes[i...]; break }
            if c == UInt8(ascii: "?") { inPath = false }
            if needs(c, path: inPath) {
                out += [UInt8(ascii: "%"), hex[Int(c >> 4)], hex[Int(c & 15)]]
            } else {
                out.append(c)
            }
            i += 1
        }
        return String(preservingBytes: out)
    }
}
