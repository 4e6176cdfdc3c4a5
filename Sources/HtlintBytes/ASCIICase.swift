/// Apache folds case in the C locale (ap_str_tolower, strcasecmp, apr_tolower): ASCII letters
/// only. Swift's `lowercased()` and `uppercased()` fold Unicode, so the Kelvin sign K became `k`
/// (`Options +FollowSymLinKs` was accepted), a long s ſ became `S` (`%{HTTP_HOſT}` read the Host
/// header) and `É` became `é` (`ForceType text/É`).
extension StringProtocol {
    /// The UTF-8 with A–Z turned into a–z and every other byte kept.
    @inlinable
    public func asciiLowercased() -> String {
        guard containsByte(where: { $0 &- 0x41 < 26 }) else { return String(self) }
        return mappingBytes { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }
    }

    /// The UTF-8 with a–z turned into A–Z and every other byte kept.
    @inlinable
    public func asciiUppercased() -> String {
        guard containsByte(where: { $0 &- 0x61 < 26 }) else { return String(self) }
        return mappingBytes { $0 &- 0x61 < 26 ? $0 & 0xDF : $0 }
    }

    /// The string of the bytes `transform` gives, written straight into the new string's storage
    /// (a mapped array first cost an allocation and a copy per call: 5% of linting a big file).
    /// ASCII letters swapped for ASCII letters keep the UTF-8 valid.
    @inlinable @usableFromInline
    func mappingBytes(_ transform: (UInt8) -> UInt8) -> String {
        let bytes = utf8, count = bytes.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            let copied = bytes.withContiguousStorageIfAvailable { source in
                for i in 0..<count { buffer[i] = transform(source[i]) }
                return count
            }
            if let copied { return copied }
            var i = 0
            for b in bytes { buffer[i] = transform(b); i += 1 }
            return i
        }
    }
}
