import CPCRE2
import HtlintBytes
import Synchronization

/// `PCRE2_SIZE` is a C macro for `size_t`, which Swift cannot see; `size_t` imports as `Int`.
private typealias PCRE2Size = Int

/// A PCRE2 pattern compiled the way Apache httpd 2.4 compiles it.
///
/// httpd uses the 8-bit library without `PCRE2_UTF` or `PCRE2_UCP`, so patterns and subjects
/// are byte strings: `\w`, `\d` and case folding are ASCII-only and "é" is two bytes that `.`
/// matches one at a time. Every compile adds `PCRE2_DUPNAMES`, as `ap_regcomp` does.
///
/// PCRE2 documents compiled code (JIT included) and a match context without a JIT stack as
/// safe to share between threads, and each thread matches with its own match data. The JIT
/// compile is lazy and for hot patterns only: a pattern is JIT-compiled on its
/// `hotSearches`-th search (a 20,000-rule redirect map tries most rules a handful of times;
/// compiling each would cost more time and executable memory than interpreting them). Until
/// then matches hold the same lock as the compile, so no match overlaps it. Hence
/// `@unchecked Sendable`.
public final class Regex: @unchecked Sendable {
    /// The pattern exactly as given.
    public let pattern: String
    /// The caller's options (without the implicit `PCRE2_DUPNAMES`).
    public let options: RegexOptions
    /// Number of capturing groups in the pattern, as reported by `PCRE2_INFO_CAPTURECOUNT`.
    public let captureCount: Int
    /// The named groups as (group number, name), by number: what Apache's ap_regname reads.
    public let namedGroups: [(group: Int, name: String)]
    /// Whether PCRE2's JIT has compiled the pattern (it does on the `hotSearches`-th search);
    /// `false` means the interpreter is used (pattern not hot yet, JIT unavailable on this
    /// platform, declined by the JIT, or switched off). Informational only.
    public var isJITCompiled: Bool { jitState.load(ordering: .acquiring) == 2 }

    /// Searches after which a pattern counts as hot and is JIT-compiled.
    public static let hotSearches = 16

    /// 0: JIT pending, 1: interpreter only (off or failed), 2: JIT compiled.
    private let jitState: Atomic<Int>
    /// Searches so far while the JIT is pending.
    private let pendingSearches = Mutex<Int>(0)
    /// What `test` and `matches` answer without PCRE2 (`^`, `.*`, `.`…).
    private let shortcut: RegexShortcut

    /// Match-limit count of a search's first try. Far above what any real URL pattern needs,
    /// so a search that reaches it is catastrophic backtracking, found in milliseconds (the JIT
    /// honours this limit too); only then is the search re-run with Apache's own limits below.
    public static let matchLimit: UInt32 = 1_000_000
    /// Maximum backtracking depth per search (interpreter only; the JIT ignores it). A group
    /// repeated per byte, like `^(a|b)*$`, can need two frames per subject byte; this leaves
    /// room for that on a subject beyond httpd's 8190-byte request-line limit, so realistic
    /// URLs never fail here where httpd (which keeps PCRE2's far larger defaults) would match.
    public static let depthLimit: UInt32 = 100_000
    /// Heap ceiling in KiB for the interpreter's backtracking frames, so patterns with very
    /// many groups cannot exhaust memory before the depth limit bites.
    public static let heapLimitKiB: UInt32 = 64 * 1024

    /// The limits Apache really runs with. ap_regexec passes pcre2_match no match context, so
    /// PCRE2's built-in defaults apply (Debian's build: match and depth 10,000,000). A search
    /// that reaches htlint's fast limits above is run again with these, by the interpreter as
    /// in Apache, so a pattern that needs 5 million steps still matches (recorded:
    /// rewrite-cond-backtracking-beyond-a-million-steps). Only a search that fails here is
    /// reported as a limit.
    public static let apacheMatchLimit: UInt32 = 10_000_000
    /// PCRE2's default depth limit (the match limit's value).
    public static let apacheDepthLimit: UInt32 = 10_000_000
    /// PCRE2's default heap limit is 20,000,000 KiB; 1 GiB is far more than any subject of
    /// request-line size can need (two frames of well under 2 KiB per byte), and keeps a
    /// pathological pattern from taking the machine's memory.
    public static let apacheHeapLimitKiB: UInt32 = 1024 * 1024

    /// Whether this PCRE2 build has a JIT for this CPU (`PCRE2_CONFIG_JIT`), so tests can tell
    /// whether a limit was exercised through the JIT or only through the interpreter.
    public static let isJITAvailable: Bool = {
        var available: UInt32 = 0
        return pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available) >= 0 && available == 1
    }()

    /// The compiled pattern, owned and freed in `deinit`; nil until the first search. The
    /// initialiser compiles to validate the pattern (and count its groups) and frees the code
    /// again: a 100,000-rule file is read and linted without keeping 230 bytes of code per rule
    /// for patterns nothing searches. Set under `pendingSearches`' lock, before `jitState`
    /// leaves 0 (release/acquire), so the lock-free path always sees it.
    nonisolated(unsafe) private var code: OpaquePointer?
    /// What compiling needs again on the first search.
    private let compileOptions: UInt32
    /// Carries the limits above; one for the process (PCRE2 only reads it during a match, so
    /// threads may share it, and 100,000 patterns do not each need their own). `nil` only if
    /// PCRE2 could not allocate it, in which case its (much larger) built-in limits apply.
    private var matchContext: OpaquePointer? { Regex.sharedMatchContext.pointer }

    private struct MatchContext: @unchecked Sendable { let pointer: OpaquePointer? }
    private static let sharedMatchContext: MatchContext = {
        let context = pcre2_match_context_create_8(nil)
        if let context {
            _ = pcre2_set_match_limit_8(context, Regex.matchLimit)
            _ = pcre2_set_depth_limit_8(context, Regex.depthLimit)
            _ = pcre2_set_heap_limit_8(context, Regex.heapLimitKiB)
        }
        return MatchContext(pointer: context)
    }()
    private static let apacheMatchContext: MatchContext = {
        let context = pcre2_match_context_create_8(nil)
        if let context {
            _ = pcre2_set_match_limit_8(context, Regex.apacheMatchLimit)
            _ = pcre2_set_depth_limit_8(context, Regex.apacheDepthLimit)
            _ = pcre2_set_heap_limit_8(context, Regex.apacheHeapLimitKiB)
        }
        return MatchContext(pointer: context)
    }()

    /// Compiles `pattern` with `PCRE2_DUPNAMES | options` and JIT-compiles it when possible.
    ///
    /// - Throws: `RegexCompileError` with PCRE2's message and byte offset.
    public convenience init(_ pattern: String, options: RegexOptions = .apacheDefault) throws(RegexCompileError) {
        try self.init(pattern, options: options, jit: true)
    }

    /// Designated initialiser; `jit: false` lets tests exercise the interpreter's limits too.
    init(_ pattern: String, options: RegexOptions, jit: Bool) throws(RegexCompileError) {
        let compileOptions = PCRE2_DUPNAMES | options.rawValue
        self.shortcut = RegexShortcut(pattern: pattern, options: options)
        if jit && Regex.isJITAvailable && Regex.isPlainLiteral(pattern, options: options) {
            // Nothing to validate and no groups: the first search compiles it, as any other.
            self.pattern = pattern
            self.options = options
            self.compileOptions = compileOptions
            self.captureCount = 0
            self.namedGroups = []
            self.jitState = Atomic(0)
            return
        }
        var errorCode: Int32 = 0
        var errorOffset: PCRE2Size = 0
        guard let compiled = Regex.compile(pattern, compileOptions, &errorCode, &errorOffset) else {
            throw RegexCompileError(message: Regex.errorMessage(errorCode), offset: Int(errorOffset))
        }

        var groups: UInt32 = 0
        _ = pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &groups)

        self.pattern = pattern
        self.options = options
        self.compileOptions = compileOptions
        self.captureCount = Int(groups)
        self.namedGroups = Regex.namedGroups(compiled)
        if jit && Regex.isJITAvailable {
            pcre2_code_free_8(compiled)
            self.jitState = Atomic(0)
        } else {
            // Interpreter only: the lock-free path needs the code from the start.
            self.code = compiled
            self.jitState = Atomic(1)
        }
    }

    /// Whether `pattern` is printable literal bytes and escaped punctuation, each perhaps
    /// followed by `?`, between an optional `^` and `$` (`^old/page-9\.html/?$`), under options
    /// that do not change how it is read: such a pattern always compiles and has no groups, so
    /// the initialiser need not compile it to find out. Most rules of a big redirect map look
    /// like this, and compiling them all took a third of reading the file.
    static func isPlainLiteral(_ pattern: String, options: RegexOptions) -> Bool {
        let harmless: RegexOptions = [.caseless, .dotAll, .dollarEndOnly]
        guard options.rawValue & ~harmless.rawValue == 0 else { return false }
        var pattern = pattern
        return pattern.withUTF8 { bytes in
            var i = bytes.first == UInt8(ascii: "^") ? 1 : 0
            let end = bytes.count > i && bytes.last == UInt8(ascii: "$") ? bytes.count - 1 : bytes.count
            while i < end {
                let c = bytes[i]
                guard c >= 0x20 && c < 0x7F else { return false }
                switch c {
                case UInt8(ascii: "\\"):
                    i += 1
                    // An escaped punctuation byte is that byte; an escaped letter or digit is not.
                    guard i < end, bytes[i] >= 0x20 && bytes[i] < 0x7F, !isASCIIAlphanumeric(bytes[i]) else { return false }
                case UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "."), UInt8(ascii: "["), UInt8(ascii: "]"),
                     UInt8(ascii: "|"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "?"), UInt8(ascii: "*"),
                     UInt8(ascii: "+"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                    return false
                default:
                    break
                }
                i += 1
                if i < end, bytes[i] == UInt8(ascii: "?") { i += 1 }
            }
            return true
        }
    }

    /// PCRE2's name table: entries of a two-byte group number and a NUL-terminated name.
    private static func namedGroups(_ code: OpaquePointer) -> [(group: Int, name: String)] {
        var count: UInt32 = 0
        _ = pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count)
        guard count > 0 else { return [] }
        var entrySize: UInt32 = 0
        var table: UnsafePointer<UInt8>? = nil
        _ = pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        _ = pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard let table else { return [] }
        var out: [(group: Int, name: String)] = []
        for i in 0..<Int(count) {
            let entry = table + i * Int(entrySize)
            let group = Int(entry[0]) << 8 | Int(entry[1])
            var bytes: [UInt8] = []
            var k = 2
            while k < Int(entrySize), entry[k] != 0 { bytes.append(entry[k]); k += 1 }
            out.append((group, String(decoding: bytes, as: UTF8.self)))
        }
        return out.sorted { $0.group < $1.group }
    }

    private static func isASCIIAlphanumeric(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    private static func compile(_ pattern: String, _ options: UInt32, _ errorCode: inout Int32,
                                _ errorOffset: inout PCRE2Size) -> OpaquePointer? {
        // Explicit length, so NUL bytes in the pattern are pattern bytes, not terminators.
        // The extra trailing byte guarantees a non-NULL pointer even for the empty pattern
        // (PCRE2 before 10.43 rejects a NULL pattern even when the length is 0).
        // Raw bytes, as subjects are matched: a Latin-1 byte in the file (`^caf\xE9`) is that
        // byte to PCRE2, not the private scalar that keeps it in a Swift string (recorded:
        // rewrite-pattern-latin1-bytes).
        var bytes = pattern.withRawBytes { Array($0) }
        let length = bytes.count
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            pcre2_compile_8(buffer.baseAddress, PCRE2Size(length), options, &errorCode, &errorOffset, nil)
        }
    }

    /// Runs `body` with the code as it stands: the first caller compiles it, the
    /// `hotSearches`-th JIT-compiles it (a JIT failure is not an error — the interpreter gives
    /// the same answers, only slower). `PCRE2_ERROR_NOMEMORY` if the recompile fails.
    @inline(__always)
    private func withCompiledCode(_ body: (OpaquePointer) -> Int32) -> Int32 {
        if jitState.load(ordering: .acquiring) != 0, let code { return body(code) }
        return pendingSearches.withLock { searches in
            if code == nil {
                var errorCode: Int32 = 0
                var errorOffset: PCRE2Size = 0
                code = Regex.compile(pattern, compileOptions, &errorCode, &errorOffset)
            }
            guard let code else { return PCRE2_ERROR_NOMEMORY }
            if jitState.load(ordering: .acquiring) == 0 {
                searches += 1
                if searches >= Regex.hotSearches {
                    let ok = pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE) == 0
                    jitState.store(ok ? 2 : 1, ordering: .releasing)
                }
            }
            return body(code)
        }
    }

    deinit {
        if let code { pcre2_code_free_8(code) }
    }

    /// Unanchored search from offset 0 (Apache's ap_regexec). nil when no match OR when a limit was hit (Apache treats errors as no match).
    public func firstMatch(in subject: String) -> RegexMatch? {
        switch search(subject) {
        case .success(let match): return match
        case .failure: return nil
        }
    }

    /// Same, but distinguishes a limit/error from no match.
    public func search(_ subject: String) -> Result<RegexMatch?, RegexMatchFailure> {
        withSubject(subject) { buffer, length in
            // Per-thread match data keeps concurrent searches on one Regex independent.
            guard let matchData = ThreadMatchData.acquire(pairs: captureCount + 1) else {
                return .failure(.other(Regex.errorMessage(PCRE2_ERROR_NOMEMORY)))
            }
            let rc = run(buffer, length: length, matchData: matchData)
            switch rc {
            case PCRE2_ERROR_NOMATCH:
                return .success(nil)
            case PCRE2_ERROR_MATCHLIMIT:
                return .failure(.matchLimit)
            case PCRE2_ERROR_DEPTHLIMIT:
                return .failure(.depthLimit)
            case ..<0:
                return .failure(.other(Regex.errorMessage(rc)))
            default:
                return .success(makeMatch(bytes: buffer, length: length, matchData: matchData, rc: rc))
            }
        }
    }

    /// Whether `subject` contains a match; limit errors count as no match, as in Apache.
    /// Builds no captures, so it is the cheap test for rules that end up not matching.
    public func matches(_ subject: String) -> Bool {
        if let answer = shortcut.answer(subject) { return answer }
        return withSubject(subject) { buffer, length in
            guard let matchData = ThreadMatchData.acquire(pairs: captureCount + 1) else { return false }
            return run(buffer, length: length, matchData: matchData) >= 0
        }
    }

    /// Like `matches`, but a PCRE2 limit or error is a failure instead of "no match", so callers
    /// can report that a limit was reached (issue 9) while still treating it as Apache does.
    public func test(_ subject: String) -> Result<Bool, RegexMatchFailure> {
        if let answer = shortcut.answer(subject) { return .success(answer) }
        return withSubject(subject) { buffer, length in
            guard let matchData = ThreadMatchData.acquire(pairs: captureCount + 1) else {
                return .failure(.other(Regex.errorMessage(PCRE2_ERROR_NOMEMORY)))
            }
            let rc = run(buffer, length: length, matchData: matchData)
            switch rc {
            case PCRE2_ERROR_NOMATCH: return .success(false)
            case PCRE2_ERROR_MATCHLIMIT: return .failure(.matchLimit)
            case PCRE2_ERROR_DEPTHLIMIT: return .failure(.depthLimit)
            case ..<0: return .failure(.other(Regex.errorMessage(rc)))
            default: return .success(true)
            }
        }
    }

    /// Calls `body` with the subject's bytes (`rawBytes`), without copying native strings. The empty
    /// subject gets a one-byte buffer: PCRE2 rejects a NULL pointer even with length 0.
    private func withSubject<T>(_ subject: String, _ body: (UnsafeBufferPointer<UInt8>, Int) -> T) -> T {
        if subject.utf8.isEmpty {
            let zero: [UInt8] = [0]
            return zero.withUnsafeBufferPointer { body($0, 0) }
        }
        // The bytes Apache would see: raw bytes kept in the string are searched as bytes.
        return subject.withRawBytes { body($0, $0.count) }
    }

    /// One `pcre2_match` from offset 0 with the limits of `matchContext`. If the JIT runs out
    /// of its small default stack (32 KiB; a shared bigger one is not thread-safe), the
    /// interpreter retries, bounded by the depth and heap limits.
    private func run(_ buffer: UnsafeBufferPointer<UInt8>, length: Int, matchData: OpaquePointer) -> Int32 {
        // Hot path: JIT code is run through pcre2_jit_match, which skips pcre2_match's checks of
        // options and subject (none can fail here: no UTF, no options, offset 0) — a third of
        // the library's instructions per search.
        if jitState.load(ordering: .acquiring) == 2, let code {
            let rc = pcre2_jit_match_8(code, buffer.baseAddress, PCRE2Size(length), 0, 0, matchData, matchContext)
            return rc >= 0 || rc == PCRE2_ERROR_NOMATCH ? rc : retry(code, buffer, length: length, matchData: matchData, after: rc)
        }
        return withCompiledCode { code in
            let rc = pcre2_match_8(code, buffer.baseAddress, PCRE2Size(length), 0, 0, matchData, matchContext)
            return rc >= 0 || rc == PCRE2_ERROR_NOMATCH ? rc : retry(code, buffer, length: length, matchData: matchData, after: rc)
        }
    }

    /// After a failed search: the interpreter runs again when the JIT ran out of its stack,
    /// with the same limits, and when htlint's fast limits were reached, with Apache's
    /// (`apacheMatchLimit`). A failure that stands drops the thread's match data, which may
    /// now hold a large frame vector.
    private func retry(_ code: OpaquePointer, _ buffer: UnsafeBufferPointer<UInt8>, length: Int,
                       matchData: OpaquePointer, after failure: Int32) -> Int32 {
        var rc = failure
        if rc == PCRE2_ERROR_JIT_STACKLIMIT {
            rc = pcre2_match_8(code, buffer.baseAddress, PCRE2Size(length), 0, PCRE2_NO_JIT, matchData, matchContext)
        }
        if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT {
            rc = pcre2_match_8(code, buffer.baseAddress, PCRE2Size(length), 0, PCRE2_NO_JIT, matchData,
                               Regex.apacheMatchContext.pointer)
        }
        if rc < 0, rc != PCRE2_ERROR_NOMATCH { ThreadMatchData.discard() }
        return rc
    }

    /// Turns the ovector into a `RegexMatch` covering every group of the pattern.
    private func makeMatch(bytes: UnsafeBufferPointer<UInt8>, length: Int, matchData: OpaquePointer, rc: Int32) -> RegexMatch {
        let unset = ~PCRE2Size(0)
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let pairs = Int(pcre2_get_ovector_count_8(matchData))
        // rc == 0 would mean the ovector was too small; it cannot be, as the thread's match data
        // has at least the pattern's pairs, but treat it as "all pairs valid" rather than trusting
        // nothing.
        let setPairs = rc == 0 ? pairs : min(Int(rc), pairs)

        var captureBytes: [[UInt8]?] = []
        var ranges: [Range<Int>?] = []
        captureBytes.reserveCapacity(captureCount + 1)
        ranges.reserveCapacity(captureCount + 1)
        for group in 0...captureCount {
            // Pairs at or beyond rc belong to groups that did not participate.
            guard group < setPairs else {
                captureBytes.append(nil)
                ranges.append(nil)
                continue
            }
            let start = ovector[2 * group]
            let end = ovector[2 * group + 1]
            // Start after end is possible in PCRE2 only via \K in a lookaround, which it
            // rejects by default; guard anyway so no slicing can trap.
            guard start != unset, end != unset, start <= end, Int(end) <= length else {
                captureBytes.append(nil)
                ranges.append(nil)
                continue
            }
            let range = Int(start)..<Int(end)
            ranges.append(range)
            captureBytes.append(Array(bytes[range]))
        }
        return RegexMatch(captureBytes: captureBytes, ranges: ranges)
    }

    /// PCRE2's text for an error code (compile or match), without the NUL terminator.
    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let written = pcre2_get_error_message_8(code, &buffer, PCRE2Size(buffer.count))
        if written >= 0 {
            return String(decoding: buffer[..<Int(written)], as: UTF8.self)
        }
        if written == PCRE2_ERROR_NOMEMORY {
            // Truncated but NUL-terminated: keep what fits.
            let end = buffer.firstIndex(of: 0) ?? buffer.count
            return String(decoding: buffer[..<end], as: UTF8.self)
        }
        return "PCRE2 error \(code)"
    }
}
