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
