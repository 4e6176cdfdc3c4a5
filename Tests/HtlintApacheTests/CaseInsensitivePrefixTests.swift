import Testing
import HtlintApache

/// The byte-level case-insensitive helpers lint rules use on every rule's substitution.
struct CaseInsensitivePrefixTests {
    @Test(arguments: [
        ("HTTPS://example.org/", "https://", true), ("https://x", "https://", true), ("http://x", "https://", false),
        ("Http://", "http://", true), ("htt", "http://", false), ("", "http://", false), ("/path", "/", true),
        ("%{REQUEST_SCHEME}://%{HTTP_HOST}", "%{request_scheme}://", true), ("é://", "e://", false),
    ])
    func prefix(_ s: String, _ prefix: String, _ expected: Bool) {
        #expect(hasPrefixIgnoringASCIICase(s, prefix) == expected)
    }

    @Test func equalityIgnoresOnlyASCIICase() {
        #expect(equalsIgnoringASCIICase("X-Forwarded-Proto", "x-forwarded-proto"))
        #expect(!equalsIgnoringASCIICase("a[", "A{"))   // '[' and '{' differ by the case bit but are not letters
        #expect(!equalsIgnoringASCIICase("abc", "abcd"))
    }
}
