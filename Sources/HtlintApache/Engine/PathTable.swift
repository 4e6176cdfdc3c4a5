import HtlintBytes

/// Values keyed by a path's bytes (like `[PathKey: Value]`), in insertion order, with an
/// open-addressing index over `ByteKey.hash`. The site's tree is looked up several times
/// on every pass (each directory of the walk, each file test); here the caller can hash the
/// name in the same pass over its bytes that checks it is plain (`SiteFileSystem.plainForm`).
struct PathTable<Value: Sendable>: Sendable {
    private(set) var keys: [String] = []
    private(set) var values: [Value] = []
    private var hashes: [UInt64] = []
    /// Entry index per slot; -1 is free. At most half full.
    private var slots = [Int32](repeating: -1, count: 16)

    var count: Int { keys.count }

    /// Every entry, in the order it was first stored.
    var entries: [(key: String, value: Value)] { zip(keys, values).map { ($0, $1) } }

    subscript(key: String) -> Value? { value(forKey: key, hash: ByteKey.hash(key)) }

    /// The value for `key`, whose `ByteKey.hash` the caller has already computed.
    func value(forKey key: String, hash: UInt64) -> Value? {
        guard let e = entryIndex(key, hash).entry else { return nil }
        return values[e]
    }

    /// Stores `value` for `key`; the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        let h = ByteKey.hash(key)
        let (found, slot) = entryIndex(key, h)
        if let e = found {
            defer { values[e] = value }
            return values[e]
        }
        slots[slot] = Int32(keys.count)
        keys.append(key)
        values.append(value)
        hashes.append(h)
        if keys.count * 2 > slots.count { grow() }
        return nil
    }

    /// The entry holding `key`, or the free slot where it would go.
    private func entryIndex(_ key: String, _ h: UInt64) -> (entry: Int?, slot: Int) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let e = Int(slots[i])
            if e < 0 { return (nil, i) }
            if hashes[e] == h, sameBytes(keys[e], key) { return (e, i) }
            i = (i + 1) & mask
        }
    }

    private mutating func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for (e, h) in hashes.enumerated() {
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] >= 0 { i = (i + 1) & mask }
            slots[i] = Int32(e)
        }
    }
}
