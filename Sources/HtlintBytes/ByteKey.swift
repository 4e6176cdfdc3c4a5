#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A string as a table key compared and hashed by its UTF-8 bytes. Swift's `String` equality
/// and hashing follow canonical equivalence, so a table keyed by `String` takes `café` written
/// with a precomposed é and with `e` and a combining accent for one key, where Apache, the
/// kernel and a browser see two names: two files, two requests (a replay cache keyed so
/// answered the second URL with the first's file).
public struct ByteKey: Hashable, Sendable {
    public let string: String

    @inlinable
    public init(_ string: String) { self.string = string }

    public static func == (a: ByteKey, b: ByteKey) -> Bool { ByteKey.sameBytes(a.string, b.string) }

    /// One word of `hash(_:)` for the hasher: feeding it the bytes cost SipHash a round per
    /// eight of them, and file names are looked up several times on every pass.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ByteKey.hash(string))
    }

    /// Whether two strings hold the same UTF-8 bytes.
    @inlinable
    public static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return withBytes(a) { p in
            withBytes(b) { q in
                guard let x = p.baseAddress, let y = q.baseAddress else { return true }
                return memcmp(x, y, p.count) == 0
            }
        }
    }

    /// A 64-bit hash of the UTF-8 bytes, eight at a time (multiply and fold). Not keyed: the
    /// keys are the user's own files and URLs, and a collision only costs a comparison.
    public static func hash(_ s: String) -> UInt64 {
        withBytes(s) { hash($0) }
    }

    /// `body` over the string's UTF-8 in place, borrowed: a mutable copy for `withUTF8` cost
    /// a retain and a release on every look-up. (A bridged string is copied out.)
    @inlinable @inline(__always)
    public static func withBytes<R>(_ s: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let r = s.utf8.withContiguousStorageIfAvailable(body) { return r }
        return Array(s.utf8).withUnsafeBufferPointer(body)
    }

    public static func hash(_ b: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let k: UInt64 = 0xff51_afd7_ed55_8ccd
        var h: UInt64 = 0x9e37_79b9_7f4a_7c15 ^ UInt64(b.count)
        guard let base = b.baseAddress else { return h }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i + 8 <= b.count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* k
            h ^= h >> 32
            i += 8
        }
        // The last one to seven bytes as one word.
        var tail: UInt64 = 0, shift: UInt64 = 0
        if b.count - i >= 4 {
            tail = UInt64(raw.loadUnaligned(fromByteOffset: i, as: UInt32.self))
            shift = 32
            i += 4
        }
        while i < b.count {
            tail |= UInt64(b[i]) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xc4ce_b9fe_1a85_ec53
        return h ^ (h >> 29)
    }
}
