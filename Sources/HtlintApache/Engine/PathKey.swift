import HtlintRegex

/// A file name as the kernel compares it: byte for byte. Swift's `String` equality and hashing
/// follow canonical equivalence, so a tree keyed by `String` would find `café.html` written
/// with a precomposed é when a request names it with `e` and a combining accent (Apache: 404).
struct PathKey: Hashable, Sendable {
    let path: String

    init(_ path: String) { self.path = path }

    static func == (a: PathKey, b: PathKey) -> Bool {
        a.path.utf8.count == b.path.utf8.count && a.path.hasBytePrefix(b.path)
    }

    func hash(into hasher: inout Hasher) {
        var path = path
        path.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
