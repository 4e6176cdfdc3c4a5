import HtlintApache
import HtlintBytes

/// A Cloudflare-like CDN edge, or a generic TLS-terminating proxy, in front of the origin
/// (layers-and-mixed-content §2). `Edge(name:)` reads the names the conformance cases use.
public struct Edge: Sendable, Hashable {
    /// Cloudflare's SSL/TLS encryption mode, or a generic proxy.
    public enum Mode: String, Sendable, CaseIterable {
        /// The browser talks to Apache directly (no layer at all).
        case none
        /// Cloudflare with SSL off: https visitors are sent to http (§2.1).
        case cloudflareOff = "cloudflare-off"
        /// TLS ends at the edge; the origin is always reached over plain HTTP on port 80 (§2.1).
        case cloudflareFlexible = "cloudflare-flexible"
        /// The edge reaches the origin with the visitor's scheme, any certificate accepted.
        case cloudflareFull = "cloudflare-full"
        /// As full, with a valid origin certificate required (526 otherwise).
        case cloudflareStrict = "cloudflare-strict"
        /// Enterprise "Strict (SSL-Only Origin Pull)": always https to the origin, even for http visitors.
        case cloudflareOriginPull = "cloudflare-origin-pull"
        /// A generic TLS-terminating proxy: http to the origin, `X-Forwarded-Proto`, no `Location` rewriting.
        case terminatingProxy = "proxy"
    }

    /// The SSL/TLS mode.
    public var mode: Mode
    /// "Always Use HTTPS": the edge answers http requests with `301 https://…` itself (§2.3).
    public var alwaysHTTPS: Bool
    /// Edge HSTS: this `Strict-Transport-Security` value is added to every response delivered
    /// over https, redirects included (§2.4, §17 Q4).
    public var hsts: String?
    /// Single Redirects / Page Rules forwarding, run after Always Use HTTPS (§2.3, §17 Q3).
    public var redirectRules: [EdgeRedirectRule]
    /// Status of the https→http redirect in mode off (undocumented, §17 Q1).
    public var offRedirectStatus: Int
    /// Cloudflare's default cache: by file extension, keyed on the origin connection's scheme (§2.8).
    public var cache: Bool
    /// `X-Forwarded-For` replaced by the visitor's address instead of appended to (an nginx edge
    /// with `proxy_set_header X-Forwarded-For $remote_addr`, as in the recordings).
    public var replacesForwardedFor = false
    /// nginx's `proxy_buffer_size` (one page, 4096 bytes): an origin answer whose status line and
    /// headers do not fit is replaced by `502 Bad Gateway` ("upstream sent too big header"), as
    /// the recordings' nginx does once a query-doubling loop has grown the `Location`.
    public var originHeaderLimit: Int? = nil
    /// nginx's `large_client_header_buffers 4 8k`: a request line that does not fit 8192 bytes
    /// with its CRLF is answered 414 by the edge itself, before anything in it is checked
    /// (recorded: https-edge-refuses-long-request-line).
    public var requestLineBuffer: Int? = nil
    /// nginx's header buffers (`client_header_buffer_size 1k`, `large_client_header_buffers 4
    /// 8k`): a header line that does not fit one large buffer with its CRLF, or a header block
    /// that needs a fifth large buffer, is answered 400 by the edge itself ("Request Header Or
    /// Cookie Too Large"), before Always Use HTTPS (recorded: https-edge-refuses-large-headers).
    public var headerBuffers: HeaderBuffers? = nil

    /// nginx's header buffer sizes: the first (`client_header_buffer_size`) and `count` large ones.
    public struct HeaderBuffers: Sendable, Hashable {
        public var first: Int, large: Int, count: Int
        public init(first: Int, large: Int, count: Int) { self.first = first; self.large = large; self.count = count }
    }
    /// nginx's request-line check (ngx_http_parse_complex_uri): a path with a malformed `%`
    /// escape, an encoded NUL, or a `..` (`%2e%2e` too) above `/` is answered 400 by the edge
    /// itself, before Always Use HTTPS, as the recordings' nginx does.
    public var rejectsMalformedPaths = false
    /// nginx answers a TRACE or CONNECT request 405 itself (ngx_http_process_request_header),
    /// before Always Use HTTPS, as the recordings' nginx does (https-edge-refuses-trace,
    /// https-edge-refuses-connect).
    public var rejectsTrace = false
    /// nginx's defaults (`ignore_invalid_headers on`, `underscores_in_headers off`): a request
    /// header whose name holds anything but letters, digits and `-` (`X_Token`, `Query_String`)
    /// is not passed to the origin, as the recordings' nginx does
    /// (header-edge-drops-underscore-request-header-names).
    public var dropsInvalidHeaderNames = false
    /// nginx's Host check (ngx_http_validate_host): a Host header with `..`, `/`, a control
    /// byte or blank, or no name before the port is answered 400 by the edge itself, after the
    /// request-line check and before TRACE's 405 (recorded: https-edge-refuses-invalid-host).
    public var rejectsInvalidHost = false
    /// nginx's body-framing checks: a repeated or non-numeric Content-Length is answered 400,
    /// a Transfer-Encoding other than `chunked` 501, by the edge itself after the Host check
    /// and before TRACE's 405 (recorded: https-edge-refuses-bad-content-length).
    public var rejectsBadBodyHeaders = false
    /// nginx's proxy module sends `Expect`, `TE`, `Keep-Alive` and `Upgrade` empty, that is not
    /// at all, unless configured otherwise: Apache behind it never sees an expectation it would
    /// refuse with 417 (recorded: header-edge-drops-expect).
    public var dropsProxyDefaultHeaders = false
    /// nginx's proxy module hides `X-Pad` and the `X-Accel-*` control headers of the origin's
    /// answer (proxy_hide_header's defaults) from the client (recorded: header-edge-hides-x-accel).
    public var hidesProxyControlHeaders = false
    /// The address Apache listens on behind this edge (`%{SERVER_ADDR}`), when not the default
    /// 127.0.0.1: the recordings' Apache is on 127.0.0.2 while their nginx holds 127.0.0.1.
    public var originServerAddress: String? = nil
    /// The TLS version it speaks to the origin (`SSL_PROTOCOL` there), when not the browser's
    /// TLSv1.3: nginx 1.22's default proxy_ssl_protocols stop at TLSv1.2.
    public var originTLSProtocol: String? = nil
    /// The cipher suite of that link (`SSL_CIPHER` there), when known.
    public var originTLSCipher: String? = nil

    /// An edge; everything but the mode is off by default.
    public init(mode: Mode, alwaysHTTPS: Bool = false, hsts: String? = nil, redirectRules: [EdgeRedirectRule] = [],
                offRedirectStatus: Int = 301, cache: Bool = false) {
        self.mode = mode
        self.alwaysHTTPS = alwaysHTTPS
        self.hsts = hsts
        self.redirectRules = redirectRules
        self.offRedirectStatus = offRedirectStatus
        self.cache = cache
    }

    /// Parses `none`, `flexible`, `full+always-https`, `cloudflare-strict`, ….
    public init?(name: String) {
        var parts = name.lowercased().split(separator: "+").map(String.init)
        var always = false
        if let i = parts.firstIndex(of: "always-https") { always = true; parts.remove(at: i) }
        guard parts.count == 1 else { return nil }
        switch parts[0] {
        case "none", "direct": self.init(mode: .none, alwaysHTTPS: always)
        case "flexible", "cloudflare-flexible": self.init(mode: .cloudflareFlexible, alwaysHTTPS: always)
        case "full", "cloudflare-full": self.init(mode: .cloudflareFull, alwaysHTTPS: always)
        case "strict", "cloudflare-strict", "full-strict": self.init(mode: .cloudflareStrict, alwaysHTTPS: always)
        case "cloudflare-off", "off": self.init(mode: .cloudflareOff, alwaysHTTPS: always)
        case "origin-pull", "cloudflare-origin-pull": self.init(mode: .cloudflareOriginPull, alwaysHTTPS: always)
        case "proxy": self.init(mode: .terminatingProxy, alwaysHTTPS: always)
        default: return nil
        }
    }

    /// A proxy in the path adds forwarding headers.
    public var isProxy: Bool { mode != .none }

    /// Cloudflare in some mode (not `none`, not the generic proxy).
    public var isCloudflare: Bool { mode != .none && mode != .terminatingProxy }

    /// Ports Cloudflare proxies (§2.11); a generic proxy listens on 80 and 443.
    static let cloudflareHTTPPorts: Set<Int> = [80, 8080, 8880, 2052, 2082, 2086, 2095]
    static let cloudflareHTTPSPorts: Set<Int> = [443, 2053, 2083, 2087, 2096, 8443]

    /// Whether the origin connection is TLS for a visitor using `scheme` on the standard port.
    public func originTLS(forVisitorScheme scheme: String) -> Bool {
        originConnection(scheme: scheme, port: scheme == "https" ? 443 : 80).scheme == "https"
    }

    /// Scheme and port of the edge→origin connection (§2.1; Flexible's port 80 and Full's
    /// "same port as the visitor" are assumptions, §17 Q2).
    func originConnection(scheme: String, port: Int) -> (scheme: String, port: Int) {
        switch mode {
        case .none: return (scheme, port)
        case .cloudflareOff, .terminatingProxy: return ("http", 80)
        case .cloudflareFlexible:
            // Flexible applies to https on 443 only; other https ports are handled as Full.
            if scheme == "https", port != 443 { return ("https", port) }
            return ("http", 80)
        case .cloudflareFull, .cloudflareStrict: return (scheme, port)
        case .cloudflareOriginPull: return ("https", 443)
        }
    }

    /// The edge's own answer, when it does not ask the origin: https→http in mode off, Always
    /// Use HTTPS, then the redirect rules (§2.1, §2.3).
    public func ownAnswer(scheme: String, host: String, target: String) -> (status: Int, location: String)? {
        if mode == .cloudflareOff, scheme == "https" { return (offRedirectStatus, "http://\(host)\(target)") }
        if alwaysHTTPS, scheme == "http", mode != .none, mode != .cloudflareOff { return (301, "https://\(host)\(target)") }
        for rule in redirectRules {
            if let location = rule.apply(scheme: scheme, host: host, target: target) { return (rule.status, location) }
        }
        return nil
    }

    /// Whether nginx's header reading gives up on `request` (ngx_http_alloc_large_header_buffer):
    /// lines fill the first buffer in order; the line that overflows a buffer moves, with what
    /// was read of it, to a new large buffer, and nginx refuses a line of `large` bytes or more
    /// (CRLF included) or a request wanting more than `count` large buffers. The lines are the
    /// request line, Host and the headers in the order the request holds them.
    static func nginxHeadersTooLarge(_ request: HopRequest, _ buffers: HeaderBuffers) -> Bool {
        // ": " and CRLF around each header; nothing to check while everything fits one large buffer.
        let requestLine = request.method.utf8.count + 1 + request.target.utf8.count + " HTTP/1.1\r\n".utf8.count
        var total = requestLine + "Host: \r\n".utf8.count + request.host.utf8.count + 2
        // (A raw byte is four bytes of the string and one on the wire: this is an upper bound.)
        for h in request.headers { total += h.name.utf8.count + h.value.utf8.count + 4 }
        guard total > buffers.large else { return false }
        var capacity = buffers.first, used = 0, taken = 0
        func place(_ length: Int) -> Bool {
            if used + length <= capacity { used += length; return true }
            // The part read of the line moves to a new buffer; a line that fills one is refused.
            guard length <= buffers.large, taken < buffers.count else { return false }
            taken += 1
            capacity = buffers.large
            used = length
            return true
        }
        guard place(requestLine), place(request.host.utf8.count + "Host: \r\n".utf8.count) else { return true }
        for h in request.headers where !place(h.name.utf8.count + h.value.rawByteCount + 4) { return true }
        return !place(2)
    }

    /// ngx_http_validate_host: no `..` anywhere, no `/`, blank or control byte, and a name
    /// (up to the port's `:`, or the `[…]` literal) that is not empty once a trailing dot is dropped.
    static func nginxAcceptsHost(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        var dotPosition = bytes.count, hostLength = bytes.count
        var inLiteral = false, inRest = false
        for (i, c) in bytes.enumerated() {
            switch c {
            case UInt8(ascii: "."):
                if dotPosition == i - 1 { return false }
                dotPosition = i
            case UInt8(ascii: ":"):
                if !inLiteral && !inRest { hostLength = i; inRest = true }
            case UInt8(ascii: "["):
                if i == 0 { inLiteral = true }
            case UInt8(ascii: "]"):
                if inLiteral { hostLength = i + 1; inLiteral = false; inRest = true }
            default:
                if c == UInt8(ascii: "/") || c <= 0x20 || c == 0x7F { return false }
            }
        }
        if dotPosition == hostLength - 1 { hostLength -= 1 }
        return hostLength > 0
    }

    /// A header name nginx's parser accepts without `underscores_in_headers`.
    static func isValidNginxHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.allBytes { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2D
        }
    }

    /// Headers the edge adds toward the origin (§2.6): the visitor's scheme twice, and its address.
    public func forwardedHeaders(scheme: String) -> [HTTPHeader] {
        guard isProxy else { return [] }
        // Sized once: this runs on every hop through the edge.
        var h: [HTTPHeader] = []
        h.reserveCapacity(mode != .terminatingProxy ? 4 : 2)
        h.append(HTTPHeader("X-Forwarded-Proto", scheme))
        h.append(HTTPHeader("X-Forwarded-For", "127.0.0.1"))
        if mode != .terminatingProxy {
            // The two usual values as literals: this runs on every hop through the edge.
            let visitor = switch scheme {
            case "https": #"{"scheme":"https"}"#
            case "http": #"{"scheme":"http"}"#
            default: "{\"scheme\":\"\(scheme)\"}"
            }
            h.append(HTTPHeader("CF-Visitor", visitor))
            h.append(HTTPHeader("CF-Connecting-IP", "127.0.0.1"))
        }
        return h
    }
}

extension Edge: Layer {
    public var label: String {
        switch mode {
        case .none: return "direct"
        case .cloudflareOff: return "Cloudflare (SSL off)"
        case .cloudflareFlexible: return "Cloudflare (Flexible)"
        case .cloudflareFull: return "Cloudflare (Full)"
        case .cloudflareStrict: return "Cloudflare (Full strict)"
        case .cloudflareOriginPull: return "Cloudflare (SSL-Only Origin Pull)"
        case .terminatingProxy: return "proxy"
        }
    }

    public func listens(on port: Int) -> Bool {
        mode == .terminatingProxy ? port == 80 || port == 443
            : Edge.cloudflareHTTPPorts.contains(port) || Edge.cloudflareHTTPSPorts.contains(port)
    }

    public func speaksTLS(on port: Int) -> Bool {
        mode == .terminatingProxy ? port == 443 : Edge.cloudflareHTTPSPorts.contains(port)
    }

    /// Why the edge answers 414 itself, if it does: the recordings' nginx when the request line
    /// and its CRLF overflow its buffer; Cloudflare when the URI passes 32 KB (its documented
    /// limit, error 414).
    private func uriTooLongReason(_ request: HopRequest) -> String? {
        let line = request.method.utf8.count + 1 + request.target.utf8.count + " HTTP/1.1".utf8.count
        if let buffer = requestLineBuffer, line + "\r\n".utf8.count > buffer {
            return "the proxy's request-line buffer (\(buffer) bytes) is too small for the request line"
        }
        if isCloudflare, request.target.utf8.count > 32 * 1024 { return "Cloudflare refuses a URI longer than 32 KB" }
        return nil
    }

    public var verifiesCertificates: Bool { mode == .cloudflareStrict || mode == .cloudflareOriginPull }

    public func receive(_ request: HopRequest) -> LayerDecision {
        if let tooLong = uriTooLongReason(request) {
            return .answer(HopResponse(status: 414, answerer: .edge, producer: label, reason: tooLong))
        }
        if rejectsMalformedPaths, Edge.nginxRefusesPath(request.target) {
            return .answer(HopResponse(status: 400, answerer: .edge, producer: label,
                                       reason: "the proxy refuses the request line (malformed escape, %00 or .. above /)"))
        }
        if let buffers = headerBuffers, Edge.nginxHeadersTooLarge(request, buffers) {
            return .answer(HopResponse(status: 400, answerer: .edge, producer: label,
                                       reason: "the proxy's header buffers are too small for the request's header lines"))
        }
        if rejectsInvalidHost, !Edge.nginxAcceptsHost(request.host) {
            return .answer(HopResponse(status: 400, answerer: .edge, producer: label,
                                       reason: "the proxy refuses the Host header (.., /, a blank or control byte, or no name)"))
        }
        if rejectsBadBodyHeaders, let refusal = Edge.nginxBodyHeaderRefusal(request.headers) {
            return .answer(HopResponse(status: refusal.status, answerer: .edge, producer: label, reason: refusal.why))
        }
        if rejectsTrace, request.method == "TRACE" || request.method == "CONNECT" {
            return .answer(HopResponse(status: 405, answerer: .edge, producer: label, reason: "the proxy refuses \(request.method)"))
        }
        if let own = ownAnswer(scheme: request.scheme, host: request.hostName, target: request.target) {
            var r = HopResponse(status: own.status, location: own.location, answerer: .edge, producer: label)
            r.reason = request.scheme == "https" && mode == .cloudflareOff ? "SSL off: https visitors are redirected to http"
                : request.scheme == "http" && alwaysHTTPS ? "Always Use HTTPS" : "edge redirect rule"
            return .answer(r)
        }
        var next = request
        // `Connection` is hop-by-hop: a proxy never passes the visitor's on.
        next.removeHeader("Connection")
        if dropsProxyDefaultHeaders {
            for name in ["Expect", "TE", "Keep-Alive", "Upgrade"] { next.removeHeader(name) }
        }
        if dropsInvalidHeaderNames, next.headers.contains(where: { !Edge.isValidNginxHeaderName($0.name) }) {
            next.headers.removeAll { !Edge.isValidNginxHeaderName($0.name) }
        }
        let (scheme, port) = originConnection(scheme: request.scheme, port: request.port)
        next.scheme = scheme
        next.port = port
        // Cloudflare overwrites a client's X-Forwarded-Proto and appends to X-Forwarded-For (§2.6).
        let added = forwardedHeaders(scheme: request.scheme)
        // One allocation for the forwarded list, not one per header appended.
        next.headers.reserveCapacity(next.headers.count + added.count)
        for h in added {
            if h.name == "X-Forwarded-For", !replacesForwardedFor { next.appendForwardedFor(h.value) } else { next.setHeader(h.name, h.value) }
        }
        var notes: [String] = []
        if scheme != request.scheme {
            switch mode {
            case .cloudflareFlexible, .cloudflareOff: notes.append("always reaches the origin over plain HTTP, whatever the visitor used")
            case .terminatingProxy: notes.append("the proxy ends TLS and reaches the origin over plain HTTP")
            case .cloudflareOriginPull: notes.append("SSL-Only Origin Pull always reaches the origin over https")
            default: break
            }
        } else if mode == .cloudflareFull || mode == .cloudflareStrict {
            notes.append("reaches the origin with the visitor's scheme")
        }
        return .forward(next, notes: notes)
    }

    /// Whether nginx's complex-URI parser refuses the path of `target`: `%` not followed by two
    /// hex digits, a decoded NUL, or a `..` segment (after decoding) that climbs above `/`.
    static func nginxRefusesPath(_ target: String) -> Bool {
        let path = target.utf8.prefix { $0 != UInt8(ascii: "?") }
        // Only an escape or a dot can make nginx refuse a path.
        guard path.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: ".") }) else { return false }
        guard let decoded = percentDecode(String(decoding: path, as: UTF8.self)), !decoded.utf8.contains(0) else { return true }
        var depth = 0
        for seg in decoded.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if seg.elementsEqual("..".utf8) {
                depth -= 1
                if depth < 0 { return true }
            } else if !seg.elementsEqual(".".utf8) {
                depth += 1
            }
        }
        return false
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        // Cloudflare's 52x errors (§2.9); a generic proxy answers 502.
        let (status, why): (Int, String)
        switch failure {
        case .refused: (status, why) = mode == .terminatingProxy ? (502, "the origin refused the connection") : (521, "Web server is down: the origin refused a connection to port \(forwarded.port)")
        case .tlsHandshake: (status, why) = mode == .terminatingProxy ? (502, "TLS handshake with the origin failed") : (525, "SSL handshake failed with the origin")
        case .invalidCertificate(let what): (status, why) = mode == .terminatingProxy ? (502, "invalid origin certificate: \(what)") : (526, "Invalid SSL certificate at the origin: \(what)")
        }
        return HopResponse(status: status, answerer: .edge, producer: label, reason: why)
    }

    /// The key uses the scheme of the *origin* connection: under Flexible, http and https
    /// visitors share one entry (§2.8).
    public func cacheKey(received: HopRequest, forwarded: HopRequest) -> String? {
        guard cache, isCloudflare, received.method == "GET" else { return nil }
        let path = received.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let ext = path.split(separator: "/").last.flatMap { $0.contains(".") ? $0.split(separator: ".").last : nil }.map { $0.lowercased() }
        guard path == "/robots.txt" || ext.map(cloudflareCachedExtensions.contains) == true else { return nil }
        return "\(forwarded.scheme)://\(received.hostName)\(received.target)"
    }

    /// Edge TTLs without cache headers: 200/206/301 120 min, 302/303 20 min, 404/410 3 min (§2.8).
    public func cacheLifetime(_ response: HopResponse, received: HopRequest) -> String? {
        guard !forbidsCaching(response.headers) else { return nil }
        switch response.status {
        case 200, 206, 301: return "120 min"
        case 302, 303: return "20 min"
        case 404, 410: return "3 min"
        default: return nil
        }
    }

    static let reasonPhrases = [200: "OK", 301: "Moved Permanently", 302: "Found", 303: "See Other", 307: "Temporary Redirect",
                                308: "Permanent Redirect", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error"]

    /// Bytes of Apache's status line and headers as an HTTP/1.0 proxy receives them: the modelled
    /// headers plus Date, Server, Content-Length, `Connection: close`, Content-Type and the blank
    /// line (173 bytes with the 45-byte line of an error page's or redirect's
    /// `text/html; charset=iso-8859-1`, calibrated on the recordings: a 302's Location fits up to
    /// 3891 bytes). A file the default handler sent (marked by its `Accept-Ranges`) also carries
    /// Last-Modified and a weak ETag, 72 bytes more for a file under 256 bytes written just before
    /// it is asked for, as the oracle's are (recorded: https-edge-502-file-headers-count).
    /// A HEAD answer Apache writes itself (an error page, a redirect) has no Content-Length: the
    /// body is never made (22 bytes with a 4-digit length; recorded:
    /// https-edge-head-error-page-no-content-length).
    static func originHeaderBytes(_ r: HopResponse, head: Bool = false) -> Int {
        var n = 14 + (reasonPhrases[r.status]?.utf8.count ?? 12) + 173
        if let l = r.location { n += 12 + l.utf8.count }
        var file = false
        for h in r.headers where !equalsIgnoringASCIICase(h.name, "Location") && !equalsIgnoringASCIICase(h.name, "Content-Type") {
            if equalsIgnoringASCIICase(h.name, "Accept-Ranges") { file = true }
            n += h.name.utf8.count + h.value.utf8.count + 4
        }
        if head, !file { n -= 22 }
        if file {
            n += 72
            // The file's own type (the client's view of the headers) in place of the error
            // page's 45-byte line.
            if let type = r.origin?.headers.last(where: { equalsIgnoringASCIICase($0.name, "Content-Type") })?.value {
                n += "Content-Type: \r\n".utf8.count + type.utf8.count - 45
            }
        }
        return n
    }

    /// nginx's header parser ends a value it reads from the origin at its last non-blank byte:
    /// a `Location` that Apache sent ending in spaces (a header value expanded into it) arrives without them.
    static func dropTrailingBlanks(_ r: inout HopResponse) {
        func trimmed(_ v: String) -> String {
            guard let last = v.unicodeScalars.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
            return String(v[...last])
        }
        // Only a value that ends in a blank changes: the others are not copied (every hop).
        func endsBlank(_ v: String) -> Bool { v.utf8.last == UInt8(ascii: " ") || v.utf8.last == UInt8(ascii: "\t") }
        if let location = r.location, endsBlank(location) { r.location = trimmed(location) }
        if r.headers.contains(where: { endsBlank($0.value) }) { r.headers = r.headers.map { HTTPHeader($0.name, trimmed($0.value)) } }
        // The hop's recorded headers are what the client sees: any header, not only Location
        // (recorded: header-edge-trailing-blanks-any-header).
        if let headers = r.origin?.headers, headers.contains(where: { endsBlank($0.value) }) {
            r.origin?.headers = headers.map { HTTPHeader($0.name, trimmed($0.value)) }
        }
    }

    /// proxy_hide_header's defaults beside Date and Server: `X-Pad`, `X-Accel-Expires`,
    /// `X-Accel-Redirect`, `X-Accel-Limit-Rate`, `X-Accel-Buffering`, `X-Accel-Charset`.
    static func hideProxyControlHeaders(_ r: inout HopResponse) {
        func hidden(_ name: String) -> Bool {
            guard name.utf8.first == UInt8(ascii: "X") || name.utf8.first == UInt8(ascii: "x") else { return false }
            return ["X-Pad", "X-Accel-Expires", "X-Accel-Redirect", "X-Accel-Limit-Rate", "X-Accel-Buffering", "X-Accel-Charset"]
                .contains { equalsIgnoringASCIICase(name, $0) }
        }
        // Nearly no answer has one: the headers are not copied then.
        if r.headers.contains(where: { hidden($0.name) }) { r.headers.removeAll { hidden($0.name) } }
        if let headers = r.origin?.headers, headers.contains(where: { hidden($0.name) }) {
            r.origin?.headers = headers.filter { !hidden($0.name) }
        }
    }

    /// nginx keeps one Content-Type from the origin, the last line it read (each overwrites
    /// r->headers_out.content_type), and sends none when that one is empty (recorded:
    /// header-content-type-empty-last-line-behind-edge).
    /// The hop's recorded headers (`origin`) are what the client sees, so both change.
    static func keepLastContentType(_ r: inout HopResponse) {
        // Nearly every answer has one non-blank line: left as it is, without copying the headers.
        func needsChange(_ headers: [HTTPHeader]) -> Bool {
            var lines = 0, lastBlank = false
            for h in headers where equalsIgnoringASCIICase(h.name, "Content-Type") {
                lines += 1
                lastBlank = !h.value.contains(where: { $0 != " " && $0 != "\t" })
            }
            return lines > 1 || lastBlank
        }
        func kept(_ headers: [HTTPHeader]) -> [HTTPHeader] {
            guard let last = headers.last(where: { equalsIgnoringASCIICase($0.name, "Content-Type") }) else { return headers }
            var rest = headers.filter { !equalsIgnoringASCIICase($0.name, "Content-Type") }
            if last.value.contains(where: { $0 != " " && $0 != "\t" }) { rest.append(last) }
            return rest
        }
        if needsChange(r.headers) { r.headers = kept(r.headers) }
        if let headers = r.origin?.headers, needsChange(headers) { r.origin?.headers = kept(headers) }
    }

    public func respond(_ r: consuming HopResponse, received: HopRequest, forwarded: HopRequest) -> (HopResponse, [String]) {
        // Origin answers pass unchanged, Location included (§2.7); edge HSTS is added on https.
        var notes: [String] = []
        if r.status == 0, r.answerer == .origin {
            // "upstream prematurely closed connection while reading response header from upstream".
            r = HopResponse(status: 502, answerer: .edge, producer: label, reason: "the origin closed the connection without a response")
            return (r, ["answers 502: the origin closed the connection without a response"])
        }
        if r.answerer == .origin, r.origin?.connectionLost == true {
            // The connection broke under Apache's answer (a renegotiation the proxy could not
            // complete): nginx answers with its own 502 page; the hop keeps Apache as its
            // answerer, whose log has the answer it meant to send, as the recordings have it
            // (recorded: https-sslverifyclient-per-directory-renegotiation-behind-edge).
            r.status = 502
            r.location = nil
            r.headers = []
            r.origin?.headers = [HTTPHeader("Content-Type", "text/html")]
            r.origin?.served = nil
            r.reason = "the origin's TLS connection broke (a renegotiation failed)"
            return (r, ["answers 502: the origin's connection broke during a TLS renegotiation"])
        }
        if let limit = originHeaderLimit, r.answerer == .origin || r.answerer == .app {
            let size = Edge.originHeaderBytes(r, head: received.method == "HEAD")
            if size > limit {
                r.status = 502
                r.location = nil
                r.headers = []
                // nginx's own error page replaces Apache's headers (the hop keeps Apache as its
                // answerer, as the recordings have it).
                r.origin?.headers = [HTTPHeader("Content-Type", "text/html")]
                // …and its body the file Apache sent.
                if r.origin?.served != nil { r.origin?.served = nil }
                r.reason = "upstream sent too big header (about \(size) bytes, proxy_buffer_size is \(limit))"
                return (r, ["answers 502: the origin's headers do not fit its \(limit)-byte buffer"])
            }
        }
        if r.answerer == .origin || r.answerer == .app {
            Edge.dropTrailingBlanks(&r); Edge.keepLastContentType(&r)
            if hidesProxyControlHeaders { Edge.hideProxyControlHeaders(&r) }
        }
        if let hsts, received.scheme == "https", r.header("Strict-Transport-Security") == nil {
            r.headers.append(HTTPHeader("Strict-Transport-Security", hsts))
            notes.append("adds its HSTS header")
        }
        return (r, notes)
    }
}
