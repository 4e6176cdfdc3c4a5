import Foundation

/// A thread-safe cache by string key: the engine's per-directory walks, replay's answers.
/// With a `limit`, it keeps the first `limit` keys and ignores later ones, so memory stays
/// bounded however many distinct keys come.
public final class LockedCache<Value>: @unchecked Sendable {
    private var values: [String: Value] = [:]
    private let lock = NSLock()
    public let limit: Int

    public init(limit: Int = .max) { self.limit = limit }

    public func get(_ key: String) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    public func set(_ key: String, _ value: Value) {
        lock.lock()
        if values.count < limit { values[key] = value }
        lock.unlock()
    }
}

/// Results filled by index from several threads (each slot by one), read once all are done.
public final class ConcurrentSlots<Value>: @unchecked Sendable {
    public private(set) var values: [Value]
    private let lock = NSLock()

    public init(repeating value: Value, count: Int) { values = Array(repeating: value, count: count) }

    public func set(_ i: Int, _ value: Value) {
        lock.lock()
        values[i] = value
        lock.unlock()
    }
}
