import HtlintReporting
import HtlintTestSupport
import Testing

/// Every registered format over the same fixed report, snapshotted in Golden/.
struct FormatterGoldenTests {
    static let ids = ["text", "concise", "json", "sarif", "github", "checkstyle", "gitlab"]

    @Test func registryHoldsEveryFormatOnce() {
        #expect(allFormatters.map(\.id) == Self.ids)
        #expect(formatter(named: "sarif") is SARIFFormatter)
        #expect(formatter(named: "nope") == nil)
    }

    @Test func colourIsOffUnlessTheCallerAsks() {
        #expect((formatter(named: "text") as? TextFormatter)?.colour == false)
        #expect((formatter(named: "text", colour: true) as? TextFormatter)?.colour == true)
        #expect(formatter(named: "github", colour: true) is GitHubFormatter)
    }

    @Test("each format's output for the fixed report", arguments: ids)
    func goldenOutput(_ id: String) throws {
        let output = try #require(formatter(named: id)).format(Fixture.report)
        let ext = ["json": "json", "sarif": "sarif.json", "gitlab": "json", "checkstyle": "xml"][id] ?? "txt"
        try assertGolden("\(id).\(ext)", output)
    }

    @Test func textInColour() throws {
        // ESC shown as ␛ so the golden stays readable.
        let output = TextFormatter(colour: true).format(Fixture.report).replacingOccurrences(of: "\u{1B}", with: "␛")
        try assertGolden("text-colour.txt", output)
    }

    @Test("formats without sources, rule metadata or version still work", arguments: ids)
    func bareReportDoesNotCrash(_ id: String) throws {
        let output = try #require(formatter(named: id)).format(Fixture.bareReport)
        #expect(!output.isEmpty)
    }
}
