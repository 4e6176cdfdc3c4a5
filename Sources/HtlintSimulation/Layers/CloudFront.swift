import HtlintApache

/// An AWS CloudFront distribution with a custom origin (layers-and-mixed-content §3).
public struct CloudFront: Layer, Hashable {
    /// Viewer protocol policy of the cache behaviour (§3.1).
    public enum ViewerPolicy: String, Sendable, CaseIterable {
        case allowAll = "allow-all"
        /// GET/HEAD over http get 301; other methods 307.
        case redirectToHTTPS = "redirect-to-https"
        /// http gets 403.
        case httpsOnly = "https-only"
    }

    /// Origin protocol policy (§3.2).
    public enum OriginPolicy: String, Sendable, CaseIterable {
        case httpOnly = "http-only"
        case httpsOnly = "https-only"
        case matchViewer = "match-viewer"
    }

    /// What http viewers get.
    public var viewerPolicy: ViewerPolicy
    /// How CloudFront connects to the origin.
    public var originPolicy: OriginPolicy
    /// The origin's "HTTP port".
    public var originHTTPPort: Int
    /// The origin's "HTTPS port".
    public var originHTTPSPort: Int
    /// Whether the viewer's `Host` is forwarded (origin request policy); otherwise the origin
    /// receives `originDomain` as `Host` (§3.3).
    public var forwardHost: Bool
    /// The origin's domain name as configured in the distribution.
    public var originDomain: String?
    /// Whether `CloudFront-Forwarded-Proto` is sent (only when configured, §3.3).
    public var forwardedProtoHeader: Bool
    /// `Strict-Transport-Security` added by a response headers policy (§3.4).
    public var hsts: String?
    /// Whether the cache behaviour caches (GET/HEAD answers, 3xx included, §3.4).
    public var cache: Bool
    /// The cache behaviour's default TTL, applied to answers without cache headers (§17 Q8).
    public var defaultTTL: String

    /// Defaults are CloudFront's: Host not forwarded, no CloudFront-Forwarded-Proto; caching off unless asked.
    public init(viewerPolicy: ViewerPolicy = .redirectToHTTPS, originPolicy: OriginPolicy = .httpOnly,
                originHTTPPort: Int = 80, originHTTPSPort: Int = 443, forwardHost: Bool = false,
                originDomain: String? = nil, forwardedProtoHeader: Bool = false, hsts: String? = nil, cache: Bool = false,
                defaultTTL: String = "24 h") {
        self.cache = cache
        self.defaultTTL = defaultTTL
        self.viewerPolicy = viewerPolicy
        self.originPolicy = originPolicy
        self.originHTTPPort = originHTTPPort
        self.originHTTPSPort = originHTTPSPort
        self.forwardHost = forwardHost
        self.originDomain = originDomain
        self.forwardedProtoHeader = forwardedProtoHeader
        self.hsts = hsts
    }

    public var label: String { "CloudFront (\(viewerPolicy.rawValue), origin \(originPolicy.rawValue))" }

    public func listens(on port: Int) -> Bool { port == 80 || port == 443 }
    public func speaksTLS(on port: Int) -> Bool { port == 443 }
    /// CloudFront checks custom-origin certificates (a self-signed one fails with 502).
    public var verifiesCertificates: Bool { true }

    public func receive(_ request: HopRequest) -> LayerDecision {
        if request.scheme == "http" {
            switch viewerPolicy {
            case .allowAll: break
            case .redirectToHTTPS:
                let status = request.method == "GET" || request.method == "HEAD" ? 301 : 307
                return .answer(HopResponse(status: status, location: "https://\(request.hostName)\(request.target)",
                                           answerer: .edge, producer: label, reason: "viewer protocol policy redirect-to-https"))
            case .httpsOnly:
                return .answer(HopResponse(status: 403, answerer: .edge, producer: label, reason: "viewer protocol policy https-only"))
            }
        }
        var next = request
        switch originPolicy {
        case .httpOnly: next.scheme = "http"
        case .httpsOnly: next.scheme = "https"
        case .matchViewer: next.scheme = request.scheme
        }
        next.port = next.scheme == "https" ? originHTTPSPort : originHTTPPort
        var notes = ["origin protocol policy \(originPolicy.rawValue): connects to the origin over \(next.scheme):\(next.port)"]
        if !forwardHost, let originDomain {
            next.host = originDomain
            notes.append("Host is not forwarded: the origin receives Host: \(originDomain)")
        }
        // CloudFront removes X-Forwarded-Proto; its own header only when configured (§3.3).
        next.removeHeader("X-Forwarded-Proto")
        next.appendForwardedFor("127.0.0.1")
        if forwardedProtoHeader { next.setHeader("CloudFront-Forwarded-Proto", request.scheme) }
        return .forward(next, notes: notes)
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        let why: String
        switch failure {
        case .refused: why = "the origin refused a connection to port \(forwarded.port)"
        case .tlsHandshake: why = "TLS handshake with the origin failed"
        case .invalidCertificate(let what): why = "the origin's certificate is invalid: \(what)"
        }
        return HopResponse(status: 502, answerer: .edge, producer: label, reason: why)
    }

    /// Objects are cached once for both schemes unless `CloudFront-Forwarded-Proto` is part of
    /// the key (§3.2).
    public func cacheKey(received: HopRequest, forwarded: HopRequest) -> String? {
        guard cache, received.method == "GET" || received.method == "HEAD" else { return nil }
        return (forwardedProtoHeader ? received.scheme + "://" : "//") + forwarded.host.lowercased() + received.target
    }

    public func cacheLifetime(_ response: HopResponse, received: HopRequest) -> String? {
        guard !forbidsCaching(response.headers), [200, 203, 300, 301, 302, 307, 308, 404, 410].contains(response.status) else { return nil }
        return defaultTTL
    }

    public func respond(_ r: consuming HopResponse, received: HopRequest, forwarded: HopRequest) -> (HopResponse, [String]) {
        // A 3xx from the origin is returned to the viewer unchanged (and cached, §3.4).
        if let hsts, r.header("Strict-Transport-Security") == nil {
            r.headers.append(HTTPHeader("Strict-Transport-Security", hsts))
            return (r, ["adds Strict-Transport-Security (response headers policy)"])
        }
        return (r, [])
    }
}
