import CZlib
import Foundation

/// Reads a file (or standard input) line by line in bounded memory, inflating gzip
/// transparently (magic bytes 1f 8b), so replaying a large access log does not load it whole.
final class LineSource {
    private let handle: FileHandle
    /// As errors name it (`<stdin>` for `-`).
    private let shownPath: String
    /// Lines returned so far, for the position in an error.
    private var linesRead = 0
    /// Where the line `nextLine` returned last is: `path:line`.
    var position: String { "\(shownPath):\(linesRead)" }
    /// A gzip member has begun and its end has not been seen: running out of input now means
    /// the file was cut short (a log copied while it was written), not that it ended.
    private var memberOpen = false
    /// Inside a line longer than `maxLineBytes`, dropping its bytes up to its end.
    private var discarding = false

    /// No request line is this long (Apache refuses one over 8,190 bytes): past it a line is
    /// returned as `overlong` (unreadable, so counted as skipped) without being kept, and one
    /// endless line cannot fill memory.
    static let maxLineBytes = 1 << 20
    static let overlong = "\u{1}(line longer than 1 MiB)"
    private var stream = z_stream()
    private var gzip = false
    private var pending: [UInt8] = []
    private var decoded: [UInt8] = []
    /// Where the next line starts in `decoded` (lines are not removed one by one: that moved
    /// the rest of the buffer for every line).
    private var start = 0
    private var atEnd = false
    private var started = false

    init(path: String) throws {
        shownPath = path == "-" ? "<stdin>" : path
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw CLIError.unreadable(path, FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file or directory")
            }
            handle = h
        }
    }

    deinit {
        if gzip { inflateEnd(&stream) }
    }

    /// The next line without its line end, or nil at the end.
    func nextLine() throws -> String? {
        while true {
            if let nl = newline(from: start) {
                linesRead += 1
                if discarding {
                    discarding = false
                    start = nl + 1
                    return LineSource.overlong
                }
                let end = nl > start && decoded[nl - 1] == 0x0D ? nl - 1 : nl
                let line = String(decoding: decoded[start..<end], as: UTF8.self)
                start = nl + 1
                return line
            }
            if atEnd {
                if discarding {
                    discarding = false
                    decoded = []
                    start = 0
                    linesRead += 1
                    return LineSource.overlong
                }
                guard start < decoded.count else { return nil }
                let line = String(decoding: decoded[start...], as: UTF8.self)
                decoded = []
                start = 0
                linesRead += 1
                return line
            }
            // Drop the lines already returned before reading more.
            decoded.removeSubrange(..<start)
            start = 0
            if decoded.count > LineSource.maxLineBytes {
                discarding = true
                decoded.removeAll(keepingCapacity: true)
            }
            try fill()
        }
    }

    /// The index of the next line feed in `decoded` from `from` (memchr: the generic search
    /// cost a tenth of a cached replay's time outside the simulation).
    private func newline(from: Int) -> Int? {
        decoded.withUnsafeBufferPointer { buffer in
            guard from < buffer.count, let base = buffer.baseAddress,
                  let hit = memchr(base + from, 0x0A, buffer.count - from) else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func truncated() -> CLIError {
        CLIError.usage("'\(shownPath)': gzip data ends early after line \(linesRead + lineEnds()); the file is truncated")
    }

    /// Complete lines decoded but not returned yet: the error's position counts them as read.
    private func lineEnds() -> Int { decoded[start...].reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }

    private func fill() throws {
        let chunk = [UInt8](handle.readData(ofLength: 1 << 16))
        if !started {
            started = true
            if chunk.count >= 2, chunk[0] == 0x1F, chunk[1] == 0x8B {
                gzip = true
                // 15 + 32: zlib or gzip header, detected automatically.
                guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                    throw CLIError.usage("'\(shownPath)': cannot initialise zlib to read its gzip data")
                }
            }
        }
        if chunk.isEmpty && (!gzip || pending.isEmpty) {
            if memberOpen { throw truncated() }
            atEnd = true
            return
        }
        guard gzip else { decoded += chunk; return }
        pending += chunk
        var output = [UInt8](repeating: 0, count: 1 << 17)
        // Inflate until zlib has no more output for the input it has.
        while true {
            let status: Int32 = pending.withUnsafeMutableBufferPointer { input in
                output.withUnsafeMutableBufferPointer { out in
                    stream.next_in = input.baseAddress
                    stream.avail_in = UInt32(input.count)
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
            }
            let consumed = pending.count - Int(stream.avail_in)
            pending.removeFirst(consumed)
            let produced = output.count - Int(stream.avail_out)
            decoded += output[0..<produced]
            if consumed > 0 || produced > 0 { memberOpen = true }
            switch status {
            case Z_OK:
                if produced == output.count { continue }
            case Z_BUF_ERROR:
                // zlib wants more input; with none left the member cannot be finished.
                if chunk.isEmpty { throw truncated() }
            case Z_STREAM_END:
                memberOpen = false
                // Concatenated gzip members (logrotate) continue after a reset.
                if pending.isEmpty && chunk.isEmpty { atEnd = true } else { inflateReset(&stream); if !pending.isEmpty { continue } }
            default:
                throw CLIError.usage("'\(shownPath)': corrupt gzip data after line \(linesRead + lineEnds())")
            }
            return
        }
    }
}
