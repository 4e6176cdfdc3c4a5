import Foundation
import Testing
@testable import HtlintSimulation

/// The simulator against recordings of real Apache httpd 2.4: the project's own corpus
/// (fixtures/apache, recorded by tools/apache-oracle) and, when present, the shared corpus.
struct ConformanceTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static let ownCorpus = packageRoot + "/fixtures/apache"
    static let sharedCorpus = packageRoot + "/../shared/conformance/cases"

    static func caseNames(_ root: String) -> [String] {
        let items = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return items.filter { FileManager.default.fileExists(atPath: root + "/" + $0 + "/expected.json") }.sorted()
    }

    @Test("own recordings agree with the engine", arguments: caseNames(ownCorpus))
    func ownCase(_ name: String) throws {
        let c = try ConformanceCase.load(Self.ownCorpus + "/" + name)
        let result = ConformanceComparison.compare(c, simulator: try c.simulator(), strict: true)
        #expect(result.requests > 0)
        #expect(result.disagreements.map(\.description) == [])
    }

    /// A recording is stale when its case changed after it was made: the live check
    /// (`oracle.py check` in CI) then disagrees, so the description and edge it echoes must match.
    @Test("own recordings echo their case", arguments: caseNames(ownCorpus))
    func recordingMatchesCase(_ name: String) throws {
        func object(_ file: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.ownCorpus + "/" + name + "/" + file))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let (c, e) = (try object("case.json"), try object("expected.json"))
        #expect(c["description"] as? String == e["description"] as? String)
        #expect(c["edge"] as? String ?? "none" == e["edge"] as? String ?? "none")
        #expect((c["requests"] as? [Any])?.count == (e["results"] as? [Any])?.count)
    }

    @Test func ownCorpusIsLargeEnough() {
        let names = Self.caseNames(Self.ownCorpus)
        let requests = names.compactMap { try? ConformanceCase.load(Self.ownCorpus + "/" + $0) }.map(\.requests.count).reduce(0, +)
        #expect(names.count >= 60)
        #expect(requests >= 150)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: sharedCorpus)))
    func sharedCorpusAgrees() throws {
        var total = 0, agreeing = 0
        var disagreements: [String] = []
        for name in Self.caseNames(Self.sharedCorpus) {
            let c = try ConformanceCase.load(Self.sharedCorpus + "/" + name)
            let r = ConformanceComparison.compare(c, simulator: try c.simulator(), strict: true)
            total += r.requests
            agreeing += r.agreeing
            disagreements += r.disagreements.map(\.description)
        }
        print("shared conformance: \(agreeing)/\(total) requests agree")
        #expect(total > 0)
        #expect(disagreements == [])
    }
}
