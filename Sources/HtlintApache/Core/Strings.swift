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

/// `s` up to and including the ASCII byte at `i` (a `/` found by a byte search). `s[...i]` would
/// take the whole Character there, and a combining mark right after a slash (`/%CC%81x`) is in
/// the slash's Character (recorded: negotiation-combining-mark-after-slash).
@inlinable
func bytesThrough(_ s: String, _ i: String.Index) -> Substring { Substring(s.unicodeScalars[...i]) }

/// `s` after the ASCII byte at `i`, by bytes (see `bytesThrough`).
@inlinable
func bytesAfter(_ s: String, _ i: String.Index) -> Substring { Substring(s.unicodeScalars[s.utf8.index(after: i)...]) }

/// The part after the last `/` (the whole string when there is none).
@inlinable
func lastPathComponent(_ s: String) -> Substring {
    guard let slash = s.lastIndex(ofByte: UInt8(ascii: "/")) else { return Substring(s) }
    return s[s.utf8.index(after: slash)...]
}

/// strcmp(a, b) == 0: the same bytes. Swift's `==` holds a precomposed é equal to e and a
/// combining accent, which Apache's comparisons of paths and names never do.
@inlinable
func sameBytes(_ a: String, _ b: String) -> Bool {
    // Lengths, then one memcmp (the generic elementsEqual stepped index by index).
    a.utf8.count == b.utf8.count && a.hasBytePrefix(b)
}

/// Optional strings with the same bytes (both nil, or both set and `sameBytes`).
@inlinable
func sameBytes(_ a: String?, _ b: String?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case let (x?, y?): return sameBytes(x, y)
    default: return false
    }
}

/// An identity for `s` (a cache key, a configuration object's name) that no other byte string
/// shares under Swift's canonical equivalence, with its ASCII prefix kept: `s` itself when it is
/// ASCII, else `s` with `%` and every non-ASCII byte written `%xx`, and a NUL after it (which
/// no ASCII path holds).
func byteDistinctKey(_ s: String) -> String {
    // (Over the contiguous bytes: the generic UTF8View scan cost 30 instructions a byte.)
    let ascii = s.utf8.withContiguousStorageIfAvailable { b in !b.contains { $0 >= 0x80 } } ?? !s.utf8.contains { $0 >= 0x80 }
    guard !ascii else { return s }
    let hex = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in s.utf8 {
        if b >= 0x80 || b == UInt8(ascii: "%") {
            out.append(UInt8(ascii: "%")); out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)])
        } else { out.append(b) }
    }
    out.append(0)
    return String(decoding: out, as: UTF8.self)
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
@inlinable
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
    byteSplit(s, UInt8(ascii: "/"), omittingEmpty: omittingEmpty)
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

/// Whether `/.` or `//` occurs in the UTF-8: one pass over the bytes, as this runs on every
/// directory walk (two substring searches stopped at every slash of the path).
private func hasSlashBeforeDotOrSlash(_ path: String) -> Bool {
    func scan(_ b: some Collection<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for byte in b {
            if previous == UInt8(ascii: "/"), byte == UInt8(ascii: ".") || byte == UInt8(ascii: "/") { return true }
            previous = byte
        }
        return false
    }
    return path.utf8.withContiguousStorageIfAvailable(scan) ?? scan(path.utf8)
}

/// apr_filepath_merge(APR_FILEPATH_NOTRELATIVE) on an absolute path, as directory_walk
/// canonicalises r->filename: empty and `.` segments are dropped, `..` crops the segment before
/// it (at `/` it is a no-op), and a slash after a kept segment stays. Paths without a dot
/// segment or a repeated slash come back unchanged.
func canonicalFilePath(_ path: String) -> String {
    guard path.utf8.first == UInt8(ascii: "/"), hasSlashBeforeDotOrSlash(path) else { return path }
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

/// A content type without its parameters as ap_field_noparam cuts it: before the first `;`
/// byte (a `;` a combining mark follows is one Swift character, which `prefix { $0 != ";" }`
/// does not stop at).
func beforeSemicolonByte(_ s: String) -> String {
    guard let i = s.firstIndex(ofByte: UInt8(ascii: ";")) else { return s }
    return String(s[..<i])
}
