import Testing
import HtlintApache
@testable import HtlintSimulation

/// A bulk run's hop memo answers a hop another chain met with what simulating it gives, keeps
/// only hops that depend on their request alone, and stops keeping hops when they seldom repeat.
struct HopMemoTests {
    /// https first, then the www host; an HSTS header on every https answer.
    func simulator(_ htaccess: String = """
        RewriteEngine On
        RewriteCond %{HTTPS} off
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        RewriteCond %{HTTP_HOST} !^www\\.
        RewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]
        RewriteCond %{REQUEST_FILENAME} !-f
        RewriteRule . /index.html [L]
        Header always set Strict-Transport-Security "max-age=600"
        """, tracing: Bool = true, layers: [any Layer] = []) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addFile("/a.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        let site = Site(serverName: "www.example.com", aliases: ["example.com"], files: fs)
        // Traced, so that a hop simulated afresh shows the components it went through (a bulk
        // run's simulator keeps no path at all) and one taken from the memo shows none.
        return ChainSimulator(origin: Origin(site: site, tracing: tracing), layers: layers)
    }

    let starts = ["http://example.com/a.html", "https://example.com/a.html", "http://www.example.com/a.html",
                  "https://www.example.com/a.html", "http://example.com/p/q", "https://www.example.com/p/q"]

    /// What bulk runs read of a chain.
    func digest(_ r: ChainResult) -> [String] {
        [r.outcome.rawValue] + r.hops.map { h in
            "\(h.method) \(h.url) \(h.status) \(h.location ?? "-") \(h.answeredBy) \(h.served ?? "-") "
                + "\(h.header("Strict-Transport-Security") ?? "-") \(h.origin?.final.uri ?? "-") "
                + "\(h.origin?.final.filename ?? "-") \(h.origin?.firedRules.map { "\($0.start)" } ?? [])"
        }
    }

    @Test func chainsThroughTheMemoAreTheChainsSimulatedAfresh() {
        let sim = simulator()
        let memo = HopMemo(probeWindow: 8)  // three hits in the first eight hops
        for start in starts + starts {
            #expect(digest(sim.run(start, memo: memo)) == digest(sim.run(start)), "\(start)")
        }
        // The https www page is met by every chain: the later ones took it from the memo, which
        // keeps no layer path.
        let last = sim.run("http://example.com/a.html", memo: memo)
        #expect(last.hops.map(\.status) == [301, 301, 200])
        #expect(last.hops.allSatisfy { $0.path.isEmpty })
        #expect(sim.run("http://example.com/a.html").hops.allSatisfy { !$0.path.isEmpty })
    }

    @Test func aHopThatReadTheClockIsSimulatedEveryTime() {
        let sim = simulator("RewriteEngine On\nRewriteRule ^a\\.html$ /index.html?t=%{TIME} [R=302,L]")
        let memo = HopMemo(probeWindow: 100)
        for _ in 0..<3 {
            let first = sim.run("http://www.example.com/a.html", memo: memo).hops[0]
            #expect(first.status == 302)
            #expect(!first.path.isEmpty)
        }
    }

    @Test func aChainWithItsOwnHeadersIsNotMemoized() {
        let sim = simulator()
        let memo = HopMemo(probeWindow: 100)
        let headers = [HTTPHeader("Host", "example.com")]
        _ = sim.run("https://www.example.com/a.html", headers: headers, memo: memo)
        let again = sim.run("https://www.example.com/a.html", headers: headers, memo: memo)
        #expect(again.hops.map(\.status) == [301, 200])
        #expect(again.hops.allSatisfy { !$0.path.isEmpty })
    }

    /// A bulk run's simulator (tracing off) keeps neither the layers' path nor the request Apache
    /// received, which only explanations, lint rules and fixes read, and answers every chain as
    /// the traced one does: straight to Apache, through Cloudflare, and through Varnish, whose
    /// cache answers the second visitor of each URL (the layers' cache-hit path).
    @Test func aBulkSimulatorKeepsNoExplanations() {
        let setups: [[any Layer]] = [[], [Edge(mode: .cloudflareFlexible)], [CachingProxy(kind: .varnish)]]
        for layers in setups {
            let traced = simulator(layers: layers), bulk = simulator(tracing: false, layers: layers)
            var tracedCaches = CacheState(), bulkCaches = CacheState()
            var hits = 0
            for start in starts + starts {
                let t = traced.run(start, caches: &tracedCaches), b = bulk.run(start, caches: &bulkCaches)
                #expect(digest(b) == digest(t), "\(start)")
                #expect(b.hops.map { [$0.producer, $0.reason ?? "-", $0.cached ?? "-", $0.error ?? "-"] }
                        == t.hops.map { [$0.producer, $0.reason ?? "-", $0.cached ?? "-", $0.error ?? "-"] }, "\(start)")
                #expect(t.hops.allSatisfy { !$0.path.isEmpty })
                // The request Apache received, on every hop that reached Apache (not a cache hit).
                #expect(t.hops.allSatisfy { ($0.originRequest != nil) == ($0.origin != nil) })
                #expect(t.hops.contains { $0.origin != nil } || t.hops.contains { $0.cached != nil })
                #expect(b.hops.allSatisfy { $0.path.isEmpty && $0.originRequest == nil })
                hits += t.hops.filter { $0.cached != nil }.count
            }
            if layers.first is CachingProxy { #expect(hits > 0) }
        }
    }

    /// Four hops, none met twice: under one in ten was a hit, so the memo empties and keeps no more.
    @Test func aMemoWhoseHopsSeldomRepeatStopsKeeping() {
        let sim = simulator()
        let memo = HopMemo(probeWindow: 4)
        for page in ["/1", "/2", "/3", "/4"] { _ = sim.run("https://www.example.com" + page, memo: memo) }
        for _ in 0..<2 {
            #expect(!sim.run("https://www.example.com/1", memo: memo).hops[0].path.isEmpty)
        }
    }
}
