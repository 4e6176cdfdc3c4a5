import Testing
import HtlintApache
@testable import HtlintSimulation

/// `explain`'s suggested fixes: each one, applied, ends the loop when re-simulated.
struct FixTests {
    /// Re-runs the request on each fix's topology (independently of the finder) and returns the kinds.
    func kinds(_ s: ChainSimulator, _ url: String, sourceLocation: SourceLocation = #_sourceLocation) -> [Fix.Kind] {
        let r = s.run(url)
        let fixes = Scenario.verifiedFixes(r, s)
        #expect(!fixes.isEmpty, "no fix for \(r.codes)", sourceLocation: sourceLocation)
        for fix in fixes {
            let again = fix.simulator.run(url)
            #expect(again.verdict == .ok, "\(fix.title): \(again.codes)", sourceLocation: sourceLocation)
            #expect(fix.verification.first?.verdict == .ok, sourceLocation: sourceLocation)
        }
        return fixes.map(\.kind)
    }

    @Test func l01FlexibleLoopHasThreeFixesEdgeRedirectFirst() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Scenario.flexible()], tls: .none)
        let found = kinds(s, "https://example.com/")
        #expect(found == [.edgeRedirect, .forwardedProtoCondition, .edgeEncryptsOrigin])
        let fixes = Scenario.verifiedFixes(s.run("https://example.com/"), s)
        let xfp = fixes.first { $0.kind == .forwardedProtoCondition }!
        #expect(xfp.steps == ["in .htaccess, before line 2 (`RewriteCond %{HTTPS} off`), add:",
                              "    RewriteCond %{HTTP:X-Forwarded-Proto} !https"])
        // The twin (http) URL still ends on https after each fix.
        #expect(xfp.verification.count == 2)
        #expect(xfp.verification[1].hops.last?.url == "https://example.com/")
        let full = fixes.first { $0.kind == .edgeEncryptsOrigin }!
        #expect(full.caveat != nil)
        #expect(full.simulator.originServer.tls == .valid)
    }

    @Test func l02LoopFromHTTP() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Scenario.flexible()], tls: .none)
        #expect(kinds(s, "http://example.com/").contains(.forwardedProtoCondition))
    }

    @Test func l07SSLOffWithHSTS() {
        let s = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareOff)], tls: .none).withHSTS(["example.com"])
        #expect(kinds(s, "http://example.com/") == [.edgeEncryptsOrigin])
    }

    @Test func l08ForceHTTPAgainstAlwaysUseHTTPS() {
        let forceHTTP = "RewriteEngine On\nRewriteCond %{HTTPS} on\nRewriteRule ^ http://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let s = Scenario.simulator(forceHTTP, layers: [Edge(mode: .cloudflareFull, alwaysHTTPS: true)])
        #expect(kinds(s, "https://example.com/") == [.removeRule])
    }

    @Test func l09WordPressAdminLoop() {
        let wp = WordPress(home: "https://example.com")
        let s = Scenario.simulator(Scenario.wordpressBlock, layers: [Scenario.flexible()], tls: .none, app: wp,
                                   files: Scenario.wordpressFiles)
        let found = kinds(s, "https://example.com/wp-admin/")
        #expect(found.contains(.wordpressProxyFix))
        #expect(found.contains(.setEnvIfHTTPS))
        #expect(found.contains(.edgeEncryptsOrigin))
    }

    @Test func l13AndL15CloudFront() {
        let cf = CloudFront(viewerPolicy: .redirectToHTTPS, originPolicy: .httpOnly, forwardHost: true)
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [cf], tls: .none)
        #expect(kinds(s, "http://www.example.com/").contains(.edgeEncryptsOrigin))
        let hidden = CloudFront(viewerPolicy: .redirectToHTTPS, forwardHost: false, originDomain: "origin.example.net")
        let canonical = "RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\.example\\.com$ [NC]\nRewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]"
        let s2 = Scenario.simulator(canonical, layers: [hidden])
        #expect(kinds(s2, "https://www.example.com/") == [.forwardHost])
    }

    @Test func l16LoadBalancer() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [LoadBalancer()], tls: .none)
        #expect(kinds(s, "https://example.com/").prefix(2) == [.edgeRedirect, .forwardedProtoCondition])
    }

    @Test func l31ForceHTTPWithHSTS() {
        let htaccess = "RewriteEngine On\nRewriteCond %{HTTPS} =on\nRewriteRule ^legacy/ http://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let s = Scenario.simulator(htaccess, files: ["/legacy/x"]).withHSTS(["example.com"])
        #expect(kinds(s, "https://example.com/legacy/x") == [.removeRule])
    }

    @Test func l33CanonicalHostFight() {
        let edge = Edge(mode: .cloudflareStrict, redirectRules: [EdgeRedirectRule(host: "www.example.com", target: "https://example.com${uri}")])
        let s = Scenario.simulator(Scenario.wordpressBlock, layers: [edge], app: WordPress(home: "https://www.example.com"),
                                   files: Scenario.wordpressFiles)
        #expect(Set(kinds(s, "https://example.com/")) == [.wordpressHome, .removeEdgeRule])
    }

    @Test func l35ConflictingEdgeRules() {
        let edge = Edge(mode: .cloudflareStrict, redirectRules: [
            EdgeRedirectRule(scheme: "http", host: "www.example.com", path: "/*", target: "https://example.com/$1"),
            EdgeRedirectRule(scheme: "https", host: "example.com", path: "/*", target: "http://www.example.com/$1"),
        ])
        #expect(kinds(Scenario.simulator(nil, layers: [edge]), "https://example.com/a").allSatisfy { $0 == .removeEdgeRule })
    }

    @Test func l39NginxOverwritingForwardedProto() {
        let htaccess = "RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} !=https\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let nginx = NginxProxy(httpServer: .proxy, tlsPort: nil, hostHeader: .host, forwardedProto: .scheme)
        let s = Scenario.simulator(htaccess, layers: [Scenario.flexible(), nginx], tls: .none)
        let found = kinds(s, "https://example.com/")
        #expect(found == [.edgeRedirect, .nginxPassesProto, .cfVisitorCondition])
    }

    @Test func cachedRedirectLoops() {
        let fastly = "RewriteEngine On\nRewriteCond %{HTTP:Fastly-SSL} !=1\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"
        let s = Scenario.simulator(fastly, layers: [CachingProxy(kind: .fastly)], tls: .none)
        #expect(kinds(s, "http://example.com/page").first == .edgeRedirect)
        let varnish = Scenario.simulator(CacheScenarioTests.forwardedProtoRule, layers: [CachingProxy(kind: .varnish)], tls: .none)
        let fixes = Scenario.verifiedFixes(varnish.run("http://example.com/page"), varnish)
        #expect(fixes.map(\.title) == ["Cache http and https answers separately"])
    }

    @Test func wordPressBehindNginxWithPortInHost() {
        // Derived from canonical.php: `Host: example.org:443` makes redirect_canonical() drop the
        // port on every request, a loop the spec's L19 does not list.
        let nginx = NginxProxy(httpServer: .redirect, hostHeader: .hostAndPort, forwardedProto: .scheme, proxyRedirect: .off)
        let s = Scenario.simulator(Scenario.wordpressBlock, layers: [nginx], app: WordPress(home: "https://example.com"),
                                   files: Scenario.wordpressFiles)
        let r = s.run("https://example.com/")
        #expect(r.codes == ["LOOP(1)"])
        #expect(r.hops[0].app?.environment.isSSL == true)
        #expect(kinds(s, "https://example.com/") == [.forwardHost])
    }

    @Test func internalRecursionGetsAGuardAndEND() {
        let s = Scenario.simulator("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [L]", files: ["/blog/index.html"])
        let r = s.run("http://example.com/post")
        #expect(r.verdict == .internalRecursion)
        let fixes = Scenario.verifiedFixes(r, s)
        #expect(fixes.map(\.kind) == [.uriGuard, .endFlag])
        #expect(fixes[1].steps == ["in .htaccess, change line 2:", "    RewriteRule ^(.*)$ blog/$1 [L]", "  to:",
                                   "    RewriteRule ^(.*)$ blog/$1 [END]"])
    }

    @Test func explanationNamesTheBeliefMismatch() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Scenario.flexible()], tls: .none)
        let why = LoopExplanation.explain(s.run("https://example.com/"), simulator: s)
        #expect(why == ["The visitor already uses https, but Cloudflare (Flexible) reaches Apache over plain HTTP. %{HTTPS} describes "
                        + "only that inner connection, so the rule at .htaccess:3 takes the visitor for an http visitor and redirects "
                        + "to https — to the very URL just requested."])
        let analysis = HopDiagnosis.analyze(s.run("https://example.com/").hops[0], site: s.origin.site)
        #expect(analysis.variables.map(\.name) == ["%{HTTPS}", "%{HTTP_HOST}"])
        #expect(analysis.variables[0].value == "off")
        #expect(analysis.variables[0].why == "Cloudflare (Flexible) reaches Apache over plain HTTP, although the visitor uses https")
        let rule = analysis.steps.first { $0.kind == .ruleMatched }
        #expect(rule?.location == ".htaccess:3")
        #expect(rule?.conditions.first?.value == "off")
        #expect(rule?.conditions.first?.holds == true)
    }
}
