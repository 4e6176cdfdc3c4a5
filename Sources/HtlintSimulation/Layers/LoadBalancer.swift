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
    /// The HTTP health check; nil for a Classic Load Balancer's TCP check (an ALB's HTTP target
    /// group always checks over HTTP).
    public var healthCheck: HealthCheck?

    /// What the load balancer requests from each target to decide whether it is healthy: a GET
    /// of `path` on the traffic port, straight to Apache (no `X-Forwarded-*`), with
    /// `User-Agent: ELB-HealthChecker/…` and the target's own address as `Host`. It uses the
    /// target group's protocol, as the console sets it up (the API's default is HTTP).
    public struct HealthCheck: Sendable, Hashable {
        /// `HealthCheckPath`: `/` by default for an ALB, `/index.html` in the console for a
        /// Classic Load Balancer.
        public var path: String
        /// The `Matcher` (success codes): an ALB accepts 200 by default (ranges such as
        /// `200-399` may be set), a Classic Load Balancer only `200 OK`.
        public var codes: [ClosedRange<Int>]
        public init(path: String = "/", codes: [ClosedRange<Int>] = [200...200]) {
            self.path = path
            self.codes = codes
        }
        public func accepts(_ status: Int) -> Bool { codes.contains { $0.contains(status) } }
        /// The path AWS checks unless told otherwise.
        public static func defaultPath(_ kind: Kind) -> String { kind == .alb ? "/" : "/index.html" }
        /// `200`, `200-399`, `200,302`.
        public var codesText: String {
            codes.map { $0.lowerBound == $0.upperBound ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
                .joined(separator: ",")
        }
    }

    public init(kind: Kind = .alb, httpListener: HTTPListener = .forward, redirectStatus: Int = 301,
                targetScheme: String = "http", targetPort: Int = 80, healthCheck: HealthCheck?? = nil) {
        self.kind = kind
        self.httpListener = kind == .clb && httpListener == .redirect ? .forward : httpListener
        self.redirectStatus = redirectStatus
        self.targetScheme = targetScheme
        self.targetPort = targetPort
        self.healthCheck = healthCheck ?? HealthCheck(path: HealthCheck.defaultPath(kind))
    }

    /// The `Host` of a health check: the target's own (private) address; 10.0.0.10 stands in for it.
    public static let targetAddress = "10.0.0.10"

    /// The health check's request as it reaches the target.
    public func healthCheckRequest() -> HopRequest? {
        guard let check = healthCheck else { return nil }
        let agent = kind == .alb ? "ELB-HealthChecker/2.0" : "ELB-HealthChecker/1.0"
        return HopRequest(scheme: targetScheme, port: targetPort, host: LoadBalancer.targetAddress, method: "GET", target: check.path,
                          headers: [HTTPHeader("User-Agent", agent)])
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
            notes.append("the \(request.scheme.uppercased()):\(request.port) listener forwards to an \(targetScheme.uppercased()):\(targetPort) target")
        }
        return .forward(next, notes: notes)
    }

    public func connectionFailed(_ failure: ConnectionFailure, forwarded: HopRequest) -> HopResponse {
        HopResponse(status: 502, answerer: .edge, producer: label, reason: "the target cannot be reached (\(failure))")
    }
}
