/// Apache folds case in the C locale (ap_str_tolower, strcasecmp, apr_tolower): ASCII letters
/// only. Swift's `lowercased()` and `uppercased()` fold Unicode, so the Kelvin sign K became `k`
/// (`Options +FollowSymLinKs` was accepted), a long s ſ became `S` (`%{HTTP_HOſT}` read the Host
/// header) and `É` became `é` (`ForceType text/É`).
extension StringProtocol {
    /// The UTF-8 with A–Z turned into a–z and every other byte kept.
    @inlinable
    public func asciiLowercased() -> String {
        guard containsByte(where: { $0 &- 0x41 < 26 }) else { return String(self) }
        return String(decoding: utf8.map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The UTF-8 with a–z turned into A–Z and every other byte kept.
    @inlinable
    public func asciiUppercased() -> String {
        guard containsByte(where: { $0 &- 0x61 < 26 }) else { return String(self) }
        return String(decoding: utf8.map { $0 &- 0x61 < 26 ? $0 & 0xDF : $0 }, as: UTF8.self)
    }
}
