import Foundation
import Testing
import HtlintCLI

/// Issue 9 item 4: hostile or broken input of every kind gives a located message and an ordered
/// exit status (0 clean, 1 findings in the user's file, 2 usage or I/O error), never a crash or hang.
/// Every test works in its own temporary directory with absolute paths, so it does not depend on
/// (or change) the current directory.
struct HostileInputTests {
    /// A fresh temporary directory, removed by the caller's `defer`.
    static func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "htlint-hostile-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let dir = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    static func write(_ text: String, to path: String) throws { try write(Array(text.utf8), to: path) }

    func run(_ args: [String], stdin: [UInt8] = []) -> CommandOutput {
        var env = CLIEnvironment.live
        env.readStdin = { stdin }
        return CLI.run(arguments: args, environment: env)
    }

    // MARK: Bytes that are not configuration text

    @Test func binaryFileIsALocatedErrorInEveryCommand() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // A PNG header: NUL bytes, invalid UTF-8 and CR/LF in the first 16 bytes.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
            + (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }
        let path = dir + "/site/.htaccess"
        try Self.write(png, to: path)
        let check = run(["check", path])
        #expect(check.status == .findings)
        // The NUL byte is on the third line (the header holds CR LF and LF).
        #expect(check.stdout.contains("\(path):3:1: error: file contains a NUL byte"))
        let lint = run(["lint", "--format", "concise", path])
        #expect(lint.status == .findings)
        #expect(lint.stdout.contains("\(path):3:1:"))
        // Simulating a site whose .htaccess is binary: Apache answers 500, and htlint says why.
        let sim = run(["simulate", "--docroot", dir + "/site", "http://example.org/"])
        #expect(sim.status != .failure)
        #expect(sim.stdout.contains("500"))
        #expect(sim.stderr.contains("configuration has"))
    }

    @Test func invalidUTF8IsAWarningAtTheByte() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/.htaccess"
        // Apache compares bytes, so a Latin-1 comment is legal: a warning, not an error.
        try Self.write(Array("# caf".utf8) + [0xE9] + Array("\nRewriteEngine On\n".utf8), to: path)
        let o = run(["check", path])
        #expect(o.status == .clean)
        #expect(o.stdout.contains("\(path):1:6: warning: invalid UTF-8"))
        // The same bytes in a directive argument are still read.
        try Self.write(Array("RewriteRule ^caf".utf8) + [0xE9, 0xFF] + Array("$ /x [L,BOGUS]\n".utf8), to: path)
        let bad = run(["check", path])
        #expect(bad.status == .findings)
        #expect(bad.stdout.contains("unknown flag 'BOGUS'"))
    }

    /// An ESC sequence in a hostile file must not reach the reader's terminal raw: messages and
    /// paths show control characters as control pictures (before: `\e[2J` cleared the screen).
    @Test func controlCharactersInMessagesAreShownNotSent() throws {
        let text = Array("Rewrite\u{1B}[2J\u{1B}[31mEngine On\n".utf8)
        for format in ["concise", "text"] {
            let o = run(["check", "--format", format, "-"], stdin: text)
            #expect(o.status == .findings)
            #expect(!o.stdout.utf8.contains(0x1B), "\(format)")
            #expect(o.stdout.contains("Invalid command 'Rewrite\u{241B}[2J\u{241B}[31mEngine'"), "\(format): \(o.stdout)")
        }
        let lint = run(["lint", "--format", "concise", "-"], stdin: text)
        #expect(!lint.stdout.utf8.contains(0x1B))
    }

    @Test func nulBytesInTheMiddleAreLocated() throws {
        let text = Array("RewriteEngine On\nRewriteRule ^a$ /b".utf8) + [0] + Array(" [L]\n".utf8)
        let o = run(["check", "-"], stdin: text)
        #expect(o.status == .findings)
        #expect(o.stdout.contains("<stdin>:2:19: error: file contains a NUL byte"))
    }

    @Test func emptyInputsAreClean() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write("", to: dir + "/site/.htaccess")
        try Self.write("", to: dir + "/site.yml")
        #expect(run(["check", dir + "/site/.htaccess"]) == { var o = CommandOutput(); o.status = .clean; return o }())
        #expect(run(["check", "-"]).status == .clean)
        // An empty site file is an empty mapping: the command line supplies the rest.
        let sim = run(["simulate", "--site", dir + "/site.yml", "--docroot", dir + "/site", "http://example.org/"])
        #expect(sim.status == .clean)
        // With neither URLs on the command line nor in the site file there is nothing to do.
        let none = run(["simulate", "--site", dir + "/site.yml"])
        #expect(none.status == .failure)
        #expect(none.stderr.hasPrefix("htlint: simulate needs at least one URL"))
    }

    // MARK: Size limits

    @Test func hundredMegabyteFileIsRefusedWithItsSize() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/.htaccess"
        // Generated at test time (never stored): 100 MiB of valid directives.
        let line = Array("RewriteRule ^old/page/?$ /new/page/ [R=301,L]\n".utf8)
        var chunk: [UInt8] = []
        while chunk.count < 1 << 20 { chunk += line }
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for _ in 0..<100 { handle.write(Data(chunk)) }
        try handle.close()
        let o = run(["check", path])
        #expect(o.status == .failure)
        #expect(o.stderr.hasPrefix("htlint: cannot read '\(path)': file is "))
        #expect(o.stderr.contains("htlint reads at most"))
        // The same limit protects a document root.
        let sim = run(["simulate", "--docroot", dir, "http://example.org/"])
        #expect(sim.status == .failure)
        #expect(sim.stderr.contains("htlint reads at most"))
        // And standard input.
        let stdin = run(["check", "-"], stdin: [UInt8](repeating: UInt8(ascii: "#"), count: 100 << 20))
        #expect(stdin.status == .failure)
        #expect(stdin.stderr.contains("htlint reads at most"))
    }

    /// A device or pipe (`htlint check <(curl …)`, /dev/stdin) is read like a file, up to the
    /// limit: FileManager read nothing from one and htlint called it "permission denied".
    @Test func devicesAndPipesAreReadUpToTheLimit() throws {
        #expect(run(["check", "/dev/null"]).status == .clean)
        let endless = run(["check", "/dev/zero"])
        #expect(endless.status == .failure)
        #expect(endless.stderr == "htlint: cannot read '/dev/zero': input goes on past 16777216 bytes; htlint reads at most 16777216 bytes (16 MiB)\n")
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("RewriteEngine On\nRewriteRule ^a$ /b [R,L\n".utf8))
        try pipe.fileHandleForWriting.close()
        let path = "/proc/self/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let o = run(["check", path])
        #expect(o.status == .findings)
        #expect(o.stdout.hasPrefix("\(path):2:20: error: RewriteRule: bad flag delimiters"))
    }

    @Test func oneMegabyteSingleLineIsLineTooLong() throws {
        let text = "RewriteRule ^(" + String(repeating: "a|", count: 512 * 1024) + "b)$ /x [L]\n"
        let o = run(["check", "-"], stdin: Array(text.utf8))
        #expect(o.status == .findings)
        #expect(o.stdout == "<stdin>:1:1: error: line too long (1048601 bytes with its line end; Apache reads at most 8192 in .htaccess) [HT102]\n")
        // A server configuration has no such limit, and the long alternation still compiles or
        // gives a located regex error, never a crash.
        let server = run(["check", "--context", "server", "-"], stdin: Array(text.utf8))
        #expect(server.status != .failure)
    }

    @Test func tenThousandNestedSectionsHitTheNestingLimit() throws {
        let depth = 10_000
        var text = ""
        for _ in 0..<depth { text += "<IfModule mod_rewrite.c>\n" }
        text += "RewriteEngine On\n"
        for _ in 0..<depth { text += "</IfModule>\n" }
        let o = run(["check", "-"], stdin: Array(text.utf8))
        #expect(o.status == .findings)
        #expect(o.stdout == "<stdin>:129:1: error: sections nested deeper than 128 levels; htlint does not read deeper sections [HT101]\n")
        // Unclosed, too: every level still reports at most one error.
        let unclosed = String(repeating: "<IfModule !mod_nothing.c>\n", count: depth)
        let u = run(["check", "-"], stdin: Array(unclosed.utf8))
        #expect(u.status == .findings)
        #expect(u.stdout.contains("<stdin>:129:1: error: sections nested deeper than 128 levels"))
        // lint walks the same tree with every rule.
        let lint = run(["lint", "--format", "concise", "-"], stdin: Array(text.utf8))
        #expect(lint.status == .findings)
        #expect(lint.stdout.contains("<stdin>:129:1:"))
    }

    static let deepExpressions: [(name: String, context: String, text: String, message: String)] = [
        ("parentheses", "htaccess", "<If \"" + String(repeating: "(", count: 4000) + "true" + String(repeating: ")", count: 4000)
            + "\">\nRewriteEngine On\n</If>\n", "<stdin>:1:5: error: Cannot parse condition clause: expression nested deeper than 64 levels (htlint's limit) [HT115]\n"),
        ("negations", "htaccess", "RewriteEngine On\nRewriteCond expr \"" + String(repeating: "!", count: 4000) + "true\"\nRewriteRule ^ - [L]\n",
         "expression nested deeper than 64 levels (htlint's limit)"),
        ("server-parentheses", "server", "<If \"" + String(repeating: "(", count: 100_000) + "true" + String(repeating: ")", count: 100_000)
            + "\">\n</If>\n", "expression nested deeper than 64 levels (htlint's limit)"),
        ("server-operands", "server", "<If \"" + Array(repeating: "true", count: 100_000).joined(separator: " && ")
            + "\">\n</If>\n", "<stdin>:1:5: error: Cannot parse condition clause: expression has more than 1024 operands (htlint's limit) [HT115]\n"),
        // `.` joins words to the right; each is an operand (they nested the parser per word).
        ("concatenations", "server", "<If \"" + Array(repeating: "'a'", count: 100_000).joined(separator: ".")
            + " == 'a'\">\n</If>\n", "<stdin>:1:5: error: Cannot parse condition clause: expression has more than 1024 operands (htlint's limit) [HT115]\n"),
    ]

    /// These overflowed the stack (signal 11) in the expression parser before the limits.
    @Test("deeply nested expressions are located errors", arguments: deepExpressions.map(\.name))
    func deepExpression(_ name: String) {
        let item = Self.deepExpressions.first { $0.name == name }!
        let o = run(["check", "--context", item.context, "-"], stdin: Array(item.text.utf8))
        #expect(o.status == .findings)
        #expect(o.stdout == item.message || (o.stdout.contains(item.message) && o.stdout.hasPrefix("<stdin>:")), "\(o.stdout)")
        // Reasonable expressions are untouched.
        let fine = "<If \"" + String(repeating: "(", count: 20) + "true" + String(repeating: ")", count: 20) + " && !!!true\">\n</If>\n"
        #expect(run(["check", "-"], stdin: Array(fine.utf8)).status == .clean)
    }

    @Test func catastrophicPatternIsReportedNotSilentlyUnmatched() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write("RewriteEngine On\nRewriteRule ^(a+)+$ /x [L]\n", to: dir + "/.htaccess")
        let o = run(["explain", "--docroot", dir, "http://example.org/" + String(repeating: "a", count: 30) + "b"])
        #expect(o.status == .clean)
        #expect(o.stdout.contains("RewriteRule pattern `^(a+)+$` reached the PCRE2 match limit"), "\(o.stdout)")
        #expect(o.stdout.contains("answer: 404"))
    }

    @Test func hugeNRoundLimitIsCappedAndReported() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write("RewriteEngine On\nRewriteRule ^(.*)$ $1 [N=2000000000]\n", to: dir + "/.htaccess")
        let o = run(["explain", "--docroot", dir, "http://example.org/a"])
        #expect(o.status == .findings)
        #expect(o.stdout.contains("500: htlint's limit of 32000 [N] rounds reached (the rule allows 2000000000)"), "\(o.stdout)")
    }

    // MARK: Site files, paths and flags

    static let malformedSites: [(name: String, yaml: String, message: String)] = [
        ("tab-indent", "docroot: site\n\thost: x\n", "site.yml:2:"),
        ("unclosed-flow", "aliases: [a, b\n", "site.yml:2:"),
        ("not-a-mapping", "- a\n- b\n", "site.yml:1: a site file is a mapping of settings"),
        ("unknown-key", "docroot: site\nhots: example.org\n", "site.yml:2: unknown setting 'hots'"),
        ("wrong-type", "browser: {max-hops: lots}\n", "site.yml:1: max-hops is a number"),
        ("binary", "docroot: \u{0}\u{1}\u{2}\n", "site.yml:1:"),
        ("deep-unclosed", String(repeating: "[", count: 10_000), "site.yml:2:1: did not find expected node content"),
        ("deep-nesting", "docroot: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n",
         "site.yml:1: docroot is a single value"),
    ]

    @Test("malformed site files are usage errors with file and line", arguments: malformedSites.map(\.name))
    func malformedSiteFile(_ name: String) throws {
        let item = Self.malformedSites.first { $0.name == name }!
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.write(item.yaml, to: dir + "/site.yml")
        let o = run(["simulate", "--site", dir + "/site.yml", "http://example.org/"])
        #expect(o.status == .failure)
        #expect(o.stderr.hasPrefix("htlint: \(dir)/\(item.message)"), "\(o.stderr)")
        let lint = run(["lint", "--site", dir + "/site.yml"])
        #expect(lint.status == .failure)
        #expect(lint.stderr.hasPrefix("htlint: \(dir)/\(item.message)"), "\(lint.stderr)")
    }

    static let emptyDirectory: String = {
        let dir = NSTemporaryDirectory() + "htlint-hostile-empty"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }()

    @Test func nonexistentPathsAreToolErrors() throws {
        let missing = "/nonexistent-htlint/\(UUID().uuidString)"
        for args in [["check", missing + "/.htaccess"], ["lint", missing + "/.htaccess"],
                     ["simulate", "--site", missing + "/site.yml", "http://example.org/"],
                     ["simulate", "--docroot", missing, "http://example.org/"],
                     ["simulate", "--docroot", Self.emptyDirectory, "--vhost", missing + "/vhost.conf", "http://example.org/"],
                     ["lint", "--docroot", missing],
                     ["lint", "--config", missing + "/.htlint.yml", "-"]] {
            let o = run(args)
            #expect(o.status == .failure, "\(args)")
            #expect(o.stderr.hasPrefix("htlint: "), "\(args)")
            #expect(o.stderr.contains(missing), "\(args): \(o.stderr)")
        }
    }

    @Test func aDirectoryWhereAFileIsExpectedIsAToolError() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let o = run(["simulate", "--site", dir, "http://example.org/"])
        #expect(o.status == .failure)
        #expect(o.stderr == "htlint: cannot read '\(dir)': is a directory\n")
    }

    /// Root reads a file whatever its mode, so this cannot be tested as root.
    static let runningAsRoot = getuid() == 0

    @Test(.disabled(if: runningAsRoot, "tests run as root, where chmod 000 does not prevent reading"))
    func unreadableFileIsAToolError() throws {
        let dir = try Self.scratch()
        defer {
            chmod(dir + "/.htaccess", 0o644)
            try? FileManager.default.removeItem(atPath: dir)
        }
        try Self.write("RewriteEngine On\n", to: dir + "/.htaccess")
        chmod(dir + "/.htaccess", 0)
        let o = run(["check", dir + "/.htaccess"])
        #expect(o.status == .failure)
        #expect(o.stderr == "htlint: cannot read '\(dir)/.htaccess': permission denied\n")
        let sim = run(["simulate", "--docroot", dir, "http://example.org/"])
        #expect(sim.status == .failure)
        #expect(sim.stderr.contains(".htaccess"))
    }

    static let conflicts: [(args: [String], message: String)] = [
        (["lint", "--fix", "--diff", "-"], "htlint: --fix and --diff cannot be used together\n"),
        (["lint", "--color", "--no-color", "-"], "htlint: --color and --no-color cannot be used together\n"),
        (["simulate", "--color", "--no-color", "http://example.org/"], "htlint: --color and --no-color cannot be used together\n"),
        (["check", "--modules", "env", "--only-modules", "rewrite", "-"],
         "htlint: --modules and --only-modules cannot be used together\n"),
        (["simulate", "--modules", "env", "--only-modules", "rewrite", "http://example.org/"],
         "htlint: --modules and --only-modules cannot be used together\n"),
        (["lint", "--fix", "-"], "htlint: --fix cannot write to standard input; use --diff\n"),
    ]

    @Test("conflicting flags are usage errors", arguments: 0..<conflicts.count)
    func conflictingFlags(_ i: Int) {
        let c = Self.conflicts[i]
        let o = run(c.args, stdin: Array("RewriteEngine On\n".utf8))
        #expect(o.status == .failure)
        #expect(o.stderr == c.message)
        #expect(o.stdout == "")
    }

    // MARK: Contained file access (item 3)

    @Test func symlinksOutOfTheDocumentRootAreNotFollowed() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let site = dir + "/site"
        try Self.write("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^ index.html [L]\n", to: site + "/.htaccess")
        try Self.write("hello", to: site + "/index.html")
        // Outside the root: a directory with its own .htaccess that must never be read.
        try Self.write("Invalid Directive Outside\n", to: dir + "/outside/.htaccess")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: site + "/etc", withDestinationPath: "/etc")
        try fm.createSymbolicLink(atPath: site + "/out", withDestinationPath: dir + "/outside")
        try fm.createSymbolicLink(atPath: site + "/loop-a", withDestinationPath: "loop-b")
        try fm.createSymbolicLink(atPath: site + "/loop-b", withDestinationPath: "loop-a")
        let o = run(["lint", "--format", "concise", "--docroot", site])
        #expect(!o.stdout.contains("outside"), "\(o.stdout)")
        #expect(!o.stdout.contains("Outside"), "\(o.stdout)")
        #expect(o.status != .failure, "\(o.stderr)")
        for url in ["http://example.org/etc/passwd", "http://example.org/out/", "http://example.org/loop-a"] {
            let sim = run(["simulate", "--docroot", site, url])
            #expect(sim.status == .clean, "\(url): \(sim.stdout)\(sim.stderr)")
            #expect(!sim.stdout.contains("500"), "\(url): \(sim.stdout)")
        }
    }

    // MARK: Determinism (item 6)

    @Test func outputIsByteIdenticalAcrossRuns() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let commands: [[String]] = [
            ["lint", "--format", "json", "--site", root + "/fixtures/story/broken/site.yml"],
            ["lint", "--format", "sarif", "--docroot", root + "/fixtures/demo"],
            ["simulate", "--format", "json", "--site", root + "/fixtures/story/broken/site.yml"],
            ["explain", "--site", root + "/fixtures/story/broken/site.yml", "https://example.org/hello-world/"],
            ["check", "--format", "json", root + "/fixtures/demo"],
        ]
        for args in commands {
            let first = run(args), second = run(args)
            #expect(first.status != .failure, "\(args): \(first.stderr)")
            #expect(Array(first.stdout.utf8) == Array(second.stdout.utf8), "\(args)")
            #expect(Array(first.stderr.utf8) == Array(second.stderr.utf8), "\(args)")
            #expect(first.status == second.status)
        }
    }
}
