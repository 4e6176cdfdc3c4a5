import Testing
import HtlintApache
@testable import HtlintSimulation

/// Layers spec §12 and §16: WordPress behind the layers (L09, L10, L11b, L33, L34, L36).
struct WordPressScenarioTests {
    static let https = WordPress(home: "https://example.com", siteURL: "https://example.com")

    func flexibleWordPress(_ wp: WordPress, alwaysHTTPS: Bool = false) -> ChainSimulator {
        Scenario.simulator(Scenario.wordpressBlock, layers: [Scenario.flexible(alwaysHTTPS: alwaysHTTPS)], tls: .none, app: wp,
                           files: Scenario.wordpressFiles)
    }

    @Test func l09AdminAndLoginLoopWithoutTheProxyFix() {
        let s = flexibleWordPress(Self.https)
        let admin = s.run("https://example.com/wp-admin/")
        #expect(admin.codes.first == "LOOP(1)")
        #expect(admin.statuses == [302])
        #expect(admin.hops[0].answerer == .app)
        #expect(admin.hops[0].app?.producer == "auth_redirect()")
        #expect(admin.hops[0].header("X-Redirect-By") == "WordPress")
        #expect(admin.hops[0].app?.environment.isSSL == false)
        let login = s.run("https://example.com/wp-login.php")
        #expect(login.codes.first == "LOOP(1)")
        #expect(login.hops[0].app?.producer == "wp-login.php")
        let front = s.run("https://example.com/")
        #expect(front.statuses == [200])
        #expect(front.hops[0].answerer == .app)
        #expect(front.hops[0].origin?.final.filename == "/index.php")
    }

    @Test func l10TheWPConfigFixEndsTheAdminLoop() {
        var wp = Self.https
        wp.proxyFixHeader = "X-Forwarded-Proto"
        let s = flexibleWordPress(wp)
        let admin = s.run("https://example.com/wp-admin/")
        #expect(admin.statuses == [302, 200])
        #expect(admin.locations[0] == "https://example.com/wp-login.php?redirect_to=https%3A%2F%2Fexample.com%2Fwp-admin%2F&reauth=1")
        #expect(admin.codes == ["OK"])
        wp.loggedIn = true
        #expect(flexibleWordPress(wp).run("https://example.com/wp-admin/").statuses == [200])
    }

    @Test func l11bSetEnvIfGivesPHPHTTPSOn() {
        let htaccess = "SetEnvIf X-Forwarded-Proto \"^https$\" HTTPS=on\n" + Scenario.wordpressBlock
        var wp = Self.https
        wp.loggedIn = true
        let s = Scenario.simulator(htaccess, layers: [Scenario.flexible()], tls: .none, app: wp, files: Scenario.wordpressFiles)
        let r = s.run("https://example.com/wp-admin/")
        #expect(r.statuses == [200])
        #expect(r.hops[0].app?.environment.https == "on")
        #expect(r.hops[0].app?.environment.httpsSource.hasPrefix("set by SetEnvIf at .htaccess:1") == true)
    }

    @Test func l33EdgeApexRuleAgainstWordPressWWWHome() {
        let edge = Edge(mode: .cloudflareStrict, redirectRules: [
            EdgeRedirectRule(host: "www.example.com", target: "https://example.com${uri}"),
        ])
        let wp = WordPress(home: "https://www.example.com")
        let s = Scenario.simulator(Scenario.wordpressBlock, layers: [edge], app: wp, files: Scenario.wordpressFiles)
        let r = s.run("https://example.com/")
        #expect(r.codes.first == "LOOP(2)")
        #expect(r.locations == ["https://www.example.com/", "https://example.com/"])
        #expect(r.hops.map(\.answerer) == [.app, .edge])
        #expect(r.hops[0].app?.producer == "redirect_canonical()")
    }

    @Test func l34WWWHomeBehindFlexibleDowngradesWithoutTheFix() {
        let wp = WordPress(home: "https://www.example.com")
        let r = flexibleWordPress(wp, alwaysHTTPS: true).run("https://example.com/")
        #expect(r.locations == ["http://www.example.com/", "https://www.example.com/", nil])
        #expect(r.codes == ["OK_EXTRA_HOPS(2)", "DOWNGRADE"])
        var fixed = wp
        fixed.proxyFixHeader = "X-Forwarded-Proto"
        let f = flexibleWordPress(fixed, alwaysHTTPS: true).run("https://example.com/")
        #expect(f.locations == ["https://www.example.com/", nil])
        #expect(f.codes == ["OK"])
    }

    @Test func l36WordPressInItsOwnDirectoryMethodOne() {
        let root = """
            RewriteEngine On
            RewriteCond %{HTTP_HOST} ^(www\\.)?example\\.com$
            RewriteCond %{REQUEST_URI} !^/blog/
            RewriteCond %{REQUEST_FILENAME} !-f
            RewriteCond %{REQUEST_FILENAME} !-d
            RewriteRule ^(.*)$ /blog/$1
            RewriteCond %{HTTP_HOST} ^(www\\.)?example\\.com$
            RewriteRule ^(/)?$ blog/index.php [L]
            """
        let blog = Scenario.wordpressBlock.replacingOccurrences(of: "RewriteBase /", with: "RewriteBase /blog/")
            .replacingOccurrences(of: ". /index.php", with: ". /blog/index.php")
        let wp = WordPress(home: "https://example.com", siteURL: "https://example.com/blog")
        let s = Scenario.simulator(root, layers: [Edge(mode: .cloudflareStrict)], app: wp,
                                   files: ["/blog/index.php", "/blog/wp-login.php"], more: ["/blog": blog])
        let r = s.run("https://example.com/about/")
        #expect(r.statuses == [200])
        #expect(r.hops[0].answerer == .app)
        #expect(r.hops[0].origin?.final.filename == "/blog/index.php")
        #expect(r.codes == ["OK"])
    }

    @Test func canonicalRedirectsFollowWordPress() {
        let wp = WordPress(home: "https://www.example.com")
        #expect(wp.canonical("https://example.com/about", isSSL: true) == "https://www.example.com/about/")
        #expect(wp.canonical("https://www.example.com/about/", isSSL: true) == nil)
        #expect(wp.canonical("http://www.example.com/", isSSL: false) == nil)  // schemes are never compared
        #expect(wp.canonical("https://www.example.com/index.php", isSSL: true) == "https://www.example.com/")
        #expect(wp.canonical("https://other.example/", isSSL: true) == nil)
        #expect(wp.canonical("https://www.example.com:443/", isSSL: true) == "https://www.example.com/")
        #expect(wp.canonical("https://www.example.com/logo.png", isSSL: true) == nil)
    }
}
