import HtlintBytes
import HtlintDiagnostics

/// One logical configuration line: physical lines joined where a line ends in a backslash,
/// then trimmed, as Apache's `ap_cfg_getline` reads them (apache-semantics §2.1).
///
/// Every byte remembers its offset in the file, so tokens cut from a continued line still
/// point at the right place.
public struct LogicalLine: Sendable {
    /// The joined, trimmed bytes.
    public let bytes: [UInt8]
    /// Runs of bytes that are contiguous in the file: byte `i` is at `fileStart + i - lineStart`
    /// of the last run with `lineStart <= i`. The first run starts at line byte 0 and is kept
    /// inline; only a continued line has more, so a big file costs neither a file offset per
    /// byte nor an array per line.
    private let firstFileStart: Int
    private let laterRuns: [(lineStart: Int, fileStart: Int)]

    /// File offset of each byte in `bytes`.
    public var offsets: [Int] { (0..<bytes.count).map(offset(at:)) }

    /// File offset of line byte `i` (`i < bytes.count`).
    public func offset(at i: Int) -> Int {
        var run = (lineStart: 0, fileStart: firstFileStart)
        for r in laterRuns where r.lineStart <= i { run = r }
        return run.fileStart + (i - run.lineStart)
    }
    /// File offset just past the last byte (or the start of the line when it is empty).
    public let endOffset: Int
    /// 1-based number of the first physical line.
    public let line: Int
    /// Path of the file, for ranges.
    public let file: String
    /// Bytes Apache's line buffer must hold while reading this line, before trimming: the text
    /// joined so far plus the physical line being read (its CR and LF, and the backslash of a
    /// continuation, included; up to a NUL, where Apache's `strlen` stops). Apache's `.htaccess`
    /// line limit applies to this length, so leading blanks and comment lines count too.
    /// Defaults to `bytes.count`.
    public let readLength: Int

    public init(bytes: [UInt8], offsets: [Int], endOffset: Int, line: Int, file: String, readLength: Int? = nil) {
        self.bytes = bytes
        firstFileStart = offsets.first ?? endOffset
        var later: [(lineStart: Int, fileStart: Int)] = []
        for i in offsets.indices.dropFirst() where offsets[i] != offsets[i - 1] + 1 {
            later.append((i, offsets[i]))
        }
        laterRuns = later
        self.endOffset = endOffset
        self.line = line
        self.file = file
        self.readLength = readLength ?? bytes.count
    }

    /// A line whose byte offsets are already known as runs (`laterRuns` ascending, each past
    /// line byte 0): what the line reader makes without an offset per byte.
    init(bytes: [UInt8], firstFileStart: Int, laterRuns: [(lineStart: Int, fileStart: Int)], endOffset: Int, line: Int,
         file: String, readLength: Int) {
        self.bytes = bytes
        self.firstFileStart = firstFileStart
        self.laterRuns = laterRuns
        self.endOffset = endOffset
        self.line = line
        self.file = file
        self.readLength = readLength
    }

    /// The whole line as text (a byte that is not UTF-8 is kept: see HtlintBytes).
    public var text: String { String(preservingBytes: bytes) }

    /// Text of a slice of the line.
    public func text(_ r: Range<Int>) -> String { String(preservingBytes: bytes[r]) }

    /// The file range covering line bytes `r` (an empty slice maps to a point).
    public func range(_ r: Range<Int>) -> SourceRange {
        let start = r.lowerBound < bytes.count ? offset(at: r.lowerBound) : endOffset
        let end = r.upperBound > r.lowerBound ? offset(at: r.upperBound - 1) + 1 : start
        return SourceRange(file: file, start: start, end: end)
    }

    /// The file range of the whole line.
    public var fullRange: SourceRange { range(0..<bytes.count) }
}

/// Apache's `apr_isspace`: space, tab, LF, VT, FF, CR.
@inlinable
public func isConfigSpace(_ b: UInt8) -> Bool {
    b == 0x20 || (b >= 0x09 && b <= 0x0D)
}
