import Testing
@testable import HtlintRegex

/// `test` tells a PCRE2 limit from "no match", so the engine can report the limit (issue 9).
struct RegexLimitTests {
    @Test func catastrophicBacktrackingIsAFailureNotNoMatch() throws {
        let regex = try Regex("^(a+)+$")
        let subject = String(repeating: "a", count: 30) + "b"
        #expect(regex.test(subject) == .failure(.matchLimit))
        #expect(regex.matches(subject) == false)
        #expect(regex.test("aaa") == .success(true))
        #expect(regex.test("b") == .success(false))
    }
}
