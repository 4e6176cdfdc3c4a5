/// A byte trie with one hash table for all edges; each node lists the rules whose key ends
/// there. Walking an input collects the rules of every key that is a prefix of it (or, for
/// keys stored reversed, a suffix).
struct PrefixTrie: Sendable {
    private var edges = IntTable()
    private var terminals: [[Int32]] = [[]]

    mutating func insert<Bytes: Sequence<UInt8>>(_ bytes: Bytes, rule: Int32) {
        var node: Int32 = 0
        for b in bytes {
            let key = UInt64(node) << 8 | UInt64(b)
            if let next = edges[key] {
                node = next
            } else {
                let next = Int32(terminals.count)
                terminals.append([])
                edges[key] = next
                node = next
            }
        }
        terminals[Int(node)].append(rule)
    }

    /// Appends the rules of every key along `input` from its first byte.
    func collect(_ input: UnsafeBufferPointer<UInt8>, lowercase: Bool, into out: inout [Int32]) {
        guard terminals.count > 1 else { return }
        walk(input.indices, input, lowercase: lowercase, into: &out)
    }

    /// Appends the rules of every key along `input` read backwards from its last byte.
    func collectReversed(_ input: UnsafeBufferPointer<UInt8>, lowercase: Bool, into out: inout [Int32]) {
        guard terminals.count > 1 else { return }
        walk(input.indices.reversed(), input, lowercase: lowercase, into: &out)
    }

    private func walk<Order: Sequence<Int>>(_ order: Order, _ input: UnsafeBufferPointer<UInt8>, lowercase: Bool,
                                            into out: inout [Int32]) {
        var node: Int32 = 0
        for i in order {
            let c = lowercase ? PatternShape.lower(input[i]) : input[i]
            guard let next = edges[UInt64(node) << 8 | UInt64(c)] else { return }
            node = next
            let t = terminals[Int(node)]
            if !t.isEmpty { out.append(contentsOf: t) }
        }
    }
}
