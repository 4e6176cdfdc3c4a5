import Testing
@testable import HtlintRegex

// Each test pins one piece of Apache httpd 2.4's PCRE2 behaviour that the simulator relies on.

@Test func capturesIncludeNilForNonParticipatingGroups() throws {
    let regex = try Regex("^/(a)|(b)(c)?$")
    let match = try #require(regex.firstMatch(in: "/a"))
    #expect(match.captures == ["/a", "a", nil, nil])
    #expect(match.ranges == [0..<2, 1..<2, nil, nil])
    #expect(match[2] == "")
}

@Test func capturesAfterAnUnsetMiddleGroup() throws {
    let regex = try Regex("^(x)?(y)")
    let match = try #require(regex.firstMatch(in: "y"))
    #expect(match.captures == ["y", nil, "y"])
}

@Test func caselessIsOptIn() throws {
    #expect(try Regex("^/Old$").matches("/old") == false)
    #expect(try Regex("^/Old$", options: [.caseless]).matches("/OLD"))
}

@Test func caselessFoldsOnlyASCII() throws {
    // Without UCP, É (C3 89) and é (C3 A9) are different bytes that [NC] does not fold.
    #expect(try Regex("^é$", options: .apacheDefault.union(.caseless)).matches("É") == false)
}

@Test func dotAllIsInTheDefaults() throws {
    #expect(try Regex("^a.b$").matches("a\nb"))
    #expect(try Regex("^a.b$", options: []).matches("a\nb") == false)
}

@Test func dollarEndOnlyIsInTheDefaults() throws {
    #expect(try Regex("^a$").matches("a\n") == false)
    #expect(try Regex("^a$", options: []).matches("a\n"))
}

@Test func noUCPWordClassIsASCII() throws {
    #expect(try Regex("\\w").matches("é") == false)
    #expect(try Regex("^\\w+$").matches("abc_09"))
}

@Test func dotMatchesSingleBytes() throws {
    let regex = try Regex("^.{2}$")
    #expect(regex.matches("é"))
    #expect(try Regex("^.$").matches("é") == false)
}

@Test func splitMultibyteCaptureKeepsExactBytes() throws {
    let match = try #require(try Regex("^(.)(.)$").firstMatch(in: "é"))
    #expect(match.captureBytes == [[0xC3, 0xA9], [0xC3], [0xA9]])
    #expect(match.ranges == [0..<2, 0..<1, 1..<2])
}

@Test func compileErrorForUnclosedGroup() {
    #expect(throws: RegexCompileError(message: "missing closing parenthesis", offset: 4)) {
        try Regex("^(a$")
    }
}

@Test func compileErrorForReversedQuantifier() {
    #expect(throws: RegexCompileError(message: "numbers out of order in {} quantifier", offset: 5)) {
        try Regex("a{2,1}")
    }
}

@Test func compileErrorDescriptionQuotesMessageAndOffset() {
    let error = RegexCompileError(message: "missing closing parenthesis", offset: 4)
    #expect(error.description == "missing closing parenthesis at offset 4")
}

@Test func catastrophicBacktrackingHitsMatchLimit() throws {
    let regex = try Regex("^(a+)+$")
    // The default path for a hot pattern must really be the JIT where one exists, so the limit
    // is proven there.
    _ = regex.matches("cold: the interpreter answers")
    #expect(regex.isJITCompiled == false)
    for _ in 1..<Regex.hotSearches { _ = regex.matches("warm up: the JIT compiles once the pattern is hot") }
    #expect(regex.isJITCompiled == Regex.isJITAvailable)
    let subject = String(repeating: "a", count: 32) + "!"
    #expect(regex.search(subject) == .failure(.matchLimit))
    // Apache treats the error as "no match".
    #expect(regex.firstMatch(in: subject) == nil)
    #expect(regex.matches(subject) == false)
}

@Test func catastrophicBacktrackingHitsMatchLimitWithoutJIT() throws {
    let regex = try Regex("^(a+)+$", options: .apacheDefault, jit: false)
    #expect(regex.isJITCompiled == false)
    #expect(regex.search(String(repeating: "a", count: 32) + "!") == .failure(.matchLimit))
}

@Test func deepBacktrackingBeyondTheFastDepthLimitMatchesWithApachesLimits() throws {
    // Each iteration of a capturing group leaves a backtracking frame in the interpreter:
    // 200,000 is beyond htlint's first-try depth limit, far within PCRE2's default (Apache's).
    let regex = try Regex("^(a)*$", options: .apacheDefault, jit: false)
    let match = try #require(try regex.search(String(repeating: "a", count: 200_000)).get())
    #expect(match.ranges == [0..<200_000, 199_999..<200_000])
}

@Test func backtrackingBetweenTheFastAndApachesMatchLimitStillMatches() throws {
    // ^(a+)+$ fails on n a's and "!" after about 2.5 × 2^n steps; the alternative then matches.
    // 21 a's need 5.2 million steps (Apache matches), 22 need 10.5 million (over Apache's limit).
    for jit in [true, false] {
        let regex = try Regex("^(?:(a+)+$|a*!)", options: .apacheDefault, jit: jit)
        for _ in 0..<Regex.hotSearches { _ = regex.matches("aa") }
        #expect(regex.isJITCompiled == (jit && Regex.isJITAvailable))
        #expect(regex.test(String(repeating: "a", count: 21) + "!") == .success(true))
        #expect(regex.test(String(repeating: "a", count: 22) + "!") == .failure(.matchLimit))
    }
}

@Test func requestLineSizedSubjectMatchesLikeHttpd() throws {
    // 8190 bytes is httpd's default LimitRequestLine. With the JIT this overflows the JIT's
    // default stack and must fall back to the interpreter, which succeeds within its limits.
    let subject = String(repeating: "ab", count: 4095)
    let hot = try Regex("^(a|b)*$")
    for _ in 0..<Regex.hotSearches { _ = hot.matches("ab") }
    #expect(hot.isJITCompiled == Regex.isJITAvailable)
    for regex in [hot, try Regex("^(a|b)*$", options: .apacheDefault, jit: false)] {
        let match = try #require(try regex.search(subject).get())
        #expect(match.ranges == [0..<8190, 8189..<8190])
    }
}

@Test func outOfRangeGroupIsEmpty() throws {
    let match = try #require(try Regex("^/(x)").firstMatch(in: "/x"))
    #expect(match[1] == "x")
    #expect(match[10] == "")
    #expect(match[-1] == "")
}

@Test func captureCountCountsAllGroups() throws {
    let regex = try Regex("(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)(l)(?:m)")
    #expect(regex.captureCount == 12)
    let match = try #require(regex.firstMatch(in: "abcdefghijklm"))
    #expect(match.captures.count == 13)
    #expect(match[12] == "l")
}

@Test func unanchoredSearchFindsMatchInTheMiddle() throws {
    let match = try #require(try Regex("b+").firstMatch(in: "aabbbcc"))
    #expect(match[0] == "bbb")
    #expect(match.ranges[0] == 2..<5)
}

@Test func noMatchIsSuccessNil() throws {
    let result = try Regex("^/new").search("/old")
    #expect(result == .success(nil))
}

@Test func duplicateNamesAreAllowed() throws {
    // PCRE2_DUPNAMES is always on in httpd.
    let regex = try Regex("(?<n>a)|(?<n>b)")
    #expect(regex.captureCount == 2)
}

@Test func patternWithNULByteIsCompiledByLength() throws {
    let regex = try Regex("^a\u{0}b$")
    #expect(regex.matches("a\u{0}b"))
    #expect(regex.matches("a") == false)
}

@Test func emptyPatternAndSubject() throws {
    let match = try #require(try Regex("").firstMatch(in: ""))
    #expect(match.captures == [""])
    #expect(match.ranges == [0..<0])
}

@Test func byteOffsetsCountUTF8Bytes() throws {
    let match = try #require(try Regex("x").firstMatch(in: "éx"))
    #expect(match.ranges[0] == 2..<3)
}
