import HtlintApache

/// Follows a browser request through the layers to Apache (and WordPress) and along its
/// redirects (layers-and-mixed-content §1.3). Deterministic: the same input gives the same chain.
public struct ChainSimulator: Sendable {
    /// Apache for plain-HTTP connections (and TLS ones unless `tlsOrigin` differs).
    public private(set) var origin: Origin
    /// The origin that answers TLS connections (a separate `<VirtualHost *:443>`); often the same.
    public private(set) var tlsOrigin: Origin
    /// With `<VirtualHost>` sections, the origin of each: a request is answered by the one its
    /// port and `Host` pick (`origin` and `tlsOrigin` are those of the site's own name).
    public private(set) var virtualHosts: VirtualHostOrigins?
    /// The layers between the browser and the origin, outermost first.
    public var layers: [any Layer] { didSet { readEdgeLink() } }
    /// `%{SERVER_ADDR}`, `SSL_PROTOCOL` and `SSL_CIPHER` of requests the edge forwards; read once when the
    /// layers are set (finding the edge among them on every hop cast them and copied it).
    private(set) var originServerAddress: String?
    private(set) var originTLSProtocol: String?
    private(set) var originTLSCipher: String?
    /// Host names that name the origin itself rather than the public site (CloudFront's origin
    /// domain, nginx's upstream): a Location there bypasses the layers (rule H10). Read when the
    /// layers are set, as the ones above (each chain reports them).
    public private(set) var internalHosts: Set<String> = []
    /// How the origin listens (TLS or not).
    public var originServer: OriginServer
    /// The application behind Apache, run when a request reaches its entry points.
    public var app: WordPress?
    /// The client: redirect limit, HSTS state.
    public var browser: Browser
    /// The chain stops after this many hops (the browser's limit; the recordings stop after 20).
    public var maxHops: Int
    /// Sent when the request names no User-Agent.
    public var userAgent = "Mozilla/5.0 (compatible; htlint/0.1)"
    /// Public host names the layers serve besides the site's ServerName and aliases.
    public var extraHosts: [String] = []
    /// When set, exactly the host names the client stays on (the recording client is told them:
    /// a case's `host` and `aliases`), whatever names the configuration gives its sections.
    public var clientHosts: Set<String>? = nil
    /// Walk chains as the client of the real-Apache recordings does (conformance README), not as
    /// a browser: a Location on any non-default port is offsite, whatever listens there
    /// (`http://host:443/`, `:8080`); a URL already requested is a loop whatever the method; an
    /// explicit default port (`http://host:80/x`) is requested as written. A browser drops the
    /// default port and includes the method in its loop check: a form posting to `/contact` and
    /// answered `303 /contact` (post/redirect/get) then loads the page with GET.
    public var recordingClient = false
    /// How to rebuild the site with a change (needed to verify fixes); nil when unknown.
    public var source: SiteSource?

    /// How the edge in `layers`, if any, reaches Apache (its address, TLS version and cipher),
    /// and the host names the layers give the origin.
    private mutating func readEdgeLink() {
        let front = layers.lazy.compactMap { $0 as? Edge }.first
        originServerAddress = front?.originServerAddress
        originTLSProtocol = front?.originTLSProtocol
        originTLSCipher = front?.originTLSCipher
        internalHosts = ChainSimulator.internalHosts(of: layers)
    }

    /// The Cloudflare-like edge, as the first simple version had it (mode `none` without layers).
    public var edge: Edge {
        if let e = layers.lazy.compactMap({ $0 as? Edge }).first { return e }
        return Edge(mode: layers.isEmpty ? .none : .terminatingProxy)
    }

    /// One edge (or none) in front of the origin, as the conformance cases describe it.
    public init(origin: Origin, tlsOrigin: Origin? = nil, edge: Edge) {
        self.init(origin: origin, tlsOrigin: tlsOrigin, layers: edge.mode == .none ? [] : [edge])
    }

    /// Any layers in front of the origin; `source` enables verified fixes.
    public init(origin: Origin, tlsOrigin: Origin? = nil, layers: [any Layer], originServer: OriginServer = OriginServer(),
                app: WordPress? = nil, browser: Browser = .chrome, source: SiteSource? = nil) {
        self.origin = origin
        self.tlsOrigin = tlsOrigin ?? origin
        self.layers = layers
        self.originServer = originServer
        self.app = app
        self.browser = browser
        self.maxHops = browser.maxRedirects
        self.source = source
        readEdgeLink()  // didSet does not run in an initialiser
    }

    /// Builds the origin from a source, so that fixes can be verified on changed copies.
    public init(source: SiteSource, layers: [any Layer] = [], originServer: OriginServer = OriginServer(),
                app: WordPress? = nil, browser: Browser = .chrome) {
        let origins = source.origins(originServer)
        self.init(origin: origins.http, tlsOrigin: origins.tls, layers: layers, originServer: originServer, app: app,
                  browser: browser, source: source)
        virtualHosts = origins.virtualHosts
    }

    /// The same topology and client in front of a rebuilt site.
    public func with(source: SiteSource) -> ChainSimulator {
        let origins = source.origins(originServer)
        return replacingOrigins(origins.http, origins.tls, virtualHosts: origins.virtualHosts, source: source)
    }

    /// The same topology and client in front of a changed copy of the site (both virtual hosts).
    /// The copy has no source: a change made to the `Site` cannot be replayed on its source.
    public func with(siteChange change: (Site) -> Site) -> ChainSimulator {
        with(origins: { Origin(site: change($0.site), tracing: $0.tracing) }).replacingSource(nil)
    }

    /// The same simulator with every origin replaced (an origin shared by several connections
    /// stays shared), e.g. rebuilt without tracing for bulk replay.
    public func with(origins transform: (Origin) -> Origin) -> ChainSimulator {
        var done: [ObjectIdentifier: Origin] = [:]
        func once(_ o: Origin) -> Origin {
            if let t = done[ObjectIdentifier(o)] { return t }
            let t = transform(o)
            done[ObjectIdentifier(o)] = t
            return t
        }
        let http = once(origin), tls = once(tlsOrigin)
        return replacingOrigins(http, tls, virtualHosts: virtualHosts?.map(once), source: source)
    }

    /// A copy (layers, origin server, application, client settings) with other origins.
    private func replacingOrigins(_ http: Origin, _ tls: Origin, virtualHosts: VirtualHostOrigins?,
                                  source: SiteSource?) -> ChainSimulator {
        var s = self
        s.origin = http
        s.tlsOrigin = tls
        s.virtualHosts = virtualHosts
        s.source = source
        return s
    }

    private func replacingSource(_ source: SiteSource?) -> ChainSimulator {
        var s = self
        s.source = source
        return s
    }

    /// Host names that name the origin itself rather than the public site (CloudFront's origin
    /// domain, nginx's upstream): a Location there bypasses the layers (rule H10).
    private static func internalHosts(of layers: [any Layer]) -> Set<String> {
        var out: Set<String> = []
        for layer in layers {
            if let c = layer as? CloudFront, let d = c.originDomain { out.insert(d.lowercased()) }
            if let n = layer as? NginxProxy { out.insert(n.upstreamHost.lowercased()); out.insert(n.proxyHost.lowercased()) }
        }
        return out
    }

    /// Whether a URL is served by this site: http/https, one of its host names, a port the
    /// front component listens on. `https://` needs a TLS port: `https://host:80` (a force-https
    /// rule copying `Host: host:80`) cannot even start. Plain http to a TLS port gets an answer
    /// (nginx's 400), so it stays on the site.
    public func isOnSite(_ u: URLParts) -> Bool {
        guard u.scheme == "http" || u.scheme == "https", namesThisSite(u.host) else { return false }
        if recordingClient { return u.hasDefaultPort }
        let port = u.effectivePort
        if let front = layers.first {
            return front.listens(on: port) && (u.scheme == "http" || front.speaksTLS(on: port))
        }
        if u.hasDefaultPort { return true }
        return originServer.listens(on: port) && (u.scheme == "http" || originServer.speaksTLS(on: port))
    }

    /// Whether the component a browser reaches first speaks TLS on `port`.
    public func frontSpeaksTLS(on port: Int) -> Bool {
        layers.first?.speaksTLS(on: port) ?? originServer.speaksTLS(on: port)
    }

    /// One of the site's host names (the client's list when set).
    public func namesThisSite(_ host: String) -> Bool {
        let h = host.lowercased()
        if let clientHosts { return clientHosts.contains(h) }
        return origin.site.isOwnHost(h) || tlsOrigin.site.isOwnHost(h) || virtualHosts?.all.contains { $0.site.isOwnHost(h) } == true
            || extraHosts.contains { $0.lowercased() == h }
    }

    /// Why a browser cannot load a URL naming this site on an explicit port: one nothing in front
    /// listens on, or `https://` to a port that speaks plain HTTP (`https://host:80/`, a target
    /// built with `%{SERVER_PORT}`). Only what is known is said: a layer's ports are, Apache's own
    /// beyond 80 and 443 are not (its `Listen` lines are not part of the site), so there only
    /// `https://` to the plain-HTTP port counts. Nil when it can, or when the URL is another site's.
    public func unreachableReason(_ u: URLParts) -> String? {
        guard !recordingClient, u.port != nil, !u.hasDefaultPort, u.scheme == "http" || u.scheme == "https",
              namesThisSite(u.host) else { return nil }
        let port = u.effectivePort
        guard let front = layers.first else {
            guard u.scheme == "https", port == originServer.httpPort else { return nil }
            return "Apache speaks plain HTTP on port \(port) of \(u.host), not TLS: the browser cannot connect (ERR_SSL_PROTOCOL_ERROR)"
        }
        if !front.listens(on: port) { return "\(front.label) does not listen on port \(port) of \(u.host): the browser cannot connect" }
        if u.scheme == "https", !front.speaksTLS(on: port) {
            return "\(front.label) speaks plain HTTP on port \(port) of \(u.host), not TLS: the browser cannot connect (ERR_SSL_PROTOCOL_ERROR)"
        }
        return nil
    }

    /// The URL a browser holding `hsts` requests instead (RFC 6797 §8.3: http becomes https, an
    /// explicit port 80 becomes 443, any other port is kept).
    func afterHSTS(_ u: URLParts, _ hsts: HSTSStore) -> URLParts {
        guard browser.usesHSTS, u.scheme == "http", hsts.covers(u.host) else { return u }
        return u.upgradedToHTTPS
    }

    /// Follows one URL until a final answer, a repeated state (loop), an offsite redirect, an
    /// error or `maxHops` hops (§1.3); the layers' caches start empty.
    /// `memo`, in a bulk run, holds the hops earlier chains of this simulator met.
    public func run(_ start: String, method: String = "GET", headers: [HTTPHeader] = [], memo: HopMemo? = nil) -> ChainResult {
        var caches = CacheState()
        return run(start, method: method, headers: headers, caches: &caches, memo: memo)
    }

    /// Runs a chain with layer caches that outlive it: several visitors in a row share what the
    /// layers stored (layers-and-mixed-content §16 L14, L27).
    public func run(_ start: String, method: String = "GET", headers: [HTTPHeader] = [], caches: inout CacheState,
                    memo: HopMemo? = nil) -> ChainResult {
        // Room for a usual chain (an http → https → page redirect and the page) in one
        // allocation each, not one per growth.
        var hops: [Hop] = []
        hops.reserveCapacity(4)
        // Each state met so far with its hop's index (an HSTS upgrade adds a hop of its own); a
        // chain is short (the browser's hop limit), so a scan beats hashing four strings per hop.
        var seen: [(state: HopState, hop: Int)] = []
        seen.reserveCapacity(4)
        var current = start
        // The next hop's URL as parsed when its Location was judged (parsing it again cost 2%).
        var parsed: URLParts? = nil
        var method = method.uppercased()
        var first = true
        var hsts = browser.hsts
        func result(_ outcome: ChainOutcome, loopStart: Int? = nil, url: String? = nil, error: String? = nil) -> ChainResult {
            var r = ChainResult(request: start, outcome: outcome, hops: hops, loopStart: loopStart, offsiteURL: url, errorMessage: error)
            r.internalHosts = internalHosts
            return r
        }
        while true {
            guard var url = parsed ?? URLParts(current) else {
                return result(.error, url: current, error: "not an absolute URL: \(current)")
            }
            // A browser's URL parser drops a default port (`http://host:80/x` is `http://host/x`).
            if !recordingClient, url.port != nil, url.hasDefaultPort { url.port = nil }
            // … and writes the `/` of an omitted path.
            if !recordingClient { url.pathOmitted = false }
            // §13.3: a known HSTS host is never contacted over http; the browser shows a 307.
            if browser.usesHSTS, url.scheme == "http", hsts.covers(url.host) {
                if hops.count >= maxHops { return result(.tooManyHops) }
                let upgraded = url.upgradedToHTTPS
                hops.append(Hop(url: url.text, method: method, status: 307, location: upgraded.text, answerer: .browser,
                                producer: "browser", headers: [HTTPHeader("Non-Authoritative-Reason", "HSTS")],
                                reason: "HSTS: \(url.host) is known to be https-only"))
                url = upgraded
                current = upgraded.text
            }
            let state = HopState(method: recordingClient ? "" : method, url: url.loopKey, hsts: hsts.digest, caches: caches.digest)
            if let earlier = seen.first(where: { $0.state == state }) { return result(.loop, loopStart: earlier.hop) }
            if hops.count >= maxHops { return result(.tooManyHops) }
            seen.append((state, hops.count))
            // A hop another chain met is looked up (HopMemo says when a hop depends on its request only).
            let memoized = memo != nil && headers.isEmpty && caches.isEmpty
            let hop: Hop
            if memoized, let known = memo?.answer(url, method: method) {
                hop = known
            } else {
                hop = exchange(url, method: method, headers: headers, firstHop: first, caches: &caches)
                if memoized, caches.isEmpty { memo?.remember(hop, url, method: method) }
            }
            first = false
            // What the browser reads of the answer, taken before the hop is handed to the chain
            // (appending a hop still in use copies it).
            let (status, location, error) = (hop.status, hop.location, hop.error)
            // §13.3: a policy is learnt only from a header received over https.
            let sts = browser.usesHSTS && url.scheme == "https" ? hop.header("Strict-Transport-Security") : nil
            hops.append(consume hop)
            if let error { return result(.error, error: error) }
            if let sts { hsts.learn(sts, host: url.host) }
            guard (300...399).contains(status), let location else { return result(.final) }
            let next = url.resolve(location, likeRecordingClient: recordingClient)
            guard let nextURL = URLParts(next) else {
                // `mailto:`, `tel:`, …: absolute, but nothing the browser requests from this site.
                if URLParts.hasScheme(next) { return result(.offsite, url: next) }
                return result(.error, url: next, error: "unusable Location: \(location)")
            }
            // Judged as the browser will request it: an HSTS host's http URL goes out as https.
            let requested = afterHSTS(nextURL, hsts)
            if let why = unreachableReason(requested) { return result(.error, url: next, error: why) }
            guard isOnSite(requested) else { return result(.offsite, url: next) }
            method = Browser.methodAfter(status: status, method: method)
            current = next
            parsed = nextURL
        }
    }
}

/// What makes a hop the same as an earlier one (a loop): the request (`URLParts.LoopKey`), and
/// the browser's HSTS and the layers' cache state it meets.
private struct HopState: Equatable {
    let method: String
    let url: URLParts.LoopKey
    let hsts: String
    let caches: String
}
