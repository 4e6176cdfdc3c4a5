import HtlintApache

/// nginx as a TLS-terminating reverse proxy in front of Apache (layers-and-mixed-content §5).
/// Defaults are nginx's own: `Host $proxy_host`, no forwarding headers, `proxy_redirect default`.
public struct NginxProxy: Layer, Hashable {
    /// `proxy_set_header Host …`.
    public enum HostHeader: String, Sendable, CaseIterable {
        /// The default: host and port of `proxy_pass`.
        case proxyHost = "$proxy_host"
        /// The client's host without port.
        case host = "$host"
        /// The client's host and nginx's listening port (the WordPress handbook's example).
        case hostAndPort = "$host:$server_port"
        /// The client's `Host` header verbatim.
        case httpHost = "$http_host"
    }

    /// `proxy_set_header X-Forwarded-Proto …`.
    public enum ForwardedProto: String, Sendable, CaseIterable {
        /// Not set: whatever the client (or an outer layer) sent passes unchanged.
        case none
        /// nginx's own connection scheme (overwrites an outer layer's value, §11.3 P12).
        case scheme = "$scheme"
        /// The incoming header's value, passed on.
        case incoming = "$http_x_forwarded_proto"
    }

    /// What the port-80 `server` does.
    public enum HTTPServer: String, Sendable, CaseIterable {
        /// `return 301 https://$host$request_uri;`
        case redirect
        /// Proxies like the TLS server.
        case proxy
        /// Not listening on 80.
        case none
    }

    /// One `proxy_redirect FROM TO;` (prefix replacement of `Location`).
    public struct Rewrite: Sendable, Hashable {
        public var from: String
        public var to: String
        public init(from: String, to: String) { self.from = from; self.to = to }
    }

    /// `proxy_redirect`.
    public enum ProxyRedirect: Sendable, Hashable {
        /// `proxy_redirect default`: `http://<proxy_pass host>/` → `/` (§5.2).
        case `default`
        case off
        case rules([Rewrite])
    }

    public var httpServer: HTTPServer
    /// Port of the `listen … ssl` server; nil when nginx does not terminate TLS itself.
    public var tlsPort: Int?
    public var httpPort: Int
    /// `proxy_pass http://HOST[:PORT]` (scheme http unless `upstreamScheme` says otherwise).
    public var upstreamHost: String
    public var upstreamPort: Int
    public var upstreamScheme: String
    public var hostHeader: HostHeader
    public var forwardedProto: ForwardedProto
    /// `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`.
    public var forwardedFor: Bool
    public var proxyRedirect: ProxyRedirect
    /// `add_header` lines (e.g. Strict-Transport-Security) and whether they carry `always`.
    public var addHeaders: [HTTPHeader]
    public var addHeadersAlways: Bool
    /// `server_name`, used for `$host` when the request has no `Host`.
    public var serverName: String?

    public init(httpServer: HTTPServer = .redirect, tlsPort: Int? = 443, httpPort: Int = 80,
                upstreamHost: String = "127.0.0.1", upstreamPort: Int = 8080, upstreamScheme: String = "http",
                hostHeader: HostHeader = .proxyHost, forwardedProto: ForwardedProto = .none, forwardedFor: Bool = false,
                proxyRedirect: ProxyRedirect = .default, addHeaders: [HTTPHeader] = [], addHeadersAlways: Bool = false,
                serverName: String? = nil) {
        self.httpServer = httpServer
        self.tlsPort = tlsPort
        self.httpPort = httpPort
        self.upstreamHost = upstreamHost
        self.upstreamPort = upstreamPort
        self.upstreamScheme = upstreamScheme
        self.hostHeader = hostHeader
        self.forwardedProto = forwardedProto
        self.forwardedFor = forwardedFor
        self.proxyRedirect = proxyRedirect
        self.addHeaders = addHeaders
        self.addHeadersAlways = addHeadersAlways
        self.serverName = serverName
    }

    public var label: String { "nginx" }

    /// `$proxy_host`: the `proxy_pass` host, with its port unless it is the scheme's default.
    public var proxyHost: String {
        upstreamPort == (upstreamScheme == "https" ? 443 : 80) ? upstreamHost : "\(upstreamHost):\(upstreamPort)"
    }

    public func listens(on port: Int) -> Bool { port == tlsPort || (port == httpPort && httpServer != .none) }
    public func speaksTLS(on port: Int) -> Bool { port == tlsPort }
    public var verifiesCertificates: Bool { false }  // proxy_ssl_verify is off by default

    public func receive(_ request: HopRequest) -> LayerDecision {
        if request.port == tlsPort, request.scheme == "http" {
            // nginx's internal 497, sent as 400 unless `error_page 497` is set (§5.2).
            return .answer(HopResponse(status: 400, answerer: .edge, producer: label,
                                       reason: "The plain HTTP request was sent to HTTPS port"))
        }
        // ngx_http_validate_host, as the recordings' nginx answers (https-edge-refuses-invalid-host).
        if !request.host.isEmpty, !Edge.nginxAcceptsHost(request.host) {
            return .answer(HopResponse(status: 400, answerer: .edge, producer: label,
                                       reason: "nginx refuses the Host header (.., /, a blank or control byte, or no name)"))
        }
        let host = request.host.isEmpty ? (serverName ?? "") : request.hostName
        if request.port == httpPort, request.port != tlsPort, httpServer == .redirect {
            return .answer(HopResponse(status: 301, location: "https://\(host)\(request.target)", answerer: .edge,
                                       producer: label, reason: "return 301 https://$host$request_uri"))
        }
        var next = request
        next.scheme = upstreamScheme
        next.port = upstreamPort
        var notes = ["proxy_pass \(upstreamScheme)://\(proxyHost): the origin is reached over \(upstreamScheme)"]
        // nginx's defaults (`ignore_invalid_headers on`, `underscores_in_headers off`) pass no
        // header whose name holds `_` (recorded behind the oracle's nginx:
        // header-edge-drops-underscore-request-header-names).
        let dropped = next.headers.filter { !Edge.isValidNginxHeaderName($0.name) }.map(\.name)
        if !dropped.isEmpty {
            next.headers.removeAll { !Edge.isValidNginxHeaderName($0.name) }
            notes.append("nginx does not pass \(dropped.joined(separator: ", ")) (a name with `_` or another odd byte; underscores_in_headers off)")
        }
        switch hostHeader {
        case .proxyHost:
            next.host = proxyHost
            notes.append("Host is nginx's default $proxy_host: \(proxyHost)")
        case .host: next.host = host
        case .hostAndPort:
            next.host = "\(host):\(request.port)"
            notes.append("Host $host:$server_port adds nginx's port: \(next.host)")
        case .httpHost: break
        }
        switch forwardedProto {
        case .none: break
        case .scheme:
            if let incoming = request.header("X-Forwarded-Proto"), incoming != request.scheme {
                notes.append("X-Forwarded-Proto $scheme replaces the incoming `\(incoming)` with nginx's own scheme `\(request.scheme)`")
            }
            next.setHeader("X-Forwarded-Proto", request.scheme)
        case .incoming:
            next.setHeader("X-Forwarded-Proto", request.header("X-Forwarded-Proto") ?? "")
        }
        if forwardedFor { next.appendForwardedFor("127.0.0.1") }
        return .forward(next, notes: notes)
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        HopResponse(status: 502, answerer: .edge, producer: label, reason: "upstream \(proxyHost) cannot be reached (\(failure))")
    }

    /// The `proxy_redirect` rules in effect.
    var rewrites: [Rewrite] {
        switch proxyRedirect {
        case .default: return [Rewrite(from: "\(upstreamScheme)://\(proxyHost)/", to: "/")]
        case .off: return []
        case .rules(let r): return r
        }
    }

    public func respond(_ r: consuming HopResponse, received: HopRequest, forwarded: HopRequest) -> (HopResponse, [String]) {
        var notes: [String] = []
        if let location = r.location, let rule = rewrites.first(where: { location.hasPrefix($0.from) }) {
            var rewritten = rule.to + location.dropFirst(rule.from.count)
            // Only a matched Location is made absolute, with nginx's view of the request:
            // its scheme, the Host's name, its own port unless default (§5.2).
            if rewritten.hasPrefix("/") {
                rewritten = authority(received.scheme, received.hostName, received.port) + rewritten
            }
            r.location = rewritten
            r.headers.removeAll { $0.name.lowercased() == "location" }
            notes.append("proxy_redirect rewrites Location \(location) → \(rewritten)")
        } else if r.location != nil, forwarded.host != received.host || forwarded.scheme != received.scheme {
            notes.append("proxy_redirect does not match the Location: passed unchanged")
        }
        let addable: Set<Int> = [200, 201, 204, 206, 301, 302, 303, 304, 307, 308]
        if !addHeaders.isEmpty, addHeadersAlways || addable.contains(r.status) {
            for h in addHeaders { r.headers.append(h) }
            notes.append("add_header " + addHeaders.map(\.name).joined(separator: ", "))
        }
        return (r, notes)
    }
}
