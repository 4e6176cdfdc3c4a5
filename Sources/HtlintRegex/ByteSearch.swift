#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte searches over a string's UTF-8 that run over its contiguous storage. The
/// generic `utf8.firstIndex(of:)` / `utf8.contains(_:)` step one index at a time, about 30
/// instructions a byte: a 16 KB URI growing through Apache's `[N]` rounds spent three
/// quarters of its time there.
extension String {
    /// The index of the first `byte` in the UTF-8.
    public func firstIndex(ofByte byte: UInt8) -> String.Index? {
        guard let offset = utf8.withContiguousStorageIfAvailable({ buffer -> Int? in
            guard let base = buffer.baseAddress, !buffer.isEmpty,
                  let found = memchr(base, Int32(byte), buffer.count) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }) else { return utf8.firstIndex(of: byte) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// The index of the last `byte` in the UTF-8.
    public func lastIndex(ofByte byte: UInt8) -> String.Index? {
        // (memrchr is a GNU extension the Glibc module does not export.)
        guard let offset = utf8.withContiguousStorageIfAvailable({ $0.lastIndex(of: byte) })
        else { return utf8.lastIndex(of: byte) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// Whether the UTF-8 holds `byte`.
    public func containsByte(_ byte: UInt8) -> Bool {
        utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, Int32(byte), buffer.count) != nil
        } ?? utf8.contains(byte)
    }

    /// Whether `needle`'s UTF-8 occurs in the UTF-8. Foundation's `contains(_:)` bridges to
    /// NSString: about 7,000 instructions a call, 2% of a typical site's simulation.
    public func containsBytes(_ needle: String) -> Bool {
        withBytes(of: self, needle) { h, n in
            guard let first = n.first else { return true }
            guard n.count <= h.count, let hBase = h.baseAddress, let nBase = n.baseAddress else { return false }
            // memchr to each place the first byte occurs, memcmp the rest.
            var i = 0
            let last = h.count - n.count
            while i <= last, let found = memchr(hBase + i, Int32(first), last - i + 1) {
                let at = hBase.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(hBase + at, nBase, n.count) == 0 { return true }
                i = at + 1
            }
            return false
        }
    }
}

/// The byte comparisons for substrings too, inlinable so callers specialise them (an
/// unspecialised call across modules cost some 800 instructions: 3% of a W1 chain).
extension StringProtocol {
    /// Whether the UTF-8 starts with `prefix`'s. Apache compares bytes; `hasPrefix` compares
    /// characters, with canonical equivalence: `"/d/"` is no prefix of `"/d/\u{301}x"` there (the
    /// slash and the combining mark are one character).
    @inlinable
    public func hasBytePrefix(_ prefix: some StringProtocol) -> Bool {
        withBytes(of: self, prefix, startsWith)
    }

    /// Whether the UTF-8 ends with `suffix`'s. Apache compares bytes; `hasSuffix` compares
    /// characters, so `"/"` is no suffix of `"a/\u{301}"` there and `"é"` is one of `"e\u{301}"`.
    @inlinable
    public func hasByteSuffix(_ suffix: some StringProtocol) -> Bool {
        withBytes(of: self, suffix, endsWith)
    }
}

extension String {
    @inlinable
    public func hasBytePrefix(_ prefix: String) -> Bool {
        withBytes(of: self, prefix, startsWith)
    }

    @inlinable
    public func hasByteSuffix(_ suffix: String) -> Bool {
        withBytes(of: self, suffix, endsWith)
    }
}

@usableFromInline
func startsWith(_ h: UnsafeBufferPointer<UInt8>, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
    guard p.count <= h.count else { return false }
    guard let hBase = h.baseAddress, let pBase = p.baseAddress else { return true }
    return memcmp(hBase, pBase, p.count) == 0
}

@usableFromInline
func endsWith(_ h: UnsafeBufferPointer<UInt8>, _ s: UnsafeBufferPointer<UInt8>) -> Bool {
    guard s.count <= h.count else { return false }
    guard let hBase = h.baseAddress, let sBase = s.baseAddress else { return true }
    return memcmp(hBase + (h.count - s.count), sBase, s.count) == 0
}

/// `body` over the UTF-8 of `a` and `b`, in place when both are contiguous (native strings).
@inlinable
func withBytes<R>(of a: some StringProtocol, _ b: some StringProtocol,
                          _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = a.utf8.withContiguousStorageIfAvailable({ x in b.utf8.withContiguousStorageIfAvailable { y in body(x, y) } }), let r {
        return r
    }
    return Array(a.utf8).withUnsafeBufferPointer { x in Array(b.utf8).withUnsafeBufferPointer { y in body(x, y) } }
}
