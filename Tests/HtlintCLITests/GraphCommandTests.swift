import Foundation
import HtlintTestSupport
import Testing
import HtlintCLI

/// `htlint graph` and `htlint report`, and the acceptance cases of the all-URL loop analysis
/// through `htlint lint`.
struct GraphCommandTests {
    func run(_ args: [String]) -> CommandOutput { runCLI(args) }

    static let small = ["--docroot", "Tests/HtlintCLITests/Inputs/graph/small", "--host", "example.com",
                        "--alias", "example.net", "--alias", "www.example.net"]

    @Test(arguments: ["dot", "mermaid", "json"])
    func graphOfASmallSite(_ format: String) throws {
        let o = run(["graph", "--format", format] + Self.small)
        #expect(o.status == .clean)
        try assertGolden("graph-small.\(format).txt", snapshot(o))
    }

    @Test func svgIsRenderedInProcess() {
        let o = run(["graph", "--format", "svg"] + Self.small)
        #expect(o.status == .clean && o.stderr.isEmpty)
        #expect(o.stdout.hasPrefix("<?xml") && o.stdout.contains("<svg") && o.stdout.contains("<title>c0_r1</title>"))
    }

    @Test func urlPathIsHighlightedInBlue() {
        let o = run(["graph", "--url", "http://example.net/old/a.html"] + Self.small)
        #expect(o.status == .clean)
        #expect(o.stdout.contains("\"c0_r0\" [label=") && o.stdout.contains("color=\"#1f77b4\""))
        #expect(!o.stdout.contains("#d62728"), "with --url only the request's path is highlighted")
    }

    @Test func usageErrors() {
        #expect(run(["graph", "--format", "png"] + Self.small).stderr.hasPrefix("htlint: unknown format 'png'"))
        #expect(run(["graph", "--url", "/x"] + Self.small).status == .failure)
        #expect(run(["graph", "--docroot", "does/not/exist"]).status == .failure)
        #expect(run(["report"] + Self.small).stderr.hasPrefix("htlint: report needs --html"))
        #expect(run(["graph", "--help"]).stdout.hasPrefix("usage: htlint graph"))
    }

    // MARK: - Acceptance: loops the default probe URLs do not reach

    struct Case: Sendable, CustomTestStringConvertible {
        var directory: String
        var extra: [String] = []
        var witness: String
        var testDescription: String { directory }
    }

    static let loopCases = [
        Case(directory: "shop-loop", witness: "http://example.com/shop/0/"),
        Case(directory: "alias-loop", extra: ["--alias", "*.example.com"], witness: "https://shop.example.com/"),
        Case(directory: "query-loop", witness: "http://example.com/?utm_a="),
    ]

    func lint(_ c: Case, suffix: String = "") -> CommandOutput {
        run(["lint", "--format", "concise", "--docroot", "Tests/HtlintCLITests/Inputs/graph/\(c.directory)\(suffix)",
             "--host", "example.com"] + c.extra)
    }

    @Test(arguments: loopCases)
    func lintFindsTheLoopWithAWorkingWitness(_ c: Case) {
        let o = lint(c)
        #expect(o.status == .findings)
        #expect(o.stdout.contains("redirect loop for some URLs, e.g. \(c.witness)") && o.stdout.contains("[HT308]"))
        // The probes alone miss it (else HT301 would report it instead).
        #expect(!o.stdout.contains("[HT301]"))
        // The witness loops when simulated on its own.
        let sim = run(["simulate", "--docroot", "Tests/HtlintCLITests/Inputs/graph/\(c.directory)", "--host", "example.com"]
                      + c.extra + [c.witness])
        #expect(sim.status == .findings && sim.stdout.contains("loop"))
    }

    @Test(arguments: loopCases)
    func loopFreeVariantReportsNoLoop(_ c: Case) {
        let o = lint(c, suffix: "-ok")
        for code in ["HT301", "HT302", "HT308", "HT309"] { #expect(!o.stdout.contains("[\(code)]"), "\(code) in \(o.stdout)") }
        #expect(o.status == .clean)
    }

    /// A loop the probe requests already find is HT301's finding, not reported twice.
    @Test func probedLoopIsNotReportedTwice() {
        let o = run(["lint", "--format", "concise", "--docroot", "fixtures/demo", "--edge", "cloudflare-flexible"])
        #expect(o.stdout.contains("[HT301]") && !o.stdout.contains("[HT308]"))
    }

    // MARK: - report

    func writeReport(_ extra: [String] = []) throws -> (CommandOutput, String, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("report.html")
        let o = run(["report", "--html", file.path] + Self.small + extra)
        return (o, try String(contentsOf: file, encoding: .utf8), file)
    }

    @Test func reportIsOneSelfContainedPage() throws {
        let (o, html, file) = try writeReport(["http://example.com/?utm_source=x", "http://example.net/old/a.html"])
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(o.status == .findings)
        #expect(o.stdout == "wrote \(file.path): \(html.components(separatedBy: "<tr class=\"finding").count - 1) findings, 2 chains\n")
        for id in ["summary", "findings", "chains", "graph", "mixed-content"] { #expect(html.contains("<section id=\"\(id)\"")) }
        #expect(html.components(separatedBy: "<svg").count - 1 == 3)
        #expect(html.contains("data-code=\"HT308\"") && html.contains("figure class=\"chain outcome-loop\""))
        // Nothing to fetch and nothing to run.
        for banned in ["<script", "http-equiv=\"refresh\"", "<link ", "src=\"http", "@import"] { #expect(!html.contains(banned)) }
    }

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Renders the page in headless Chromium and checks the DOM it built (skipped when no
    /// Chromium is installed).
    @Test(.enabled(if: chromium != nil, "needs chromium (apt-get install -y chromium)"))
    func reportRendersInHeadlessChromium() throws {
        let (_, _, file) = try writeReport(["http://example.com/?utm_source=x"])
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let screenshot = file.deletingLastPathComponent().appendingPathComponent("shot.png")
        let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--user-data-dir=" + file.deletingLastPathComponent().appendingPathComponent("profile").path]
        let dom = try Self.runChromium(flags + ["--dump-dom", file.absoluteString])
        #expect(dom.contains("<section id=\"findings\""))
        #expect(dom.contains("<tr class=\"finding severity-error\" data-code=\"HT308\""))
        #expect(dom.contains("<figure class=\"rule-graph\"><svg") || dom.contains("<figure class=\"rule-graph\">\n<svg"))
        #expect(dom.components(separatedBy: "<svg").count - 1 == 2)
        #expect(dom.contains("<li class=\"loop confirmed\">"))
        _ = try Self.runChromium(flags + ["--screenshot=" + screenshot.path, "--window-size=1280,1600", file.absoluteString])
        let png = try Data(contentsOf: screenshot)
        #expect(png.count > 10_000 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    static func runChromium(_ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium!)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
