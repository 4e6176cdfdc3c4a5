import HtlintDiagnostics
import HtlintRegex

// How Apache reads a request target's path: split from the query, checked for bad escapes and
// encoded slashes, decoded and normalised (apache-semantics §1.2).

/// The URL-path and query of a request target as Apache splits them: `#…` dropped, an
/// absolute-form `http(s)://host` removed, leading `//` collapsed to `/` (apache-semantics §1.2).
/// One pass over contiguous bytes (every delimiter is ASCII).
func splitRequestTarget(_ url: String) -> (path: String, query: String?) {
    var url = url
    return url.withUTF8 { b in
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        let end = b.firstIndex(of: UInt8(ascii: "#")) ?? b.count
        let q = b[..<end].firstIndex(of: UInt8(ascii: "?"))
        let query = q.map { text(($0 + 1)..<end) }
        let pathEnd = q ?? end
        var start = 0
        let head = b[..<pathEnd]
        if head.starts(with: "http://".utf8) || head.starts(with: "https://".utf8) {
            let afterScheme = (head.firstIndex(of: UInt8(ascii: ":")) ?? 0) + 3
            guard let slash = b[afterScheme..<pathEnd].firstIndex(of: UInt8(ascii: "/")) else { return ("/", query) }
            start = slash
        }
        while pathEnd - start >= 2, b[start] == UInt8(ascii: "/"), b[start + 1] == UInt8(ascii: "/") { start += 1 }
        return (text(start..<pathEnd), query)
    }
}

/// Whether a raw path holds `%2F` (either case) or `%00`, whose decoding changes what its
/// segments are.
func hasEncodedSlashOrNul(_ path: String) -> Bool {
    // Most paths hold no escape at all: one memchr answers them.
    guard path.containsByte(UInt8(ascii: "%")) else { return false }
    var b = path.utf8[...]
    while let i = b.firstIndex(of: UInt8(ascii: "%")) {
        let rest = b[b.index(after: i)...]
        if rest.starts(with: "2F".utf8) || rest.starts(with: "2f".utf8) || rest.starts(with: "00".utf8) { return true }
        b = rest
    }
    return false
}

/// Whether ap_normalize_path with AP_NORMALIZE_ALLOW_RELATIVE and NOT_ABOVE_ROOT fails a
/// relative path: a `..` segment met when nothing is left to take back (`.` segments are
/// dropped, and with MergeSlashes empty ones too).
func relativeNameClimbsAboveStart(_ path: String, mergeSlashes: Bool) -> Bool {
    guard path.containsBytes("..") else { return false }
    var depth = 0
    for seg in slashSplit(path) {
        if seg == "." || (seg.isEmpty && mergeSlashes) { continue }
        if seg == ".." {
            if depth == 0 { return true }
            depth -= 1
        } else {
            depth += 1
        }
    }
    return false
}

/// A `%` not followed by two hex digits (what ap_normalize_path calls an invalid encoding).
func hasBadEscape(_ path: String) -> Bool {
    let b = Array(path.utf8)
    for i in b.indices where b[i] == UInt8(ascii: "%") {
        guard i + 2 < b.count, hexValue(b[i + 1]) != nil, hexValue(b[i + 2]) != nil else { return true }
    }
    return false
}

/// AP_NORMALIZE_DECODE_UNRESERVED: `%XX` escapes of unreserved characters (letters, digits,
/// `-._~`) decoded, every other escape kept as written.
func decodingUnreserved(_ path: String) -> String {
    let b = Array(path.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var i = 0
    while i < b.count {
        if b[i] == UInt8(ascii: "%"), i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) {
            let v = h << 4 | l
            let unreserved = (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39)
                || v == UInt8(ascii: "-") || v == UInt8(ascii: ".") || v == UInt8(ascii: "_") || v == UInt8(ascii: "~")
            if unreserved { out.append(v); i += 3; continue }
        }
        out.append(b[i])
        i += 1
    }
    return String(decoding: out, as: UTF8.self)
}

/// Resolves `.`/`..` segments (never above `/`) and merges repeated slashes, setting
/// `aboveRoot` when a `..` meets `/` (ap_normalize_path with AP_NORMALIZE_NOT_ABOVE_ROOT fails there).
func normalizePath(_ path: String, aboveRoot: inout Bool, mergeSlashes: Bool = true) -> String {
    guard path.hasBytePrefix("/") else { return path }
    if !mergeSlashes {
        // `MergeSlashes Off`: `//` stays, an empty segment is one like any other (`..` removes
        // it); recorded: rewrite-escape-mergeslashes-off.
        guard path.containsBytes("/.") else { return path }
        let segs = slashSplit(path.dropFirst())
        var out: [Substring] = []
        for (i, seg) in segs.enumerated() {
            let last = i == segs.count - 1
            if seg == "." || seg == ".." {
                if seg == ".." { if out.isEmpty { aboveRoot = true } else { out.removeLast() } }
                if last { out.append("") }
                continue
            }
            out.append(seg)
        }
        return "/" + out.joined(separator: "/")
    }
    // Fast path: nothing to resolve unless there is `//`, `/.` (covers `/..`).
    var previousSlash = false
    var needsWork = false
    for c in path.utf8 {
        if previousSlash && (c == UInt8(ascii: "/") || c == UInt8(ascii: ".")) { needsWork = true; break }
        previousSlash = c == UInt8(ascii: "/")
    }
    if !needsWork { return path }
    let trailing = path.hasByteSuffix("/") || path.hasByteSuffix("/.") || path.hasByteSuffix("/..")
    var out: [Substring] = []
    for seg in slashSplit(path, omittingEmpty: true) {
        if seg == "." { continue }
        if seg == ".." { if out.isEmpty { aboveRoot = true } else { out.removeLast() }; continue }
        out.append(seg)
    }
    var result = "/" + out.joined(separator: "/")
    if trailing && result != "/" { result += "/" }
    return result
}
