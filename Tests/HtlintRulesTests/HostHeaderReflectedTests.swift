import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT415 beyond its examples: it is opt-in, names the site's hosts in its fix, and knows when a
/// condition or `UseCanonicalName On` keeps the host to known names.
struct HostHeaderReflectedTests {
    static let httpsRedirect = "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n"

    static func run(_ code: String, _ configuration: LintConfiguration, vhost: String? = nil) -> [Diagnostic] {
        Linter(configuration: configuration).run(LintContext(htaccess: code, vhost: vhost)).filter { $0.code == "HT415" }
    }

    static func enabled(_ code: String, vhost: String? = nil) -> [Diagnostic] {
        var c = LintConfiguration()
        c.enabled = ["host-header-reflected"]
        return run(code, c, vhost: vhost)
    }

    @Test func runsOnlyWhenAskedFor() {
        #expect(Self.run(Self.httpsRedirect, LintConfiguration()).isEmpty)
        var only = LintConfiguration()
        only.only = ["HT415"]
        #expect(Self.run(Self.httpsRedirect, only).count == 1)
        var both = LintConfiguration()
        both.enabled = ["HT415"]
        both.disabled = ["HT415"]
        #expect(Self.run(Self.httpsRedirect, both).isEmpty)
    }

    @Test func messageAndFixNameTheSitesHosts() throws {
        let d = try #require(Self.enabled(Self.httpsRedirect).first)
        #expect(d.severity == .note)
        #expect(d.message == "the redirect target `https://%{HTTP_HOST}%{REQUEST_URI}` takes its host from `%{HTTP_HOST}`, which the client chooses: a request with `Host: evil.example` that reaches this rule is sent to evil.example")
        #expect(d.fixIts.map(\.title) == ["Pin the host first: `RewriteCond %{HTTP_HOST} ^(?:example\\.com|www\\.example\\.com)$ [NC]`"])
        #expect(d.fixIts.first?.applicability == .displayOnly)
    }

    @Test func serverNameReflectsOnlyUnderUseCanonicalNameOff() {
        let code = "RewriteEngine On\nRewriteRule ^old$ https://%{SERVER_NAME}/new [R=301,L]\n"
        #expect(Self.enabled(code).first?.message.contains("`%{SERVER_NAME}` (the `Host` header under `UseCanonicalName Off`)") == true)
        #expect(Self.enabled(code, vhost: "ServerName example.com\nUseCanonicalName On").isEmpty)
    }

    @Test func aConditionInAnOrGroupDoesNotPin() {
        let code = "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^example\\.com$ [NC,OR]\nRewriteCond %{HTTPS} off\n"
            + "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n"
        #expect(Self.enabled(code).count == 1)
    }

    @Test func aNegatedHostTestDoesNotPin() {
        let code = "RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\.example\\.com$ [NC]\n"
            + "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n"
        #expect(Self.enabled(code).count == 1)
    }

    @Test func requestSchemeTargetsAreRead() {
        let code = "RewriteEngine On\nRewriteRule ^old$ %{REQUEST_SCHEME}://%{HTTP_HOST}/new [R=301,L]\n"
        #expect(Self.enabled(code).count == 1)
    }

    @Test func aProxiedRequestIsNotARedirect() {
        let code = "RewriteEngine On\nRewriteRule ^api/(.*)$ http://%{HTTP_HOST}:8080/$1 [P,L]\n"
        #expect(Self.enabled(code).isEmpty)
    }

    @Test("dotted names pin, partial ones do not", arguments: [
        ("^(www\\.)?example\\.com$", true), ("^example.org$", true), ("^(.+)\\.example\\.co\\.uk$", true),
        ("^www\\.(.+)$", false), ("^www\\.", false), ("^(.*)$", false), ("\\.[a-z]{2,}$", false),
    ])
    func dottedNames(_ pattern: String, _ pins: Bool) {
        #expect(HostHeaderReflected.namesDomain(pattern) == pins)
    }
}
