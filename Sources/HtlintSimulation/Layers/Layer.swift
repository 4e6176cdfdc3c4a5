import HtlintApache
import HtlintBytes
import HtlintRegex

/// What one component receives from the previous one (layers-and-mixed-content §1.2).
public struct HopRequest: Sendable, Hashable {
    /// `https` when the connection *into this component* is TLS. For Apache this, not any
    /// header, is what `%{HTTPS}` reports (§11.1).
    public var scheme: String
    /// Destination port of that connection.
    public var port: Int
    /// The `Host` header as received.
    public var host: String
    /// Request method.
    public var method: String
    /// Path and query as sent.
    public var target: String
    /// All other request headers, in order.
    public var headers: [HTTPHeader]
    /// The name the browser's TLS handshake sent (SNI): the URL's host, whatever `Host` says.
    public var sni: String? = nil

    /// A request as one component receives it.
    public init(scheme: String, port: Int, host: String, method: String, target: String, headers: [HTTPHeader]) {
        self.scheme = scheme
        self.port = port
        self.host = host
        self.method = method
        self.target = target
        self.headers = headers
    }

    /// First header with this name, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.indexOfHeader(name).map { headers[$0].value }
    }

    /// Replaces every header of this name by one at the end (how proxies overwrite a header).
    public mutating func setHeader(_ name: String, _ value: String) {
        removeHeader(name)
        headers.append(HTTPHeader(name, value))
    }

    /// Removes every header of this name.
    public mutating func removeHeader(_ name: String) {
        // removeAll(where:) copies a shared array even when nothing matches: ask first.
        guard headers.indexOfHeader(name) != nil else { return }
        headers.removeAll { equalsIgnoringASCIICase($0.name, name) }
    }

    /// `X-Forwarded-For` with the client address appended (or added).
    public mutating func appendForwardedFor(_ address: String) {
        if let i = headers.indexOfHeader("X-Forwarded-For") {
            headers[i].value += ", " + address
        } else {
            headers.append(HTTPHeader("X-Forwarded-For", address))
        }
    }

    /// `Host` without its port and one trailing dot, lower case (nginx's `$host`, as
    /// `ngx_http_validate_host` leaves it): the name ends at the first `:`, so `a.example:80:80`
    /// is `a.example` (recorded: https-edge-host-ends-at-first-colon); a bracketed IPv6 literal
    /// ends at its `]`, so `[::1]:80` is `[::1]` (recorded: https-edge-ipv6-host-loses-port).
    public var hostName: String {
        // ASCII letters only, as ngx_tolower folds them.
        var h = host.asciiLowercased()
        if h.utf8.first == UInt8(ascii: "[") {
            if let close = h.firstIndex(ofByte: UInt8(ascii: "]")) { h = String(h[...close]) }
        } else if let colon = h.firstIndex(ofByte: UInt8(ascii: ":")) {
            h = String(h[..<colon])
        }
        if h.utf8.count > 1, h.utf8.last == UInt8(ascii: ".") { h.removeLast() }
        return h
    }

    /// The URL the request asks for, as the component sees it.
    public var url: String {
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(hostName)\(port == defaultPort ? "" : ":\(port)")\(target)"
    }
}

/// Who produced an answer, as the JSON output names it.
public enum Answerer: String, Sendable, Codable {
    /// The browser itself (HSTS internal upgrade, connection errors).
    case browser
    /// A layer in front of the origin (CDN, load balancer, proxy) answered without the origin.
    case edge
    /// Apache.
    case origin
    /// The application behind Apache (WordPress).
    case app
}

/// A response on its way back to the browser, with its provenance (§1.2).
///
/// Its fields live in a box shared by copies until one is changed (copy-on-write, as
/// `OriginResponse`): an answer passes from Apache through each layer to the hop, and copying
/// its dozen strings at each step was 1% of a replay.
public struct HopResponse: Sendable {
    /// Mutated only through `unique` (a box no other value shares).
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var location: String? = nil
        @exclusivity(unchecked) var headers: [HTTPHeader]
        @exclusivity(unchecked) var answerer: Answerer
        @exclusivity(unchecked) var producer: String
        @exclusivity(unchecked) var reason: String? = nil
        @exclusivity(unchecked) var origin: OriginResponse? = nil
        @exclusivity(unchecked) var originRequest: OriginRequest? = nil
        @exclusivity(unchecked) var app: AppAnswer? = nil
        @exclusivity(unchecked) var error: String? = nil
        @exclusivity(unchecked) var cached: String? = nil

        init(status: Int, headers: [HTTPHeader], answerer: Answerer, producer: String) {
            self.status = status
            self.headers = headers
            self.answerer = answerer
            self.producer = producer
        }

        func copy() -> Box {
            let b = Box(status: status, headers: headers, answerer: answerer, producer: producer)
            b.location = location
            b.reason = reason
            b.origin = origin
            b.originRequest = originRequest
            b.app = app
            b.error = error
            b.cached = cached
            return b
        }
    }

    private var box: Box

    /// The box, copied first when another value shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    /// An answer produced by `producer`.
    public init(status: Int, location: String? = nil, headers: [HTTPHeader] = [], answerer: Answerer,
                producer: String, reason: String? = nil, error: String? = nil) {
        box = Box(status: status, headers: headers, answerer: answerer, producer: producer)
        box.location = location
        box.reason = reason
        box.error = error
    }

    /// Status code; 0 when there was no answer.
    public var status: Int {
        get { box.status }
        _modify { yield &unique.status }
    }
    /// `Location` as it will reach the browser.
    public var location: String? {
        get { box.location }
        _modify { yield &unique.location }
    }
    /// Response headers as they will reach the browser.
    public var headers: [HTTPHeader] {
        get { box.headers }
        _modify { yield &unique.headers }
    }
    /// Who produced it.
    public var answerer: Answerer {
        get { box.answerer }
        _modify { yield &unique.answerer }
    }
    /// The component that produced it: "Cloudflare (Flexible)", "Apache", "WordPress".
    public var producer: String {
        get { box.producer }
        _modify { yield &unique.producer }
    }
    /// What produced it, in words ("Always Use HTTPS", "auth_redirect()").
    public var reason: String? {
        get { box.reason }
        _modify { yield &unique.reason }
    }
    /// Apache's own answer, when Apache was asked.
    public var origin: OriginResponse? {
        get { box.origin }
        _modify { yield &unique.origin }
    }
    /// What Apache received.
    public var originRequest: OriginRequest? {
        get { box.originRequest }
        _modify { yield &unique.originRequest }
    }
    /// WordPress's decision, when it answered.
    public var app: AppAnswer? {
        get { box.app }
        _modify { yield &unique.app }
    }
    /// A failure the browser shows instead of a page (connection refused, certificate error).
    public var error: String? {
        get { box.error }
        _modify { yield &unique.error }
    }
    /// Set when a layer answered from its cache: what it had stored.
    public var cached: String? {
        get { box.cached }
        _modify { yield &unique.cached }
    }

    /// First response header with this name, case-insensitively.
    public func header(_ name: String) -> String? {
        let headers = box.headers
        return headers.indexOfHeader(name).map { headers[$0].value }
    }

    /// Adds a header unless one of that name is present.
    public mutating func addHeaderIfAbsent(_ name: String, _ value: String) {
        if header(name) == nil { headers.append(HTTPHeader(name, value)) }
    }
}

/// One component on a hop's path: what it received and what it passed on (§1.4).
public struct PathStep: Sendable {
    /// "Cloudflare (Flexible)", "Apache".
    public var component: String
    /// What it received.
    public var received: HopRequest
    /// What it sent to the next component; nil when it answered itself.
    public var forwarded: HopRequest?
    /// Request headers this component set or replaced on the way in.
    public var setHeaders: [String]
    /// Why the request looks the way it does ("Flexible reaches the origin over plain HTTP").
    public var notes: [String]
    /// What it did to the answer on the way back ("Location rewritten by proxy_redirect").
    public var responseNotes: [String]

    /// A step on a hop's path.
    public init(component: String, received: HopRequest, forwarded: HopRequest? = nil, setHeaders: [String] = [],
                notes: [String] = [], responseNotes: [String] = []) {
        self.component = component
        self.received = received
        self.forwarded = forwarded
        self.setHeaders = setHeaders
        self.notes = notes
        self.responseNotes = responseNotes
    }
}

/// A layer's decision about a request.
public enum LayerDecision: Sendable {
    /// The layer answers itself (edge redirect, error page).
    case answer(HopResponse)
    /// The layer passes this request on; the notes say why it looks that way.
    case forward(HopRequest, notes: [String])
}

/// Why a connection to the next component failed.
public enum ConnectionFailure: Sendable, Hashable {
    /// Nothing listens on that port (Cloudflare 521).
    case refused
    /// Something answers but the TLS handshake fails (Cloudflare 525).
    case tlsHandshake
    /// The certificate is self-signed, expired or for another name (Cloudflare 526 in strict mode).
    case invalidCertificate(String)
}

/// A component between the browser and the origin: a CDN edge, a load balancer or a reverse
/// proxy (layers-and-mixed-content §2–§6). Each says what the next component receives and what
/// happens to the answer on the way back.
public protocol Layer: Sendable {
    /// Short label for paths and explanations: "Cloudflare (Flexible)".
    var label: String { get }
    /// Whether anything listens on this port (the browser cannot connect otherwise).
    func listens(on port: Int) -> Bool
    /// Whether TLS is spoken on this port.
    func speaksTLS(on port: Int) -> Bool
    /// Answer, or transform and pass on.
    func receive(_ request: HopRequest) -> LayerDecision
    /// The layer's answer when it cannot reach the next component.
    func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse
    /// What happens to the answer on the way back; returns notes on what changed. The answer is
    /// handed over, so a layer that changes it changes it in place (a copy of a hop's answer
    /// retains a dozen strings).
    func respond(_ response: consuming HopResponse, received: HopRequest, forwarded: HopRequest) -> (HopResponse, [String])
    /// Whether this layer verifies the next component's certificate.
    var verifiesCertificates: Bool { get }
    /// The cache key of a request this layer would answer from its cache, nil when it does not cache it.
    func cacheKey(received: HopRequest, forwarded: HopRequest) -> String?
    /// How long the layer stores this answer ("120 min"), nil when it does not.
    func cacheLifetime(_ response: HopResponse, received: HopRequest) -> String?
}

extension Layer {
    public var verifiesCertificates: Bool { false }
    public func cacheKey(received: HopRequest, forwarded: HopRequest) -> String? { nil }
    public func cacheLifetime(_ response: HopResponse, received: HopRequest) -> String? { nil }

    public func respond(_ response: consuming HopResponse, received: HopRequest, forwarded: HopRequest) -> (HopResponse, [String]) {
        (response, [])
    }
}

/// `scheme://host[:port]` without the default port.
func authority(_ scheme: String, _ host: String, _ port: Int) -> String {
    let defaultPort = scheme == "https" ? 443 : 80
    return "\(scheme)://\(host)\(port == defaultPort ? "" : ":\(port)")"
}
