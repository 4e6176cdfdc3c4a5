/// An insert-only hash table from `UInt64` to `Int32` with open addressing and a multiplicative
/// hash: the rule index looks up a key per input byte, and the standard dictionary's seeded
/// SipHash cost more than the rest of the lookup. Keys are stored plus one, so 0 marks a free slot.
/// At most half full: most look-ups miss, and a miss probes until a free slot (some 2.5 slots
/// at half load, 8.5 at three quarters).
struct IntTable: Sendable {
    private var keys: [UInt64]
    private var values: [Int32]
    private var shift: UInt64
    private(set) var count = 0

    init() {
        keys = [UInt64](repeating: 0, count: 16)
        values = [Int32](repeating: 0, count: 16)
        shift = 64 - 4
    }

    @inline(__always)
    private func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift) }

    subscript(key: UInt64) -> Int32? {
        get {
            let stored = key &+ 1
            let mask = keys.count - 1
            var i = slot(key)
            while true {
                let k = keys[i]
                if k == stored { return values[i] }
                if k == 0 { return nil }
                i = (i + 1) & mask
            }
        }
        set {
            guard let value = newValue else { preconditionFailure("IntTable is insert-only") }
            if (count + 1) * 2 > keys.count { grow() }
            let stored = key &+ 1
            let mask = keys.count - 1
            var i = slot(key)
            while keys[i] != 0 && keys[i] != stored { i = (i + 1) & mask }
            if keys[i] == 0 { count += 1 }
            keys[i] = stored
            values[i] = value
        }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Int32](repeating: 0, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        for (k, v) in zip(oldKeys, oldValues) where k != 0 { self[k &- 1] = v }
    }
}
