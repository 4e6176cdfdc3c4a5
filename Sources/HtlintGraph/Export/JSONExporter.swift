import Foundation

/// The rule graph and the analysis as one JSON document (`"version": 1`, sorted keys).
public enum JSONExporter {
    /// Bumped whenever the shape of the document changes.
    public static let version = 1

    private struct Document: Encodable {
        var version: Int
        var graph: SiteRuleGraph
        var analysis: GraphAnalysis
    }

    /// The document, pretty-printed, keys sorted.
    public static func json(_ graph: SiteRuleGraph, analysis: GraphAnalysis) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Document(version: version, graph: graph, analysis: analysis)) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
