import CLibXML2

/// Text decoded from a span of source bytes, remembering for every decoded byte which source
/// bytes produced it, so a position found in the decoded text (a URL inside a `srcset`, a
/// `url()` inside a `style` attribute) maps back to the exact byte in the file.
struct MappedText: Sendable {
    var bytes: [UInt8]
    /// `starts[i]`..<`ends[i]` are the source bytes that produced `bytes[i]` (an entity such as
    /// `&amp;` produces one byte from five). Empty when every byte is its own source byte at
    /// `identityOffset + i`, which spares two offset arrays for megabytes of `<style>` text.
    private var starts: [Int]
    private var ends: [Int]
    private var identityOffset: Int?

    var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Source range of the decoded bytes `range`.
    func sourceRange(_ range: Range<Int>) -> Range<Int> {
        if let identityOffset {
            return (identityOffset + range.lowerBound)..<(identityOffset + range.upperBound)
        }
        guard !bytes.isEmpty else { return 0..<0 }
        let lower = range.lowerBound < bytes.count ? starts[range.lowerBound] : ends[bytes.count - 1]
        let upper = range.isEmpty ? lower : ends[range.upperBound - 1]
        return lower..<max(lower, upper)
    }

    /// The source bytes `range` taken as they are.
    init(raw source: [UInt8], _ range: Range<Int>) {
        bytes = Array(source[range])
        starts = []
        ends = []
        identityOffset = range.lowerBound
    }

    /// Bytes assumed to be written literally from `offset` on (clamped to `limit`): the fallback
    /// when the raw text of a value could not be matched to libxml2's decoding.
    init(assuming bytes: [UInt8], at offset: Int, limit: Int) {
        self.bytes = bytes
        starts = bytes.indices.map { min(offset + $0, limit) }
        ends = bytes.indices.map { min(offset + $0 + 1, limit) }
        identityOffset = nil
    }

    /// Decodes an attribute value the way libxml2 2.9's `htmlParseHTMLAttribute` does:
    /// `&#N;`/`&#xN;` (the `;` optional) and `&name;` for the entities `htmlEntityLookup`
    /// knows; anything else stays literal. With `normalizingNewlines`, CR LF and lone CR become
    /// LF, as libxml2's input layer may deliver them.
    init(attribute source: [UInt8], _ range: Range<Int>, normalizingNewlines: Bool = false) {
        bytes = []
        starts = []
        ends = []
        identityOffset = nil
        var i = range.lowerBound
        let end = range.upperBound
        func emit(_ scalar: UInt32, from: Int, to: Int) {
            for byte in Array(String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8) {
                bytes.append(byte); starts.append(from); ends.append(to)
            }
        }
        while i < end {
            let c = source[i]
            if c == UInt8(ascii: "&"), let (scalar, length) = MappedText.reference(source, at: i, end: end) {
                emit(scalar, from: i, to: i + length)
                i += length
            } else if normalizingNewlines, c == 0x0D {
                let length = i + 1 < end && source[i + 1] == 0x0A ? 2 : 1
                emit(0x0A, from: i, to: i + length)
                i += length
            } else {
                bytes.append(c); starts.append(i); ends.append(i + 1)
                i += 1
            }
        }
    }

    /// The character reference at `i` (which holds `&`) and its length in bytes.
    private static func reference(_ s: [UInt8], at i: Int, end: Int) -> (UInt32, Int)? {
        var k = i + 1
        if k < end, s[k] == UInt8(ascii: "#") {
            k += 1
            let hex = k < end && (s[k] | 0x20) == UInt8(ascii: "x")
            if hex { k += 1 }
            var value: UInt32 = 0
            let digitsStart = k
            while k < end, let d = digit(s[k], hex: hex) {
                if value < 0x110000 { value = value * (hex ? 16 : 10) + d }
                k += 1
            }
            guard k > digitsStart else { return nil }
            if k < end, s[k] == UInt8(ascii: ";") { k += 1 }
            // libxml2 writes NUL for a value that is not an XML Char; the caller then falls
            // back to libxml2's own value, so refuse it here.
            guard isXMLChar(value) else { return nil }
            return (value, k - i)
        }
        guard k < end, isNameStart(s[k]) else { return nil }
        while k < end, isNameChar(s[k]) { k += 1 }
        guard k < end, s[k] == UInt8(ascii: ";") else { return nil }
        var name = Array(s[(i + 1)..<k])
        name.append(0)
        guard let entity = name.withUnsafeBufferPointer({ htmlEntityLookup($0.baseAddress) }) else { return nil }
        return (entity.pointee.value, k + 1 - i)
    }

    private static func digit(_ c: UInt8, hex: Bool) -> UInt32? {
        switch c {
        case 0x30...0x39: return UInt32(c - 0x30)
        case 0x61...0x66 where hex: return UInt32(c - 0x61 + 10)
        case 0x41...0x46 where hex: return UInt32(c - 0x41 + 10)
        default: return nil
        }
    }

    private static func isXMLChar(_ v: UInt32) -> Bool {
        v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v)
            || (0xE000...0xFFFD).contains(v) || (0x10000...0x10FFFF).contains(v)
    }
    private static func isNameStart(_ c: UInt8) -> Bool {
        ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":")
    }
    private static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
    }
}
