/// A load balancer's health check as the origin answers it.
public struct HealthCheckResult: Sendable {
    public var balancer: LoadBalancer
    public var check: LoadBalancer.HealthCheck
    /// The request as it reaches Apache.
    public var request: HopRequest
    public var answer: HopResponse
    public var healthy: Bool { check.accepts(answer.status) }
    /// `http://10.0.0.10/ping`.
    public var url: String { "\(request.scheme)://\(request.host)\(request.target)" }
}

extension ChainSimulator {
    /// Every load balancer's HTTP health check, sent straight to Apache as the balancer sends it.
    public func healthChecks() -> [HealthCheckResult] {
        layers.compactMap { layer in
            guard let balancer = layer as? LoadBalancer, let check = balancer.healthCheck,
                  let request = balancer.healthCheckRequest() else { return nil }
            return HealthCheckResult(balancer: balancer, check: check, request: request, answer: askOrigin(request))
        }
    }
}
