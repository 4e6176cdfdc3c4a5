import Testing
@testable import HtlintApache

// mod_alias's segment-aware prefix match (alias_matches), shared by Redirect, Alias and
// <Location>: a run of `/` on either side matches a run on the other, and the match ends at a
// segment boundary (fixtures/apache/alias-redirect-configured-double-slash).
struct PrefixMatchTests {
    @Test func matchEndsAtASegmentBoundary() {
        #expect(prefixMatch("/a", "/a/b") == "/b")
        #expect(prefixMatch("/a", "/a") == "")
        #expect(prefixMatch("/a", "/ab") == nil)
        #expect(prefixMatch("/a/", "/a/b") == "b")
    }

    @Test func runsOfSlashesMatchEachOther() {
        #expect(prefixMatch("/a//b", "/a/b/c") == "/c")
        #expect(prefixMatch("/a/b", "//a///b") == "")
        #expect(prefixMatch("/a//b", "/a/bc") == nil)
        #expect(prefixMatch("/a/", "/a//b") == "b")
    }
}
