import Testing
@testable import HtlintRegex

// `Regex.isPlainLiteral` lets the initialiser skip the validating compile; it must never accept
// a pattern PCRE2 rejects or one with groups.

@Test(arguments: [
    ("^old/products/compact-boot-0/?$", true), ("\\.html$", true), ("^product\\.php$", true), ("", true), ("^$", true),
    ("^a b#c~%20$", true), ("^(a)$", false), ("^a.b$", false), ("^a??$", false), ("a\\d", false), ("a\\", false),
    ("a\\$", false), ("^^a", false), ("a{2}", false), ("[a]", false), ("a|b", false), ("é", false), ("a*", false),
])
func plainLiteralPatterns(pattern: String, plain: Bool) {
    #expect(Regex.isPlainLiteral(pattern, options: .apacheDefault) == plain)
}

@Test func plainLiteralNeedsHarmlessOptions() {
    #expect(Regex.isPlainLiteral("^a$", options: .apacheDefault.union(.caseless)))
    #expect(!Regex.isPlainLiteral("^a$", options: RegexOptions(rawValue: 0x80)))   // PCRE2_EXTENDED
}

/// Every pattern of up to three pieces over literal bytes, escapes and metacharacters: each one
/// called plain compiles, has no groups, and matches what the compiled-at-once pattern matches.
@Test func plainLiteralAgreesWithPCRE2() throws {
    let alphabet: [String] = ["a", "b", "/", "-", "#", " ", "\\", ".", "?", "^", "$", "(", ")", "[", "]", "{", "}", "*", "+",
                              "|", "d", "1", "\\.", "\\/", "\\d", "\\Q", "\\E", "é"]
    var patterns = [""], longest = [""]
    for _ in 1...3 {
        longest = longest.flatMap { p in alphabet.map { p + $0 } }
        patterns += longest
    }
    var plainCount = 0
    for pattern in patterns {
        guard Regex.isPlainLiteral(pattern, options: .apacheDefault) else { continue }
        plainCount += 1
        let lazy = try Regex(pattern)
        let eager = try Regex(pattern, options: .apacheDefault, jit: false)
        #expect(lazy.captureCount == 0 && eager.captureCount == 0, "\(pattern)")
        for subject in ["a", "ab/", "/a-b", "x#y z", "a.b", "", pattern] {
            #expect(lazy.matches(subject) == eager.matches(subject), "\(pattern) on \(subject)")
        }
    }
    #expect(patterns.count == 22_765 && plainCount > 1_000)
}
