import Foundation
import HtlintTestSupport
import Testing
import HtlintCLI

/// The shared failure scenarios (spec/failure-scenarios.md, S01–S41) as sites in
/// fixtures/scenarios/: each names the rule codes lint must report (`# Expected:` in its
/// site.yml), and its `expected.txt` holds what `lint` and `explain` (hop by hop, with verified
/// fixes) print for it.
struct FailureScenarioCatalogTests {
    static let root = "fixtures/scenarios"

    static var scenarios: [String] {
        let dirs = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/" + root)) ?? []
        return dirs.filter { FileManager.default.fileExists(atPath: "\(packageRoot)/\(root)/\($0)/site.yml") }.sorted()
    }

    /// Rule codes from the site file's `# Expected: HT301, HT303` line (none for "no finding").
    static func expectedCodes(_ scenario: String) throws -> [String] {
        let text = try String(contentsOfFile: "\(packageRoot)/\(root)/\(scenario)/site.yml", encoding: .utf8)
        // A missing or misspelt line must not read as "no findings".
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("# Expected:") }) else {
            Issue.record("\(scenario)/site.yml has no `# Expected:` line")
            return []
        }
        return line.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
            .filter { $0.count == 5 && $0.hasPrefix("HT") && $0.dropFirst(2).allSatisfy(\.isNumber) }
    }

    @Test func everyScenarioOfTheSpecIsCatalogued() {
        let numbers = Set(Self.scenarios.compactMap { Int($0.dropFirst().prefix(2)) })
        #expect(numbers == Set(1...41))
    }

    @Test(arguments: scenarios)
    func lintReportsTheExpectedFindings(_ scenario: String) throws {
        let site = "\(Self.root)/\(scenario)/site.yml"
        let lint = runCLI(["lint", "--site", site, "--format", "concise"])
        let expected = try Self.expectedCodes(scenario)
        for code in expected {
            #expect(lint.stdout.contains("[\(code)]"), "\(scenario): \(code) missing")
        }
        if expected.isEmpty { #expect(lint.stdout.isEmpty, "\(scenario): \(lint.stdout)") }
        var text = "$ htlint lint --site \(site) --format concise\n" + snapshot(lint)
        if try String(contentsOfFile: packageRoot + "/" + site, encoding: .utf8).contains("\nurls:") {
            text += "\n$ htlint explain --site \(site)\n" + snapshot(runCLI(["explain", "--site", site]))
        }
        try assertGolden(at: URL(fileURLWithPath: "\(packageRoot)/\(Self.root)/\(scenario)/expected.txt"), text)
    }
}
