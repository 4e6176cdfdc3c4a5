import Foundation
import HtlintTestSupport
import Testing
@testable import HtlintCLI

/// `htlint mixed-content` on fixtures/mixed-content: the planted references of expected.tsv are
/// found exactly (issue 6's acceptance), and the output is snapshotted in Golden/.
struct MixedContentCommandTests {
    static let fixture = "fixtures/mixed-content"
    static let site = fixture + "/site"
    static let siteArgs = ["--docroot", site, "--host", "example.com", "--alias", "www.example.com"]

    func run(_ args: [String]) -> CommandOutput { runCLI(args) }

    /// "file line:column code" for each finding of a JSON report, files relative to the site.
    func located(_ json: String, under prefix: String = site + "/") throws -> [String] {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(doc["diagnostics"] as? [[String: Any]])
        return diagnostics.map { d in
            let start = d["start"] as? [String: Any] ?? [:]
            let file = (d["file"] as? String ?? "").replacingOccurrences(of: prefix, with: "")
            return "\(file) \(start["line"] as? Int ?? 0):\(start["column"] as? Int ?? 0) \(d["code"] as? String ?? "")"
        }
    }

    /// expected.tsv as "file line:column code", comments and header skipped.
    func expected() throws -> [String] {
        let text = try String(contentsOfFile: packageRoot + "/" + Self.fixture + "/expected.tsv", encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.hasPrefix("file\t") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            return "\(f[0]) \(f[1]):\(f[2]) \(f[3])"
        }
    }

    @Test func everyPlantedReferenceIsFoundAtItsLineAndColumnAndNothingElse() throws {
        let o = run(["mixed-content", "--format", "json"] + Self.siteArgs)
        #expect(o.status == .findings)
        #expect(o.stderr.isEmpty)
        let found = try located(o.stdout)
        let planted = try expected()
        #expect(planted.count >= 40 + 4)
        let misses = Set(planted).subtracting(found)
        let falseReports = Set(found).subtracting(planted)
        #expect(misses.isEmpty, "missed: \(misses.sorted())")
        #expect(falseReports.isEmpty, "false reports: \(falseReports.sorted())")
        #expect(found.count == Set(found).count, "a finding is reported twice")
    }

    @Test func plantedReferencesCoverEveryElementKind() throws {
        let rows = try String(contentsOfFile: packageRoot + "/" + Self.fixture + "/expected.tsv", encoding: .utf8)
        let site = packageRoot + "/" + Self.site
        let html = try ["index.html", "about/index.html", "media.html", "frames.html", "contact.html", "old.html"]
            .map { try String(contentsOfFile: site + "/" + $0, encoding: .utf8) }.joined()
        for marker in ["<img src=\"http", "srcset=\"http", "<source srcset", "<script src=\"http", "rel=\"stylesheet\" href=\"http",
                       "rel=\"icon\"", "rel=\"preload\"", "rel=\"manifest\"", "<iframe src=\"http", "<frame src=\"http",
                       "<audio src", "<video src", "<track", "poster=", "<object data", "<embed src", "<form action",
                       "http-equiv=\"refresh\"", "<base href", "style=\"background", "<style>", "//cdn.example.net/about.js"] {
            #expect(html.contains(marker), "fixture lacks \(marker)")
        }
        #expect(rows.contains("css/site.css") && rows.contains("css/print.css"), "CSS url()/@import findings")
    }

    @Test func textOutput() throws {
        let o = run(["mixed-content"] + Self.siteArgs)
        #expect(o.status == .findings)
        try assertGolden("mixed-content-fixture.txt", snapshot(o))
    }

    @Test func jsonOutput() throws {
        let o = run(["mixed-content", "--format", "json"] + Self.siteArgs)
        try assertGolden("mixed-content-fixture.json.txt", snapshot(o))
    }

    @Test func pathsAreCheckedAsServedUnderTheDocumentRoot() throws {
        let o = run(["mixed-content", "--format", "json"] + Self.siteArgs + [Self.site + "/media.html"])
        let found = try located(o.stdout)
        let pages = Set(found.map { String($0.split(separator: " ")[0]) })
        #expect(pages == [".htaccess", "media.html", "blog/wp-config.php"])
        #expect(Set(found.filter { $0.hasPrefix("media.html") }) == Set(try expected().filter { $0.hasPrefix("media.html") }))
    }

    @Test func maxPagesStopsTheCrawl() throws {
        let o = run(["mixed-content", "--format", "json", "--max-pages", "1"] + Self.siteArgs)
        let files = Set(try located(o.stdout).map { String($0.split(separator: " ")[0]) })
        // The home page, the style sheets it loads, and the site-wide checks.
        #expect(files == ["index.html", "css/site.css", "css/print.css", ".htaccess", "blog/wp-config.php"])
    }

    @Test func startURLsThatReachNoPageAreNamed() {
        let o = run(["mixed-content"] + Self.siteArgs + ["https://example.com/nowhere", "https://example.com/legacy/app.js"])
        #expect(o.stderr.contains("htlint: https://example.com/nowhere ends with 404; no page to check there"))
        // The 301 to http carries the site's HSTS header, so the browser upgrades the http URL
        // again: a loop (spec §13.3).
        #expect(o.stderr.contains("htlint: https://example.com/legacy/app.js ends in a redirect loop; no page to check there"))
    }

    @Test func usageErrors() {
        #expect(run(["mixed-content", "--max-pages", "0"] + Self.siteArgs).status == .failure)
        let outside = run(["mixed-content"] + Self.siteArgs + ["Package.swift"])
        #expect(outside.status == .failure)
        #expect(outside.stderr.contains("'Package.swift' is not under the document root"))
        #expect(run(["mixed-content", "--format", "yaml"] + Self.siteArgs).status == .failure)
        #expect(run(["mixed-content", "--help"]).stdout.contains("usage: htlint mixed-content"))
    }

    @Test func lintWithTheDocumentRootReportsTheSameMixedContent() throws {
        let lint = run(["lint", "--format", "json"] + Self.siteArgs)
        let content = try located(lint.stdout).filter { $0.hasSuffix(" HT310") || $0.contains(" HT5") }
        let planted = try expected().filter { $0.hasSuffix(" HT310") || $0.contains(" HT5") }
        #expect(Set(content) == Set(planted))
    }

    /// A temporary document root with the given files.
    func site(_ files: [String: String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-mc-\(UUID().uuidString)").path
        for (path, text) in files {
            let full = dir + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func anUpgradeInsecureRequestsHeaderSilencesSubresources() throws {
        let page = "<script src='http://cdn.example.net/a.js'></script><img src='http://cdn.example.net/a.png'>"
        let plain = try site([".htaccess": "RewriteEngine On\n", "index.html": page])
        let upgraded = try site([".htaccess": "Header always set Content-Security-Policy \"upgrade-insecure-requests\"\n",
                                 "index.html": page])
        defer { for d in [plain, upgraded] { try? FileManager.default.removeItem(atPath: d) } }
        let before = run(["mixed-content", "--format", "concise", "--docroot", plain, "--host", "example.com"])
        #expect(before.stdout.contains("[HT501]") && before.stdout.contains("[HT502]"))
        let after = run(["mixed-content", "--format", "concise", "--docroot", upgraded, "--host", "example.com"])
        #expect(!after.stdout.contains("[HT50"), "\(after.stdout)")
    }

    @Test func wordPressBehindFlexibleWithoutTheFix() throws {
        let dir = try site([".htaccess": "DirectoryIndex index.html\n", "index.html": "<p>hello</p>",
                            "wp-config.php": "<?php\ndefine('WP_HOME', 'http://example.com');\nrequire_once ABSPATH . 'wp-settings.php';\n"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let o = run(["mixed-content", "--format", "concise", "--docroot", dir, "--host", "example.com", "--edge", "cloudflare-flexible"])
        #expect(o.stdout.contains("wp-config.php:3:1: error: WordPress runs behind `cloudflare-flexible`"), "\(o.stdout)")
        #expect(o.stdout.contains("wp-config.php:2:20: warning: `WP_HOME` is `http://example.com`"), "\(o.stdout)")
    }

    @Test func theSiteWideSuppressionCoversPages() throws {
        let dir = try site([".htaccess": "# htlint disable-file=HT502\nRewriteEngine On\n",
                            "index.html": "<img src='http://cdn.example.net/a.png'><script src='http://cdn.example.net/a.js'></script>"])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let o = run(["mixed-content", "--format", "concise", "--docroot", dir, "--host", "example.com"])
        #expect(!o.stdout.contains("[HT502]"))
        #expect(o.stdout.contains("[HT501]"))
    }
}
