import Testing
import HtlintApache
@testable import HtlintSimulation

/// Layers spec §16, Cloudflare scenarios (L01–L08, L11, L12, L35) with their documented verdicts.
struct CloudflareScenarioTests {
    @Test func l01FlexibleWithHTTPSTestLoopsOnEveryHTTPSVisitor() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Scenario.flexible()], tls: .none)
        let r = s.run("https://example.com/")
        #expect(r.verdict == .loop)
        #expect(r.codes.first == "LOOP(1)")
        #expect(r.loopStart == 0)
        #expect(r.statuses == [301])
        #expect(r.locations == ["https://example.com/"])
        let seen = r.hops[0].originRequest
        #expect(seen?.tls == false)
        #expect(seen?.header("Host") == "example.com")
        #expect(seen?.header("X-Forwarded-Proto") == "https")
        #expect(seen?.header("CF-Visitor") == #"{"scheme":"https"}"#)
        #expect(r.hops[0].answerer == .origin)
        #expect(r.hops[0].path.map(\.component) == ["Cloudflare (Flexible)", "Apache"])
    }

    @Test func l02VisitorStartingOnHTTPLoopsAfterOneHop() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Scenario.flexible()], tls: .none)
        let r = s.run("http://example.com/")
        #expect(r.codes.first == "LOOP(1)")
        #expect(r.loopStart == 1)
        #expect(r.urls == ["http://example.com/", "https://example.com/"])
        #expect(r.hops[0].originRequest?.header("X-Forwarded-Proto") == "http")
    }

    @Test func l03ForwardedProtoConditionWorksBehindFlexible() {
        let htaccess = """
            RewriteEngine On
            RewriteCond %{HTTP:X-Forwarded-Proto} !=https
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let s = Scenario.simulator(htaccess, layers: [Scenario.flexible()], tls: .none)
        let https = s.run("https://example.com/")
        #expect(https.verdict == .ok)
        #expect(https.statuses == [200])
        let http = s.run("http://example.com/")
        #expect(http.statuses == [301, 200])
        #expect(http.codes == ["OK"])
    }

    @Test func l04AlwaysUseHTTPSAnswersAtTheEdge() {
        let s = Scenario.simulator(nil, layers: [Scenario.flexible(alwaysHTTPS: true)], tls: .none)
        let r = s.run("http://example.com/x")
        #expect(r.statuses == [301, 200])
        #expect(r.hops[0].answerer == .edge)
        #expect(r.hops[0].origin == nil)
        #expect(r.hops[0].reason == "Always Use HTTPS")
        #expect(r.locations[0] == "https://example.com/x")
        #expect(r.codes == ["OK"])
    }

    @Test func l05FullStrictTerminatesTheHTTPSRule() {
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [Edge(mode: .cloudflareStrict)], tls: .valid)
        let https = s.run("https://example.com/")
        #expect(https.statuses == [200])
        #expect(https.hops[0].originRequest?.tls == true)
        #expect(s.run("http://example.com/").statuses == [301, 200])
    }

    @Test func l06FullWithoutOriginTLSGivesEdgeErrors() {
        let full = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareFull)], tls: .none).run("https://example.com/")
        #expect(full.verdict == .error)
        #expect(full.codes == ["EDGE_ERROR(521)"])
        let broken = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareFull)], tls: .broken).run("https://example.com/")
        #expect(broken.codes == ["EDGE_ERROR(525)"])
        let strict = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareStrict)], tls: .selfSigned).run("https://example.com/")
        #expect(strict.codes == ["EDGE_ERROR(526)"])
        // Full accepts a self-signed certificate.
        let fullSelfSigned = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareFull)], tls: .selfSigned).run("https://example.com/")
        #expect(fullSelfSigned.verdict == .ok)
    }

    @Test func l07SSLOffWithBrowserHSTSLoopsButNotWithoutHSTS() {
        let s = Scenario.simulator(nil, layers: [Edge(mode: .cloudflareOff)], tls: .none)
        let chrome = s.withHSTS(["example.com"]).run("http://example.com/")
        #expect(chrome.codes.first == "LOOP(2)")
        #expect(chrome.statuses == [307, 301, 307])
        #expect(chrome.hops[0].answerer == .browser)
        #expect(chrome.hops[0].header("Non-Authoritative-Reason") == "HSTS")
        #expect(chrome.loopStart == 1)
        var curl = s
        curl.browser = .curl
        let plain = curl.run("https://example.com/")
        #expect(plain.statuses == [301, 200])
        #expect(plain.codes.contains("DOWNGRADE"))
        #expect(plain.verdict == .ok)
        #expect(s.isHSTSDependent("https://example.com/"))
        // With the L01 rule at the origin every client loops: http → origin 301 https → edge 301 http.
        let both = Scenario.simulator(Scenario.httpsRedirect, layers: [Edge(mode: .cloudflareOff)], tls: .none)
        #expect(both.run("http://example.com/").codes.first == "LOOP(2)")
        var curlBoth = both
        curlBoth.browser = .curl
        #expect(curlBoth.run("http://example.com/").codes.first == "LOOP(2)")
    }

    @Test func l08FullAlwaysHTTPSAgainstForceHTTPLoops() {
        let forceHTTP = """
            RewriteEngine On
            RewriteCond %{HTTPS} on
            RewriteRule ^ http://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let s = Scenario.simulator(forceHTTP, layers: [Edge(mode: .cloudflareFull, alwaysHTTPS: true)], tls: .valid)
        let r = s.run("https://example.com/")
        #expect(r.codes.first == "LOOP(2)")
        #expect(r.hops.map(\.answerer) == [.origin, .edge])
        #expect(r.locations == ["http://example.com/", "https://example.com/"])
        let noAUH = Scenario.simulator(forceHTTP, layers: [Edge(mode: .cloudflareFull)], tls: .valid).run("https://example.com/")
        #expect(noAUH.verdict == .ok)
        #expect(noAUH.codes.contains("DOWNGRADE"))
        #expect(noAUH.hops.last?.url == "http://example.com/")
    }

    @Test func l11SetEnvIfDoesNotChangeHTTPS() {
        let a = """
            SetEnvIf X-Forwarded-Proto "^https$" HTTPS=on
            RewriteEngine On
            RewriteCond %{HTTPS} off
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let flexible = [Scenario.flexible()]
        #expect(Scenario.simulator(a, layers: flexible, tls: .none).run("https://example.com/").codes.first == "LOOP(1)")
        let b = a.replacingOccurrences(of: "RewriteCond %{HTTPS} off", with: "RewriteCond %{ENV:HTTPS} !=on")
        let sb = Scenario.simulator(b, layers: flexible, tls: .none)
        #expect(sb.run("https://example.com/").statuses == [200])
        #expect(sb.run("http://example.com/").statuses == [301, 200])
        // (c) the same file on an origin terminating TLS itself: mod_ssl sets HTTPS too late.
        #expect(Scenario.simulator(b, tls: .valid).run("https://example.com/").codes.first == "LOOP(1)")
    }

    @Test func l12CFVisitorCondition() {
        let htaccess = """
            RewriteEngine On
            RewriteCond %{HTTP:CF-Visitor} '"scheme":"http"'
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let s = Scenario.simulator(htaccess, layers: [Scenario.flexible()], tls: .none)
        #expect(s.run("https://example.com/").statuses == [200])
        #expect(s.run("http://example.com/").statuses == [301, 200])
    }

    @Test func l35ConflictingEdgeRulesLoopWithoutTheOrigin() {
        let edge = Edge(mode: .cloudflareStrict, redirectRules: [
            EdgeRedirectRule(scheme: "http", host: "www.example.com", path: "/*", target: "https://example.com/$1"),
            EdgeRedirectRule(scheme: "https", host: "example.com", path: "/*", target: "http://www.example.com/$1"),
        ])
        let r = Scenario.simulator(nil, layers: [edge]).run("https://example.com/a")
        #expect(r.codes.first == "LOOP(2)")
        #expect(r.locations == ["http://www.example.com/a", "https://example.com/a"])
        #expect(r.hops.allSatisfy { $0.answerer == .edge && $0.origin == nil })
    }

    @Test func edgeHSTSReachesRedirectsOnHTTPSOnly() {
        let edge = Edge(mode: .cloudflareFull, alwaysHTTPS: true, hsts: "max-age=31536000")
        let r = Scenario.simulator("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]", layers: [edge]).run("http://example.com/old")
        #expect(r.statuses == [301, 301, 200])
        #expect(r.hops[0].header("Strict-Transport-Security") == nil)
        #expect(r.hops[1].header("Strict-Transport-Security") == "max-age=31536000")
        #expect(r.hops[2].header("Strict-Transport-Security") == "max-age=31536000")
    }

    @Test func plainHTTPOnTheTLSPortAndUnproxiedPorts() {
        let s = Scenario.simulator(nil, layers: [Scenario.flexible()], tls: .none)
        #expect(s.run("http://example.com:443/").codes == ["EDGE_ERROR(400)"])
        let refused = s.run("http://example.com:8081/")
        #expect(refused.verdict == .error)
        #expect(refused.hops.first?.error?.hasPrefix("ERR_CONNECTION_REFUSED") == true)
        // Cloudflare proxies 8443 for https; Flexible applies to 443 only, other ports are handled as Full.
        let other = s.run("https://example.com:8443/")
        #expect(other.codes == ["EDGE_ERROR(521)"])
    }
}
