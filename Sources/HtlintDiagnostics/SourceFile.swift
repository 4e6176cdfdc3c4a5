/// The text of one configuration file, with its display path and a line index built once.
public final class SourceFile: Sendable {
    /// Path as the user named it (shown in diagnostics).
    public let path: String
    /// The bytes of the file. Offsets everywhere are UTF-8 byte offsets into this array.
    public let bytes: [UInt8]
    /// Maps byte offsets to 1-based line and column.
    public let lines: LineIndex

    /// Largest file htlint reads (16 MiB). Apache itself has no size limit for a configuration
    /// file, but a hosting provider's real `.htaccess` is a few hundred KiB at most, and htlint
    /// keeps per-byte offsets for every logical line: without a bound a 100 MB upload would take
    /// gigabytes and minutes (issue 9, item 2). Readers refuse larger files with this message.
    public static let sizeLimit = 16 << 20

    /// The reason given when a file of `size` bytes is over `sizeLimit`.
    public static func tooLargeReason(_ size: Int) -> String {
        "file is \(size) bytes; htlint reads at most \(sizeLimit) bytes (16 MiB)"
    }

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
