import Foundation
import Testing

/// Compares `actual` with `Golden/<name>` beside the calling test file; records it when the file
/// is missing or `HTLINT_RECORD=1`, and then fails so a new baseline is never accepted silently.
public func assertGolden(_ name: String, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let url = URL(fileURLWithPath: sourceLocation.filePath).deletingLastPathComponent().appendingPathComponent("Golden/" + name)
    try assertGolden(at: url, actual, sourceLocation: sourceLocation)
}

/// The same for a golden file kept elsewhere (beside a fixture).
public func assertGolden(at url: URL, _ actual: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    if ProcessInfo.processInfo.environment["HTLINT_RECORD"] != nil || !FileManager.default.fileExists(atPath: url.path) {
        try actual.write(to: url, atomically: true, encoding: .utf8)
        Issue.record("recorded \(url.lastPathComponent); run again without HTLINT_RECORD", sourceLocation: sourceLocation)
        return
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(actual == expected, sourceLocation: sourceLocation)
}
