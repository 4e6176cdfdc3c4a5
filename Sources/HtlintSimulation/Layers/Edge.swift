import HtlintApache

/// A layer in front of the origin that may terminate TLS (a CDN, load balancer or proxy), and
/// what the origin sees through it (layers-and-mixed-content §2–§5).
public struct Edge: Sendable, Hashable {
    public enum Mode: String, Sendable, CaseIterable {
        /// The browser talks to Apache directly.
        case none
        /// Cloudflare with the proxy on but SSL off: http only to the origin, https not offered.
        case cloudflareOff = "cloudflare-off"
        /// TLS ends at the edge; the origin is always reached over plain HTTP.
        case cloudflareFlexible = "cloudflare-flexible"
        /// The edge reaches the origin with the visitor's scheme.
        case cloudflareFull = "cloudflare-full"
        /// As full, with a validated origin certificate.
        case cloudflareStrict = "cloudflare-strict"
        /// A TLS-terminating reverse proxy or load balancer that talks HTTP to the origin.
        case terminatingProxy = "proxy"
    }

    public var mode: Mode
    /// The edge answers http requests itself with `301 https://host/uri` ("Always Use HTTPS").
    public var alwaysHTTPS: Bool

    public init(mode: Mode, alwaysHTTPS: Bool = false) {
        self.mode = mode
        self.alwaysHTTPS = alwaysHTTPS
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
        case "proxy", "nginx", "load-balancer", "alb": self.init(mode: .terminatingProxy, alwaysHTTPS: always)
        default: return nil
        }
    }

    /// A proxy in the path adds forwarding headers.
    public var isProxy: Bool { mode != .none }

    /// Whether the origin connection is TLS for a visitor using `scheme`.
    public func originTLS(forVisitorScheme scheme: String) -> Bool {
        switch mode {
        case .none, .cloudflareFull, .cloudflareStrict: return scheme == "https"
        case .cloudflareOff, .cloudflareFlexible, .terminatingProxy: return false
        }
    }

    /// The edge's own answer, when it does not ask the origin.
    public func ownAnswer(scheme: String, host: String, target: String) -> (status: Int, location: String)? {
        guard alwaysHTTPS, scheme == "http", mode != .none else { return nil }
        return (301, "https://\(host)\(target)")
    }

    /// Headers the edge adds toward the origin.
    public func forwardedHeaders(scheme: String) -> [HTTPHeader] {
        guard isProxy else { return [] }
        var h = [HTTPHeader("X-Forwarded-Proto", scheme), HTTPHeader("X-Forwarded-For", "127.0.0.1")]
        if mode != .terminatingProxy {
            h.append(HTTPHeader("CF-Visitor", "{\"scheme\":\"\(scheme)\"}"))
            h.append(HTTPHeader("CF-Connecting-IP", "127.0.0.1"))
        }
        return h
    }
}
