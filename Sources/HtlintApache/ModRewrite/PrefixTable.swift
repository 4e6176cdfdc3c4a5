/// Keys (byte strings) with the rules that own them; walking an input collects the rules of
/// every key that is a prefix of it (or, for keys stored reversed, a suffix).
///
/// Not a trie: a trie costs a hash-table edge per key byte (20,000 redirect-map prefixes made
/// 10 MB of edges). Here each key is one entry, hashed whole, and the walk hashes the input
/// incrementally, probing at each length some key has. A hash collision only adds candidates,
/// which the rule loop's regexes reject.
struct PrefixTable: Sendable {
    private var entries = IntTable()
    private var buckets: [[Int32]] = []
    /// `hasLength[n]`: some key is `n` bytes long.
    private var hasLength: [Bool] = []

    mutating func insert<Bytes: Collection<UInt8>>(_ bytes: Bytes, rule: Int32) {
        var h = PrefixTable.seed
        for b in bytes { h = PrefixTable.step(h, b) }
        let key = PrefixTable.finish(h)
        if let bucket = entries[key] {
            buckets[Int(bucket)].append(rule)
        } else {
            entries[key] = Int32(buckets.count)
            buckets.append([rule])
        }
        if hasLength.count <= bytes.count { hasLength += [Bool](repeating: false, count: bytes.count + 1 - hasLength.count) }
        hasLength[bytes.count] = true
    }

    /// Appends the rules of every key along `input` from its first byte.
    func collect(_ input: UnsafeBufferPointer<UInt8>, lowercase: Bool, into out: inout [Int32]) {
        guard !buckets.isEmpty else { return }
        walk(input.indices, input, lowercase: lowercase, into: &out)
    }

    /// Appends the rules of every key along `input` read backwards from its last byte.
    func collectReversed(_ input: UnsafeBufferPointer<UInt8>, lowercase: Bool, into out: inout [Int32]) {
        guard !buckets.isEmpty else { return }
        walk(input.indices.reversed(), input, lowercase: lowercase, into: &out)
    }

    private func walk<Order: Sequence<Int>>(_ order: Order, _ input: UnsafeBufferPointer<UInt8>, lowercase: Bool,
                                            into out: inout [Int32]) {
        var h = PrefixTable.seed
        var length = 0
        if hasLength[0], let bucket = entries[PrefixTable.finish(h)] { out.append(contentsOf: buckets[Int(bucket)]) }
        for i in order {
            length += 1
            guard length < hasLength.count else { return }
            h = PrefixTable.step(h, lowercase ? PatternShape.lower(input[i]) : input[i])
            if hasLength[length], let bucket = entries[PrefixTable.finish(h)] {
                out.append(contentsOf: buckets[Int(bucket)])
            }
        }
    }

    // FNV-1a, cleared of its top bit (IntTable stores keys plus one).
    private static let seed: UInt64 = 0xcbf2_9ce4_8422_2325
    @inline(__always) private static func step(_ h: UInt64, _ b: UInt8) -> UInt64 { (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    @inline(__always) private static func finish(_ h: UInt64) -> UInt64 { h & 0x7FFF_FFFF_FFFF_FFFF }
}
