/// Lines of a request list that are neither blank, a comment nor a request. They are counted,
/// and the first few are named on stderr with their position, so a wrong file or log format
/// shows at once instead of as a short count.
struct SkippedLines {
    static let named = 3
    private(set) var count = 0

    /// Counts `line`; the warning to print for it, while fewer than `named` were shown.
    mutating func add(_ line: String, at position: String) -> String? {
        count += 1
        guard count <= SkippedLines.named else { return nil }
        let what = line == LineSource.overlong ? "a line longer than 1 MiB" : "'\(TerminalText.escaped(line))'"
        return "htlint: \(position): skipped \(what): not a URL, a path or an access-log request line"
    }

    /// The note after the run, when more lines were skipped than named.
    var trailer: String? {
        count > SkippedLines.named ? "htlint: \(count - SkippedLines.named) more unreadable line\(count - SkippedLines.named == 1 ? "" : "s") skipped" : nil
    }
}
