import Foundation
import HtlintApache
import HtlintSimulation
import HtlintYAML

/// A site description (`--site FILE`, YAML): the same settings as the site options, plus the
/// layers in detail, WordPress and the browser. Paths are relative to the file. Example:
///
///     docroot: site                # the document root's files
///     host: example.org
///     aliases: [www.example.org]
///     vhost: vhost.conf            # or vhost-lines: [...]
///     modules: [env]
///     server-docroot: /var/www/html
///     origin: {tls: none}          # none, valid, self-signed, expired, wrong-host, broken
///     layers:                      # outermost first; or `edge: cloudflare-flexible`
///       - type: cloudflare
///         ssl: flexible            # off, flexible, full, strict, origin-pull
///         always-use-https: false
///         hsts: "max-age=31536000"
///         redirects: [{host: www.example.org, to: "https://example.org${uri}", status: 301}]
///         cache: true              # default cache behaviour (by extension), off unless set
///       - type: nginx
///         proxy-pass: http://127.0.0.1:8080
///         host-header: $host
///     wordpress: {home: https://example.org, siteurl: https://example.org/blog, proxy-fix: none}
///     browser: {profile: chrome, hsts: [example.org], max-hops: 20}
///     urls: [https://example.org/]  # simulated when the command line names none
struct SiteFile {
    var docroot: String?
    var host: String?
    var aliases: [String]?
    var vhost: String?
    var vhostLines: [String]?
    var modules: [String]?
    var serverDocroot: String?
    var directoryIndex: [String]?
    var layers: [any Layer]?
    var originTLS: OriginServer.TLS?
    var originCertificate: ServerCertificate?
    var wordpress: WordPress?
    var browser: Browser?
    var hsts: [String]?
    var maxHops: Int?
    var urls: [String] = []

    /// Reads and checks a site file; errors name the file and line.
    static func load(_ path: String, io: CLIEnvironment) throws -> SiteFile {
        let text = String(decoding: try io.read(path), as: UTF8.self)
        let yaml: YAMLValue
        do { yaml = try parseYAML(text) } catch {
            throw CLIError.usage("\(path):\(error.line):\(error.column): \(error.message)")
        }
        let base = (path as NSString).deletingLastPathComponent
        func resolve(_ p: String) -> String { p.hasPrefix("/") || base.isEmpty ? p : base + "/" + p }
        let r = Reader(file: path)
        guard case .mapping = yaml else {
            if case .null = yaml { return SiteFile() }
            throw r.error(yaml, "a site file is a mapping of settings")
        }
        try r.only(yaml, ["docroot", "host", "aliases", "vhost", "vhost-lines", "modules", "server-docroot", "directory-index",
                          "edge", "layers", "origin", "wordpress", "browser", "urls"])
        var s = SiteFile()
        s.docroot = try r.string(yaml, "docroot").map(resolve)
        s.host = try r.string(yaml, "host")
        s.aliases = try r.strings(yaml, "aliases")
        if let host = s.host, let problem = SiteOptions.hostNameProblem(host) {
            throw r.error(yaml["host"]!, "host expects a host name, got '\(host)': \(problem)")
        }
        for (i, alias) in (s.aliases ?? []).enumerated() {
            if let problem = SiteOptions.hostNameProblem(alias) {
                throw r.error(yaml["aliases"]?.array?[i] ?? yaml["aliases"]!, "aliases expects host names, got '\(alias)': \(problem)")
            }
        }
        s.vhost = try r.string(yaml, "vhost").map(resolve)
        s.vhostLines = try r.strings(yaml, "vhost-lines").map { $0.flatMap { $0.split(separator: "\n").map(String.init) } }
        s.modules = try r.strings(yaml, "modules")
        s.serverDocroot = try r.string(yaml, "server-docroot")
        s.directoryIndex = try r.strings(yaml, "directory-index")
        if let edge = try r.string(yaml, "edge") {
            guard let layers = LayerNames.layers(edge) else { throw r.error(yaml["edge"]!, "unknown edge '\(edge)'") }
            s.layers = layers
        }
        if let list = yaml["layers"] {
            guard let items = list.array else { throw r.error(list, "layers is a list") }
            s.layers = try items.map { try r.layer($0) }
        }
        if let origin = yaml["origin"] {
            try r.only(origin, ["tls", "certificate"])
            if let c = origin["certificate"] { s.originCertificate = try r.certificate(c) }
            if let tls = try r.string(origin, "tls") {
                guard let t = OriginServer.TLS(rawValue: tls) else {
                    throw r.error(origin["tls"]!, "unknown origin tls '\(tls)'; expected one of: \(OriginServer.TLS.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                s.originTLS = t
            }
        }
        if let wp = yaml["wordpress"] { s.wordpress = try r.wordpress(wp) }
        if let b = yaml["browser"] {
            try r.only(b, ["profile", "hsts", "max-hops"])
            if let name = try r.string(b, "profile") {
                guard let profile = Browser.named(name) else { throw r.error(b["profile"]!, "unknown browser '\(name)'") }
                s.browser = profile
            }
            if let h = b["hsts"] { s.hsts = h.bool.map { $0 ? [] : nil } ?? h.strings }
            s.maxHops = try r.int(b, "max-hops")
        }
        s.urls = try r.strings(yaml, "urls") ?? []
        return s
    }
}

/// Typed access to YAML values with `file:line:` errors.
struct Reader {
    let file: String

    func error(_ v: YAMLValue, _ message: String) -> CLIError { .usage("\(file):\(v.line): \(message)") }

    /// Rejects unknown keys (a typo must not be silently ignored).
    func only(_ v: YAMLValue, _ keys: Set<String>) throws {
        guard case .mapping(let pairs, _) = v else { throw error(v, "expected a mapping") }
        for (k, value) in pairs where !keys.contains(k) {
            throw error(value, "unknown setting '\(k)'; expected one of: \(keys.sorted().joined(separator: ", "))")
        }
    }

    /// `origin.certificate`: what mod_ssl's `SSL_SERVER_*` variables describe. `subject` and
    /// `issuer` (default: the subject, self-signed) as mod_ssl prints them, `key` and `signature`
    /// as OpenSSL names the algorithms (`rsaEncryption`, `sha256WithRSAEncryption`).
    func certificate(_ v: YAMLValue) throws -> ServerCertificate {
        try only(v, ["subject", "issuer", "key", "signature"])
        func name(_ key: String) throws -> [ServerCertificate.Attribute]? {
            guard let text = try string(v, key) else { return nil }
            guard let attributes = ServerCertificate.attributes(fromDistinguishedName: text) else {
                throw error(v[key]!, "\(key) is a name like CN=shop.example,O=Shop,C=DE (tags: \(ServerCertificate.tags.sorted().joined(separator: ", ")))")
            }
            return attributes
        }
        guard let subject = try name("subject") else { throw error(v, "a certificate needs its subject") }
        return ServerCertificate(subject: subject, issuer: try name("issuer") ?? subject,
                                 keyAlgorithm: try string(v, "key") ?? "", signatureAlgorithm: try string(v, "signature") ?? "")
    }

    func string(_ v: YAMLValue, _ key: String) throws -> String? {
        guard let x = v[key] else { return nil }
        if case .null = x { return nil }
        guard let s = x.string else { throw error(x, "\(key) is a single value") }
        return s
    }

    func strings(_ v: YAMLValue, _ key: String) throws -> [String]? {
        guard let x = v[key] else { return nil }
        if case .null = x { return [] }
        guard let s = x.strings else { throw error(x, "\(key) is a value or a list of values") }
        return s
    }

    func bool(_ v: YAMLValue, _ key: String) throws -> Bool? {
        guard let x = v[key] else { return nil }
        guard let b = x.bool else { throw error(x, "\(key) is true or false") }
        return b
    }

    func int(_ v: YAMLValue, _ key: String) throws -> Int? {
        guard let x = v[key] else { return nil }
        guard let i = x.int else { throw error(x, "\(key) is a number") }
        return i
    }

    func choice<T: RawRepresentable>(_ v: YAMLValue, _ key: String, _ type: T.Type, _ all: [T]) throws -> T? where T.RawValue == String {
        guard let s = try string(v, key) else { return nil }
        guard let value = T(rawValue: s) else {
            throw error(v[key]!, "unknown \(key) '\(s)'; expected one of: \(all.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    /// One entry of `layers:`.
    func layer(_ v: YAMLValue) throws -> any Layer {
        guard let type = try string(v, "type") else { throw error(v, "a layer needs a type (cloudflare, cloudfront, alb, clb, nginx, haproxy, fastly, varnish, proxy)") }
        switch type {
        case "cloudflare", "proxy":
            try only(v, ["type", "ssl", "always-use-https", "hsts", "redirects", "cache"])
            var edge = Edge(mode: .terminatingProxy)
            if type == "cloudflare" {
                let ssl = try string(v, "ssl") ?? "full"
                guard let e = Edge(name: "cloudflare-" + ssl), e.mode != .none else { throw error(v["ssl"] ?? v, "unknown ssl mode '\(ssl)'; expected off, flexible, full, strict or origin-pull") }
                edge = e
            }
            edge.alwaysHTTPS = try bool(v, "always-use-https") ?? false
            edge.hsts = try string(v, "hsts")
            edge.cache = try bool(v, "cache") ?? false
            for r in v["redirects"]?.array ?? [] {
                try only(r, ["scheme", "host", "path", "to", "status", "preserve-query"])
                guard let to = try string(r, "to") else { throw error(r, "a redirect needs `to`") }
                edge.redirectRules.append(EdgeRedirectRule(scheme: try string(r, "scheme"), host: try string(r, "host"),
                                                           path: try string(r, "path"), target: to,
                                                           status: try int(r, "status") ?? 301,
                                                           preserveQuery: try bool(r, "preserve-query") ?? false))
            }
            return edge
        case "cloudfront":
            try only(v, ["type", "viewer-protocol-policy", "origin-protocol-policy", "origin-domain", "forward-host",
                         "forwarded-proto-header", "origin-http-port", "origin-https-port", "hsts", "cache", "default-ttl"])
            return CloudFront(viewerPolicy: try choice(v, "viewer-protocol-policy", CloudFront.ViewerPolicy.self, CloudFront.ViewerPolicy.allCases) ?? .redirectToHTTPS,
                              originPolicy: try choice(v, "origin-protocol-policy", CloudFront.OriginPolicy.self, CloudFront.OriginPolicy.allCases) ?? .httpOnly,
                              originHTTPPort: try int(v, "origin-http-port") ?? 80, originHTTPSPort: try int(v, "origin-https-port") ?? 443,
                              forwardHost: try bool(v, "forward-host") ?? false, originDomain: try string(v, "origin-domain"),
                              forwardedProtoHeader: try bool(v, "forwarded-proto-header") ?? false, hsts: try string(v, "hsts"),
                              cache: try bool(v, "cache") ?? false, defaultTTL: try string(v, "default-ttl") ?? "24 h")
        case "alb", "clb":
            try only(v, ["type", "http-listener", "redirect-status", "target", "target-port", "health-check", "health-check-codes"])
            return LoadBalancer(kind: type == "alb" ? .alb : .clb,
                                httpListener: try choice(v, "http-listener", LoadBalancer.HTTPListener.self, LoadBalancer.HTTPListener.allCases) ?? .forward,
                                redirectStatus: try int(v, "redirect-status") ?? 301, targetScheme: try string(v, "target") ?? "http",
                                targetPort: try int(v, "target-port") ?? 80, healthCheck: try healthCheck(v, classic: type == "clb"))
        case "nginx":
            return try nginx(v)
        case "fastly", "varnish":
            try only(v, ["type", "force-tls", "x-forwarded-proto", "backend-port", "ttl"])
            return CachingProxy(kind: type == "fastly" ? .fastly : .varnish, forceTLS: try bool(v, "force-tls") ?? false,
                                setsForwardedProto: try bool(v, "x-forwarded-proto"), backendPort: try int(v, "backend-port") ?? 80,
                                ttl: try string(v, "ttl"))
        case "haproxy":
            try only(v, ["type", "redirect-code", "x-forwarded-proto", "forwardfor", "backend-port"])
            let code = v["redirect-code"]
            return HAProxy(redirectCode: code?.bool == false ? nil : (try int(v, "redirect-code") ?? 302),
                           setsForwardedProto: try bool(v, "x-forwarded-proto") ?? true, forwardFor: try bool(v, "forwardfor") ?? true,
                           backendPort: try int(v, "backend-port") ?? 80)
        default:
            throw error(v["type"]!, "unknown layer type '\(type)'; expected cloudflare, cloudfront, alb, clb, nginx, haproxy, fastly, varnish or proxy")
        }
    }

    /// `health-check: /ping` (`false` for a Classic Load Balancer's TCP check) and
    /// `health-check-codes: 200-399` (ALB only); nil leaves the kind's default.
    func healthCheck(_ v: YAMLValue, classic: Bool) throws -> LoadBalancer.HealthCheck?? {
        if let node = v["health-check"], node.bool == false {
            guard classic else { throw error(node, "an ALB's HTTP target group always checks over HTTP: health-check is a path such as /ping") }
            if let codes = v["health-check-codes"] { throw error(codes, "health-check-codes needs an HTTP health check, not health-check: false") }
            return .some(nil)
        }
        guard v["health-check"] != nil || v["health-check-codes"] != nil else { return nil }
        var check = LoadBalancer.HealthCheck(path: try string(v, "health-check") ?? LoadBalancer.HealthCheck.defaultPath(classic ? .clb : .alb))
        guard check.path.hasPrefix("/") else { throw error(v["health-check"]!, "health-check is a path such as /ping, or false for a TCP check") }
        if let text = try string(v, "health-check-codes") {
            let node = v["health-check-codes"]!
            guard !classic else { throw error(node, "a Classic Load Balancer accepts only 200; health-check-codes is an ALB setting") }
            guard !text.isEmpty else { throw error(node, "health-check-codes are HTTP codes from 200 to 499: 200, 200-399 or 200,302") }
            check.codes = try text.split(separator: ",", omittingEmptySubsequences: false).map { part -> ClosedRange<Int> in
                let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
                    .map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard (1...2).contains(bounds.count), let low = bounds.first ?? nil, let high = bounds.last ?? nil,
                      low <= high, (200...499).contains(low), (200...499).contains(high) else {
                    throw error(node, "health-check-codes are HTTP codes from 200 to 499: 200, 200-399 or 200,302")
                }
                return low...high
            }
        }
        return .some(check)
    }

    func nginx(_ v: YAMLValue) throws -> NginxProxy {
        try only(v, ["type", "http", "listen-tls", "listen-http", "proxy-pass", "host-header", "x-forwarded-proto",
                     "x-forwarded-for", "proxy-redirect", "add-header", "add-header-always", "server-name"])
        var n = NginxProxy(httpServer: try choice(v, "http", NginxProxy.HTTPServer.self, NginxProxy.HTTPServer.allCases) ?? .redirect)
        if let tls = v["listen-tls"] { n.tlsPort = tls.bool == false ? nil : try int(v, "listen-tls") }
        n.httpPort = try int(v, "listen-http") ?? 80
        if let pass = try string(v, "proxy-pass") {
            guard let u = URLParts(pass) else { throw error(v["proxy-pass"]!, "proxy-pass is a URL such as http://127.0.0.1:8080") }
            n.upstreamScheme = u.scheme
            n.upstreamHost = u.host
            n.upstreamPort = u.effectivePort
        }
        n.hostHeader = try choice(v, "host-header", NginxProxy.HostHeader.self, NginxProxy.HostHeader.allCases) ?? .proxyHost
        n.forwardedProto = try choice(v, "x-forwarded-proto", NginxProxy.ForwardedProto.self, NginxProxy.ForwardedProto.allCases) ?? .none
        n.forwardedFor = try bool(v, "x-forwarded-for") ?? false
        if let pr = v["proxy-redirect"] {
            switch pr.string {
            case "default"?: n.proxyRedirect = .default
            case "off"?: n.proxyRedirect = .off
            default:
                let rules = try (pr.strings ?? []).map { line -> NginxProxy.Rewrite in
                    let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    guard parts.count == 2 else { throw error(pr, "proxy-redirect is default, off, or a list of \"FROM TO\"") }
                    return NginxProxy.Rewrite(from: parts[0], to: parts[1])
                }
                n.proxyRedirect = .rules(rules)
            }
        }
        if case .mapping(let pairs, _)? = v["add-header"] {
            n.addHeaders = pairs.compactMap { k, value in value.string.map { HTTPHeader(k, $0) } }
        }
        n.addHeadersAlways = try bool(v, "add-header-always") ?? false
        n.serverName = try string(v, "server-name")
        return n
    }

    func wordpress(_ v: YAMLValue) throws -> WordPress {
        try only(v, ["home", "siteurl", "directory", "proxy-fix", "force-ssl-admin", "logged-in", "trailing-slash"])
        guard let home = try string(v, "home") else { throw error(v, "wordpress needs `home` (the Site Address)") }
        var fix = try string(v, "proxy-fix")
        if fix?.lowercased() == "none" || v["proxy-fix"]?.bool == false { fix = nil }
        if v["proxy-fix"]?.bool == true { fix = "X-Forwarded-Proto" }
        return WordPress(home: home, siteURL: try string(v, "siteurl"), directory: try string(v, "directory"), proxyFixHeader: fix,
                         forceSSLAdmin: try bool(v, "force-ssl-admin"), loggedIn: try bool(v, "logged-in") ?? false,
                         trailingSlashPermalinks: try bool(v, "trailing-slash") ?? true)
    }
}
