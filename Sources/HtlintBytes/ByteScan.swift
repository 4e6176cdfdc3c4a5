/// Tests over a string's UTF-8 bytes. Walking `utf8` element by element costs about 30
/// instructions a byte (each step re-checks the string's form); these run over a native
/// string's contiguous storage instead, and fall back to the walk for a bridged one. Hosts,
/// headers and URLs are tested this way on every hop.
extension StringProtocol {
    /// Whether some byte of the UTF-8 passes `test`.
    @inlinable
    public func containsByte(where test: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: test) } ?? utf8.contains(where: test)
    }

    /// Whether every byte of the UTF-8 passes `test` (true for an empty string).
    @inlinable
    public func allBytes(_ test: (UInt8) -> Bool) -> Bool {
        !containsByte { !test($0) }
    }
}
