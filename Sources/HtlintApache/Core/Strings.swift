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
