/// Maps UTF-8 byte offsets to 1-based line and column numbers.
///
/// Lines end at LF (a CR before it belongs to the line end, as Apache reads it). Columns count
/// Unicode scalars from the start of the line, so a multi-byte character is one column; a tab is
/// one column. A UTF-8 byte-order mark at the start of the file is not counted. Bytes that are
/// not valid UTF-8 count the way a decoder shows them: each ill-formed sequence is one column
/// (one U+FFFD), so a stray continuation byte is a column of its own.
public struct LineIndex: Sendable {
    /// Byte offset at which each line starts.
    public let lineStarts: [Int]
    private let bytes: [UInt8]

    public init(_ bytes: [UInt8]) {
        var starts = [0]
        for (i, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(i + 1)
        }
        self.lineStarts = starts
        self.bytes = bytes
    }

    /// Number of lines (a final line without LF counts).
    public var lineCount: Int { lineStarts.count }

    /// 1-based line and column of `offset` (clamped into the file).
    public func position(of offset: Int) -> SourcePosition {
        let offset = max(0, min(offset, bytes.count))
        // Binary search for the last line start <= offset.
        var low = 0, high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        var i = lineStarts[low]
        if low == 0, hasBOM, offset >= 3 { i = 3 }
        var column = 1
        while i < offset {
            i += characterLength(at: i)
            column += 1
        }
        return SourcePosition(line: low + 1, column: column)
    }

    /// Byte offset of a 1-based line and column (inverse of `position(of:)` for valid input).
    public func offset(line: Int, column: Int) -> Int {
        guard line >= 1, line <= lineStarts.count else { return bytes.count }
        var i = lineStarts[line - 1]
        if line == 1, hasBOM { i = 3 }
        var col = 1
        while col < column, i < bytes.count, bytes[i] != UInt8(ascii: "\n") {
            i += characterLength(at: i)
            col += 1
        }
        return i
    }

    private var hasBOM: Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// Bytes of the column that starts at `i`: a lead byte with the continuation bytes that
    /// follow it (at most as many as it announces), or a single byte of anything else.
    private func characterLength(at i: Int) -> Int {
        let lead = bytes[i]
        let expected: Int
        switch lead {
        case 0xC2...0xDF: expected = 1
        case 0xE0...0xEF: expected = 2
        case 0xF0...0xF4: expected = 3
        default: return 1
        }
        var length = 1
        while length <= expected, i + length < bytes.count, bytes[i + length] & 0xC0 == 0x80 { length += 1 }
        return length
    }
}
