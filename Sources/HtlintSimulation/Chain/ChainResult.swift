import HtlintApache

/// One request/response exchange in a redirect chain, including the browser's own synthetic
/// HSTS upgrade (layers-and-mixed-content §0 "Hop").
public struct Hop: Sendable {
    /// The URL requested (after the browser's own normalisation).
    public var url: String
    /// Method of the request (it changes across 301/302/303, §13.2).
    public var method: String
    /// Status the browser received; 0 when it got no answer (see `error`).
    public var status: Int
    /// `Location` as received (possibly relative).
    public var location: String?
    /// In the conformance recordings' words: `apache` (the origin), `edge`, plus `browser` and
    /// `app` for the browser's HSTS upgrade and WordPress. See `answerer` for the JSON names.
    public var answeredBy: String
    /// Who answered, in the JSON output's words.
    public var answerer: Answerer
    /// The file whose content Apache served (relative to the document root).
    public var served: String?
    /// Apache's answer, nil when Apache was not asked.
    public var origin: OriginResponse?
    /// What Apache received (nil from a bulk simulator, whose origin does not trace: see
    /// `ChainSimulator.explains`).
    public var originRequest: OriginRequest?
    /// Response headers as they reached the browser (without `Location`, see `location`).
    public var headers: [HTTPHeader]
    /// The components the request went through, outermost first (empty from a bulk simulator).
    public var path: [PathStep]
    /// The component that produced the answer ("Cloudflare (Flexible)", "Apache", "WordPress").
    public var producer: String
    /// What produced it, when a layer or the application says ("Always Use HTTPS").
    public var reason: String?
    /// WordPress's decision, when it answered.
    public var app: AppAnswer?
    /// A failure the browser shows instead of an answer (connection refused, certificate).
    public var error: String?
    /// When a layer answered from its cache: which answer it had stored, and for how long.
    public var cached: String?

    /// A hop; `answeredBy` follows from `answerer`.
    public init(url: String, method: String, status: Int, location: String?, answerer: Answerer, producer: String,
                headers: [HTTPHeader] = [], path: [PathStep] = [], served: String? = nil, origin: OriginResponse? = nil,
                originRequest: OriginRequest? = nil, reason: String? = nil, app: AppAnswer? = nil, error: String? = nil,
                cached: String? = nil) {
        self.cached = cached
        self.url = url
        self.method = method
        self.status = status
        self.location = location
        self.answerer = answerer
        self.answeredBy = answerer == .origin ? "apache" : answerer.rawValue
        self.producer = producer
        self.headers = headers
        self.path = path
        self.served = served
        self.origin = origin
        self.originRequest = originRequest
        self.reason = reason
        self.app = app
        self.error = error
    }

    /// First response header with this name.
    public func header(_ name: String) -> String? {
        if equalsIgnoringASCIICase(name, "location") { return location }
        return headers.first { equalsIgnoringASCIICase($0.name, name) }?.value
    }

    /// The browser's internal HSTS redirect (no request was sent).
    public var isSynthetic: Bool { answerer == .browser && error == nil }
}

/// How a chain ended, in the conformance recordings' words.
public enum ChainOutcome: String, Sendable {
    case final, loop, offsite
    case tooManyHops = "too-many-hops"
    case error
}

/// The verdict of a chain as `simulate --format json` reports it.
public enum Verdict: String, Sendable, Codable {
    /// A final answer from the site (any status below 500).
    case ok
    /// A URL repeats: the browser would loop until ERR_TOO_MANY_REDIRECTS.
    case loop
    /// Apache answered 500 after more than `LimitInternalRecursion` internal redirects.
    case internalRecursion = "internal-recursion"
    /// No URL repeats, but the chain exceeds the browser's redirect limit.
    case tooManyRedirects = "too-many-redirects"
    /// A redirect leaves the site (another host, scheme or a port the front does not serve).
    case offsite
    /// A server error, a layer's own error page, a connection failure or an unusable Location.
    case error
}

/// A whole chain from the first request to its verdict.
public struct ChainResult: Sendable {
    /// The URL the chain started with.
    public var request: String
    /// How it ended, in the recordings' words (see `verdict` for the JSON one).
    public var outcome: ChainOutcome
    /// Every exchange, synthetic HSTS hops included; the repeated request of a loop is not a hop.
    public var hops: [Hop]
    /// For loops: index of the hop whose URL the last `Location` repeats.
    public var loopStart: Int?
    /// For offsite chains, the URL that leaves the site; for errors, the unusable URL if any.
    public var offsiteURL: String?
    /// Why the chain stopped with an error, in words.
    public var errorMessage: String?
    /// Host names (and `host:port`) that belong to the origin behind the layers, not the public site.
    public var internalHosts: Set<String> = []

    /// A chain result; `internalHosts` is filled in by the simulator.
    public init(request: String, outcome: ChainOutcome, hops: [Hop], loopStart: Int? = nil, offsiteURL: String? = nil,
                errorMessage: String? = nil) {
        self.request = request
        self.outcome = outcome
        self.hops = hops
        self.loopStart = loopStart
        self.offsiteURL = offsiteURL
        self.errorMessage = errorMessage
    }

    /// Status of the last hop.
    public var finalStatus: Int { hops.last?.status ?? 0 }
    /// Some answer read the clock: the same request may take another chain a moment later.
    public var readsClock: Bool { hops.contains { $0.origin?.readsClock == true } }
    /// URLs of the cycle, for loops.
    public var cycle: [String] { loopStart.map { hops[$0...].map(\.url) } ?? [] }
    /// Number of hops in the cycle (the spec's `LOOP(period)`), for loops.
    public var cycleLength: Int? { loopStart.map { hops.count - $0 } }

    /// The verdict of issue 4's JSON shape.
    public var verdict: Verdict {
        switch outcome {
        case .loop: return .loop
        case .tooManyHops: return .tooManyRedirects
        case .offsite: return .offsite
        case .error: return .error
        case .final:
            guard let last = hops.last else { return .error }
            if last.origin?.recursionLimitExceeded == true, last.answerer == .origin { return .internalRecursion }
            if last.error != nil || last.status >= 500 || (last.answerer == .edge && last.status >= 400) { return .error }
            return .ok
        }
    }
}
