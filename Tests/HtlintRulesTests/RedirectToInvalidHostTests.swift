import Testing
@testable import HtlintRules

/// HT319's reading of a redirect target's host.
struct RedirectToInvalidHostTests {
    @Test(arguments: [
        ("", "the target has no host name"),
        ("www.", "the host `www.` ends at the dot: the name after it is empty"),
        (".example.com", "the host `.example.com` has an empty label"),
        ("www..example.com", "the host `www..example.com` has an empty label"),
        ("%25%7bHTTP_HOST%7d", "the host `%25%7bHTTP_HOST%7d` is no host name (it holds `%`)"),
        ("exa mple.com", "the host `exa mple.com` is no host name (it holds ` `)"),
    ])
    func unusableHostsAreNamed(_ host: String, _ why: String) {
        #expect(RedirectToInvalidHost.hostProblem(host) == why)
    }

    /// Names a browser can reach, or at least try: a trailing-dot FQDN, an underscore, an
    /// internationalised name, an IPv6 literal, a single label.
    @Test(arguments: ["example.com", "example.com.", "my_host.example.com", "café.example", "[2001:db8::1]", "localhost", "localhost."])
    func usableHostsPass(_ host: String) {
        #expect(RedirectToInvalidHost.hostProblem(host) == nil)
    }
}
