import Testing
import HtlintApache
import HtlintSimulation
@testable import HtlintCLI

/// Replay keeps a request's chain for repeated log lines only when no answer in it read the
/// clock: a `%{TIME…}` the engine expands, or a cookie's expiry, makes answers differ from one
/// second to the next. Only what a request actually reads counts.
struct ReplayCacheabilityTests {
    func simulator(_ htaccess: String) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addFile("/a.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        let site = Site(serverName: "example.com", files: fs, vhostLines: ["RewriteMap m int:tolower"])
        return ChainSimulator(origin: Origin(site: site, tracing: false), edge: Edge(mode: .none))
    }

    func chain(_ htaccess: String, _ path: String = "/a") -> ChainResult {
        simulator(htaccess).run("http://example.com" + path)
    }

    /// Replay's cache takes the chains that read no clock and leaves out the ones that did.
    @Test func replayCachesOnlyClockFreeChains() {
        let sim = simulator("RewriteEngine On\nRewriteRule ^a$ /b?t=%{TIME} [R=302,L]")
        let batch = ["/a", "/a", "/index.html"].map { ReplayRequest(method: "GET", url: "http://example.com" + $0) }
        let cache = LockedCache<Int>()
        let statuses = Replayer.simulate(batch, sim, jobs: 1, cache: cache, memo: nil) { $0.hops.first?.status ?? 0 }
        #expect(statuses == [302, 302, 200])
        #expect(cache.get(batch[0].cacheKey) == nil)
        #expect(cache.get(batch[2].cacheKey) == 200)
        #expect(batch[2].cacheKey == "http://example.com/index.html")
        #expect(ReplayRequest(method: "HEAD", url: "http://example.com/a").cacheKey == "HEAD http://example.com/a")
    }

    @Test(arguments: [
        "RewriteEngine On\nRewriteRule ^a$ /b?t=%{TIME} [R=302,L]",
        "RewriteEngine On\nRewriteCond %{TIME_HOUR} <99\nRewriteRule ^a$ /index.html [L]",
        "RewriteEngine On\nRewriteRule ^ - [E=T:%{TIME}]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:%{TIME_SEC}:example.com]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:1:example.com:60]",
        "RewriteEngine On\nRewriteRule ^a$ /index.html?m=${m:%{TIME}|x} [L]",
        "RewriteEngine On\nRewriteCond expr \"%{TIME_HOUR} -lt 99\"\nRewriteRule ^a$ /index.html [L]",
        "<If \"%{REQUEST_URI} == '/a'\">\nRewriteEngine On\nRewriteRule ^ /index.html?t=%{TIME} [L]\n</If>",
        "<If \"%{TIME_YEAR} -gt 2000\">\nHeader set X-Y y\n</If>",
    ])
    func anAnswerThatReadsTheClockIsNotKept(_ htaccess: String) {
        #expect(chain(htaccess).readsClock)
    }

    @Test(arguments: [
        "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.\nRewriteRule ^(.*)$ /x/$1?h=%{HTTP_HOST} [R=301,L]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:1:example.com]",
        // The clock is read only by the request that reaches the rule.
        "RewriteEngine On\nRewriteRule ^never$ /b?t=%{TIME} [R=302,L]",
    ])
    func anAnswerThatDoesNotIsKept(_ htaccess: String) {
        let result = chain(htaccess)
        #expect(result.hops.count >= 1)
        #expect(!result.readsClock)
    }
}
