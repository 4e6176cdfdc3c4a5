import Testing
import HtlintSimulation
@testable import HtlintGraph

/// The all-URL loop search, on loops that the default probe URLs do not reach: each is found,
/// confirmed by simulating its witness, and its fixed variant reports no loop at all.
struct LoopAnalysisTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var loop: String
        var fixed: String
        var aliases: [String]
        var expectedWitness: String
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "only ^shop/[0-9]+/?$ loops", loop: TestSites.shopLoop, fixed: TestSites.shopLoopFixed,
             aliases: ["www.example.com"], expectedWitness: "http://example.com/shop/0/"),
        Case(name: "only one alias host loops", loop: TestSites.aliasLoop, fixed: TestSites.aliasLoopFixed,
             aliases: TestSites.aliasHosts, expectedWitness: "https://shop.example.com/"),
        Case(name: "only requests with a query string loop", loop: TestSites.queryLoop, fixed: TestSites.queryLoopFixed,
             aliases: ["www.example.com"], expectedWitness: "http://example.com/?utm_a="),
    ]

    @Test(arguments: cases)
    func loopIsFoundWithAWorkingWitness(_ c: Case) throws {
        let simulator = TestSites.simulator(c.loop, aliases: c.aliases)
        let analysis = SiteAnalyzer(simulator: simulator).analyze()
        let loop = try #require(analysis.loops.first { $0.confirmed })
        #expect(loop.kind == .redirect)
        #expect(loop.witness == c.expectedWitness)
        // The witness really loops, and is not a URL the probes would have tried.
        let chain = simulator.run(try #require(loop.witness))
        #expect(chain.outcome == .loop)
        #expect(!loop.chain.isEmpty)
    }

    @Test(arguments: cases)
    func fixedVariantHasNoCandidateAtAll(_ c: Case) {
        let analysis = TestSites.analysis(c.fixed, aliases: c.aliases)
        #expect(analysis.loops.isEmpty, "\(analysis.loops.map(\.cycle))")
    }

    @Test func loopBehindAFlexibleEdgeIsConfirmed() throws {
        let text = "RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"
        let loop = try #require(TestSites.analysis(text, edge: "cloudflare-flexible").loops.first)
        #expect(loop.confirmed && loop.witness?.hasPrefix("https://") == true)
        // Without the edge, %{HTTPS} is on after the redirect: no cycle.
        #expect(TestSites.analysis(text).loops.isEmpty)
    }

    /// `%{SERVER_NAME}` follows UseCanonicalName: the Host header under Off, ServerName under On,
    /// the local address's name under DNS (`localhost` for 127.0.0.1, where no rule expects it).
    @Test func serverNameFollowsUseCanonicalName() throws {
        let text = "RewriteEngine On\nRewriteCond %{SERVER_NAME} !^www\\.example\\.com$\nRewriteRule ^ http://www.example.com%{REQUEST_URI} [R=301,L]"
        let loop = try #require(TestSites.analysis(text, vhostLines: ["UseCanonicalName DNS"]).loops.first)
        #expect(loop.confirmed && loop.kind == .redirect)
        #expect(TestSites.analysis(text, vhostLines: ["UseCanonicalName On", "ServerName www.example.com"]).loops.isEmpty)
        #expect(TestSites.analysis(text).loops.isEmpty)
    }

    @Test func internalRecursionIsAnInternalLoop() throws {
        let loop = try #require(TestSites.analysis("RewriteEngine On\nRewriteRule ^(.*)$ /app/$1 [L]").loops.first)
        #expect(loop.kind == .internalRedirect && loop.confirmed)
        #expect(TestSites.analysis("RewriteEngine On\nRewriteRule ^(.*)$ /app/$1 [END]").loops.isEmpty)
    }

    /// A cycle that needs a client address the simulation does not use stays a candidate.
    @Test func dependenceOnTheClientAddressLeavesTheLoopUnconfirmed() throws {
        let text = "RewriteEngine On\nRewriteCond %{REMOTE_ADDR} ^10\\.\nRewriteRule ^(.*)$ /$1?beta=1 [R=302,L]"
        let loop = try #require(TestSites.analysis(text).loops.first)
        #expect(loop.status == .unconfirmed)
        #expect(loop.unmodelled == ["%{REMOTE_ADDR}"])
        #expect(!loop.triedWitnesses.isEmpty)
    }

    /// Front controllers rewrite to a file that exists (or to the same URL again): no cycle.
    @Test(arguments: [
        "RewriteEngine On\nRewriteRule ^index\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteCond %{REQUEST_FILENAME} !-d\nRewriteRule . /index.php [L]",
        "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteCond %{REQUEST_FILENAME} !-d\nRewriteRule ^(.*)$ index.php/$1 [L]",
        "RewriteEngine On\nRewriteRule ^(.*)$ index.php?path=$1 [L]",
        "RewriteEngine On\nRewriteCond %{DOCUMENT_ROOT}/static/$1 -f\nRewriteRule ^(.*)$ static/$1 [L]",
        "RewriteEngine On\nRewriteRule ^docs/(.*)\\.htm$ docs/$1 [C]\nRewriteRule ^(.*)$ $1.html [L]",
    ])
    func frontControllersHaveNoLoopCandidate(_ text: String) {
        let analysis = TestSites.analysis(text, files: ["/index.html", "/index.php", "/static/a.css", "/docs/a.html"])
        #expect(analysis.loops.filter { $0.status != .refuted }.isEmpty, "\(analysis.loops)")
    }

    @Test func theRelationNamesHowOutputReachesTheNextRule() {
        let analysis = TestSites.analysis(TestSites.shopLoop)
        #expect(Set(analysis.relation.map { "\($0.from)>\($0.to)>\($0.via)" }) == ["c0_r0>c0_r1>redirect", "c0_r1>c0_r0>redirect"])
    }
}

/// Dead rules and redirect targets nothing serves.
struct DeadRuleAndTargetTests {
    @Test func ruleShadowedByAnEarlierPrefixIsDead() throws {
        let text = "RewriteEngine On\nRewriteRule ^blog/ /news/ [R=301,L]\nRewriteRule ^blog/archive$ /news/archive [R=301,L]"
        let dead = try #require(TestSites.analysis(text).deadRules.first)
        #expect(dead.rule.line == 3 && dead.reason == .shadowed && dead.shadowedBy.map(\.line) == [2])
        let reversed = "RewriteEngine On\nRewriteRule ^blog/archive$ /news/archive [R=301,L]\nRewriteRule ^blog/ /news/ [R=301,L]"
        #expect(TestSites.analysis(reversed).deadRules.isEmpty)
    }

    @Test func contradictoryConditionsMakeARuleDead() throws {
        let text = "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^a\\.example$\nRewriteCond %{HTTP_HOST} ^b\\.example$\nRewriteRule ^ /x [R,L]"
        let dead = try #require(TestSites.analysis(text).deadRules.first)
        #expect(dead.reason == .conditions && dead.conditions.map(\.line) == [2, 3])
    }

    @Test func theTopologyCanMakeAConditionImpossible() throws {
        let text = "RewriteEngine On\nRewriteCond %{HTTPS} on\nRewriteRule ^(.*)$ http://%{HTTP_HOST}/$1 [R=301,L]"
        let dead = try #require(TestSites.analysis(text, edge: "cloudflare-flexible").deadRules.first)
        #expect(dead.explanation.contains("`%{HTTPS}` is always `off` behind the cloudflare-flexible edge"))
        #expect(TestSites.analysis(text).deadRules.isEmpty)
    }

    @Test func redirectTargetsNothingServesAreFound() throws {
        let text = "RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=([0-9]+)$\nRewriteRule ^product\\.php$ /products/%1? [R=301,L]"
        let target = try #require(TestSites.analysis(text).unservedTargets.first)
        #expect(target.example == "/products/0")
        #expect(TestSites.analysis(text, files: ["/index.html", "/products/7.html", "/products/7"]).unservedTargets.isEmpty)
        let served = text + "\nRewriteRule ^products/([0-9]+)$ index.html [L]"
        #expect(TestSites.analysis(served).unservedTargets.isEmpty)
    }

    /// `%1` in a condition's own test string names the condition before it: the analysis of the
    /// common "keep the scheme, drop www" pair took it for the condition itself, recursed forever
    /// and crashed. Analysed now, the rule is live and its target served.
    @Test func conditionCaptureInItsOwnTestStringIsAnalysed() throws {
        let text = """
            RewriteEngine On
            RewriteCond %{HTTPS}s ^on(s)|
            RewriteCond http%1://%{HTTP_HOST} ^(https?://)(www\\.)?(.+)$
            RewriteRule ^ %1%3%{REQUEST_URI} [R=301,L]
            """
        let analysis = TestSites.analysis(text)
        // Both conditions hold for some request: the rule is live, and its target is served.
        #expect(analysis.deadRules.isEmpty)
        #expect(analysis.unservedTargets.isEmpty)
    }
}
