import Foundation
import HtlintTestSupport
import Testing
@testable import HtlintCLI

/// `htlint diff` on fixtures/diff (a migration: one redirect retargeted, one removed, one added)
/// and on a generated W1-like redirect map with one rule changed.
struct DiffCommandTests {
    func run(_ args: [String]) -> CommandOutput { runCLI(args) }

    static let fixture = ["diff", "--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--host", "example.org",
                          "--urls", "fixtures/diff/urls.txt"]

    func json(_ o: CommandOutput) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(o.stdout.utf8)) as? [String: Any])
    }

    @Test func fixtureText() throws {
        let o = run(Self.fixture)
        #expect(o.status == .findings)
        try assertGolden("diff-fixture.txt", snapshot(o))
    }

    @Test func fixtureJSON() throws {
        let o = run(Self.fixture + ["--format", "json"])
        #expect(o.status == .findings)
        try assertGolden("diff-fixture.json.txt", snapshot(o))
        let doc = try json(o)
        let summary = doc["summary"] as? [String: Int]
        #expect(summary == ["requests": 11, "distinct": 9, "differ": 5, "allowed": 0, "skipped": 0])
        let groups = doc["groups"] as? [[String: Any]] ?? []
        #expect(groups.map { "\($0["file"] as? String ?? "-"):\($0["line"] as? Int ?? 0)" }
                == ["fixtures/diff/new/.htaccess:5", "fixtures/diff/new/.htaccess:8", "fixtures/diff/old/.htaccess:10"])
        #expect(groups.map { $0["config"] as? String } == ["new", "new", "old"])
        let removed = (groups.last?["urls"] as? [[String: Any]])?.first
        #expect(removed?["url"] as? String == "https://example.org/team.html")
        #expect((removed?["new"] as? [String: Any])?["finalStatus"] as? Int == 404)
    }

    /// The README's first diff example is this command's real output.
    @Test func readmeShowsRealOutput() throws {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        let command = "$ htlint " + Self.fixture.joined(separator: " ") + "\n"
        let start = try #require(readme.range(of: command))
        let end = try #require(readme.range(of: "$ echo $?\n", range: start.upperBound..<readme.endIndex))
        #expect(String(readme[start.upperBound..<end.lowerBound]) == run(Self.fixture).stdout)
    }

    @Test func identicalConfigurationsExitZero() {
        let o = run(["diff", "--old", "fixtures/diff/old", "--new", "fixtures/diff/old/", "--urls", "fixtures/diff/urls.txt"])
        #expect(o.status == .clean)
        #expect(o.stdout == "11 requests, 9 distinct, 0 differ\n")
        #expect(o.stderr == "")
    }

    /// Requests are told apart by their bytes: the same name with a precomposed é and with `e`
    /// and a combining accent are two distinct requests, and only the second differs when
    /// the new configuration redirects the decomposed form (a `%CC%81` pattern).
    @Test func distinctRequestsByBytes() throws {
        let dir = NSTemporaryDirectory() + "htlint-diff-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for side in ["old", "new"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + side, withIntermediateDirectories: true)
            try "x".write(toFile: dir + "/" + side + "/caf\u{E9}.html", atomically: true, encoding: .utf8)
        }
        try "RewriteEngine On\nRewriteRule ^cafe\\xCC\\x81\\.html$ /caf\u{E9}.html [R=301,L]\n"
            .write(toFile: dir + "/new/.htaccess", atomically: true, encoding: .utf8)
        try "http://example.com/caf\u{E9}.html\nhttp://example.com/cafe\u{301}.html\n"
            .write(toFile: dir + "/urls.txt", atomically: true, encoding: .utf8)
        let o = run(["diff", "--old", dir + "/old", "--new", dir + "/new", "--host", "example.com", "--urls", dir + "/urls.txt"])
        #expect(o.stdout.hasPrefix("2 requests, 2 distinct, 1 differ\n"))
        #expect(o.status == .findings)
    }

    @Test func allowedDifferencesDoNotFail() throws {
        let all = run(Self.fixture + ["--allow", "*"])
        #expect(all.status == .clean)
        #expect(all.stdout.hasPrefix("11 requests, 9 distinct, 5 differ (5 allowed by --allow)\n"))
        #expect(all.stdout.contains("allowed by --allow (5 URLs, not a failure):"))

        // Path patterns and a whole-URL pattern together cover the same five URLs.
        let each = run(Self.fixture + ["--allow", "/blog/*", "--allow", "/team.html", "--allow", "https://www.example.org/*",
                                       "--format", "json"])
        #expect(each.status == .clean)
        let doc = try json(each)
        #expect((doc["groups"] as? [Any])?.isEmpty == true)
        #expect((doc["allowed"] as? [Any])?.count == 3)

        // One difference left out of the patterns still fails.
        let partial = run(Self.fixture + ["--allow", "/blog/*", "--allow", "https://www.example.org/*"])
        #expect(partial.status == .findings)
        #expect(partial.stdout.contains("fixtures/diff/old/.htaccess:10: RewriteRule ^team\\.html$ /about/team/ [R=301,L]"))
    }

    @Test func differencesNoRuleExplainsAreGroupedApart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-diff-files-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["old", "new"] {
            let root = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("private"), withIntermediateDirectories: true)
            try "RewriteEngine On\nRewriteRule ^a$ /b [R=301,L]\n".write(to: root.appendingPathComponent(".htaccess"),
                                                                            atomically: true, encoding: .utf8)
            try "b\n".write(to: root.appendingPathComponent("b"), atomically: true, encoding: .utf8)
            try "x\n".write(to: root.appendingPathComponent("private/x.html"), atomically: true, encoding: .utf8)
            if name == "old" { try "c\n".write(to: root.appendingPathComponent("c.html"), atomically: true, encoding: .utf8) }
        }
        // The new site locks /private/ and lost c.html; /a still redirects to /b.
        try "Require all denied\n".write(to: dir.appendingPathComponent("new/private/.htaccess"), atomically: true, encoding: .utf8)
        let urls = dir.appendingPathComponent("urls.txt").path
        try "/a\n/c.html\n/private/x.html\nnot a request\n".write(toFile: urls, atomically: true, encoding: .utf8)
        let o = run(["diff", "--old", dir.appendingPathComponent("old").path, "--new", dir.appendingPathComponent("new").path,
                     "--host", "example.org", "--urls", urls])
        #expect(o.status == .findings)
        #expect(o.stderr == "htlint: \(urls):4: skipped 'not a request': not a URL, a path or an access-log request line\n")
        #expect(o.stdout == """
            3 requests, 3 distinct, 2 differ; 1 line skipped

            \(DiffReport.noDirective)
              2 URLs
              https://example.org/c.html
                old: 200
                new: 404
              https://example.org/private/x.html
                old: 200
                new: 403

            """)
        let doc = try json(run(["diff", "--old", dir.appendingPathComponent("old").path, "--new", dir.appendingPathComponent("new").path,
                                "--host", "example.org", "--urls", urls, "--format", "json"]))
        let group = try #require((doc["groups"] as? [[String: Any]])?.first)
        #expect(group["file"] == nil && group["line"] == nil && group["directive"] == nil && group["config"] == nil)
        #expect(group["count"] as? Int == 2)
    }

    @Test func allowPatterns() {
        #expect(AllowPattern("/blog/*").matches("https://example.org/blog/a/b?x=1"))
        #expect(!AllowPattern("/blog/*").matches("https://example.org/blogs/a"))
        #expect(AllowPattern("*.html").matches("https://example.org/team.html?x"))
        #expect(!AllowPattern("/team.html").matches("https://example.org/team.htm"))
        #expect(AllowPattern("http://*").matches("http://example.org/"))
        #expect(!AllowPattern("http://*").matches("https://example.org/"))
        #expect(AllowPattern("/a*b*c").matches("https://x/a-b-b-c"))
        #expect(!AllowPattern("/a*b*c").matches("https://x/a-b-b-cd"))
    }

    @Test func siteFileDocrootIsReplaced() {
        // The story's site file keeps its Cloudflare Flexible front; only the docroot changes.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-diff-site-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let urls = dir.appendingPathComponent("urls.txt").path
        try? "https://example.org/hello-world/\nhttps://example.org/wp-admin/\n".write(toFile: urls, atomically: true, encoding: .utf8)
        let o = run(["diff", "--site", "fixtures/story/broken/site.yml", "--old", "fixtures/story/broken/site",
                     "--new", "fixtures/story/fixed/site", "--urls", urls])
        #expect(o.status == .findings)
        #expect(o.stdout.hasPrefix("2 requests, 2 distinct, 2 differ\n"))
        #expect(o.stdout.contains("    old: 301 → https://example.org/hello-world/ (loop)\n    new: 200\n"))
        let same = run(["diff", "--site", "fixtures/story/broken/site.yml", "--old", "fixtures/story/fixed/site",
                        "--new", "fixtures/story/fixed/site", "--urls", urls])
        #expect(same.status == .clean)
    }

    @Test(arguments: [
        ([], "htlint: diff needs --old DIR, --new DIR and --urls FILE (missing: --old, --new, --urls)"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new"], "htlint: diff needs --old DIR, --new DIR and --urls FILE (missing: --urls)"),
        (["--old", "fixtures/diff/nope", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/urls.txt"],
         "htlint: --old: cannot read 'fixtures/diff/nope': no such file or directory"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/urls.txt", "--urls", "fixtures/diff/urls.txt"],
         "htlint: --new: cannot read 'fixtures/diff/urls.txt': not a directory"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/missing.txt"],
         "htlint: cannot read 'fixtures/diff/missing.txt': no such file or directory"),
        (["--docroot", "fixtures/diff/old", "--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/urls.txt"],
         "htlint: diff takes its two document roots from --old and --new, not --docroot"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/urls.txt", "--format", "xml"],
         "htlint: unknown format 'xml'; expected one of: text, json"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/urls.txt", "--jobs", "0"],
         "htlint: --jobs expects a number of at least 1, got '0'"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "fixtures/diff/urls.txt"],
         "htlint: diff takes no positional arguments (the requests come from --urls FILE)"),
        (["--old", "fixtures/diff/old", "--new", "fixtures/diff/new", "--urls", "fixtures/diff/urls.txt", "--bogus"],
         "htlint: unknown option '--bogus'"),
    ])
    func usageErrors(_ args: [String], _ message: String) {
        let o = run(["diff"] + args)
        #expect(o.status == .failure)
        #expect(o.stdout == "")
        #expect(o.stderr.hasPrefix(message + "\n"), "\(o.stderr)")
    }

    @Test func helpIsListed() {
        #expect(run(["diff", "--help"]).stdout.hasPrefix("usage: htlint diff --old DIR --new DIR"))
        #expect(run(["--help"]).stdout.contains("  diff --old --new "))
    }

    /// A W1-like migration map (redirect units of W1's kinds, then a front controller), written
    /// to a temporary directory twice with one rule's target changed in the new copy: the diff
    /// names exactly that rule and exactly the URLs it answers.
    @Test func generatedRedirectMapNamesTheChangedRule() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-diff-w1-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sections = ["old/products", "blog", "support/kb", "press-releases", "catalog-2015"]
        let nouns = ["widget", "chair", "lamp", "kettle", "tent", "router"]
        let changed = 137
        var lines = ["# W1-like migration map", "RewriteEngine On", ""]
        var changedLine = 0
        var urls: [String] = []
        var changedURLs: Set<String> = []
        func unit(_ i: Int, new: Bool) -> (lines: [String], urls: [String]) {
            let slug = "\(nouns[i % nouns.count])-\(i)"
            let sec = sections[i % sections.count]
            let target = new && i == changed ? "/archive/\(slug)/" : "/shop/\(slug)/"
            switch i % 4 {
            case 0, 1:
                return (["RewriteRule ^\(sec)/\(slug)/?$ \(target) [R=301,L]"],
                        ["/\(sec)/\(slug)", "/\(sec)/\(slug)/"])
            case 2:
                return (["RewriteRule ^\(sec)/\(slug)\\.html$ \(target) [R=301,L]"], ["/\(sec)/\(slug).html"])
            default:
                return (["RewriteCond %{QUERY_STRING} ^id=\(i)$", "RewriteRule ^product\\.php$ \(target) [R=301,L,QSD]"],
                        ["/product.php?id=\(i)"])
            }
        }
        var newLines = lines
        for i in 0..<300 {
            let old = unit(i, new: false), new = unit(i, new: true)
            lines += old.lines
            newLines += new.lines
            if i == changed {
                changedLine = newLines.count
                changedURLs = Set(new.urls.map { "https://www.example.com" + $0 })
            }
            urls += old.urls
        }
        let front = ["", "RewriteCond %{REQUEST_FILENAME} !-f", "RewriteCond %{REQUEST_FILENAME} !-d", "RewriteRule . /index.php [L]"]
        lines += front
        newLines += front
        for (name, text) in [("old", lines), ("new", newLines)] {
            let root = dir.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try (text.joined(separator: "\n") + "\n").write(to: root.appendingPathComponent(".htaccess"), atomically: true, encoding: .utf8)
            try "<?php\n".write(to: root.appendingPathComponent("index.php"), atomically: true, encoding: .utf8)
        }
        // Every URL twice (as access-log lines the second time), plus requests no rule answers.
        var input = urls
        input += urls.map { "203.0.113.7 - - [01/Jun/2025:10:00:00 +0000] \"GET \($0) HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0\"" }
        input += ["/", "/shop/widget-0/", "/missing/page", "/product.php?id=9999"]
        let urlFile = dir.appendingPathComponent("urls.txt").path
        try (input.joined(separator: "\n") + "\n").write(toFile: urlFile, atomically: true, encoding: .utf8)

        let o = run(["diff", "--old", dir.appendingPathComponent("old").path, "--new", dir.appendingPathComponent("new").path,
                     "--host", "www.example.com", "--urls", urlFile, "--format", "json", "--jobs", "2"])
        #expect(o.status == .findings)
        let doc = try json(o)
        #expect(doc["summary"] as? [String: Int]
                == ["requests": input.count, "distinct": urls.count + 4, "differ": changedURLs.count, "allowed": 0, "skipped": 0])
        let groups = doc["groups"] as? [[String: Any]] ?? []
        try #require(groups.count == 1)
        #expect(groups[0]["config"] as? String == "new")
        #expect(groups[0]["file"] as? String == dir.appendingPathComponent("new/.htaccess").path)
        #expect(groups[0]["line"] as? Int == changedLine)
        #expect((groups[0]["directive"] as? String)?.contains("/archive/") == true)
        let differing = (groups[0]["urls"] as? [[String: Any]] ?? [])
        #expect(Set(differing.compactMap { $0["url"] as? String }) == changedURLs)
        #expect(differing.allSatisfy { $0["requests"] as? Int == 2 })
        #expect(groups[0]["requests"] as? Int == 2 * changedURLs.count)

        // The same map against itself: nothing differs.
        let same = run(["diff", "--old", dir.appendingPathComponent("old").path, "--new", dir.appendingPathComponent("old").path,
                        "--host", "www.example.com", "--urls", urlFile])
        #expect(same.status == .clean)
        #expect(same.stdout == "\(input.count) requests, \(urls.count + 4) distinct, 0 differ\n")
    }
}
