/// Lines of a request list that are neither blank, a comment nor a request. They are counted,
/// and the first few are named with their position, so a wrong file or log format shows at
/// once instead of as a short count.
struct SkippedLines {
    static let named = 3
    private(set) var count = 0
    /// A warning for each of the first `named` lines.
    private var warnings: [String] = []

    mutating func add(_ line: String, at position: String) {
        count += 1
        guard count <= SkippedLines.named else { return }
        let what = line == LineSource.overlong ? "a line longer than 1 MiB" : "'\(TerminalText.escaped(line))'"
        warnings.append("htlint: \(position): skipped \(what): not a URL, a path or an access-log request line")
    }

    /// What stderr says: the named lines, then how many more there were.
    var messages: [String] {
        let more = count - SkippedLines.named
        return more > 0 ? warnings + ["htlint: \(more) more unreadable line\(more == 1 ? "" : "s") skipped"] : warnings
    }
}
