import HtlintBytes

/// Patterns whose answer to "is there a match anywhere?" follows from the subject alone:
/// `^` and `.*` match every subject (at least the empty match at offset 0), `.` and `.+` every
/// subject holding a byte `.` accepts. Rule sets run such patterns on every request
/// (`RewriteRule ^ https://…`, WordPress's `RewriteRule .* - [E=HTTP_AUTHORIZATION:…]` and
/// `RewriteRule . /index.php`), and a call into PCRE2 costs about a thousand instructions.
/// Only `test` and `matches` take the shortcut; a search that builds captures runs PCRE2.
enum RegexShortcut: Sendable, Equatable {
    case none
    /// Every subject matches.
    case always
    /// Every non-empty subject matches (`.` under DOTALL takes any byte).
    case nonEmpty
    /// A subject with a printable ASCII byte matches; without one PCRE2 decides (`.` without
    /// DOTALL refuses the newline characters of PCRE2's build-time convention: LF, CR, NUL…,
    /// and a printable ASCII byte is none of them under any convention).
    case printableByte

    private static let alwaysPatterns: Set<String> = ["^", ".*", "^.*", "(.*)", "^(.*)", ".*?", "^.*?", "(?:.*)"]
    /// `.*` runs to the end only when it also takes newlines (`PCRE2_DOTALL`, Apache's default).
    private static let alwaysPatternsWithDotAll: Set<String> = [".*$", "^.*$", "(.*)$", "^(.*)$"]
    private static let anyBytePatterns: Set<String> = [".", "^.", ".+", "^.+", "(.)", "^(.)", "(.+)", "^(.+)"]
    private static let anyBytePatternsWithDotAll: Set<String> = [".+$", "^.+$", "(.+)$", "^(.+)$"]
    private static let longestPattern = [alwaysPatterns, alwaysPatternsWithDotAll, anyBytePatterns, anyBytePatternsWithDotAll]
        .joined().map(\.utf8.count).max()!

    init(pattern: String, options: RegexOptions) {
        // Options that change how these patterns read (extended, multiline…) keep PCRE2.
        guard options.isSubset(of: [.caseless, .dotAll, .dollarEndOnly]) else { self = .none; return }
        // Every pattern above is short: a longer one (most of a redirect map's) is not hashed at all.
        guard pattern.utf8.count <= RegexShortcut.longestPattern else { self = .none; return }
        let dotAll = options.contains(.dotAll)
        if RegexShortcut.alwaysPatterns.contains(pattern) || (dotAll && RegexShortcut.alwaysPatternsWithDotAll.contains(pattern)) {
            self = .always
        } else if RegexShortcut.anyBytePatterns.contains(pattern) || (dotAll && RegexShortcut.anyBytePatternsWithDotAll.contains(pattern)) {
            self = dotAll ? .nonEmpty : .printableByte
        } else {
            self = .none
        }
    }

    /// Whether `subject` matches, or nil when PCRE2 must say.
    func answer(_ subject: String) -> Bool? {
        switch self {
        case .none: nil
        case .always: true
        case .nonEmpty: !subject.utf8.isEmpty
        case .printableByte:
            if subject.containsByte(where: { $0 >= 0x20 && $0 <= 0x7E }) { true } else if subject.utf8.isEmpty { false } else { nil }
        }
    }
}
