import Foundation
import Testing
import HtlintSimulation
@testable import HtlintCLI

/// `htlint probe`: the comparison of live chains with the simulation, the topology ranking and
/// the hop follower, all on canned live answers (no network).
struct ProbeTests {
    static let htaccess = """
    RewriteEngine On
    RewriteCond %{HTTPS} off
    RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]

    """

    /// A throw-away document root holding `.htaccess` and `page`.
    static func site(_ htaccess: String = htaccess) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-probe-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try htaccess.write(toFile: dir + "/.htaccess", atomically: true, encoding: .utf8)
        try "page\n".write(toFile: dir + "/page", atomically: true, encoding: .utf8)
        return dir
    }

    static func simulator(_ docroot: String, edge: String = "none") throws -> ChainSimulator {
        let a = try Arguments(["--docroot", docroot, "--host", "example.test", "--edge", edge],
                              valued: ProbeCommand.valued, booleans: ProbeCommand.booleans)
        var s = try SiteOptions(a).simulator(defaultHost: "example.test", io: .live)
        s.browser = .curl
        s.maxHops = 20
        return s
    }

    /// Answers from a table; records every request it is asked to send.
    final class CannedFetcher: ProbeFetcher, @unchecked Sendable {
        var answers: [String: (status: Int, location: String?)]
        var sent: [String] = []
        var refuseHead: Set<String> = []
        init(_ answers: [String: (Int, String?)]) { self.answers = answers.mapValues { (status: $0.0, location: $0.1) } }
        func fetch(_ url: String, method: String) -> LiveHop {
            sent.append("\(method) \(url)")
            if method == "HEAD", refuseHead.contains(url) { return LiveHop(url: url, method: method, status: 405) }
            guard let a = answers[url] else { return LiveHop(url: url, method: method, status: 0, error: "connection refused") }
            return LiveHop(url: url, method: method, status: a.status, location: a.location, server: "canned")
        }
    }

    func follow(_ fetcher: CannedFetcher, _ url: String, maxHops: Int = 20) -> LiveChain {
        ProbeFollower(fetcher: fetcher, maxHops: maxHops) { $0.host == "example.test" }.follow(url)
    }

    @Test func matchingChainHasNoDivergence() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let s = try Self.simulator(docroot)
        let live = LiveChain(request: "http://example.test/page", hops: [
            LiveHop(url: "http://example.test/page", status: 301, location: "https://example.test/page"),
            LiveHop(url: "https://example.test/page", status: 200),
        ], outcome: "final")
        let sim = s.run(live.request, method: "HEAD")
        #expect(ProbeComparison.compare(live, sim, site: s.origin.site) == nil)
    }

    @Test func relativeAndAbsoluteLocationsCompareEqual() throws {
        let docroot = try Self.site("Redirect 302 /old /page\n")
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let s = try Self.simulator(docroot)
        let live = LiveChain(request: "http://example.test/old", hops: [
            LiveHop(url: "http://example.test/old", status: 302, location: "http://example.test/page"),
            LiveHop(url: "http://example.test/page", status: 200),
        ], outcome: "final")
        #expect(ProbeComparison.compare(live, s.run(live.request, method: "HEAD"), site: s.origin.site) == nil)
    }

    @Test func firstDivergentHopNamesTheDirective() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let s = try Self.simulator(docroot)
        let live = LiveChain(request: "http://example.test/page", hops: [
            LiveHop(url: "http://example.test/page", status: 302, location: "https://www.example.test/page"),
        ], outcome: "offsite")
        let d = try #require(ProbeComparison.compare(live, s.run(live.request, method: "HEAD"), site: s.origin.site))
        #expect(d.hop == 1)
        #expect(d.fields.map(\.name) == ["status", "location"])
        #expect(d.fields[0].live == "302" && d.fields[0].simulated == "301")
        #expect(d.fields[1].simulated == "https://example.test/page")
        #expect(d.answeredBy == "apache")
        #expect(d.directive?.hasSuffix(".htaccess:3") == true)
        #expect(d.directiveText?.hasPrefix("RewriteRule ^ https://") == true)
    }

    @Test func divergenceLaterInTheChainIsReportedThere() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let s = try Self.simulator(docroot)
        let live = LiveChain(request: "http://example.test/page", hops: [
            LiveHop(url: "http://example.test/page", status: 301, location: "https://example.test/page"),
            LiveHop(url: "https://example.test/page", status: 301, location: "https://example.test/page/"),
            LiveHop(url: "https://example.test/page/", status: 404),
        ], outcome: "final")
        let d = try #require(ProbeComparison.compare(live, s.run(live.request, method: "HEAD"), site: s.origin.site))
        #expect(d.hop == 2)
        #expect(d.url == "https://example.test/page")
        #expect(d.fields.first?.name == "status")
        #expect(d.fields.first?.live == "301" && d.fields.first?.simulated == "200")
        #expect(ProbeComparison.agreeingHops(live, d) == 1)
    }

    @Test func shorterLiveChainAndHSTSDiverge() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let s = try Self.simulator(docroot)
        let ended = LiveChain(request: "http://example.test/page", hops: [
            LiveHop(url: "http://example.test/page", status: 301, location: "https://example.test/page"),
            LiveHop(url: "https://example.test/page", status: 0, error: "certificate"),
        ], outcome: "error")
        let d = try #require(ProbeComparison.compare(ended, s.run(ended.request, method: "HEAD"), site: s.origin.site))
        #expect(d.hop == 2 && d.fields.map(\.name) == ["status"])
        let hsts = LiveChain(request: "https://example.test/page", hops: [
            LiveHop(url: "https://example.test/page", status: 200, hsts: "max-age=300"),
        ], outcome: "final")
        let h = try #require(ProbeComparison.compare(hsts, s.run(hsts.request, method: "HEAD"), site: s.origin.site))
        #expect(h.fields.map(\.name) == ["strict-transport-security"])
    }

    /// Behind Cloudflare Flexible the https→http origin redirect loops; the ranking must say so.
    @Test func rankingPrefersTheTopologyThatReproducesTheLoop() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let live = [
            LiveChain(request: "https://example.test/page", hops: [
                LiveHop(url: "https://example.test/page", status: 301, location: "https://example.test/page"),
            ], outcome: "loop"),
            LiveChain(request: "http://example.test/page", hops: [
                LiveHop(url: "http://example.test/page", status: 301, location: "https://example.test/page"),
                LiveHop(url: "https://example.test/page", status: 301, location: "https://example.test/page"),
            ], outcome: "loop"),
        ]
        var scores: [ProbeScore] = []
        for candidate in ProbeInference.candidates {
            let s = try Self.simulator(docroot, edge: candidate)
            scores.append(ProbeInference.score(topology: candidate, live: live, simulate: { s.run($0, method: "HEAD") }, site: s.origin.site))
        }
        let ranked = ProbeInference.rank(scores)
        #expect(ranked[0].topology == "cloudflare-flexible")
        #expect(ranked[0].isExact && ranked[0].matchingHops == 3)
        let tied = ProbeInference.tied(ranked).map(\.topology)
        #expect(!tied.contains("none") && !tied.contains("cloudflare-full"))
        let none = try #require(ranked.first { $0.topology == "none" })
        #expect(none.matchingChains == 0)
        #expect(none.divergences.first?.fields.first?.name == "status")
    }

    @Test func rankingOrderAndTies() {
        func score(_ t: String, _ chains: Int, _ hops: Int) -> ProbeScore {
            ProbeScore(topology: t, matchingChains: chains, matchingHops: hops, chains: 2, hops: 4, divergences: [])
        }
        let ranked = ProbeInference.rank([score("none", 1, 3), score("a", 2, 4), score("b", 1, 4), score("c", 2, 4)])
        #expect(ranked.map(\.topology) == ["a", "c", "b", "none"])
        #expect(ProbeInference.tied(ranked).map(\.topology) == ["a", "c"])
    }

    @Test func followerStopsLikeTheSimulator() {
        let f = CannedFetcher([
            "http://example.test/": (301, "https://example.test/"),
            "https://example.test/": (301, "/"),
            "http://example.test/away": (302, "https://elsewhere.test/"),
            "http://example.test/a": (302, "/b"), "http://example.test/b": (302, "/c"), "http://example.test/c": (200, nil),
        ])
        f.refuseHead = ["http://example.test/c"]
        let loop = follow(f, "http://example.test/")
        #expect(loop.outcome == "loop" && loop.hops.count == 2)
        let away = follow(f, "http://example.test/away")
        #expect(away.outcome == "offsite" && away.hops.count == 1)
        let limited = follow(f, "http://example.test/a", maxHops: 2)
        #expect(limited.outcome == "too-many-hops" && limited.hops.count == 2)
        let fallback = follow(f, "http://example.test/a")
        #expect(fallback.outcome == "final" && fallback.hops.last?.method == "GET" && fallback.hops.last?.status == 200)
        #expect(!f.sent.contains { $0.contains("elsewhere") })
        #expect(f.sent.filter { $0 == "HEAD https://example.test/" }.count == 1)
    }

    @Test func commandReportsDivergenceAndInfers() throws {
        let docroot = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: docroot) }
        let f = CannedFetcher([
            "http://example.test/page": (301, "https://example.test/page"),
            "https://example.test/page": (301, "https://example.test/page"),
        ])
        var out = CommandOutput()
        let status = ProbeCommand.run(["--docroot", docroot, "http://example.test/page", "https://example.test/page"],
                                      io: .live, fetcher: f, &out)
        #expect(status == .findings)
        #expect(out.stdout.contains("diverges at hop 2 (https://example.test/page)"))
        #expect(out.stdout.contains("status: live 301, simulated 200"))
        var inferred = CommandOutput()
        let s2 = ProbeCommand.run(["--docroot", docroot, "--edge", "cloudflare-full", "--infer", "--format", "json",
                                   "http://example.test/page", "https://example.test/page"], io: .live, fetcher: f, &inferred)
        #expect(s2 == .clean)
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(inferred.stdout.utf8)) as? [String: Any])
        let inference = try #require(doc["inference"] as? [String: Any])
        #expect(inference["best"] as? String == "cloudflare-flexible")
        // Only the chains' own requests were sent, once per probe run.
        #expect(Set(f.sent) == ["HEAD http://example.test/page", "HEAD https://example.test/page"])
    }

    @Test func edgeArgumentsAreReplaced() {
        #expect(ProbeCommand.argumentsWithEdge(["--edge", "proxy", "--always-https", "--docroot", "x", "--edge=full", "u"], "none")
                == ["--edge", "none", "--docroot", "x", "u"])
    }

    @Test func usageErrors() {
        var out = CommandOutput()
        #expect(ProbeCommand.run(["--resolve", "bad", "http://x/"], io: .live, fetcher: CannedFetcher([:]), &out) == .failure)
        #expect(ProbeCommand.run(["--timeout", "0", "http://x/"], io: .live, fetcher: CannedFetcher([:]), &out) == .failure)
        #expect(ProbeCommand.run(["ftp://x/"], io: .live, fetcher: CannedFetcher([:]), &out) == .failure)
        #expect(ProbeConnection(resolve: ["Example.test:443:127.0.0.1"]).address(host: "example.test", port: 443) == "127.0.0.1")
    }
}

/// Whether the machine can serve real Apache and nginx for `ProbeIntegrationTests`.
enum ProbeIntegration {
    static func tool(_ name: String) -> Bool {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (path + ["/usr/sbin", "/sbin", "/usr/bin"]).contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    static var htlint: String { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("htlint").path }

    static var available: Bool {
        geteuid() == 0 && ["apache2", "nginx", "unshare", "python3", "openssl", "timeout"].allSatisfy(tool)
            && FileManager.default.isExecutableFile(atPath: htlint)
    }
}

/// `htlint probe` against real Apache (and nginx as the TLS-terminating edge), served by
/// `tools/apache-oracle/oracle.py serve` inside a private network namespace that has only
/// loopback, so no request can leave 127.0.0.1. Skipped unless root with apache2, nginx,
/// unshare and python3 available.
@Suite(.serialized, .enabled(if: ProbeIntegration.available, "needs root, apache2, nginx, unshare, python3"))
struct ProbeIntegrationTests {
    static let host = "probe.test"
    /// Each rule makes the answer depend on what the edge changes: the scheme Apache sees, the
    /// forwarding header, Cloudflare's own header.
    static let htaccess = """
    RewriteEngine On
    RewriteRule ^whoami$ /seen-%{HTTPS} [R=302,L]
    RewriteRule ^xfp$ /xfp-%{HTTP:X-Forwarded-Proto} [R=302,L]
    RewriteCond %{HTTP:CF-Visitor} https
    RewriteRule ^cf$ /cf-yes [R=302,L]

    """
    static let urls = ["http://\(host)/whoami", "https://\(host)/whoami", "http://\(host)/xfp", "https://\(host)/cf"]

    /// A case directory for oracle.py (case.json, site/.htaccess).
    static func caseDir(_ htaccess: String = htaccess) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-probe-case-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir + "/site", withIntermediateDirectories: true)
        try #"{"description": "htlint probe fixture", "host": "probe.test", "requests": ["http://probe.test/"]}"#
            .write(toFile: dir + "/case.json", atomically: true, encoding: .utf8)
        try htaccess.write(toFile: dir + "/site/.htaccess", atomically: true, encoding: .utf8)
        return dir
    }

    /// Serves the case behind `edge` and runs `htlint probe ARGS --format json URL...` inside the namespace.
    func probe(case dir: String, edge: String, docroot: String, _ args: [String]) throws -> (status: Int32, json: [String: Any]) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["timeout", "120", "python3", packageRoot + "/tools/apache-oracle/oracle.py", "serve", dir, "--edge", edge, "--",
                       ProbeIntegration.htlint, "probe", "--docroot", docroot, "--timeout", "5",
                       "--resolve", "\(Self.host):80:127.0.0.1", "--resolve", "\(Self.host):443:127.0.0.1"]
            + ["--insecure"] + args + ["--format", "json"] + Self.urls
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let json else { throw CLIError.usage("probe printed no JSON (exit \(p.terminationStatus)): \(errors)") }
        return (p.terminationStatus, json)
    }

    /// Every hop the probe sent went to the fixture host (resolved to 127.0.0.1).
    func hopURLs(_ json: [String: Any]) -> [String] {
        ((json["chains"] as? [[String: Any]]) ?? []).flatMap { c in
            (((c["live"] as? [String: Any])?["hops"] as? [[String: Any]]) ?? []).compactMap { $0["url"] as? String }
        }
    }

    @Test(arguments: [("none", "none"), ("flexible", "cloudflare-flexible"), ("flexible+always-https", "cloudflare-flexible+always-https"),
                      ("full", "cloudflare-full"), ("full+always-https", "cloudflare-full+always-https")])
    func inferNamesTheEdgeMode(_ nginxEdge: String, _ expected: String) throws {
        let dir = try Self.caseDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, json) = try probe(case: dir, edge: nginxEdge, docroot: dir + "/site", ["--infer"])
        let inference = try #require(json["inference"] as? [String: Any])
        #expect(inference["best"] as? String == expected)
        #expect(status == 0)
        let ranking = try #require(inference["ranking"] as? [[String: Any]])
        #expect(ranking.first?["matchingChains"] as? Int == Self.urls.count)
        // Only the tied runner-ups may reproduce every chain, and none of them is another nginx mode.
        #expect((inference["tied"] as? [String] ?? []).allSatisfy { $0.hasPrefix("proxy") })
        let hops = hopURLs(json)
        #expect(!hops.isEmpty && hops.allSatisfy { URLParts($0)?.host == Self.host })
    }

    @Test func deployedFilesEqualToLocalOnesDoNotDiverge() throws {
        let dir = try Self.caseDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (status, json) = try probe(case: dir, edge: "flexible", docroot: dir + "/site", ["--edge", "cloudflare-flexible"])
        #expect(status == 0)
        let chains = try #require(json["chains"] as? [[String: Any]])
        #expect(chains.count == Self.urls.count && chains.allSatisfy { $0["divergence"] == nil })
    }

    @Test func oneChangedRuleIsPinpointed() throws {
        let dir = try Self.caseDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let local = try Self.caseDir(Self.htaccess.replacingOccurrences(of: "/xfp-%{HTTP:X-Forwarded-Proto}", with: "/xfp/%{HTTP:X-Forwarded-Proto}"))
        defer { try? FileManager.default.removeItem(atPath: local) }
        let (status, json) = try probe(case: dir, edge: "none", docroot: local + "/site", ["--edge", "none"])
        #expect(status == 1)
        let chains = try #require(json["chains"] as? [[String: Any]])
        let diverging = chains.filter { $0["divergence"] != nil }
        #expect(diverging.count == 1)
        let d = try #require(diverging.first?["divergence"] as? [String: Any])
        #expect(d["request"] as? String == "http://\(Self.host)/xfp")
        #expect(d["hop"] as? Int == 1)
        #expect((d["directive"] as? String)?.hasSuffix(".htaccess:3") == true)
        #expect((d["fields"] as? [[String: Any]])?.map { $0["name"] as? String } == ["location"])
    }
}
