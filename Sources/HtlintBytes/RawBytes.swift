#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Apache works on bytes; a decoded URL path may hold bytes that are not UTF-8 — `/caf%e9` from
/// a Latin-1 link is the byte 0xE9 — and Swift strings cannot. So a byte that is not part of a
/// well-formed UTF-8 sequence is kept as the private-use scalar U+10FF00 + byte (U+10FF80 …
/// U+10FFFF), and is turned back into its byte wherever bytes matter: regex subjects and
/// captures, escaping, digests. A well-formed sequence for one of those scalars is itself
/// kept byte by byte, so every byte string survives the round trip unchanged.
///
/// The hot parts are `@inlinable`: every regex subject and capture passes through them from
/// other modules, and a generic call across a module boundary is neither specialised nor
/// inlined (it cost 6% of a W2 chain's instructions).
public enum RawBytes {
    /// A raw byte b (0x80 or above) is the scalar `offset + b`: U+10FF80 … U+10FFFF.
    @usableFromInline static let offset: UInt32 = 0x10FF00
    /// Every UTF-8 encoding of such a scalar starts with this byte (and few other things do).
    @usableFromInline static let marker: UInt8 = 0xF4

    /// The raw byte a scalar stands for, if it is one of the reserved scalars.
    @inlinable @inline(__always)
    static func byte(for scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= offset + 0x80 ? UInt8(truncatingIfNeeded: scalar.value - offset) : nil
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or nil when the byte there starts
    /// none (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
    @inlinable
    static func sequenceLength<C: RandomAccessCollection>(_ b: C, at i: C.Index) -> Int? where C.Element == UInt8 {
        let lead = b[i]
        let (length, low, high): (Int, UInt8, UInt8)
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xE1...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return nil
        }
        guard b.distance(from: i, to: b.endIndex) >= length else { return nil }
        var j = b.index(after: i)
        guard (low...high).contains(b[j]) else { return nil }
        for _ in 2..<length {
            j = b.index(after: j)
            guard (0x80...0xBF).contains(b[j]) else { return nil }
        }
        // U+10FF80 and above (F4 8F BE 80 …) would read back as raw bytes: keep them as bytes.
        if lead == 0xF4, b[b.index(i, offsetBy: 1)] == 0x8F, b[b.index(i, offsetBy: 2)] >= 0xBE { return nil }
        return length
    }
}

extension RawBytes {
    /// Whether a byte is 0x80 or above: eight bytes at a time over contiguous storage (the
    /// generic `contains(where:)` costs several instructions a byte, and every regex capture
    /// passes through here).
    @inlinable
    static func hasNonASCII<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        bytes.withContiguousStorageIfAvailable { buffer -> Bool in
            let raw = UnsafeRawBufferPointer(buffer)
            var i = 0
            while i + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return true }
                i += 8
            }
            while i < raw.count {
                if raw[i] >= 0x80 { return true }
                i += 1
            }
            return false
        } ?? bytes.contains { $0 >= 0x80 }
    }
}

extension String {
    /// The string for `bytes`, each byte outside a well-formed UTF-8 sequence kept as its
    /// reserved scalar (see `RawBytes`). Plain UTF-8 costs one validation, as `String(decoding:)`.
    @inlinable
    public init<C: RandomAccessCollection>(preservingBytes bytes: C) where C.Element == UInt8 {
        // Most strings are ASCII: decoded as `String(decoding:)` does, without a second check.
        if !RawBytes.hasNonASCII(bytes) {
            self = String(decoding: bytes, as: UTF8.self)
            return
        }
        if !bytes.contains(RawBytes.marker), let valid = String(validating: bytes, as: UTF8.self) {
            self = valid
            return
        }
        var scalars = String.UnicodeScalarView()
        var i = bytes.startIndex
        while i != bytes.endIndex {
            if let length = RawBytes.sequenceLength(bytes, at: i) {
                let lead = UInt32(bytes[i])
                var value = length == 1 ? lead : lead & (0x7F >> UInt32(length))
                for _ in 1..<length {
                    i = bytes.index(after: i)
                    value = value << 6 | UInt32(bytes[i] & 0x3F)
                }
                scalars.append(Unicode.Scalar(value)!)
                i = bytes.index(after: i)
            } else {
                scalars.append(Unicode.Scalar(RawBytes.offset + UInt32(bytes[i]))!)
                i = bytes.index(after: i)
            }
        }
        self = String(scalars)
    }

    /// Whether the string may hold raw bytes (a cheap test: it has a byte 0xF4).
    @inlinable @inline(__always)
    public var mayHoldRawBytes: Bool {
        if let found = utf8.withContiguousStorageIfAvailable({ buffer -> Bool in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return false }
            return memchr(base, Int32(RawBytes.marker), buffer.count) != nil
        }) { return found }
        return utf8.contains(RawBytes.marker)
    }

    /// The bytes the string stands for: its UTF-8, with each reserved scalar as its raw byte.
    @inlinable
    public var rawBytes: [UInt8] {
        guard mayHoldRawBytes else { return Array(utf8) }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if let byte = RawBytes.byte(for: scalar) { out.append(byte) } else { UTF8.encode(scalar) { out.append($0) } }
        }
        return out
    }

    /// How many bytes the string stands for (`rawBytes.count`, without building them): the
    /// length Apache's limits count (NAME_MAX, APR_PATH_MAX, a URI's maximum), where a raw
    /// byte is one byte, not the four of its scalar's UTF-8.
    public var rawByteCount: Int {
        guard mayHoldRawBytes else { return utf8.count }
        var n = 0
        for scalar in unicodeScalars { n += RawBytes.byte(for: scalar) != nil ? 1 : UTF8.width(scalar) }
        return n
    }

    /// Calls `body` with `rawBytes`, without copying a native string that holds none.
    @inlinable
    public func withRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if !mayHoldRawBytes, let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        return try rawBytes.withUnsafeBufferPointer(body)
    }

    /// The string with each raw byte written `\xHH`, for people to read (traces, messages).
    public var showingRawBytes: String {
        guard mayHoldRawBytes else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if let byte = RawBytes.byte(for: scalar) {
                out += "\\x" + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
