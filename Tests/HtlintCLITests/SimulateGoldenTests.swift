import Foundation
import HtlintTestSupport
import Testing
@testable import HtlintCLI

/// `simulate` and `explain` on the bundled story (fixtures/story), snapshotted in Golden/.
struct SimulateGoldenTests {
    func run(_ args: [String]) -> CommandOutput { runCLI(args) }

    @Test func storyBrokenLoopsForEveryHTTPSVisitor() throws {
        let o = run(["simulate", "--site", "fixtures/story/broken/site.yml"])
        #expect(o.status == .findings)
        try assertGolden("simulate-story-broken.txt", snapshot(o))
    }

    @Test func storyBrokenExplained() throws {
        let o = run(["explain", "--site", "fixtures/story/broken/site.yml", "https://example.org/hello-world/"])
        #expect(o.status == .findings)
        #expect(o.stdout.contains("fixes, best first"))
        try assertGolden("explain-story-broken.txt", snapshot(o))
    }

    @Test func storyBrokenJSON() throws {
        let o = run(["simulate", "--format", "json", "--site", "fixtures/story/broken/site.yml", "http://example.org/hello-world/"])
        try assertGolden("simulate-story-broken.json.txt", snapshot(o))
        let doc = try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any]
        let request = (doc?["requests"] as? [[String: Any]])?.first
        #expect(request?["verdict"] as? String == "loop")
        let cycle = request?["cycle"] as? [String: Any]
        #expect(cycle?["start"] as? Int == 1)
        #expect(cycle?["length"] as? Int == 1)
        let hop = (request?["hops"] as? [[String: Any]])?.first
        #expect(hop?["answeredBy"] as? String == "origin")
        #expect((hop?["headers"] as? [String: String])?["Location"] == "https://example.org/hello-world/")
        #expect((hop?["origin"] as? [String: Any])?["uri"] as? String == "/hello-world/")
    }

    @Test func explainJSONListsVerifiedFixes() throws {
        let o = run(["explain", "--format", "json", "--site", "fixtures/story/broken/site.yml", "https://example.org/"])
        let doc = try JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any]
        let request = (doc?["requests"] as? [[String: Any]])?.first
        let fixes = request?["fixes"] as? [[String: Any]] ?? []
        #expect(fixes.map { $0["kind"] as? String } == ["edge-full-strict", "edge-redirect", "x-forwarded-proto-condition"])
        for fix in fixes {
            let verification = fix["verification"] as? [[String: String]] ?? []
            #expect(verification.first?["verdict"] == "ok")
        }
        #expect((request?["why"] as? [String])?.count == 1)
    }

    /// A Debian-style configuration file (fixtures/vhosts): each hop is answered by the
    /// `<VirtualHost>` its port and Host pick; behind Cloudflare Flexible only the :80 one answers.
    @Test func virtualHostsAnswerByPortAndHost() throws {
        let site = ["--docroot", "fixtures/vhosts/docroot", "--vhost", "fixtures/vhosts/site.conf", "--host", "www.example.com"]
        let direct = run(["simulate"] + site + ["http://example.com/", "https://example.com/about", "http://www.example.com/"])
        #expect(direct.status == .clean)
        let flexible = run(["simulate"] + site + ["--edge", "cloudflare-flexible", "https://www.example.com/"])
        #expect(flexible.status == .findings)
        try assertGolden("simulate-vhosts.txt", snapshot(direct) + "\n" + snapshot(flexible))
    }

    @Test func storyFixedEndsOnHTTPSPages() throws {
        let o = run(["simulate", "--site", "fixtures/story/fixed/site.yml"])
        #expect(o.status == .clean)
        try assertGolden("simulate-story-fixed.txt", snapshot(o))
    }

    @Test func explainWordPressAdminLoop() throws {
        let o = run(["explain", "--site", "fixtures/story/fixed/site.yml", "--wordpress-proxy-fix", "none",
                     "https://example.org/wp-admin/"])
        #expect(o.status == .findings)
        try assertGolden("explain-story-wp-admin.txt", snapshot(o))
    }

    @Test func flagsOverrideTheSiteFile() {
        let o = run(["simulate", "--site", "fixtures/story/broken/site.yml", "--edge", "cloudflare-strict", "--origin-tls", "valid",
                     "https://example.org/"])
        #expect(o.status == .clean)
        #expect(o.stdout.contains("Cloudflare (Full strict)"))
        let limited = run(["simulate", "--site", "fixtures/story/broken/site.yml", "--max-hops", "1", "http://example.org/hello-world/"])
        #expect(limited.stdout.contains("too many redirects"))
    }

    @Test func hstsFlagGivesASyntheticHop() {
        let o = run(["simulate", "--site", "fixtures/story/fixed/site.yml", "--hsts", "http://example.org/hello-world/"])
        #expect(o.stdout.contains("1. 307 http://example.org/hello-world/ → https://example.org/hello-world/  (browser: HSTS upgrade, no request sent)"))
    }

    @Test func siteFileErrorsNameTheLine() throws {
        let path = NSTemporaryDirectory() + "htlint-site-\(getpid()).yml"
        try "host: example.org\nlayers:\n  - type: cloudflare\n    ssl: flexibel\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let o = run(["simulate", "--site", path, "--docroot", "fixtures/demo", "https://example.org/"])
        #expect(o.status == .failure)
        #expect(o.stderr == "htlint: \(path):4: unknown ssl mode 'flexibel'; expected off, flexible, full, strict or origin-pull\n")
        try "host: example.org\nedgy: none\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(run(["simulate", "--site", path, "https://example.org/"]).stderr.contains(":2: unknown setting 'edgy'"))
    }

    @Test(arguments: [
        ("  - {type: alb, health-check: ping}", ":3: health-check is a path such as /ping, or false for a TCP check"),
        ("  - {type: alb, health-check-codes: 200-600}", ":3: health-check-codes are HTTP codes from 200 to 499: 200, 200-399 or 200,302"),
        ("  - {type: alb, health-check-codes: \"302-200\"}", ":3: health-check-codes are HTTP codes from 200 to 499"),
        ("  - {type: clb, health-check-codes: 200-399}", ":3: a Classic Load Balancer accepts only 200; health-check-codes is an ALB setting"),
        ("  - {type: alb, health-check: false}", ":3: an ALB's HTTP target group always checks over HTTP: health-check is a path such as /ping"),
        ("  - {type: alb, health-check-codes: \"\"}", ":3: health-check-codes are HTTP codes from 200 to 499"),
        ("  - {type: alb, health-check-codes: \"200,\"}", ":3: health-check-codes are HTTP codes from 200 to 499"),
        ("  - {type: clb, health-check: false, health-check-codes: 200}", ":3: health-check-codes needs an HTTP health check, not health-check: false"),
    ])
    func healthCheckSettingsAreChecked(_ layer: String, _ message: String) throws {
        let path = NSTemporaryDirectory() + "htlint-site-hc-\(getpid())-\(abs(layer.hashValue)).yml"
        try "host: example.org\nlayers:\n\(layer)\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let o = run(["simulate", "--site", path, "--docroot", "fixtures/demo", "https://example.org/"])
        #expect(o.status == .failure)
        #expect(o.stderr.hasPrefix("htlint: \(path)\(message)"), "\(o.stderr)")
    }

    @Test func colourOnlyOnATerminalWithoutNO_COLOR() {
        #expect(TextStyle.decide(color: false, noColor: false, isTerminal: true, environment: [:]).enabled)
        #expect(!TextStyle.decide(color: false, noColor: false, isTerminal: true, environment: ["NO_COLOR": "1"]).enabled)
        #expect(!TextStyle.decide(color: false, noColor: false, isTerminal: false, environment: [:]).enabled)
        #expect(TextStyle.decide(color: true, noColor: false, isTerminal: false, environment: [:]).enabled)
        #expect(!TextStyle.decide(color: true, noColor: true, isTerminal: true, environment: [:]).enabled)
        let plain = run(["explain", "--site", "fixtures/story/broken/site.yml", "https://example.org/"])
        #expect(!plain.stdout.contains("\u{1B}["))
        let coloured = run(["explain", "--color", "--site", "fixtures/story/broken/site.yml", "https://example.org/"])
        #expect(coloured.stdout.contains("\u{1B}[1m"))
    }

    @Test func edgeNamesTakeAlwaysHTTPS() {
        for name in ["cloudflare-full+always-https", "cloudfront+always-https", "alb+always-https", "nginx+always-https"] {
            let o = run(["simulate", "--docroot", "fixtures/demo", "--edge", name, "--host", "example.org", "http://example.org/blog/index.html"])
            #expect(o.stdout.contains("1. 301 http://example.org/blog/index.html → https://example.org/blog/index.html"), "\(name)")
        }
    }

    @Test func unknownLayerFlagsAreUsageErrors() {
        #expect(run(["simulate", "--origin-tls", "maybe", "http://example.org/"]).stderr.hasPrefix("htlint: unknown origin tls 'maybe'"))
        #expect(run(["simulate", "--browser", "lynx", "http://example.org/"]).stderr.hasPrefix("htlint: unknown browser 'lynx'"))
        #expect(run(["simulate", "--max-hops", "0", "http://example.org/"]).stderr.hasPrefix("htlint: --max-hops expects"))
    }
}
