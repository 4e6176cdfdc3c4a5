import HtlintApache

/// A concrete change that ends a loop, already verified by re-simulating the chain with the
/// change applied (issue 4 item 4; layers-and-mixed-content §2.10, §11.4).
public struct Fix: Sendable {
    /// What the fix changes (stable names for JSON).
    public enum Kind: String, Sendable {
        case edgeRedirect = "edge-redirect"
        case forwardedProtoCondition = "x-forwarded-proto-condition"
        case cfVisitorCondition = "cf-visitor-condition"
        case edgeEncryptsOrigin = "edge-full-strict"
        case removeRule = "remove-rule"
        case wordpressProxyFix = "wordpress-proxy-fix"
        case setEnvIfHTTPS = "setenvif-https"
        case nginxPassesProto = "nginx-passes-x-forwarded-proto"
        case wordpressHome = "wordpress-home"
        case removeEdgeRule = "remove-edge-rule"
        case forwardHost = "forward-host"
        case cacheKeyScheme = "cache-key-scheme"
        case endFlag = "end-flag"
        case uriGuard = "request-uri-guard"
    }

    /// The kind of change.
    public var kind: Kind
    /// Imperative title: "Switch Cloudflare SSL/TLS to Full (strict)".
    public var title: String
    /// What to do, line by line (edits quote the lines they touch).
    public var steps: [String]
    /// What the fix needs or costs ("needs a certificate on the origin").
    public var caveat: String?
    /// The topology with the fix applied.
    public var simulator: ChainSimulator
    /// Re-simulated chains: the problem URLs first, then their http/https twins.
    public var verification: [ChainResult] = []
    /// Lower sorts first among fixes that verify equally well.
    var preference: Int

    init(_ kind: Kind, _ title: String, steps: [String], caveat: String? = nil, simulator: ChainSimulator, preference: Int) {
        self.kind = kind
        self.title = title
        self.steps = steps
        self.caveat = caveat
        self.simulator = simulator
        self.preference = preference
    }
}

/// Finds and verifies fixes for chains that loop, exceed the redirect limit or recurse internally.
public enum FixFinder {
    /// A request to re-simulate.
    public struct Request: Sendable {
        /// URL to re-simulate.
        public var url: String
        /// Its method.
        public var method: String
        /// Its extra request headers.
        public var headers: [HTTPHeader]
        /// URLs requested before it, whose answers the layers' caches may hold.
        public var earlierVisitors: [String]
        /// A request as the user gave it.
        public init(url: String, method: String = "GET", headers: [HTTPHeader] = [], earlierVisitors: [String] = []) {
            self.url = url
            self.method = method
            self.headers = headers
            self.earlierVisitors = earlierVisitors
        }

        /// Runs the request through `simulator` after the earlier visitors, as they ran.
        func run(_ url: String, on simulator: ChainSimulator) -> ChainResult {
            var caches = CacheState()
            for visitor in earlierVisitors { _ = simulator.run(visitor, method: method, headers: headers, caches: &caches) }
            return simulator.run(url, method: method, headers: headers, caches: &caches)
        }
    }

    /// Verified fixes for one chain, best first. Only fixes whose re-simulation ends with an
    /// `ok` verdict for the request are returned; the http/https twin of the URL is re-simulated
    /// too and ranks fixes that keep it working (and on https) first.
    public static func fixes(for result: ChainResult, request: Request, simulator: ChainSimulator) -> [Fix] {
        guard [.loop, .tooManyRedirects, .internalRecursion].contains(result.verdict) else { return [] }
        var twins: [String] = []
        if let u = URLParts(request.url), u.hasDefaultPort {
            var t = u
            t.scheme = u.scheme == "https" ? "http" : "https"
            t.port = nil
            twins.append(t.text)
        }
        var verified: [Fix] = []
        var seenTitles: Set<String> = []
        for var fix in FixCandidates.candidates(for: result, simulator: simulator) where seenTitles.insert(fix.title).inserted {
            let main = request.run(request.url, on: fix.simulator)
            guard main.verdict == .ok else { continue }
            fix.verification = [main] + twins.map { request.run($0, on: fix.simulator) }
            verified.append(fix)
        }
        return verified.enumerated().sorted { a, b in
            let x = rank(a.element), y = rank(b.element)
            return x != y ? x.lexicographicallyPrecedes(y) : a.offset < b.offset
        }.map(\.element)
    }

    /// Sort key: every re-simulated URL ends well, on https and without an https→http hop; then
    /// fixes without a caveat, the preference of the kind, and fewer hops.
    static func rank(_ fix: Fix) -> [Int] {
        let allOK = fix.verification.allSatisfy { $0.verdict == .ok }
        let onHTTPS = fix.verification.allSatisfy { $0.hops.last.map { $0.url.hasPrefix("https://") } ?? false }
        let downgrades = fix.verification.contains { $0.codes.contains("DOWNGRADE") }
        let hops = fix.verification.map(\.hops.count).reduce(0, +)
        return [allOK ? 0 : 1, onHTTPS ? 0 : 1, downgrades ? 1 : 0, fix.caveat == nil ? 0 : 1, fix.preference, hops]
    }
}
