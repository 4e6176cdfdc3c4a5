import Testing
@testable import HtlintRegex

// `test` and `matches` answer `^`, `.*`, `.`… without PCRE2; they must agree with PCRE2's own
// search (which never takes the shortcut) on every subject, with and without DOTALL.

private let subjects = ["", "a", "index.php", "\n", "\r\n", "\r", "\u{0}", "a\nb", "\n\n", "é", "\u{10FF85}", " "]

@Test(arguments: ["^", ".*", "^.*", "(.*)", "^(.*)", ".*?", "^.*?", "(?:.*)", ".*$", "^.*$", "(.*)$", "^(.*)$",
                  ".", "^.", ".+", "^.+", "(.)", "^(.)", "(.+)", "^(.+)", ".+$", "^.+$", "(.+)$", "^(.+)$"])
func shortcutAgreesWithPCRE2(pattern: String) throws {
    for options in [RegexOptions.apacheDefault, [], [.caseless], [.dotAll]] {
        let regex = try Regex(pattern, options: options)
        for subject in subjects {
            let pcre = try regex.search(subject).get() != nil
            #expect(regex.matches(subject) == pcre, "\(pattern) on \(subject.debugDescription), options \(options.rawValue)")
            #expect(try regex.test(subject).get() == pcre, "\(pattern) on \(subject.debugDescription), options \(options.rawValue)")
        }
    }
}

@Test func shortcutKindsFollowPatternAndOptions() {
    #expect(RegexShortcut(pattern: "^", options: .apacheDefault) == .always)
    #expect(RegexShortcut(pattern: "^(.*)$", options: .apacheDefault) == .always)
    // Without DOTALL `^.*$` fails on a newline, so PCRE2 decides.
    #expect(RegexShortcut(pattern: "^(.*)$", options: []) == .none)
    #expect(RegexShortcut(pattern: ".", options: []) == .printableByte)
    #expect(RegexShortcut(pattern: "(.+)", options: .apacheDefault) == .nonEmpty)
    #expect(RegexShortcut(pattern: "^.+$", options: []) == .none)
    #expect(RegexShortcut(pattern: "^a", options: .apacheDefault) == .none)
    #expect(RegexShortcut(pattern: "^", options: RegexOptions(rawValue: 0x80)) == .none)   // PCRE2_EXTENDED
}
