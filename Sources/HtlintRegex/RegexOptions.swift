import CPCRE2

/// Compile options a caller may choose for a `Regex`.
///
/// Only the PCRE2 flags Apache's configuration can actually influence are exposed
/// (`RewriteRule [NC]`, `RegexDefaultOptions`); anything else would let the simulation
/// diverge from what httpd compiles. The raw values are PCRE2's own bits so they can be
/// passed to `pcre2_compile` unchanged.
public struct RegexOptions: OptionSet, Sendable, Hashable {
    /// The PCRE2 compile-option bits.
    public let rawValue: UInt32

    /// Creates options from raw PCRE2 compile-option bits.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `PCRE2_CASELESS`: ASCII-only case folding, as used by `RewriteRule [NC]` and
    /// `RewriteCond [NC]` (without UCP PCRE2 folds only ASCII letters).
    public static let caseless = RegexOptions(rawValue: PCRE2_CASELESS)

    /// `PCRE2_DOTALL`: `.` also matches a newline. Part of Apache's default options.
    public static let dotAll = RegexOptions(rawValue: PCRE2_DOTALL)

    /// `PCRE2_DOLLAR_ENDONLY`: `$` matches only at the very end of the subject, not before a
    /// trailing newline. Part of Apache's default options.
    public static let dollarEndOnly = RegexOptions(rawValue: PCRE2_DOLLAR_ENDONLY)

    /// Apache 2.4's default `RegexDefaultOptions`: DOTALL and DOLLAR_ENDONLY (PCRE2_DUPNAMES is always added).
    public static let apacheDefault: RegexOptions = [.dotAll, .dollarEndOnly]
}
