import Testing
@testable import HtlintApache

/// mod_rewrite's reduce_uri reads a full URL's port with atoi into an unsigned short and wants
/// it equal to ServerName's port (fixtures/apache/rewrite-flags-self-url-reduced-only-for-port-zero).
struct SelfURLReductionTests {
    @Test(arguments: [
        ("", 0), ("abc", 0), ("0", 0), ("80", 80), ("0080", 80), ("80x", 80), (" 443", 443),
        ("+8080", 8080), ("65616", 80), ("-1", 65535),
    ])
    func portIsReadAsCDoes(text: String, port: Int) {
        #expect(Origin.atoiPort(Substring(text)) == port)
    }
}
