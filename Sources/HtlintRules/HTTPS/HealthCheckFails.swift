import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A load balancer's health check that Apache answers with a redirect or an error (failure
/// scenario S07): the https or host redirect meant for visitors also catches the check.
struct HealthCheckFails: LintRule {
    let description = RuleDescription(
        id: "HT315", name: "health-check-fails", family: .https,
        summary: "the load balancer's health check gets a redirect or an error instead of its success code",
        rationale: """
        An AWS load balancer decides whether a target is healthy by requesting a path from it \
        (`HealthCheckPath`: `/` by default for an ALB, `/index.html` in the console for a Classic \
        Load Balancer) on the traffic port, straight to Apache: with `User-Agent: \
        ELB-HealthChecker/2.0` (`/1.0` for a Classic Load Balancer), the target's own address as \
        `Host`, and no `X-Forwarded-Proto`. Only the success codes count (`200` unless the target \
        group's matcher says otherwise; a Classic Load Balancer accepts only `200 OK`). An https \
        redirect keyed on `X-Forwarded-Proto` or `%{HTTPS}`, a redirect to the canonical host or \
        WordPress's canonical redirect answers the check with a 301, and the target is marked \
        unhealthy: a Classic Load Balancer stops sending it traffic (503 for every visitor once all \
        are out of service); an ALB with no healthy target routes to all of them anyway, but an Auto \
        Scaling group that uses ELB health checks replaces the instances again and again, and ECS \
        stops the tasks. Found by simulating the check against the configured layers \
        (`health-check` and `health-check-codes` of an `alb` or `clb` layer in the site file; \
        `health-check: false` for a Classic Load Balancer's TCP check). Answer the check before \
        the redirect, or point the check at a path the redirects leave alone.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} !https\n↓RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                    edge: "alb"),
            // Any other host than the canonical one is redirected, the target's address too.
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\.example\\.com$ [NC]\n↓RewriteRule ^ http://www.example.com%{REQUEST_URI} [R=301,L]",
                    edge: "clb"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTP_USER_AGENT} !^ELB-HealthChecker\nRewriteCond %{HTTP:X-Forwarded-Proto} !https\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                    edge: "alb"),
            // Only the bare domain is redirected; the target's address is not it.
            Example("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^example\\.com$ [NC]\nRewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]",
                    edge: "alb"),
            // No load balancer, no health check.
            Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} !https\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                    edge: "cloudflare-flexible"),
        ],
        usesSimulation: true)

    static let exemption = "RewriteCond %{HTTP_USER_AGENT} !^ELB-HealthChecker"

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        var out: [Diagnostic] = []
        for result in sim.healthChecks() where !result.healthy {
            let (balancer, check, request, answer) = (result.balancer, result.check, result.request, result.answer)
            let source = directive(answer)
            guard let range = source ?? context.fallbackRange else { continue }
            let url = result.url
            let got = "\(answer.status)" + (answer.location.map { " → \($0)" } ?? "")
            let by = source != nil ? "from this directive" : "from \(answer.answerer == .app ? answer.producer : "Apache")"
            var notes = [Note(message: "the check goes straight to Apache: `User-Agent: \(request.header("User-Agent") ?? "")`, "
                                  + "the target's address as `Host`, no `X-Forwarded-Proto`")]
            notes.append(Note(message: balancer.kind == .clb
                ? "a Classic Load Balancer stops routing to an unhealthy instance: 503 for every visitor once none is left"
                : "with no healthy target an ALB routes to all of them, but an Auto Scaling group on ELB health checks keeps replacing the instances"))
            // A target group checking another path says so in the site file.
            if check.path == LoadBalancer.HealthCheck.defaultPath(balancer.kind) {
                notes.append(Note(message: "`\(check.path)` is AWS's default health-check path and \(LoadBalancer.targetAddress) stands in for "
                                  + "the target's address; `health-check:` in a site file names the target group's path"))
            }
            let fixes = exemptionFix(range, probe: request, check: check, balancer: balancer, context)
            out.append(finding("health check of \(balancer.label): GET \(url) gets \(got) \(by), outside its success codes "
                               + "(\(check.codesText)): the target is marked unhealthy", at: range, notes: notes, fixes: fixes))
        }
        return out
    }

    /// The directive that answered: a redirect or status from a rule or `Redirect`, else the last
    /// rule that rewrote the request.
    private func directive(_ answer: HopResponse) -> SourceRange? {
        guard answer.answerer == .origin, let trace = answer.origin?.trace else { return nil }
        return trace.last { ($0.kind == .externalRedirect || $0.kind == .status) && $0.range != nil }?.range
            ?? trace.last { $0.kind == .ruleMatched && $0.range != nil }?.range
    }

    /// `RewriteCond %{HTTP_USER_AGENT} !^ELB-HealthChecker` before the rule that answered, offered
    /// when re-simulating the check with it in place (when the site can be rebuilt) succeeds.
    private func exemptionFix(_ range: SourceRange, probe: HopRequest, check: LoadBalancer.HealthCheck,
                              balancer: LoadBalancer, _ context: LintContext) -> [FixIt] {
        guard let file = context.file(containing: range), let rule = file.rules.first(where: { $0.range == range }) else { return [] }
        let fix = file.insertingLine(Self.exemption, before: rule.conditions.first?.range ?? rule.range,
                                     title: "Answer the health check before the redirect",
                                     // Any client may send that User-Agent to skip the redirect.
                                     applicability: .unsafe)
        guard let sim = context.simulator, let siteSource = sim.source, siteSource.accessFile(file.source.path) != nil,
              let edit = fix.edits.first else { return [fix] }
        var bytes = file.source.bytes
        bytes.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.replacement.utf8))
        let changed = sim.with(source: siteSource.replacingAccessFile(file.source.path, text: String(decoding: bytes, as: UTF8.self)))
        return check.accepts(changed.askOrigin(probe).status) ? [fix] : []
    }
}
