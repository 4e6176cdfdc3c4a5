import HtlintApache

/// An AWS Application or Classic Load Balancer terminating TLS (layers-and-mixed-content §4).
public struct LoadBalancer: Layer, Hashable {
    public enum Kind: String, Sendable { case alb, clb }
    /// What the HTTP:80 listener does.
    public enum HTTPListener: String, Sendable, CaseIterable {
        /// Forward to the target group.
        case forward
        /// ALB redirect action: protocol HTTPS, port 443, host/path/query kept (§4.1).
        case redirect
        /// No HTTP listener.
        case none
    }

    /// ALB (with redirect actions) or Classic (without).
    public var kind: Kind
    /// The HTTP:80 listener's action.
    public var httpListener: HTTPListener
    /// Status of the redirect action (`HTTP_301` or `HTTP_302`).
    public var redirectStatus: Int
    /// Protocol and port of the target group.
    public var targetScheme: String
    public var targetPort: Int

    public init(kind: Kind = .alb, httpListener: HTTPListener = .forward, redirectStatus: Int = 301,
                targetScheme: String = "http", targetPort: Int = 80) {
        self.kind = kind
        self.httpListener = kind == .clb && httpListener == .redirect ? .forward : httpListener
        self.redirectStatus = redirectStatus
        self.targetScheme = targetScheme
        self.targetPort = targetPort
    }

    public var label: String { kind == .alb ? "load balancer (ALB)" : "load balancer (CLB)" }

    public func listens(on port: Int) -> Bool { port == 443 || (port == 80 && httpListener != .none) }
    public func speaksTLS(on port: Int) -> Bool { port == 443 }

    public func receive(_ request: HopRequest) -> LayerDecision {
        if request.scheme == "http", httpListener == .redirect {
            // #{protocol}=https, #{port}=443 (omitted as the default port, §17 Q7), rest kept.
            return .answer(HopResponse(status: redirectStatus, location: "https://\(request.hostName)\(request.target)",
                                       answerer: .edge, producer: label, reason: "HTTP listener redirect action"))
        }
        var next = request
        next.scheme = targetScheme
        next.port = targetPort
        // The listener's protocol and port, overwriting client values; Host unchanged [A] (§4.1).
        next.appendForwardedFor("127.0.0.1")
        next.setHeader("X-Forwarded-Proto", request.scheme)
        next.setHeader("X-Forwarded-Port", String(request.port))
        var notes: [String] = []
        if request.scheme != targetScheme {
            notes.append("the \(request.scheme.uppercased()):\(request.port) listener forwards to a \(targetScheme.uppercased()):\(targetPort) target")
        }
        return .forward(next, notes: notes)
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        HopResponse(status: 502, answerer: .edge, producer: label, reason: "the target cannot be reached (\(failure))")
    }
}
