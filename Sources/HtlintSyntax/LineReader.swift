import HtlintDiagnostics

/// Splits a file into logical lines (apache-semantics §2.1):
/// LF ends a line and a CR right before it is dropped; a backslash right before the line end
/// removes itself and glues the next physical line on directly (no space, even for `\\`);
/// the joined line is trimmed. A UTF-8 byte-order mark is kept: Apache reads it as part of the
/// first word (`Invalid command '\xef\xbb\xbfRewriteEngine'`, so the whole file fails).
///
/// A NUL byte ends the text Apache sees (it reads with `apr_file_gets`, then takes `strlen`):
/// the line stops there, never continues, and the rest of that read is lost. Apache's line
/// buffer starts at 206 bytes a read, so the part of a physical line past the first 206 bytes
/// is read as a line of its own (a UTF-16 file shows its first character of every 103rd one).
public struct LineReader: Sequence {
    public let file: SourceFile

    public init(file: SourceFile) { self.file = file }

    /// Every logical line at once.
    public func lines() -> [LogicalLine] { Array(self) }

    /// Lines one at a time, so a parser holds one line, not the whole file's.
    public func makeIterator() -> Iterator { Iterator(bytes: file.bytes, path: file.path) }

    public struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        let path: String
        var i = 0
        var physicalLine = 1
        /// Whether Apache's line buffer has outgrown its first size (a read filled it with no LF
        /// or NUL). Its later size depends on how the pool lays memory out, so a NUL line then
        /// loses the rest of its physical line.
        var bufferGrown = false
        /// Bytes one read takes while the buffer has its first size (`VARBUF_INIT_LEN` 200,
        /// aligned to 208, less the terminating NUL and `apr_file_gets`' own one).
        static let firstReadSize = 206

        init(bytes: [UInt8], path: String) {
            self.bytes = bytes
            self.path = path
        }

        public mutating func next() -> LogicalLine? {
            guard i < bytes.count else { return nil }
            let firstLine = physicalLine
            var joined: [UInt8] = []
            // Where each physical line's kept bytes start, in `joined` and in the file.
            var segments: [(lineStart: Int, fileStart: Int)] = []
            var endOffset = i
            var readLength = 0
            while true {
                var j = i
                while j < bytes.count, bytes[j] != 0x0A { j += 1 }
                let lineEnd = j < bytes.count ? j + 1 : j
                if let nul = bytes[i..<j].firstIndex(of: 0) {
                    let room = Self.firstReadSize - joined.count
                    var next = lineEnd
                    if !bufferGrown, nul - i < room {
                        next = Swift.min(i + room, lineEnd)
                    } else {
                        bufferGrown = true
                    }
                    if nul > i { segments.append((joined.count, i)) }
                    joined.append(contentsOf: bytes[i..<nul])
                    readLength = Swift.max(readLength, joined.count)
                    endOffset = nul
                    i = next
                    if next == lineEnd, j < bytes.count { physicalLine += 1 }
                    break
                }
                if joined.count + (lineEnd - i) > Self.firstReadSize - (j < bytes.count ? 0 : 1) { bufferGrown = true }
                var contentEnd = j
                if contentEnd > i, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
                let continues = contentEnd > i && bytes[contentEnd - 1] == UInt8(ascii: "\\") && j < bytes.count
                let keepEnd = continues ? contentEnd - 1 : contentEnd
                // Apache reads the whole physical line (CR and LF included) after what it joined so far.
                readLength = Swift.max(readLength, joined.count + (lineEnd - i))
                if keepEnd > i { segments.append((joined.count, i)) }
                joined.append(contentsOf: bytes[i..<keepEnd])
                endOffset = keepEnd
                i = j < bytes.count ? j + 1 : j
                if j < bytes.count { physicalLine += 1 }
                if !continues { break }
            }
            // Trim, keeping offsets aligned.
            var lo = 0, hi = joined.count
            while lo < hi, isConfigSpace(joined[lo]) { lo += 1 }
            while hi > lo, isConfigSpace(joined[hi - 1]) { hi -= 1 }
            func offset(_ k: Int) -> Int {
                let s = segments.last { $0.lineStart <= k }!
                return s.fileStart + (k - s.lineStart)
            }
            let trimmedEnd = hi > lo ? offset(hi - 1) + 1 : (lo < joined.count ? offset(lo) : endOffset)
            let runs = segments.filter { $0.lineStart > lo && $0.lineStart < hi }.map { ($0.lineStart - lo, $0.fileStart) }
            return LogicalLine(bytes: Array(joined[lo..<hi]), firstFileStart: hi > lo ? offset(lo) : trimmedEnd,
                               laterRuns: runs, endOffset: trimmedEnd, line: firstLine, file: path, readLength: readLength)
        }
    }
}
