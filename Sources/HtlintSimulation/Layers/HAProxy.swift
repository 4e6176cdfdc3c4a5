import HtlintApache

/// HAProxy terminating TLS on its `bind` lines (layers-and-mixed-content §6).
public struct HAProxy: Layer, Hashable {
    /// `redirect scheme https [code C] if !{ ssl_fc }`, nil for none.
    public var redirectCode: Int?
    /// `http-request set-header X-Forwarded-Proto https if { ssl_fc }` (and `http` otherwise).
    public var setsForwardedProto: Bool
    /// `option forwardfor`.
    public var forwardFor: Bool
    /// Port of the plain-HTTP backend.
    public var backendPort: Int

    /// HAProxy's `redirect` defaults to 302 (§6).
    public init(redirectCode: Int? = 302, setsForwardedProto: Bool = true, forwardFor: Bool = true, backendPort: Int = 80) {
        self.redirectCode = redirectCode
        self.setsForwardedProto = setsForwardedProto
        self.forwardFor = forwardFor
        self.backendPort = backendPort
    }

    public var label: String { "HAProxy" }
    public func listens(on port: Int) -> Bool { port == 80 || port == 443 }
    public func speaksTLS(on port: Int) -> Bool { port == 443 }

    public func receive(_ request: HopRequest) -> LayerDecision {
        if request.scheme == "http", let code = redirectCode {
            return .answer(HopResponse(status: code, location: "https://\(request.host)\(request.target)", answerer: .edge,
                                       producer: label, reason: "redirect scheme https if !{ ssl_fc }"))
        }
        var next = request
        next.scheme = "http"
        next.port = backendPort
        if setsForwardedProto { next.setHeader("X-Forwarded-Proto", request.scheme) }
        if forwardFor { next.appendForwardedFor("127.0.0.1") }
        return .forward(next, notes: ["the backend is reached over plain HTTP"])
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        HopResponse(status: 503, answerer: .edge, producer: label, reason: "no server available (\(failure))")
    }
}
