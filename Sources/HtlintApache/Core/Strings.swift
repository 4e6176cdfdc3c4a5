/// Byte-level string helpers for hot paths: `String.dropFirst(n)` counts characters (graphemes),
/// which is both slower and not what Apache's byte offsets mean.

/// `s` without its first `n` UTF-8 bytes (n must fall on a character boundary, e.g. a prefix's length).
@inlinable
func dropLeadingBytes(_ s: String, _ n: Int) -> String {
    let u = s.utf8
    return String(u[u.index(u.startIndex, offsetBy: n)...]) ?? String(decoding: Array(u.dropFirst(n)), as: UTF8.self)
}

/// The part after the last `/` (the whole string when there is none).
@inlinable
func lastPathComponent(_ s: String) -> Substring {
    guard let slash = s.utf8.lastIndex(of: UInt8(ascii: "/")) else { return Substring(s) }
    return s[s.utf8.index(after: slash)...]
}

/// ASCII case-insensitive equality (header and host names) without building lower-cased copies.
@inlinable
public func equalsIgnoringASCIICase(_ a: String, _ b: String) -> Bool {
    let x = a.utf8, y = b.utf8
    guard x.count == y.count else { return false }
    for (c, d) in zip(x, y) where c != d {
        let lc = c >= 0x41 && c <= 0x5A ? c + 32 : c
        let ld = d >= 0x41 && d <= 0x5A ? d + 32 : d
        if lc != ld { return false }
    }
    return true
}

/// The non-empty `/`-separated segments of a path, split on bytes (a `Character` split pays for
/// grapheme breaking on every byte).
@inlinable
func pathSegments(_ s: String) -> [Substring] {
    var out: [Substring] = []
    var start = s.startIndex
    let u = s.utf8
    var i = u.startIndex
    while i != u.endIndex {
        if u[i] == UInt8(ascii: "/") {
            if start < i { out.append(s[start..<i]) }
            start = u.index(after: i)
        }
        i = u.index(after: i)
    }
    if start < s.endIndex { out.append(s[start...]) }
    return out
}

/// Where `://` starts in `s`, by bytes (`range(of:)` goes through Foundation's NSString).
public func schemeSeparator(in s: String) -> String.Index? {
    let u = s.utf8
    var i = u.startIndex
    while i != u.endIndex {
        if u[i...].starts(with: "://".utf8) { return i }
        i = u.index(after: i)
    }
    return nil
}
