import Testing
@testable import HtlintApache

/// `<Files>` wildcards (apr_fnmatch semantics for a single name), and bounded work on hostile ones.
struct WildcardMatchTests {
    @Test(arguments: [
        ("*.php", "index.php", true), ("*.php", "index.phps", false), ("wp-config.php", "wp-config.php", true),
        ("?ndex.*", "index.html", true), ("?ndex.*", "ndex.html", false), ("*", "", true), ("", "", true),
        ("[a-c]at", "bat", true), ("[a-c]at", "rat", false), ("[!a-c]at", "rat", true), ("[^a-c]at", "cat", false),
        ("[]x]y", "]y", true), ("\\*.txt", "*.txt", true), ("\\*.txt", "a.txt", false), ("a[b", "a[b", true),
        (".ht*", ".htaccess", true), ("*~", "index.php~", true), ("*.bak", "x.bak.php", false),
        ("*a*b", "xaxxb", true), ("*a*b", "xaxxbx", false),
    ])
    func matchesAsFnmatch(_ pattern: String, _ name: String, _ expected: Bool) {
        #expect(wildcardMatch(pattern, name) == expected)
    }

    @Test func manyStarsStayLinear() {
        // Exponential for a naive recursive matcher; here pattern × name steps at most.
        let pattern = String(repeating: "*a", count: 30) + "b"
        let name = String(repeating: "a", count: 250)
        #expect(wildcardMatch(pattern, name) == false)
        #expect(wildcardMatch(pattern, name + "b") == true)
    }
}
