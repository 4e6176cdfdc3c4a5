import HtlintBytes
import HtlintRegex

/// Byte-level string helpers for hot paths: `String.dropFirst(n)` counts characters (graphemes),
/// which is both slower and not what Apache's byte offsets mean.

/// `s` without its first `n` UTF-8 bytes (n must fall on a character boundary, e.g. a prefix's length).
@inlinable
func dropLeadingBytes(_ s: String, _ n: Int) -> String {
    let u = s.utf8
    return String(u[u.index(u.startIndex, offsetBy: n)...]) ?? String(preservingBytes: Array(u.dropFirst(n)))
}

/// `s` without its last `n` UTF-8 bytes (a path-info suffix is counted in bytes, not characters).
func dropTrailingBytes(_ s: String, _ n: Int) -> String {
    let u = s.utf8
    return String(u[..<u.index(u.endIndex, offsetBy: -min(n, u.count))]) ?? String(preservingBytes: Array(u.dropLast(n)))
}

/// The part after the last `/` (the whole string when there is none).
@inlinable
func lastPathComponent(_ s: String) -> Substring {
    guard let slash = s.lastIndex(ofByte: UInt8(ascii: "/")) else { return Substring(s) }
    return s[s.utf8.index(after: slash)...]
}

/// ASCII case-insensitive equality (header and host names) without building lower-cased copies.
/// Compares contiguous bytes: iterating two `UTF8View`s through `zip` cost some 1,200
/// instructions per header lookup, and request headers are looked up dozens of times a hop.
@inlinable
public func equalsIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    guard a.utf8.count == b.utf8.count else { return false }
    func same(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        for i in 0..<x.count where !sameIgnoringASCIICase(x[i], y[i]) { return false }
        return true
    }
    if let r = a.utf8.withContiguousStorageIfAvailable({ x in b.utf8.withContiguousStorageIfAvailable { y in same(x, y) } }),
       let r { return r }
    return Array(a.utf8).withUnsafeBufferPointer { x in Array(b.utf8).withUnsafeBufferPointer { y in same(x, y) } }
}

/// Two bytes equal ignoring case: only letters differing by the case bit count as equal.
@inlinable
func sameIgnoringASCIICase(_ c: UInt8, _ d: UInt8) -> Bool {
    c == d || (c ^ d == 0x20 && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A)
}

/// Whether `s` starts with `prefix` ignoring ASCII case, without building a lower-cased copy
/// (lint rules ask this of every rule's substitution).
@inlinable
public func hasPrefixIgnoringASCIICase(_ s: String, _ prefix: String) -> Bool {
    s.utf8.count >= prefix.utf8.count && zip(s.utf8, prefix.utf8).allSatisfy { sameIgnoringASCIICase($0, $1) }
}

/// The non-empty `/`-separated segments of a path, split on bytes (a `Character` split pays for
/// grapheme breaking on every byte).
@inlinable
func pathSegments(_ s: String) -> [Substring] { slashSplit(s[...], omittingEmpty: true) }

/// `s` split at every `separator` byte (ASCII), as apr_strtok and C loops split: a separator a
/// combining mark follows is one character with it, so `split(separator:)` misses it.
func byteSplit(_ s: Substring, _ separator: UInt8, omittingEmpty: Bool = false) -> [Substring] {
    var out: [Substring] = []
    var start = s.startIndex
    let u = s.utf8
    var i = u.startIndex
    while i != u.endIndex {
        if u[i] == separator {
            if !omittingEmpty || start < i { out.append(s[start..<i]) }
            start = u.index(after: i)
        }
        i = u.index(after: i)
    }
    if !omittingEmpty || start < s.endIndex { out.append(s[start...]) }
    return out
}

/// `s` split at every `/` byte, as C code splits a path. `split(separator: "/")` splits at
/// characters: a slash followed by a combining mark (`/%CC%81`) is one character, no `/`.
@inlinable
func slashSplit(_ s: Substring, omittingEmpty: Bool = false) -> [Substring] {
    var out: [Substring] = []
    var start = s.startIndex
    let u = s.utf8
    var i = u.startIndex
    while i != u.endIndex {
        if u[i] == UInt8(ascii: "/") {
            if !omittingEmpty || start < i { out.append(s[start..<i]) }
            start = u.index(after: i)
        }
        i = u.index(after: i)
    }
    if !omittingEmpty || start < s.endIndex { out.append(s[start...]) }
    return out
}

@inlinable
func slashSplit(_ s: String, omittingEmpty: Bool = false) -> [Substring] { slashSplit(s[...], omittingEmpty: omittingEmpty) }

/// Where `://` starts in `s`, by bytes (`range(of:)` goes through Foundation's NSString).
public func schemeSeparator(in s: String) -> String.Index? {
    let u = s.utf8
    var i = u.startIndex
    while let colon = u[i...].firstIndex(of: UInt8(ascii: ":")) {
        let rest = u[colon...]
        if rest.starts(with: "://".utf8) { return colon }
        i = u.index(after: colon)
    }
    return nil
}

/// apr_filepath_merge(APR_FILEPATH_NOTRELATIVE) on an absolute path, as directory_walk
/// canonicalises r->filename: empty and `.` segments are dropped, `..` crops the segment before
/// it (at `/` it is a no-op), and a slash after a kept segment stays. Paths without a dot
/// segment or a repeated slash come back unchanged.
func canonicalFilePath(_ path: String) -> String {
    // Byte searches: this runs on every directory walk (Foundation's `contains` bridges).
    guard path.utf8.first == UInt8(ascii: "/"), path.containsBytes("/.") || path.containsBytes("//") else { return path }
    let parts = slashSplit(path).dropFirst()
    guard parts.contains(where: { $0 == "." || $0 == ".." || $0.isEmpty }) else { return path }
    var out = "/"
    for (i, seg) in parts.enumerated() {
        let last = i == parts.count - 1
        if seg.isEmpty || seg == "." { continue }
        if seg == ".." {
            guard out != "/" else { continue }
            out.removeLast()  // the slash after the previous segment
            while let c = out.last, c != "/" { out.removeLast() }
            continue
        }
        out += seg
        if !last { out += "/" }
    }
    return out
}
