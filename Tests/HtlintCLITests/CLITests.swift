import Foundation
import HtlintTestSupport
import Testing
@testable import HtlintCLI

/// The command line, run as a function; output snapshotted in Golden/.
struct CLITests {
    /// Runs htlint as a user would, with `stdin` as standard input.
    func run(_ args: [String], stdin: String = "") -> CommandOutput {
        var env = CLIEnvironment.live
        let input = Array(stdin.utf8)
        env.readStdin = { input }
        return runCLI(args, environment: env)
    }


    static let brokenInputs = ["unclosed-section", "unknown-flag", "bad-regex", "unknown-directive", "unterminated-quote"]

    @Test("broken files give located errors and exit 1", arguments: brokenInputs)
    func brokenFile(_ name: String) throws {
        let o = run(["check", "Tests/HtlintCLITests/Inputs/\(name).htaccess"])
        #expect(o.status == .findings)
        try assertGolden("check-\(name).txt", snapshot(o))
    }

    @Test func binaryGarbageIsReportedNotCrashed() {
        let o = run(["check", "Tests/HtlintCLITests/Inputs/binary-garbage.htaccess"])
        #expect(o.status == .findings)
        #expect(o.stdout.contains("binary-garbage.htaccess:1:"))
        #expect(o.stdout.contains("[HT104]") || o.stdout.contains("[HT110]"))
    }

    @Test func fiveMegabyteFileIsRead() throws {
        var text = "RewriteEngine On\n"
        var i = 0
        while text.utf8.count < 5_000_000 {
            text += "RewriteRule ^old/page-\(i)/?$ /new/page-\(i)/ [R=301,L]\n"
            i += 1
        }
        text += "RewriteRule ^x$ /y [L,BOGUS]\n"
        let o = run(["check", "-"], stdin: text)
        #expect(o.status == .findings)
        #expect(o.stdout == "<stdin>:\(i + 2):23: error: RewriteRule: unknown flag 'BOGUS' [HT113]\n")
    }

    @Test func cleanFileExitsZeroWithNoOutput() {
        let o = run(["check", "Tests/HtlintCLITests/Inputs/clean.htaccess"])
        #expect(o.status == .clean)
        #expect(o.stdout == "")
    }

    @Test func jsonFormat() throws {
        let o = run(["check", "--format", "json", "Tests/HtlintCLITests/Inputs/unknown-flag.htaccess"])
        try assertGolden("check-unknown-flag.json.txt", snapshot(o))
    }

    @Test func unreadableFileIsAToolError() {
        let o = run(["check", "does/not/exist.htaccess"])
        #expect(o.status == .failure)
        #expect(o.stderr == "htlint: cannot read 'does/not/exist.htaccess': no such file or directory\n")
    }

    @Test func unknownOptionIsAUsageError() {
        let o = run(["check", "--bogus", "x"])
        #expect(o.status == .failure)
        #expect(o.stderr == "htlint: unknown option '--bogus'\n")
    }

    @Test func directoryIsSearchedForHtaccessFiles() {
        let o = run(["check", "fixtures/demo"])
        #expect(o.status == .clean)
    }

    @Test func simulateShowsTheFlexibleLoop() throws {
        let o = run(["simulate", "--docroot", "fixtures/demo", "--edge", "cloudflare-flexible",
                     "https://example.org/", "http://example.org/about.html"])
        #expect(o.status == .findings)
        try assertGolden("simulate-demo-flexible.txt", snapshot(o))
    }

    @Test func simulateWithoutEdgeServesTheBlog() throws {
        let o = run(["simulate", "--docroot", "fixtures/demo", "https://example.org/about.html"])
        #expect(o.status == .clean)
        try assertGolden("simulate-demo-direct.txt", snapshot(o))
    }

    @Test func simulateJSON() throws {
        let o = run(["simulate", "--format", "json", "--docroot", "fixtures/demo", "http://example.org/"])
        try assertGolden("simulate-demo.json.txt", snapshot(o))
    }

    @Test func explainTheLoop() throws {
        let o = run(["explain", "--docroot", "fixtures/demo", "--edge", "cloudflare-flexible", "https://example.org/about.html"])
        #expect(o.status == .findings)
        try assertGolden("explain-demo-flexible.txt", snapshot(o))
    }

    @Test func simulateRejectsARelativeURL() {
        let o = run(["simulate", "--docroot", "fixtures/demo", "/about.html"])
        #expect(o.status == .failure)
        #expect(o.stderr.contains("is not an absolute URL"))
    }

    /// A start URL is what a browser could request: http or https, a host, an IPv6 address in
    /// one pair of brackets. Every command that takes URLs says why one is refused.
    @Test func startURLsAreHttpWithAHost() {
        let refused = [("ftp://example.org/", "'ftp://example.org/' is not an http or https URL"),
                       ("http:///index.html", "'http:///index.html' has no host"),
                       ("http://[::1", "'http://[::1' has a malformed host (an IPv6 address is written in brackets: http://[::1]/)"),
                       ("http://ex]ample.org/", "'http://ex]ample.org/' has a malformed host (an IPv6 address is written in brackets: http://[::1]/)")]
        for (url, message) in refused {
            for command in [["simulate", "--docroot", "fixtures/demo"], ["explain", "--docroot", "fixtures/demo"], ["probe"],
                            ["mixed-content", "--docroot", "fixtures/demo"], ["graph", "--docroot", "fixtures/demo", "--url"]] {
                // mixed-content reads an argument without http(s):// as a file path.
                if command[0] == "mixed-content", url.hasPrefix("ftp:") { continue }
                let o = run(command + [url])
                #expect(o.status == .failure, "\(command[0]) \(url)")
                #expect(o.stderr == "htlint: \(message)\n", "\(command[0]) \(url)")
            }
        }
        #expect(run(["simulate", "--docroot", "fixtures/demo", "http://[::1]/"]).status == .clean)
    }

    /// A method is a token and a header one line with a name: anything else would be a request
    /// the browser cannot send, or two headers in one.
    @Test func methodsAndHeadersAreChecked() {
        let base = ["simulate", "--docroot", "fixtures/demo"]
        let refused = [(["--method", ""], "--method '' is not an HTTP method (a token such as GET, POST or PROPFIND)"),
                       (["--method", "G T"], "--method 'G T' is not an HTTP method (a token such as GET, POST or PROPFIND)"),
                       (["--header", "X: a\nb"], "header 'X: a\\x0ab' holds a line break or NUL; give each header its own --header"),
                       (["--header", ": v"], "header ': v' has no valid name (letters, digits and !#$%&'*+-.^_`|~)"),
                       (["--header", "X Y: v"], "header 'X Y: v' has no valid name (letters, digits and !#$%&'*+-.^_`|~)")]
        for (args, message) in refused {
            let o = run(base + args + ["http://example.org/"])
            #expect(o.status == .failure)
            #expect(o.stderr == "htlint: \(message)\n")
        }
        let ok = run(base + ["--method", "propfind", "--header", "X-A: b:c", "http://example.org/"])
        #expect(ok.stdout.contains("PROPFIND http://example.org/"))
    }

    /// When no file could be read, the text report says nothing rather than "no problems found".
    @Test func lintOfNothingReadableReportsOnlyTheError() {
        let o = run(["lint", "does/not/exist.htaccess"])
        #expect(o.status == .failure)
        #expect(o.stdout.isEmpty)
        #expect(o.stderr == "htlint: cannot read 'does/not/exist.htaccess': no such file or directory\n")
        let json = run(["lint", "--format", "json", "does/not/exist.htaccess"])
        #expect(json.status == .failure && json.stdout.contains("\"diagnostics\""))
    }

    /// A directory without access files is nothing to check, said on stderr; a report that
    /// cannot be written names the file and the system's reason.
    @Test func emptyDirectoriesAndUnwritableReports() throws {
        let dir = NSTemporaryDirectory() + "htlint-empty-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for command in ["check", "lint"] {
            let o = run([command, dir])
            #expect(o.status == .clean)
            #expect(o.stderr == "htlint: note: no .htaccess file under '\(dir)'\n")
        }
        let report = run(["report", "--docroot", "fixtures/demo", "--html", dir + "/missing/page.html"])
        #expect(report.status == .failure)
        #expect(report.stderr == "htlint: cannot write '\(dir)/missing/page.html': no such file or directory\n")
    }

    /// A directory PATH is a document root, as `--docroot` makes one: the trailing-slash rule
    /// loops against DirectorySlash only where the site has a directory (`/docs`), which a lone
    /// file's empty site lacks.
    @Test func directoryPathIsLintedAsASite() throws {
        let dir = NSTemporaryDirectory() + "htlint-site-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/docs", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "RewriteEngine On\nRewriteRule ^(.*)/$ /$1 [R=301,L]\n".write(toFile: dir + "/.htaccess", atomically: true, encoding: .utf8)
        try "".write(toFile: dir + "/docs/index.html", atomically: true, encoding: .utf8)
        let asPath = run(["lint", "--format", "concise", "--host", "example.com", dir])
        #expect(asPath.stdout.contains("\(dir)/.htaccess:2:1: error: redirect loop: http://example.com/docs loops through 2 URLs"), "\(asPath.stdout)")
        #expect(asPath.status == .findings)
        #expect(asPath.stdout == run(["lint", "--format", "concise", "--host", "example.com", "--docroot", dir]).stdout)
        // The file alone is the root of an empty site: no directory, no loop.
        #expect(!run(["lint", "--format", "concise", "--host", "example.com", dir + "/.htaccess"]).stdout.contains("HT301"))
        // A directory without its own .htaccess (a repository whose site is in public/) is
        // searched, each file linted alone: its pages are not judged from the wrong root.
        let repo = dir + "/repo"
        try FileManager.default.createDirectory(atPath: repo + "/public", withIntermediateDirectories: true)
        try "ErrorDocument 404 /404.html\n".write(toFile: repo + "/public/.htaccess", atomically: true, encoding: .utf8)
        try "<p>Not found</p>".write(toFile: repo + "/public/404.html", atomically: true, encoding: .utf8)
        #expect(run(["lint", "--format", "concise", "--host", "example.com", repo]).stdout == "")
        #expect(run(["lint", "--format", "concise", "--host", "example.com", repo + "/public"]).stdout == "")
        // Without the page, the site's own root says so; the same file alone would be a guess.
        try FileManager.default.removeItem(atPath: repo + "/public/404.html")
        try "<p>Home</p>".write(toFile: repo + "/public/index.html", atomically: true, encoding: .utf8)
        #expect(run(["lint", "--format", "concise", "--host", "example.com", repo + "/public"]).stdout.contains("[HT320]"))
        #expect(!run(["lint", "--format", "concise", "--host", "example.com", repo]).stdout.contains("[HT320]"))
    }

    @Test func unknownEdgeIsAUsageError() {
        let o = run(["simulate", "--edge", "akamai-magic", "http://example.org/"])
        #expect(o.status == .failure)
        #expect(o.stderr.hasPrefix("htlint: unknown edge 'akamai-magic'"))
    }

    /// A host name that no `Host` header could carry is refused where it is given, on the
    /// command line or in a site file (with its line), instead of simulating requests that
    /// can only go offsite.
    @Test func malformedHostNamesAreUsageErrors() throws {
        let spaced = run(["simulate", "--host", "exa mple.org", "http://example.org/"])
        #expect(spaced.status == .failure)
        #expect(spaced.stderr == "htlint: --host expects a host name, got 'exa mple.org': it contains a space or control character\n")
        #expect(run(["replay", "--host", "https://example.org", "--urls", "-"]).stderr
            == "htlint: --host expects a host name, got 'https://example.org': give the host without a scheme\n")
        #expect(run(["simulate", "--alias", "a/b", "http://example.org/"]).stderr
            == "htlint: --alias expects a host name, got 'a/b': '/' cannot appear in a host name\n")
        for fine in ["example.org", "example.org:8080", "[2001:db8::1]", "*.example.org", "localhost"] {
            #expect(SiteOptions.hostNameProblem(fine) == nil, "\(fine)")
        }
        let dir = NSTemporaryDirectory() + "htlint-site-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "host: example.org\naliases:\n  - www.example.org\n  - \"\"\n".write(toFile: dir + "/site.yml", atomically: true, encoding: .utf8)
        let site = run(["simulate", "--site", dir + "/site.yml", "http://example.org/"])
        #expect(site.status == .failure)
        #expect(site.stderr == "htlint: \(dir)/site.yml:4: aliases expects host names, got '': it is empty\n")
    }

    /// `origin.certificate` in a site file gives mod_ssl's `SSL_SERVER_*` variables their values
    /// (htlint reads no certificate file); a name it cannot read is an error with its line.
    @Test func siteFileCertificateFeedsServerVariables() throws {
        let dir = NSTemporaryDirectory() + "htlint-cert-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir + "/site", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "RewriteEngine On\nRewriteCond %{SSL:SSL_SERVER_S_DN_O} =Shop\nRewriteRule ^a$ /shop [R=302,L]\nRewriteRule ^a$ /other [R=302,L]\n"
            .write(toFile: dir + "/site/.htaccess", atomically: true, encoding: .utf8)
        let yml = "docroot: site\nhost: example.org\norigin:\n  certificate:\n    subject: CN=example.org,O=Shop,C=DE\n    issuer: CN=Test CA\n"
        try yml.write(toFile: dir + "/site.yml", atomically: true, encoding: .utf8)
        let told = run(["simulate", "--site", dir + "/site.yml", "https://example.org/a"])
        #expect(told.stdout.contains("https://example.org/shop"))
        try "docroot: site\nhost: example.org\n".write(toFile: dir + "/site.yml", atomically: true, encoding: .utf8)
        let unknown = run(["simulate", "--site", dir + "/site.yml", "https://example.org/a"])
        #expect(unknown.stdout.contains("https://example.org/other"))
        try "host: example.org\norigin:\n  certificate:\n    subject: XX=1\n".write(toFile: dir + "/site.yml", atomically: true, encoding: .utf8)
        let bad = run(["simulate", "--site", dir + "/site.yml", "https://example.org/a"])
        #expect(bad.status == .failure)
        #expect(bad.stderr.hasPrefix("htlint: \(dir)/site.yml:4: subject is a name like CN=shop.example"))
    }

    /// `conformance` finds cases below the directory it is given; a directory without any is an error.
    @Test func conformanceFindsNestedCasesAndRefusesAnEmptyDirectory() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let nested = parent.appendingPathComponent("cases/dirslash-default")
        try FileManager.default.createDirectory(at: parent.appendingPathComponent("cases"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "fixtures/apache/dirslash-default", toPath: nested.path)
        let found = run(["conformance", parent.path])
        #expect(found.status == .clean)
        #expect(found.stdout.hasSuffix("1/1 cases agree; 5/5 requests agree\n"))
        let empty = run(["conformance", parent.appendingPathComponent("cases/dirslash-default/site").path])
        #expect(empty.status == .failure)
        #expect(empty.stderr.hasPrefix("htlint: no cases in '"))
        #expect(run(["conformance", "--frobnicate", parent.path]).status == .failure)
    }

    /// A case without its recording, or with fewer results than requests, is a disagreement
    /// that says why — not a case that agrees because nothing was compared.
    @Test func conformanceRefusesCasesWithoutTheirRecording() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-conformance-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let unrecorded = parent.appendingPathComponent("unrecorded"), short = parent.appendingPathComponent("short")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "fixtures/apache/dirslash-default", toPath: unrecorded.path)
        try FileManager.default.removeItem(at: unrecorded.appendingPathComponent("expected.json"))
        try FileManager.default.copyItem(atPath: "fixtures/apache/dirslash-default", toPath: short.path)
        let expected = short.appendingPathComponent("expected.json")
        var recording = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: expected)) as? [String: Any])
        recording["results"] = Array(try #require(recording["results"] as? [Any]).prefix(2))
        try JSONSerialization.data(withJSONObject: recording).write(to: expected)
        let o = run(["conformance", parent.path])
        #expect(o.status == .findings)
        #expect(o.stdout == """
              \(short.path): invalid case '\(expected.path)': 2 recorded results for 5 requests in case.json; record the case again
              \(unrecorded.path): cannot read '\(unrecorded.path)/expected.json': missing; record the case with `python3 tools/apache-oracle/oracle.py record DIR`
            0/2 cases agree; 0/0 requests agree

            """)
    }

    @Test func versionAndHelp() throws {
        #expect(run(["--version"]).stdout == "htlint \(CLI.version)\n")
        let help = run(["--help"])
        #expect(help.status == .clean)
        try assertGolden("help.txt", snapshot(help))
        #expect(run([]).status == .failure)
        #expect(run(["frobnicate"]).status == .failure)
    }

    /// Opt-in rules (HT415) run only when `--enable`, `--only` or `.htlint.yml` name them.
    @Test func optInRulesRunWhenEnabled() throws {
        let code = "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n"
        let base = ["lint", "--format", "concise", "--no-simulation"]
        #expect(!run(base + ["-"], stdin: code).stdout.contains("[HT415]"))
        let enabled = run(base + ["--enable", "host-header-reflected", "-"], stdin: code)
        #expect(enabled.status == .clean)
        #expect(enabled.stdout.contains("<stdin>:3:15: note: the redirect target `https://%{HTTP_HOST}%{REQUEST_URI}` takes its host from `%{HTTP_HOST}`"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-optin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("htlint.yml")
        try "rules:\n  enable: [HT415]\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(run(base + ["--config", config.path, "-"], stdin: code).stdout.contains("[HT415]"))
        let unknown = run(base + ["--enable", "HT999", "-"], stdin: code)
        #expect(unknown.status == .failure)
        #expect(unknown.stderr == "htlint: unknown rule 'HT999'; `htlint rules` lists them\n")
        #expect(run(["rules"]).stdout.contains("HT415  host-header-reflected"))
        #expect(run(["rules"]).stdout.split(separator: "\n").first { $0.hasPrefix("HT415") }?.hasSuffix("(opt-in)") == true)
    }
}
