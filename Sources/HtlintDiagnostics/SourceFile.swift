/// The text of one configuration file, with its display path and a line index built once.
public final class SourceFile: Sendable {
    /// Path as the user named it (shown in diagnostics).
    public let path: String
    /// The bytes of the file. Offsets everywhere are UTF-8 byte offsets into this array.
    public let bytes: [UInt8]
    /// Maps byte offsets to 1-based line and column.
    public let lines: LineIndex

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        self.lines = LineIndex(bytes)
    }

    public convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The text of a range, decoding invalid UTF-8 leniently.
    public func text(_ range: Range<Int>) -> String {
        let lower = max(0, min(range.lowerBound, bytes.count))
        let upper = max(lower, min(range.upperBound, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// A range in this file.
    public func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(file: path, start: start, end: end)
    }
}
