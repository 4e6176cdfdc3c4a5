import Foundation
import HtlintTestSupport
import Testing
import HtlintCLI

/// User-reported failures (shared spec S03, S10) where no `.htaccess` takes part: the findings
/// point at the site file or the virtual-host configuration instead of disappearing.
struct ScenarioLintTests {
    func run(_ args: [String]) -> CommandOutput {
        runCLI(args, environment: CLIEnvironment.live)
    }

    static let inputs = "Tests/HtlintCLITests/Inputs/scenarios"

    /// S10 / L21: `/docs` behind Cloudflare Flexible, no rules: mod_dir's slash redirect goes to http.
    @Test func directorySlashDowngradeWithoutHtaccess() throws {
        let o = run(["lint", "--site", "\(Self.inputs)/dirslash-flexible/site.yml", "--format", "concise"])
        #expect(o.stdout.contains("\(Self.inputs)/dirslash-flexible/site.yml:1:1: warning: https→http downgrade: https://example.com/docs redirects to http://example.com/docs/ (the trailing-slash redirect of mod_dir's DirectorySlash, not a directive of these files) [HT303]"))
        try assertGolden("lint-scenario-dirslash-flexible.txt", snapshot(run(["lint", "--site", "\(Self.inputs)/dirslash-flexible/site.yml"])))
    }

    /// certbot's configuration is fine on its own (the :80 section's redirect answers only plain
    /// HTTP); behind Cloudflare Flexible every request reaches that section, and loops.
    @Test func certbotRedirectLoopsOnlyBehindATLSTerminatingEdge() throws {
        let site = ["lint", "--docroot", "fixtures/vhosts/docroot", "--vhost", "fixtures/vhosts/certbot.conf",
                    "--host", "blog.example.org", "--format", "concise"]
        let direct = run(site)
        #expect(direct.status == .clean)
        #expect(!direct.stdout.contains("HT301"))
        let flexible = run(site + ["--edge", "cloudflare-flexible"])
        #expect(flexible.status == .findings)
        #expect(flexible.stdout.contains("fixtures/vhosts/certbot.conf:7:2: error: redirect loop: http://blog.example.org/ leads to https://blog.example.org/, which redirects to itself behind the cloudflare-flexible edge"))
    }

    /// S03 / L07: Cloudflare with SSL off redirects https to http, the browser's HSTS sends it back.
    @Test func layerOnlyLoopIsReported() throws {
        let o = run(["lint", "--site", "\(Self.inputs)/cloudflare-off-hsts/site.yml", "--format", "concise"])
        #expect(o.status == .findings)
        #expect(o.stdout.contains("\(Self.inputs)/cloudflare-off-hsts/site.yml:1:1: error: redirect loop: http://example.com/ leads to https://example.com/, which loops through 2 URLs behind the cloudflare-off edge (301 by Cloudflare (SSL off)"))
        #expect(o.stdout.contains("no directive of these files takes part)"))
        try assertGolden("lint-scenario-cloudflare-off-hsts.txt", snapshot(run(["lint", "--site", "\(Self.inputs)/cloudflare-off-hsts/site.yml"])))
    }

    /// S07: the health check's settings decide whether the https redirect fails it.
    @Test(arguments: [("health-check: /ping", true), ("health-check: false", false),
                      ("health-check: /ping, health-check-codes: 200-399", false)])
    func healthCheckSettingsDecide(_ settings: String, _ reported: Bool) throws {
        let docroot = "\(packageRoot)/fixtures/scenarios/S07-load-balancer-health-check-redirected/site"
        let path = NSTemporaryDirectory() + "htlint-hc-\(getpid())-\(abs(settings.hashValue)).yml"
        try "docroot: \(docroot)\nhost: example.com\nlayers:\n  - {type: alb, \(settings)}\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let o = run(["lint", "--site", path, "--format", "concise"])
        #expect(o.stdout.contains("[HT315]") == reported, "\(o.stdout)")
    }
}
