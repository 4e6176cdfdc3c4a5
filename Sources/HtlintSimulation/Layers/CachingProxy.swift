import HtlintApache

/// A caching layer whose cache key ignores the scheme: Fastly (§7) or Varnish behind a TLS
/// terminator such as Hitch (§8). A redirect the origin makes for http visitors is stored
/// under URL + Host and replayed to https visitors (L28, L29).
public struct CachingProxy: Layer, Hashable {
    public enum Kind: String, Sendable, CaseIterable { case fastly, varnish }

    /// Fastly or Varnish.
    public var kind: Kind
    /// Fastly's "Force TLS": http requests get 301 to https (§7).
    public var forceTLS: Bool
    /// Whether the site's VCL sets `X-Forwarded-Proto` (Varnish: only if the site says so, §8).
    public var setsForwardedProto: Bool
    /// Port of the origin connection (plain HTTP).
    public var backendPort: Int
    /// `default_ttl` / the service's TTL, applied to answers without cache headers.
    public var ttl: String
    /// The cache key includes the visitor's scheme (Varnish: `hash_data(req.http.X-Forwarded-Proto)`;
    /// Fastly: the "separate HTTP and HTTPS" recipe).
    public var keyIncludesScheme = false

    /// Defaults: Fastly without Force TLS; Varnish whose VCL sets X-Forwarded-Proto.
    public init(kind: Kind, forceTLS: Bool = false, setsForwardedProto: Bool? = nil, backendPort: Int = 80, ttl: String? = nil) {
        self.kind = kind
        self.forceTLS = forceTLS
        self.setsForwardedProto = setsForwardedProto ?? (kind == .varnish)
        self.backendPort = backendPort
        self.ttl = ttl ?? (kind == .varnish ? "120 s" : "3600 s")
    }

    public var label: String { kind == .fastly ? "Fastly" : "Varnish (behind a TLS terminator)" }
    public func listens(on port: Int) -> Bool { port == 80 || port == 443 }
    public func speaksTLS(on port: Int) -> Bool { port == 443 }

    public func receive(_ request: HopRequest) -> LayerDecision {
        if request.scheme == "http", forceTLS {
            return .answer(HopResponse(status: 301, location: "https://\(request.hostName)\(request.target)", answerer: .edge,
                                       producer: label, reason: "Force TLS"))
        }
        var next = request
        next.scheme = "http"
        next.port = backendPort
        if kind == .fastly {
            // Set only when the client did not send it: a client value passes unchanged (§7).
            if request.header("Fastly-SSL") == nil, request.scheme == "https" { next.headers.append(HTTPHeader("Fastly-SSL", "1")) }
            next.setHeader("Fastly-Client-IP", "127.0.0.1")
        }
        if setsForwardedProto { next.setHeader("X-Forwarded-Proto", request.scheme) }
        return .forward(next, notes: ["the origin is reached over plain HTTP; the cache key is URL + Host, without the scheme"])
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        HopResponse(status: 503, answerer: .edge, producer: label, reason: "backend fetch failed (\(failure))")
    }

    public func cacheKey(received: HopRequest, forwarded: HopRequest) -> String? {
        guard received.method == "GET" || received.method == "HEAD" else { return nil }
        // Varnish's built-in VCL passes requests with cookies or credentials (§8).
        if kind == .varnish, received.header("Cookie") != nil || received.header("Authorization") != nil { return nil }
        return (keyIncludesScheme ? received.scheme + "://" : "") + received.hostName + received.target
    }

    /// Fastly's default cacheable statuses (§7); Varnish's built-in set (§8).
    public func cacheLifetime(_ response: HopResponse, received: HopRequest) -> String? {
        let statuses: Set<Int> = kind == .fastly ? [200, 203, 300, 301, 302, 404, 410]
            : [200, 203, 300, 301, 302, 304, 307, 308, 404, 410, 414]
        guard !forbidsCaching(response.headers), statuses.contains(response.status) else { return nil }
        return ttl
    }
}
