import Testing
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Scenario S09 (HT314) and the review fixes of HT407/HT408: messages and positions.
struct ForwardedSchemeReviewTests {
    @Test func exactForwardedProtoTestIsReportedAtTheCondition() {
        let text = """
            # behind CloudFront and an ALB
            RewriteEngine On
              RewriteCond %{HTTP:X-Forwarded-Proto} !=https
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let found = findings(of: "HT314", in: text)
        #expect(found.count == 1)
        guard let d = found.first else { return }
        #expect(position(in: text, d) == SourcePosition(line: 3, column: 3))
        #expect(d.message == "`%{HTTP:X-Forwarded-Proto} !=https` compares the whole header, but chained proxies (a CDN in front of a "
                + "load balancer) send a list such as `https, http`: the test is then true on every https request and the redirect loops; "
                + "test the first element with `!^https`")
        // The fix replaces the pattern word only.
        let edit = d.fixIts.first?.edits.first
        #expect(edit?.replacement == "!^https")
        #expect(edit.map { SourceFile(path: "", text: text).lines.position(of: $0.range.start) } == SourcePosition(line: 3, column: 41))
    }

    @Test func exactHTTPTestMissesListsOfHTTPVisitors() {
        let text = "RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} ^http$\nRewriteRule ^ https://example.com/ [R=301,L]\n"
        let found = findings(of: "HT314", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 2, column: 1)])
        #expect(found.first?.message.contains("false for every list and http visitors are not sent to https; test the first element with `^http\\b`") == true)
    }

    @Test func elseOfAnExactHTTPSIfIsReportedAtTheIf() {
        let text = """
            Header always set X-Test 1
            <If "req('X-Forwarded-Proto') == 'https'">
            Header always set Strict-Transport-Security "max-age=31536000"
            </If>
            <Else>
            Redirect 301 / https://example.com/
            </Else>
            """
        let found = findings(of: "HT314", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 2, column: 1)])
        #expect(found.first?.message.contains("`%{HTTP:X-Forwarded-Proto} !~ /^https/`") == true)
    }

    // Review 4(a): `!(a || b)` is an AND; the forged header alone skips the redirect.
    @Test func negatedOrWithConnectionSchemeIsStillForgeable() throws {
        let text = """
            RewriteEngine On
            <If "!(%{HTTP:X-Forwarded-Proto} == 'https' || %{HTTPS} == 'on')">
            Redirect 301 / https://example.com/
            </If>
            """
        let found = findings(of: "HT407", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 2, column: 1)])
        // `!(a && b)` is an OR with the connection's scheme: not reported.
        let safe = text.replacingOccurrences(of: " || ", with: " && ")
        #expect(findings(of: "HT407", in: safe).isEmpty)
        #expect(ExpressionReads.connectionSchemeInOr(try ApExpression(parsing: "!(%{HTTP:X-Forwarded-Proto} == 'https' || %{HTTPS} == 'on')")) == false)
        #expect(ExpressionReads.connectionSchemeInOr(try ApExpression(parsing: "!(%{HTTP:X-Forwarded-Proto} == 'https' && %{HTTPS} == 'on')")) == true)
        #expect(ExpressionReads.connectionSchemeInOr(try ApExpression(parsing: "!!(%{HTTP:X-Forwarded-Proto} != 'https' || %{HTTPS} != 'on')")) == true)
    }

    @Test func elseOfAnOrWithConnectionSchemeIsForgeable() {
        // The `<Else>` runs when `XFP == 'https' || HTTPS == 'on'` is false: both must be false, an AND.
        let text = """
            <If "%{HTTP:X-Forwarded-Proto} == 'https' || %{HTTPS} == 'on'">
            Header always set Strict-Transport-Security "max-age=31536000"
            </If>
            <Else>
            Redirect 301 / https://example.com/
            </Else>
            """
        #expect(findings(of: "HT407", in: text).map { position(in: text, $0) } == [SourcePosition(line: 1, column: 1)])
    }

    // Review 4(b): one finding for a `SetEnvIfExpr` on the header inside an `<If>` on the header.
    @Test func setEnvIfExprInsideForwardedIfIsReportedOnce() {
        let text = """
            <If "%{HTTP:X-Forwarded-Proto} == 'https'">
                SetEnvIfExpr "%{HTTP:X-Forwarded-Proto} == 'https'" HTTPS=on
            </If>
            """
        let found = findings(of: "HT408", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 2, column: 5)])
        #expect(found.first?.message == "`HTTPS` is set from the `X-Forwarded-Proto` header, which a client reaching the origin directly can send "
                + "over plain http; safe only when the origin accepts connections from the proxy alone")
        // A `SetEnvIfExpr` on something else inside the `<If>` is reported at itself, as the `<If>`'s claim.
        let other = text.replacingOccurrences(of: "SetEnvIfExpr \"%{HTTP:X-Forwarded-Proto} == 'https'\"", with: "SetEnvIfExpr \"true\"")
        let inside = findings(of: "HT408", in: other)
        #expect(inside.map { position(in: other, $0) } == [SourcePosition(line: 2, column: 5)])
        #expect(inside.first?.message.hasPrefix("`HTTPS` is set inside an `<If>` that trusts the `X-Forwarded-Proto` header") == true)
        // Guarded by the client's address: nothing.
        let guarded = "<If \"-R '10.0.0.0/8'\">\n" + text + "\n</If>\n"
        #expect(findings(of: "HT408", in: guarded).isEmpty)
    }
}

/// Scenario S06: HT301 on a `%{HTTPS}` test behind a TLS-terminating layer, on a host that sets
/// `HTTPS=on` in the environment, suggests `%{ENV:HTTPS}`.
struct EnvHTTPSHintTests {
    static let rule = """
        RewriteEngine On
        RewriteCond %{HTTPS} !=on
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        """

    static func loops(_ context: LintContext) -> [Diagnostic] {
        Linter(rules: [HtlintRules.rule(named: "HT301")!]).run(context)
    }

    @Test func hostSettingHTTPSInTheEnvironmentGetsTheHint() {
        // The hosting's virtual host sets the variable (nginx in front, no mod_ssl).
        let context = LintContext(htaccess: Self.rule, edge: Edge(mode: .terminatingProxy),
                                  vhost: "SetEnvIf X-Forwarded-Proto ^https$ HTTPS=on")
        let found = Self.loops(context)
        #expect(found.count == 1)
        guard let d = found.first else { return }
        #expect(SourceFile(path: "", text: Self.rule).lines.position(of: d.range.start) == SourcePosition(line: 3, column: 1))
        #expect(d.message.hasSuffix("; `%{HTTPS}` is mod_ssl's connection state, off behind a layer that ends TLS, while this host sets "
                                    + "`HTTPS=on` in the environment: test `%{ENV:HTTPS}` instead (`RewriteCond %{ENV:HTTPS} !=on`)"))
        let edit = d.fixIts.first?.edits.first
        #expect(edit?.replacement == "%{ENV:HTTPS}")
        #expect(edit.map { SourceFile(path: "", text: Self.rule).lines.position(of: $0.range.start) } == SourcePosition(line: 2, column: 13))
    }

    @Test func withoutTheEnvironmentVariableThereIsNoHint() {
        let found = Self.loops(LintContext(htaccess: Self.rule, edge: Edge(mode: .terminatingProxy)))
        #expect(found.count == 1)
        #expect(found.first.map { !$0.message.contains("ENV:HTTPS") && $0.fixIts.isEmpty } == true)
        // The variable set from a header the layer does not send: nothing in the environment.
        let other = LintContext(htaccess: Self.rule, edge: Edge(mode: .terminatingProxy),
                                vhost: "SetEnvIf X-Forwarded-SSL ^on$ HTTPS=on")
        #expect(Self.loops(other).first.map { !$0.message.contains("ENV:HTTPS") } == true)
    }

    /// The changed condition is simulated again: with `%{ENV:HTTPS}` the host test still redirects
    /// example.com to itself, and a port test keeps looping — no hint for either.
    @Test(arguments: ["RewriteCond %{HTTP_HOST} !^www\\. [NC]", "RewriteCond %{SERVER_PORT} ^80$"])
    func aChangeThatStillLoopsGetsNoHint(_ otherCondition: String) {
        let text = "RewriteEngine On\nRewriteCond %{HTTPS} !=on [OR]\n\(otherCondition)\n"
            + "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let found = Self.loops(LintContext(htaccess: text, edge: Edge(mode: .terminatingProxy),
                                           vhost: "SetEnvIf X-Forwarded-Proto ^https$ HTTPS=on"))
        #expect(found.count == 1)
        #expect(found.first.map { !$0.message.contains("ENV:HTTPS") } == true)
    }
}
