import Testing
@testable import HtlintRegex

// The byte searches against the plain definition (a window of the haystack equals the needle),
// over strings where the first byte repeats, the needle sits at either end, and characters that
// are canonically equivalent but different bytes.

private func naiveContains(_ hay: String, _ needle: String) -> Bool {
    let h = Array(hay.utf8), n = Array(needle.utf8)
    guard !n.isEmpty else { return true }
    guard n.count <= h.count else { return false }
    return (0...(h.count - n.count)).contains { Array(h[$0..<($0 + n.count)]) == n }
}

@Test func containsBytesAgreesWithTheDefinition() {
    let hays = ["", "a", "aaab", "abab", "/blog/blog/x", "xx/blog", "/blog", "caf\u{E9}", "cafe\u{301}", "%2F%2f"]
    let needles = ["", "a", "ab", "aab", "aaab", "aaaab", "/blog", "blog/", "b", "\u{E9}", "e\u{301}", "%2f", "x"]
    for h in hays {
        for n in needles {
            #expect(h.containsBytes(n) == naiveContains(h, n), "\(h.debugDescription) ∋ \(n.debugDescription)")
        }
    }
}

@Test func bytePrefixAndSuffixCompareBytesNotCharacters() {
    #expect("/d/x".hasBytePrefix("/d/"))
    // Swift's hasPrefix says no here (the slash and the mark are one character); Apache's
    // strncmp sees the bytes.
    #expect("/d/\u{301}x".hasBytePrefix("/d/"))
    #expect("e\u{301}".hasByteSuffix("\u{301}"))
    #expect(!"e\u{301}".hasByteSuffix("\u{E9}"))
    let sub = "xx/a/b".dropFirst(2)
    #expect(sub.hasBytePrefix("/a"))
    #expect(sub.hasByteSuffix("a/b"[...]))
    #expect(!sub.hasBytePrefix("/a/b/"))
}
