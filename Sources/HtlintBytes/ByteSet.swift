/// A set of bytes (0…255) as a 256-bit mask: a membership test is a shift and an AND (a
/// `Set<UInt8>` hashes every byte it is asked about). The alphabet unit of the graph's automata
/// (PCRE2 runs without UTF mode under Apache, so patterns and subjects are byte strings) and
/// the escapers' kept bytes.
public struct ByteSet: Hashable, Sendable {
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public init() {}

    public init(_ bytes: some Sequence<UInt8>) {
        for b in bytes { insert(b) }
    }

    public init(range: ClosedRange<UInt8>) {
        for b in range { insert(b) }
    }

    public static let all: ByteSet = { var s = ByteSet(); s.words = (~0, ~0, ~0, ~0); return s }()
    public static let digits = ByteSet(range: 0x30...0x39)
    public static let word = ByteSet(range: 0x30...0x39).union(ByteSet(range: 0x41...0x5A)).union(ByteSet(range: 0x61...0x7A))
        .union(ByteSet([UInt8(ascii: "_")]))
    /// PCRE's `\s` without UTF: space, \t \n \v \f \r.
    public static let space = ByteSet([0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D])

    @inlinable public func contains(_ b: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    public mutating func insert(_ b: UInt8) {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    public func union(_ o: ByteSet) -> ByteSet {
        var s = self
        s.words = (words.0 | o.words.0, words.1 | o.words.1, words.2 | o.words.2, words.3 | o.words.3)
        return s
    }

    public func intersection(_ o: ByteSet) -> ByteSet {
        var s = self
        s.words = (words.0 & o.words.0, words.1 & o.words.1, words.2 & o.words.2, words.3 & o.words.3)
        return s
    }

    public var inverted: ByteSet {
        var s = self
        s.words = (~words.0, ~words.1, ~words.2, ~words.3)
        return s
    }

    public var isEmpty: Bool { words.0 == 0 && words.1 == 0 && words.2 == 0 && words.3 == 0 }

    /// Adds the other case of every ASCII letter (PCRE2's caseless matching without UTF).
    public var caseFolded: ByteSet {
        var s = self
        for b in UInt8(ascii: "A")...UInt8(ascii: "Z") where contains(b) || contains(b + 32) {
            s.insert(b)
            s.insert(b + 32)
        }
        return s
    }

    public var count: Int {
        words.0.nonzeroBitCount + words.1.nonzeroBitCount + words.2.nonzeroBitCount + words.3.nonzeroBitCount
    }

    public var members: [UInt8] { (0...255).compactMap { contains(UInt8($0)) ? UInt8($0) : nil } }

    public static func == (a: ByteSet, b: ByteSet) -> Bool {
        a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
    }

    public func hash(into h: inout Hasher) {
        h.combine(words.0)
        h.combine(words.1)
        h.combine(words.2)
        h.combine(words.3)
    }
}
