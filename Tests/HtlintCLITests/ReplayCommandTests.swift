import Foundation
import Testing
@testable import HtlintCLI

/// `htlint replay` (issue 8, item 1): URL lists and access logs (plain, gzip), the summary, JSON
/// lines in input order, the same answers with or without the cache and on one or two threads,
/// exit statuses and input errors.
struct ReplayCommandTests {
    func run(_ args: [String], environment: CLIEnvironment = .live) -> CommandOutput {
        runCLI(args, environment: environment)
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var parts: [String] = []
        func add(_ s: String) { lock.lock(); parts.append(s); lock.unlock() }
    }

    /// With a live stream the lines go to it (not to the collected output), and the same bytes
    /// come out; progress is only reported where the environment asks for it.
    @Test func jsonLinesStreamWhenTheEnvironmentStreams() {
        let reference = run(Self.fixture + ["--jsonl"]).stdout
        let stdout = Collected(), progress = Collected()
        var environment = CLIEnvironment.live
        environment.streamStdout = { stdout.add($0) }
        environment.progress = { progress.add($0) }
        let o = run(Self.fixture + ["--jsonl"], environment: environment)
        #expect(o.stdout.isEmpty)
        #expect(stdout.parts.joined() == reference)
        // One batch, then the line is cleared.
        #expect(progress.parts.count == 2)
        #expect(progress.parts.first?.hasPrefix("htlint: 11 requests replayed (") == true)
        #expect(progress.parts.last == "")
    }

    /// Where the environment keeps objects until the process exits, replay hands it what it built
    /// (the cache and hop memo, then the simulator and summary) and answers the same.
    @Test func replayLeavesItsObjectsToTheExitWhenAsked() {
        let reference = run(Self.fixture)
        let kept = Collected()
        var environment = CLIEnvironment.live
        environment.keepUntilExit = { kept.add(String(describing: type(of: $0))) }
        let o = run(Self.fixture, environment: environment)
        #expect(o.stdout == reference.stdout)
        #expect(o.status == reference.status)
        #expect(kept.parts.count == 2)
        #expect(kept.parts.last?.contains("ChainSimulator") == true)
    }

    /// The answer cache tells URLs apart by their bytes: `/café.html` with a precomposed é is
    /// the site's file, the same name with `e` and a combining accent is not (Apache: 404),
    /// though Swift's `String` holds the two equal.
    @Test func cacheKeepsNormalFormsApart() throws {
        let precomposed = "/caf\u{E9}.html", decomposed = "/cafe\u{301}.html"
        let urls = try Self.scratch("urls.txt", "http://example.com\(precomposed)\nhttp://example.com\(decomposed)\n")
        defer { Self.removeScratch(urls) }
        let root = (urls as NSString).deletingLastPathComponent + "/root"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "x".write(toFile: root + precomposed, atomically: true, encoding: .utf8)
        let o = run(["replay", "--docroot", root, "--host", "example.com", "--urls", urls, "--jsonl"])
        let statuses = o.stdout.split(separator: "\n").compactMap { line in
            line.range(of: "\"finalStatus\":").map { String(line[$0.upperBound...].prefix(3)) }
        }
        #expect(statuses == ["200", "404"])
    }

    /// A log longer than a batch (4,096 requests) goes out in one write per batch, in order.
    @Test func jsonLinesStreamBatchByBatch() throws {
        let urls = try String(contentsOfFile: packageRoot + "/fixtures/diff/urls.txt", encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("/") }
        let lines = (0..<5_000).map { urls[$0 % urls.count] }
        let path = try Self.scratch("log.txt", lines.joined(separator: "\n"))
        defer { Self.removeScratch(path) }
        let args = ["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path, "--jsonl"]
        let stdout = Collected()
        var environment = CLIEnvironment.live
        environment.streamStdout = { stdout.add($0) }
        #expect(run(args, environment: environment).stdout.isEmpty)
        #expect(stdout.parts.map { $0.split(separator: "\n").count } == [4_096, 904])
        #expect(stdout.parts.joined() == run(args).stdout)
    }

    static let fixture = ["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", "fixtures/diff/urls.txt"]

    static func scratch(_ name: String, _ text: String) throws -> String {
        let dir = NSTemporaryDirectory() + "htlint-replay-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Removes the directory `scratch` made for `path`.
    static func removeScratch(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    /// The README's replay example is this command's real output.
    @Test func readmeShowsRealOutput() throws {
        let readme = try String(contentsOfFile: packageRoot + "/README.md", encoding: .utf8)
        let command = "$ htlint " + Self.fixture.joined(separator: " ") + "\n"
        let start = try #require(readme.range(of: command))
        let end = try #require(readme.range(of: "\n$ ", range: start.upperBound..<readme.endIndex))
        let o = run(Self.fixture)
        #expect(o.status == .clean)
        #expect(String(readme[start.upperBound...end.lowerBound]) == o.stdout)
        #expect(o.stderr.hasPrefix("htlint: replayed 11 requests in "))
    }

    @Test func jsonLinesFollowTheInputOrder() throws {
        let o = run(Self.fixture + ["--jsonl"])
        let lines = o.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 11)
        let urls = try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["url"] as? String
        }
        let expected = try String(contentsOfFile: packageRoot + "/fixtures/diff/urls.txt", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
            .map { $0.hasPrefix("/") ? "https://example.org" + $0 : String($0) }
        #expect(urls == expected)
        #expect(lines[1] == #"{"url":"https://example.org/blog/hello-world","method":"GET","outcome":"final","finalStatus":200,"uri":"/index.php","filename":"/index.php","hops":[{"url":"https://example.org/blog/hello-world","status":301,"location":"https://example.org/news/hello-world"},{"url":"https://example.org/news/hello-world","status":200}]}"#)
    }

    @Test func cacheAndThreadsDoNotChangeAnswers() {
        let reference = run(Self.fixture + ["--jsonl", "--no-cache", "--jobs", "1"]).stdout
        #expect(run(Self.fixture + ["--jsonl", "--jobs", "2"]).stdout == reference)
        #expect(run(Self.fixture + ["--jsonl", "--no-cache", "--jobs", "2"]).stdout == reference)
    }

    /// The summary keeps (and caches) only a tally per request: the same counts either way.
    @Test func summaryIsTheSameWithAndWithoutTheCache() {
        let reference = run(Self.fixture + ["--no-cache", "--jobs", "1"]).stdout
        #expect(reference.contains("requests: 11"))
        #expect(run(Self.fixture + ["--jobs", "2"]).stdout == reference)
        #expect(run(Self.fixture).stdout == reference)
    }

    /// Cached chains count their fired directives on a shared box that the summary folds in
    /// bulk (every 4,096 distinct chains and at the end): 4,500 distinct requests, each asked
    /// twice, count exactly as 9,000 fresh simulations do.
    @Test func firedRuleCountsSurviveTheBulkFold() throws {
        let urls = try String(contentsOfFile: packageRoot + "/fixtures/diff/urls.txt", encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("/") }
        try #require(urls.count == 9)
        // Each of the 9 paths 500 times with distinct queries, then the same 4,500 again.
        let lines = (0..<9_000).map { i in "\(urls[i % 4_500 % 9])?visit=\(i % 4_500)" }
        let path = try Self.scratch("log.txt", lines.joined(separator: "\n"))
        defer { Self.removeScratch(path) }
        let args = ["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path]
        let reference = run(args + ["--no-cache", "--jobs", "1"]).stdout
        #expect(reference.contains("requests: 9000"))
        // The 11-line fixture's counts (6, 3, 2 over its 9 paths), each path now asked 1,000 times.
        #expect(reference.contains("""
            rules that fired most:
              6000  fixtures/diff/new/.htaccess:16  RewriteRule ^(news|shop)/ index.php [L]
              3000  fixtures/diff/new/.htaccess:8   RewriteRule ^blog/(.*)$ /news/$1 [R=301,L]
              2000  fixtures/diff/new/.htaccess:11  RewriteRule ^products/([a-z0-9-]+)\\.html$ /shop/$1/ [R=301,L]

            """))
        #expect(run(args).stdout == reference)
    }

    /// Rules that never fired are named in the file's order, sections included (they were
    /// listed rules first, then redirects, then sections), and an empty "fired" list says so.
    @Test func neverFiredRulesInFileOrder() throws {
        let htaccess = try Self.scratch(".htaccess", """
            RewriteEngine On
            <If "%{HTTP_HOST} == 'elsewhere.example'">
            Redirect /if /else
            </If>
            RewriteRule ^never$ /x [L]
            Redirect /gone /elsewhere

            """)
        let root = (htaccess as NSString).deletingLastPathComponent
        defer { Self.removeScratch(htaccess) }
        let urls = try Self.scratch("urls.txt", "/index.html\n")
        defer { Self.removeScratch(urls) }
        let o = run(["replay", "--docroot", root, "--host", "example.org", "--urls", urls])
        let file = root + "/.htaccess"
        #expect(o.stdout.contains("rules that fired most: none\n"))
        #expect(o.stdout.contains("rules that never fired: 3 (first: \(file):3, \(file):5, \(file):6)\n"))
    }

    /// Lines that cross the reader's 64 KiB chunks, CRLF endings, and a last line without one.
    @Test func linesAcrossReadChunks() throws {
        let lines = (0..<12_000).map { "https://example.org/page-\($0)?q=" + String(repeating: "x", count: $0 % 97) }
        let path = try Self.scratch("long.txt", lines.joined(separator: "\r\n"))
        defer { Self.removeScratch(path) }
        let source = try LineSource(path: path)
        var read: [String] = []
        while let line = try source.nextLine() { read.append(line) }
        #expect(read == lines)
    }

    @Test func accessLogsPlainAndGzipped() throws {
        let log = """
            203.0.113.9 - - [30/Nov/2026:10:00:00 +0000] "GET /blog/hello-world HTTP/1.1" 301 0 "-" "Mozilla/5.0"
            203.0.113.9 - - [30/Nov/2026:10:00:01 +0000] "HEAD /team.html HTTP/1.1" 404 0
            203.0.113.9 - - [30/Nov/2026:10:00:02 +0000] "\\x16\\x03\\x01" 400 0
            # a comment line is not a request, nor an unreadable line
            not a log line

            """
        let path = try Self.scratch("access.log", log)
        defer { Self.removeScratch(path) }
        let o = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path, "--jsonl"])
        let lines = o.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""method":"GET""#) == true && lines.last?.contains(#""method":"HEAD""#) == true)
        #expect(lines.last?.contains(#""finalStatus":404"#) == true)
        let summary = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path])
        #expect(summary.stdout.hasPrefix("requests: 2 (2 unreadable lines skipped)\n"))
        // Each unreadable line is named with its position, control bytes escaped.
        #expect(summary.stderr.hasPrefix("""
            htlint: \(path):3: skipped '203.0.113.9 - - [30/Nov/2026:10:00:02 +0000] "\\x16\\x03\\x01" 400 0': not a URL, a path or an access-log request line
            htlint: \(path):5: skipped 'not a log line': not a URL, a path or an access-log request line

            """))

        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", path]
        try gzip.run()
        gzip.waitUntilExit()
        let zipped = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path + ".gz", "--jsonl"])
        #expect(zipped.stdout == o.stdout)
    }

    /// A gzip log cut short (copied while it was written) or damaged is an error naming the file
    /// and how far it read, never a shorter replay that looks complete.
    @Test func truncatedOrCorruptGzipIsAnError() throws {
        let lines = (0..<3_000).map { "/blog/post-\($0)" }.joined(separator: "\n") + "\n"
        let path = try Self.scratch("big.log", lines)
        defer { Self.removeScratch(path) }
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-k", path]
        try gzip.run()
        gzip.waitUntilExit()
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + ".gz")))
        let args = ["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls"]
        #expect(run(args + [path + ".gz"]).stdout.hasPrefix("requests: 3000\n"))

        let cut = path + ".cut.gz"
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: cut))
        let truncated = run(args + [cut])
        #expect(truncated.status == .failure)
        #expect(truncated.stdout.isEmpty)
        #expect(truncated.stderr.hasPrefix("htlint: '\(cut)': gzip data ends early after line "))
        #expect(truncated.stderr.hasSuffix("; the file is truncated\n"))
        // Without its 8-byte trailer (CRC and length) the data is all there but unverified.
        let trailerless = path + ".notrailer.gz"
        try Data(whole.dropLast(8)).write(to: URL(fileURLWithPath: trailerless))
        #expect(run(args + [trailerless]).stderr == "htlint: '\(trailerless)': gzip data ends early after line 3000; the file is truncated\n")

        var damaged = whole
        damaged[whole.count / 2] ^= 0xFF
        let bad = path + ".bad.gz"
        try Data(damaged).write(to: URL(fileURLWithPath: bad))
        let corrupt = run(args + [bad])
        #expect(corrupt.status == .failure)
        #expect(corrupt.stderr.hasPrefix("htlint: '\(bad)': corrupt gzip data after line "))
    }

    /// A line past 1 MiB is skipped as unreadable without being kept (memory stays bounded),
    /// and the lines after it are read as usual, also when the file ends inside it.
    @Test func overlongLinesAreSkipped() throws {
        let long = "/" + String(repeating: "a", count: 3 << 20)
        let path = try Self.scratch("long.log", "/first\n\(long)\n/team.html\n\(long)")
        defer { Self.removeScratch(path) }
        let o = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path, "--jsonl"])
        let urls = o.stdout.split(separator: "\n").map { $0.split(separator: ",")[0] }
        #expect(urls == [#"{"url":"https://example.org/first""#, #"{"url":"https://example.org/team.html""#])
        let summary = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path])
        #expect(summary.stdout.hasPrefix("requests: 2 (2 unreadable lines skipped)\n"))
    }

    /// Past the first three, unreadable lines are only counted; a URL the browser cannot use is
    /// an `error` verdict, and an empty list prints `none` where a distribution would be.
    @Test func unreadableLinesAndBrowserErrors() throws {
        let path = try Self.scratch("mixed.txt", "http://[::1\n" + (1...5).map { "junk \($0)\n" }.joined() + "/team.html\n")
        defer { Self.removeScratch(path) }
        let o = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", path])
        #expect(o.stdout.hasPrefix("""
            requests: 2 (5 unreadable lines skipped)
            verdicts: final 1, loop 0, internal recursion 0, offsite 0, too many redirects 0, error 1
            final status: no answer 1 (50.0%), 404 1 (50.0%)

            """))
        let warnings = o.stderr.split(separator: "\n").dropLast()   // then the timing line
        #expect(warnings == ["htlint: \(path):2: skipped 'junk 1': not a URL, a path or an access-log request line",
                             "htlint: \(path):3: skipped 'junk 2': not a URL, a path or an access-log request line",
                             "htlint: \(path):4: skipped 'junk 3': not a URL, a path or an access-log request line",
                             "htlint: 2 more unreadable lines skipped"])
        let empty = try Self.scratch("empty.txt", "# nothing yet\n")
        defer { Self.removeScratch(empty) }
        let none = run(["replay", "--docroot", "fixtures/diff/new", "--host", "example.org", "--urls", empty])
        #expect(none.stdout.hasPrefix("requests: 0\nverdicts: final 0, loop 0, internal recursion 0, offsite 0, too many redirects 0\nfinal status: none\nredirects per request: none\n"))
    }

    @Test func aLoopFailsTheRun() throws {
        let dir = NSTemporaryDirectory() + "htlint-replay-loop-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n"
            .write(toFile: dir + "/.htaccess", atomically: true, encoding: .utf8)
        let urls = try Self.scratch("urls.txt", "https://example.org/\n")
        defer { Self.removeScratch(urls) }
        let o = run(["replay", "--docroot", dir, "--host", "example.org", "--edge", "cloudflare-flexible", "--urls", urls])
        #expect(o.status == .findings)
        #expect(o.stdout.contains("verdicts: final 0, loop 1,"))
    }

    @Test func inputErrorsAreUsageErrors() {
        let missing = run(["replay", "--docroot", "fixtures/diff/new"])
        #expect(missing.status == .failure)
        #expect(missing.stderr.hasPrefix("htlint: replay needs --urls FILE"))
        let unreadable = run(["replay", "--docroot", "fixtures/diff/new", "--urls", "no/such/file.log"])
        #expect(unreadable.status == .failure)
        #expect(unreadable.stderr.contains("no/such/file.log"))
        let jobs = run(Self.fixture + ["--jobs", "0"])
        #expect(jobs.status == .failure)
        #expect(jobs.stderr == "htlint: --jobs expects a number of at least 1, got '0'\n")
        let top = run(Self.fixture + ["--top", "ten"])
        #expect(top.status == .failure)
        #expect(top.stderr == "htlint: --top expects a number (0 or more), got 'ten'\n")
    }
}
