import Testing
@testable import HtlintApache

/// `strtol64`, C's strtol on 64 bits: what apr_atoi64 returns and whether the whole text was
/// read (apr_uri_parse refuses a port with anything after its digits).
struct StrtolTests {
    @Test(arguments: [
        ("443", 443, true),
        (" \t+80", 80, true),
        ("-12", -12, true),
        ("80a", 80, false),
        ("a80", 0, false),
        ("-", 0, false),
        ("", 0, true),
        ("99999999999999999999", Int.max, true),
        ("-99999999999999999999x", Int.min, false),
        ("9223372036854775807", Int.max, true),
        ("-9223372036854775808", Int.min, true),
    ])
    func readsAsStrtol(_ text: String, _ value: Int, _ complete: Bool) {
        let read = strtol64(text.utf8)
        #expect(read.value == value)
        #expect(read.complete == complete)
        #expect(atoi64(text) == value)
    }
}
