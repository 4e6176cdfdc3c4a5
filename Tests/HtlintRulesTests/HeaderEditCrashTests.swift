import Testing
@testable import HtlintRules

/// HT218: an `edit*` pattern that meets an empty match anywhere in a value, not only on "".
struct HeaderEditCrashTests {
    @Test func emptyMatchesInsideAValueCount() {
        let text = "RequestHeader edit* X-A \\b Y\nHeader edit* X-B \"x|$\" y\nHeader edit* X-C \"^(.+)$\" \"[$1]\"\n"
        let found = findings(of: "HT218", in: text)
        #expect(found.map { String($0.message.prefix(5)) } == ["`X-A`", "`X-B`"])
        #expect(found.first?.message.contains("(on `value`)") == true)
    }
}
