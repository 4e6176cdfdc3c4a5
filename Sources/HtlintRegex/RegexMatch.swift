import HtlintBytes

/// The result of a successful search: the whole match and every capturing group.
/// Hashable so callers and tests can compare whole `search` results.
public struct RegexMatch: Sendable, Hashable {
    /// captures[0] is the whole match; captures[i] is group i, nil when the group did not participate.
    /// Includes ALL groups of the pattern (Apache itself exposes only 0...9; callers cut).
    ///
    /// Captures are byte ranges, so one may cut a multi-byte character in half (e.g. `^(.)`
    /// on "é"); such bytes are kept as raw bytes (`String(preservingBytes:)`), as httpd keeps them.
    public var captures: [String?] { captureBytes.map { $0.map { String(preservingBytes: $0) } } }
    /// UTF-8 byte ranges in the subject
    public let ranges: [Range<Int>?]
    /// The exact bytes of each capture, parallel to `captures`; never lossy.
    public let captureBytes: [[UInt8]?]

    /// Builds a match from exact capture bytes; the strings are decoded when asked for (most
    /// matches are only tested, or read one or two groups).
    init(captureBytes: [[UInt8]?], ranges: [Range<Int>?]) {
        self.captureBytes = captureBytes
        self.ranges = ranges
    }

    /// "" for out-of-range or non-participating (Apache's $N semantics)
    public subscript(_ i: Int) -> String {
        guard captureBytes.indices.contains(i), let bytes = captureBytes[i] else { return "" }
        return String(preservingBytes: bytes)
    }
}
