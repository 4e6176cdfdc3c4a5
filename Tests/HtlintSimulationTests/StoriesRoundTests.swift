import Testing
@testable import HtlintApache
@testable import HtlintSimulation

/// Round r10 of tools/realistic/stories.py (odd requests), recorded from the oracle.
struct StoriesRoundTests {
    /// fixtures/apache/header-invalid-content-length-refused: ap_parse_strict_length takes
    /// decimal digits only.
    @Test func apacheStrictLength() {
        #expect(Origin.isStrictLength("00"))
        #expect(Origin.isStrictLength("8"))
        #expect(!Origin.isStrictLength("0, 8"))
        #expect(!Origin.isStrictLength("-1"))
        #expect(!Origin.isStrictLength(""))
        #expect(!Origin.isStrictLength("99999999999999999999"))
    }
}
