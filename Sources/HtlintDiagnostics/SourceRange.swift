/// A span of a file as UTF-8 byte offsets; `end` is exclusive.
/// Offsets are the source of truth; line and column are computed at the edge through `LineIndex`.
public struct SourceRange: Hashable, Sendable, Codable {
    public var file: String
    public var start: Int
    public var end: Int

    public init(file: String, start: Int, end: Int) {
        self.file = file
        self.start = start
        self.end = max(start, end)
    }

    /// Hashes the offsets only: ranges are counted per request in bulk replay, where hashing
    /// the file path each time dominated. Equality still compares the file.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(start)
        hasher.combine(end)
    }

    /// A zero-length range at `offset`.
    public static func point(_ file: String, _ offset: Int) -> SourceRange {
        SourceRange(file: file, start: offset, end: offset)
    }
}

/// A resolved 1-based position, as printed (`path:line:col`).
public struct SourcePosition: Hashable, Sendable, Codable {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}
