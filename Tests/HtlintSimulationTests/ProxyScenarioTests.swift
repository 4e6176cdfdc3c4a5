import Testing
import HtlintApache
@testable import HtlintSimulation

/// Layers spec §16: CloudFront (L13, L15), load balancers (L16), nginx (L17–L19, L39), HAProxy
/// (L38) and origin-only scenarios (L20–L25, L37).
struct ProxyScenarioTests {
    @Test func l13CloudFrontRedirectToHTTPSWithHTTPOnlyOriginLoops() {
        let cf = CloudFront(viewerPolicy: .redirectToHTTPS, originPolicy: .httpOnly, forwardHost: true)
        let r = Scenario.simulator(Scenario.httpsRedirect, layers: [cf], tls: .none).run("http://www.example.com/")
        #expect(r.codes.first == "LOOP(1)")
        #expect(r.loopStart == 1)
        #expect(r.hops[0].answerer == .edge)
        #expect(r.hops[1].originRequest?.header("Host") == "www.example.com")
        #expect(r.hops[1].originRequest?.header("X-Forwarded-Proto") == nil)
    }

    @Test func l15CloudFrontWithoutHostForwarding() {
        let cf = CloudFront(viewerPolicy: .redirectToHTTPS, originPolicy: .httpOnly, forwardHost: false,
                            originDomain: "origin.example.net")
        let canonical = """
            RewriteEngine On
            RewriteCond %{HTTP_HOST} !^www\\.example\\.com$ [NC]
            RewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]
            """
        let a = Scenario.simulator(canonical, layers: [cf]).run("https://www.example.com/")
        #expect(a.codes.first == "LOOP(1)")
        #expect(a.hops[0].originRequest?.header("Host") == "origin.example.net")
        let b = Scenario.simulator(Scenario.httpsRedirect, layers: [cf], tls: .none).run("https://www.example.com/")
        #expect(b.verdict == .offsite)
        #expect(b.offsiteURL == "https://origin.example.net/")
        #expect(b.codes.contains("ORIGIN_LEAK"))
    }

    @Test func l16LoadBalancerTerminatingTLS() {
        let alb = LoadBalancer(kind: .alb, httpListener: .forward)
        let r = Scenario.simulator(Scenario.httpsRedirect, layers: [alb], tls: .none).run("https://example.com/")
        #expect(r.codes.first == "LOOP(1)")
        #expect(r.hops[0].originRequest?.header("X-Forwarded-Proto") == "https")
        #expect(r.hops[0].originRequest?.header("X-Forwarded-Port") == "443")
        let fixed = Scenario.simulator(nil, layers: [LoadBalancer(kind: .alb, httpListener: .redirect)], tls: .none)
        let f = fixed.run("http://example.com/a?b=1")
        #expect(f.statuses == [301, 200])
        #expect(f.locations[0] == "https://example.com/a?b=1")
        #expect(f.codes == ["OK"])
    }

    static let oldToNew = "RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"

    @Test func l17NginxDefaultsRewriteTheLocation() {
        let nginx = NginxProxy(httpServer: .none)
        let r = Scenario.simulator(Self.oldToNew, layers: [nginx]).run("https://example.com/old")
        #expect(r.hops[0].originRequest?.header("Host") == "127.0.0.1:8080")
        #expect(r.hops[0].origin?.location == "http://127.0.0.1:8080/new")
        #expect(r.locations[0] == "https://example.com/new")
        #expect(r.statuses == [301, 200])
        #expect(r.codes == ["OK"])
    }

    @Test func l18NginxHostHeaderDowngrades() {
        let nginx = NginxProxy(httpServer: .redirect, hostHeader: .host)
        let s = Scenario.simulator(Self.oldToNew, layers: [nginx])
        let r = s.run("https://example.com/old")
        #expect(r.locations == ["http://example.com/new", "https://example.com/new", nil])
        #expect(r.hops.map(\.answerer) == [.origin, .edge, .origin])
        #expect(r.codes == ["OK_EXTRA_HOPS(2)", "DOWNGRADE"])
        let hsts = s.withHSTS(["example.com"]).run("https://example.com/old")
        #expect(hsts.hops[1].answerer == .browser)
        #expect(hsts.statuses == [301, 307, 200])
    }

    @Test func l19NginxHostWithPortSendsPlainHTTPToTheTLSPort() {
        let nginx = NginxProxy(httpServer: .redirect, hostHeader: .hostAndPort, forwardedProto: .scheme, proxyRedirect: .off)
        let s = Scenario.simulator(Self.oldToNew, layers: [nginx])
        var curl = s
        curl.browser = .curl
        let r = curl.run("https://example.com/old")
        #expect(r.locations[0] == "http://example.com:443/new")
        #expect(r.codes == ["EDGE_ERROR(400)", "DOWNGRADE"])
        #expect(r.hops[1].reason == "The plain HTTP request was sent to HTTPS port")
        let hsts = s.withHSTS(["example.com"]).run("https://example.com/old")
        // The upgrade keeps port 443, which is https's default: the browser shows it without.
        #expect(hsts.urls == ["https://example.com/old", "http://example.com:443/new", "https://example.com/new"])
        #expect(hsts.verdict == .ok)
        #expect(s.isHSTSDependent("https://example.com/old"))
    }

    @Test func l39InnerProxyOverwritesForwardedProto() {
        let htaccess = """
            RewriteEngine On
            RewriteCond %{HTTP:X-Forwarded-Proto} !=https
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let nginx = NginxProxy(httpServer: .proxy, tlsPort: nil, hostHeader: .host, forwardedProto: .scheme)
        let s = Scenario.simulator(htaccess, layers: [Scenario.flexible(), nginx], tls: .none)
        let r = s.run("https://example.com/")
        #expect(r.codes.first == "LOOP(1)")
        #expect(r.hops[0].originRequest?.header("X-Forwarded-Proto") == "http")
        #expect(r.hops[0].path.map(\.component) == ["Cloudflare (Flexible)", "nginx", "Apache"])
    }

    @Test func l38HAProxyRedirectsWith302() {
        let r = Scenario.simulator(nil, layers: [HAProxy()], tls: .none).run("http://example.com/")
        #expect(r.statuses == [302, 200])
        #expect(r.hops[1].originRequest?.header("X-Forwarded-Proto") == "https")
        #expect(r.codes == ["OK"])
    }

    @Test func l20RootToBlogWithRelativeTargetDowngradesBehindFlexible() {
        let wp = WordPress(home: "https://example.com/blog", proxyFixHeader: "X-Forwarded-Proto")
        let files = ["/blog/index.php", "/blog/wp-login.php"]
        let blog = Scenario.wordpressBlock.replacingOccurrences(of: "RewriteBase /", with: "RewriteBase /blog/")
            .replacingOccurrences(of: ". /index.php", with: ". /blog/index.php")
        let root = "RewriteEngine On\nRewriteRule ^$ /blog/ [R=301,L]"
        let s = Scenario.simulator(root, layers: [Scenario.flexible(alwaysHTTPS: true)], tls: .none, app: wp, files: files,
                                   more: ["/blog": blog])
        let r = s.run("https://example.com/")
        #expect(r.locations == ["http://example.com/blog/", "https://example.com/blog/", nil])
        #expect(r.codes == ["OK_EXTRA_HOPS(2)", "DOWNGRADE"])
        #expect(r.hops.last?.answerer == .app)
        // Without Always Use HTTPS the page is served over http: WordPress does not upgrade.
        let off = Scenario.simulator(root, layers: [Scenario.flexible()], tls: .none, app: wp, files: files, more: ["/blog": blog])
        let o = off.run("https://example.com/")
        #expect(o.hops.last?.url == "http://example.com/blog/")
        #expect(o.hops.last?.status == 200)
        #expect(o.codes.contains("DOWNGRADE"))
    }

    @Test func l21DirectorySlashDowngradesBehindFlexible() {
        let r = Scenario.simulator(nil, layers: [Scenario.flexible()], tls: .none, files: ["/blog/index.html"]).run("https://example.com/blog")
        #expect(r.locations == ["http://example.com/blog/", nil])
        #expect(r.codes == ["OK", "DOWNGRADE"])
    }

    @Test func l22HTTPSFirstThenWWW() {
        let htaccess = """
            <If "%{HTTPS} == 'on'">
            Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains; preload"
            </If>
            RewriteEngine On
            RewriteCond %{HTTPS} !=on
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            RewriteCond %{HTTP_HOST} ^example\\.com$ [NC]
            RewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]
            """
        let r = Scenario.simulator(htaccess).run("http://example.com/")
        #expect(r.urls == ["http://example.com/", "https://example.com/", "https://www.example.com/"])
        #expect(r.codes == ["OK_EXTRA_HOPS(2)"])
        #expect(r.hops[1].header("Strict-Transport-Security") == "max-age=31536000; includeSubDomains; preload")
    }

    @Test func l23HSTSWithoutAlwaysIsMissingOnRedirects() {
        let s = Scenario.simulator("Header set Strict-Transport-Security \"max-age=300\"")
        let http = s.run("http://example.com/")
        #expect(http.statuses == [200])
        #expect(http.hops[0].header("Strict-Transport-Security") == "max-age=300")
        #expect(s.run("https://example.com/").hops[0].header("Strict-Transport-Security") == "max-age=300")
        let withRedirect = Scenario.simulator("Header set Strict-Transport-Security \"max-age=300; preload\"\n" + """
            RewriteEngine On
            RewriteCond %{HTTPS} !=on
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            RewriteRule ^old$ /new [R=301,L]
            """).run("https://example.com/old")
        #expect(withRedirect.statuses == [301, 200])
        #expect(withRedirect.hops[0].header("Strict-Transport-Security") == nil)
        #expect(withRedirect.hops[1].header("Strict-Transport-Security") == "max-age=300; preload")
    }

    @Test func l24OpenRedirectAndHostReflectionLeaveTheSite() {
        let open = """
            RewriteEngine On
            RewriteCond %{QUERY_STRING} (?:^|&)to=([^&]+)
            RewriteRule ^go$ %1? [R=302,L]
            """
        let a = Scenario.simulator(open).run("https://example.com/go?to=https://evil.example/")
        #expect(a.verdict == .offsite)
        #expect(a.offsiteURL == "https://evil.example/")
        let reflect = """
            RewriteEngine On
            RewriteCond %{HTTPS} !=on
            RewriteCond %{HTTP:X-Forwarded-Proto} !=https
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let b = Scenario.simulator(reflect).run("http://example.com/", headers: [HTTPHeader("Host", "evil.example")])
        #expect(b.locations == ["https://evil.example/"])
        #expect(b.verdict == .offsite)
    }

    @Test func l25RedirectToAnIPAddress() {
        let r = Scenario.simulator("RewriteEngine On\nRewriteRule ^shop/(.*)$ https://203.0.113.10/shop/$1 [R=301,L]")
            .run("https://example.com/shop/x")
        #expect(r.offsiteURL == "https://203.0.113.10/shop/x")
        #expect(r.codes == ["OFFSITE", "REDIRECT_TO_IP"])
    }

    @Test func l37BareRFlagRedirectsWith302() {
        let htaccess = "RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R,L]"
        let r = Scenario.simulator(htaccess).run("http://example.com/")
        #expect(r.statuses == [302, 200])
        #expect(r.codes == ["OK"])
    }
}

/// Layers spec §16: loops that exist only through a layer's cache (L14, L27).
struct CacheScenarioTests {
    static let forwardedProtoRule = """
        RewriteEngine On
        RewriteCond %{HTTP:X-Forwarded-Proto} !=https
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        """

    @Test func l27FlexibleCachesTheRedirectForAStaticFile() {
        let edge = Edge(mode: .cloudflareFlexible, cache: true)
        let s = Scenario.simulator(Self.forwardedProtoRule, layers: [edge], tls: .none, files: ["/logo.png", "/index.html"])
        var cache = CacheState()
        var curl = s
        curl.browser = .curl
        let a = curl.run("http://example.com/logo.png", caches: &cache)
        #expect(a.statuses.first == 301)
        let b = s.run("https://example.com/logo.png", caches: &cache)
        #expect(b.codes == ["LOOP(1)", "CACHE_LOOP"])
        #expect(b.hops[0].cached == "a 301 stored for http://example.com/logo.png, kept 120 min")
        #expect(b.hops[0].origin == nil)
        // Without the earlier visitor the https request is served; HTML is not cached at all.
        #expect(s.run("https://example.com/logo.png").statuses == [200])
        #expect(s.run("http://example.com/index.html").verdict == .ok)
        // One browser starting on http loops by itself: its own 301 comes back from the cache.
        let single = s.run("http://example.com/logo.png")
        #expect(single.codes == ["LOOP(1)", "CACHE_LOOP"])
        let fixes = Scenario.verifiedFixes(single, s)
        #expect(fixes.first?.title == "Turn on Always Use HTTPS so that http requests never reach the cache")
    }

    @Test func l14MatchViewerWithAProtocolAgnosticCache() {
        let cf = CloudFront(viewerPolicy: .allowAll, originPolicy: .matchViewer, forwardHost: true, cache: true)
        let s = Scenario.simulator(Scenario.httpsRedirect, layers: [cf], tls: .valid, files: ["/logo.png"])
        var cache = CacheState()
        var curl = s
        curl.browser = .curl
        #expect(curl.run("http://www.example.com/logo.png", caches: &cache).statuses.first == 301)
        let b = s.run("https://www.example.com/logo.png", caches: &cache)
        #expect(b.codes == ["LOOP(1)", "CACHE_LOOP"])
        // In the other order the 200 is cached and the http visitor gets the image over http.
        var other = CacheState()
        #expect(s.run("https://www.example.com/logo.png", caches: &other).statuses == [200])
        let c = curl.run("http://www.example.com/logo.png", caches: &other)
        #expect(c.statuses == [200])
        #expect(c.hops[0].cached != nil)
        var keyed = cf
        keyed.forwardedProtoHeader = true
        let fixed = Scenario.simulator(Scenario.httpsRedirect, layers: [keyed], files: ["/logo.png"])
        #expect(fixed.run("http://www.example.com/logo.png").verdict == .ok)
    }

    @Test func l28FastlySSLRuleIsReplayedFromTheCache() {
        let htaccess = """
            RewriteEngine On
            RewriteCond %{HTTP:Fastly-SSL} !=1
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            """
        let s = Scenario.simulator(htaccess, layers: [CachingProxy(kind: .fastly)], tls: .none)
        var cache = CacheState()
        #expect(s.run("http://example.com/page", caches: &cache).statuses.first == 301)
        #expect(s.run("https://example.com/page", caches: &cache).codes == ["LOOP(1)", "CACHE_LOOP"])
        let forced = Scenario.simulator(htaccess, layers: [CachingProxy(kind: .fastly, forceTLS: true)], tls: .none)
        #expect(forced.run("http://example.com/page").codes == ["OK"])
    }

    @Test func l29VarnishBehindATLSTerminator() {
        let s = Scenario.simulator(Self.forwardedProtoRule, layers: [CachingProxy(kind: .varnish)], tls: .none)
        let r = s.run("http://example.com/page")
        #expect(r.codes == ["LOOP(1)", "CACHE_LOOP"])
        #expect(r.hops[1].cached?.hasPrefix("a 301 stored for http://example.com/page") == true)
        // A logged-in visitor (cookie) is passed to the origin and gets the page.
        #expect(s.run("https://example.com/page", headers: [HTTPHeader("Cookie", "wp=1")]).statuses == [200])
    }
}
