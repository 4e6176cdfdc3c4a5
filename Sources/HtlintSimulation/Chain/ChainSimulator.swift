import HtlintApache

/// One request/response exchange in a redirect chain.
public struct Hop: Sendable {
    public var url: String
    public var method: String
    public var status: Int
    public var location: String?
    /// `apache` or `edge`.
    public var answeredBy: String
    public var served: String?
    /// Apache's answer, nil when the edge answered.
    public var origin: OriginResponse?
    /// What Apache received.
    public var originRequest: OriginRequest?
}

/// How a chain ended.
public enum ChainOutcome: String, Sendable {
    case final, loop, offsite
    case tooManyHops = "too-many-hops"
    case error
}

/// A whole chain from the first request to its verdict.
public struct ChainResult: Sendable {
    public var request: String
    public var outcome: ChainOutcome
    public var hops: [Hop]
    /// For loops: index of the first hop of the cycle.
    public var loopStart: Int?
    public var offsiteURL: String?
    public var finalStatus: Int { hops.last?.status ?? 0 }
    /// URLs of the cycle, for loops.
    public var cycle: [String] { loopStart.map { hops[$0...].map(\.url) } ?? [] }
}

/// Follows a browser request through the edge to Apache and along its redirects
/// (layers-and-mixed-content §1.3): deterministic, bounded by the browser's redirect limit.
public struct ChainSimulator: Sendable {
    public let origin: Origin
    /// The origin that answers TLS connections (a separate `<VirtualHost *:443>`); often the same.
    public let tlsOrigin: Origin
    public let edge: Edge
    public var maxHops = 20
    public var userAgent = "Mozilla/5.0 (compatible; htlint/0.1)"

    public init(origin: Origin, tlsOrigin: Origin? = nil, edge: Edge) {
        self.origin = origin
        self.tlsOrigin = tlsOrigin ?? origin
        self.edge = edge
    }

    /// Whether a URL is served by this site (own host or alias, http/https, default port).
    public func isOnSite(_ u: URLParts) -> Bool {
        (u.scheme == "http" || u.scheme == "https") && u.hasDefaultPort && origin.site.isOwnHost(u.host)
    }

    public func run(_ start: String, method: String = "GET", headers: [HTTPHeader] = []) -> ChainResult {
        var hops: [Hop] = []
        var seen: [String: Int] = [:]
        var current = start
        var method = method.uppercased()
        var first = true
        while true {
            guard let url = URLParts(current) else {
                return ChainResult(request: start, outcome: .error, hops: hops, loopStart: nil, offsiteURL: current)
            }
            if let index = seen[url.identity] {
                return ChainResult(request: start, outcome: .loop, hops: hops, loopStart: index, offsiteURL: nil)
            }
            if hops.count >= maxHops {
                return ChainResult(request: start, outcome: .tooManyHops, hops: hops, loopStart: nil, offsiteURL: nil)
            }
            seen[url.identity] = hops.count
            let hop = exchange(url, method: method, headers: headers, firstHop: first)
            first = false
            hops.append(hop)
            guard (300...399).contains(hop.status), let location = hop.location else {
                return ChainResult(request: start, outcome: .final, hops: hops, loopStart: nil, offsiteURL: nil)
            }
            let next = url.resolve(location)
            guard let nextURL = URLParts(next), isOnSite(nextURL) else {
                return ChainResult(request: start, outcome: .offsite, hops: hops, loopStart: nil, offsiteURL: next)
            }
            if method == "POST", [301, 302, 303].contains(hop.status) { method = "GET" }
            current = next
        }
    }

    /// One request through the edge to the origin.
    func exchange(_ url: URLParts, method: String, headers: [HTTPHeader], firstHop: Bool) -> Hop {
        if let own = edge.ownAnswer(scheme: url.scheme, host: url.hostHeader, target: url.target) {
            return Hop(url: url.text, method: method, status: own.status, location: own.location, answeredBy: "edge",
                       served: nil, origin: nil, originRequest: nil)
        }
        var sent: [HTTPHeader] = []
        let hostOverride = firstHop ? headers.first { $0.name.lowercased() == "host" } : nil
        sent.append(hostOverride ?? HTTPHeader("Host", url.hostHeader))
        if !headers.contains(where: { $0.name.lowercased() == "user-agent" }) {
            sent.append(HTTPHeader("User-Agent", userAgent))
        }
        sent += headers.filter { $0.name.lowercased() != "host" }
        sent += edge.forwardedHeaders(scheme: url.scheme)
        let request = OriginRequest(method: method, target: url.target, headers: sent,
                                    tls: edge.originTLS(forVisitorScheme: url.scheme))
        let response = (request.tls ? tlsOrigin : origin).respond(to: request)
        return Hop(url: url.text, method: method, status: response.status, location: response.location,
                   answeredBy: "apache", served: method == "HEAD" ? nil : response.served,
                   origin: response, originRequest: request)
    }
}
