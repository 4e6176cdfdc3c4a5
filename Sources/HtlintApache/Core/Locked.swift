import Foundation
import HtlintBytes

/// A thread-safe cache by string key (its bytes): the engine's per-directory walks, replay's answers.
/// With a `limit`, it keeps the first `limit` keys and ignores later ones, so memory stays
/// bounded however many distinct keys come.
public final class LockedCache<Value>: @unchecked Sendable {
    // Inlinable, so a client module's cache (replay's answers) is specialised for its value
    // type instead of copying values through generic witnesses on every look-up.
    // By bytes (`ByteKey`): two URLs or names Swift holds equal are two requests.
    @usableFromInline var values: [ByteKey: Value] = [:]
    @usableFromInline let lock = NSLock()
    public let limit: Int

    public init(limit: Int = .max) { self.limit = limit }

    @inlinable
    public func get(_ key: String) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[ByteKey(key)]
    }

    @inlinable
    public func set(_ key: String, _ value: Value) {
        lock.lock()
        if values.count < limit { values[ByteKey(key)] = value }
        lock.unlock()
    }
}

/// Results filled by index from several threads (each slot by exactly one), read once all are
/// done. The slots are raw memory allocated once: distinct threads writing distinct elements
/// of it do not race, where writes into one shared `Array` would (its uniqueness check and
/// copy-on-write touch the whole buffer), so no lock is taken per result.
public final class ConcurrentSlots<Value>: @unchecked Sendable {
    @usableFromInline let slots: UnsafeMutableBufferPointer<Value>

    public init(repeating value: Value, count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: value)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    /// Slot `i` (`0 <= i < count`); call from the one thread that owns the slot.
    @inlinable
    public func set(_ i: Int, _ value: Value) {
        precondition(i >= 0 && i < slots.count, "slot out of range")
        slots[i] = value
    }

    /// Every slot, once the threads that fill them have finished.
    public var values: [Value] { Array(slots) }
}
