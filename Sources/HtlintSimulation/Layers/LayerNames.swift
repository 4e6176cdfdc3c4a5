/// Layer names for `--edge`, `edge:` in a site file and rule examples: Cloudflare modes, `cloudfront`, `alb`,
/// `clb`, `nginx`, `haproxy`, `fastly`, `varnish`, `proxy`, optionally with `+always-https`.
public enum LayerNames {
    public static let all = ["none", "cloudflare-off", "cloudflare-flexible", "cloudflare-full", "cloudflare-strict",
                      "cloudflare-origin-pull", "cloudfront", "alb", "clb", "nginx", "haproxy", "fastly", "varnish", "proxy"]

    /// The layers a name stands for (empty for `none`), nil for an unknown name.
    public static func layers(_ name: String) -> [any Layer]? {
        var parts = name.lowercased().split(separator: "+").map(String.init)
        var always = false
        if let i = parts.firstIndex(of: "always-https") { always = true; parts.remove(at: i) }
        guard parts.count == 1 else { return nil }
        if var edge = Edge(name: parts[0]) {
            edge.alwaysHTTPS = always
            return edge.mode == .none ? [] : [edge]
        }
        var layer: any Layer
        switch parts[0] {
        case "cloudfront": layer = CloudFront(viewerPolicy: .allowAll, originPolicy: .httpOnly)
        case "alb": layer = LoadBalancer(kind: .alb)
        case "clb": layer = LoadBalancer(kind: .clb)
        case "nginx": layer = NginxProxy(httpServer: .proxy)
        case "haproxy": layer = HAProxy(redirectCode: nil)
        case "fastly": layer = CachingProxy(kind: .fastly)
        case "varnish": layer = CachingProxy(kind: .varnish)
        default: return nil
        }
        if always { layer = withHTTPSRedirect(layer) }
        return [layer]
    }

    /// The layer with its own http→https redirect switched on (`--always-https`).
    public static func withHTTPSRedirect(_ layer: any Layer) -> any Layer {
        switch layer {
        case var e as Edge: e.alwaysHTTPS = true; return e
        case var c as CloudFront: c.viewerPolicy = .redirectToHTTPS; return c
        case var lb as LoadBalancer where lb.kind == .alb: lb.httpListener = .redirect; return lb
        case var n as NginxProxy: n.httpServer = .redirect; return n
        case var h as HAProxy: h.redirectCode = h.redirectCode ?? 302; return h
        case var c as CachingProxy where c.kind == .fastly: c.forceTLS = true; return c
        default: return layer
        }
    }
}
