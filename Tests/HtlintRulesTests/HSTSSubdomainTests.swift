import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// Scenarios S37 (HT414) and S16 (HT306 with HSTS): messages and positions.
struct HSTSSubdomainTests {
    @Test func includeSubDomainsIsReportedAtTheToken() {
        let text = "# HSTS\nHeader always set Strict-Transport-Security \"max-age=31536000; IncludeSubDomains\"\n"
        let found = findings(of: "HT414", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 2, column: 64)])
        #expect(found.first?.message == "`includeSubDomains` makes browsers use https for every subdomain of the host that sends it for 1 year: "
                + "one served only over http becomes unreachable; once every subdomain serves https, say so with "
                + "`# htlint disable=HT414` above the directive")
        #expect(found.first?.severity == .note)
    }

    @Test func preloadAndDurationsAreNamed() {
        let text = "Header always set Strict-Transport-Security \"max-age=63072000; includeSubDomains; preload\""
        #expect(findings(of: "HT414", in: text).first?.message.contains("for 2 years (and, preloaded, for every browser before its first visit)") == true)
        #expect(HSTSPolicy.duration(86_400 * 30) == "30 days")
        #expect(HSTSPolicy.duration(1_000) == "1000 seconds")
        #expect(HSTSPolicy.duration(7_200) == "2 hours")
        // HT405 names the span with the same words.
        let short = "Header always set Strict-Transport-Security \"max-age=7200\""
        #expect(findings(of: "HT405", in: short).first?.message == "`max-age=7200` keeps the policy for 2 hours only; one year (31536000) is the usual minimum")
    }

    @Test func theAssertionSilencesOnlyThatDirective() {
        let text = """
            # htlint disable=HT414
            Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"
            <If "%{HTTP_HOST} == 'shop.example.com'">
            Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"
            </If>
            """
        #expect(findings(of: "HT414", in: text).map { position(in: text, $0) } == [SourcePosition(line: 4, column: 64)])
    }

    @Test func oneHopToWWWSkipsTheApexPolicy() {
        let text = """
            RewriteEngine On
            RewriteCond %{HTTPS} off [OR]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
            Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains"
            """
        let found = findings(of: "HT306", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 4, column: 1)])
        #expect(found.first?.message.hasPrefix("`http://example.com/` redirects straight to `https://www.example.com/`: visitors never load "
                                               + "`https://example.com/`, so browsers never get its `Strict-Transport-Security`") == true)
        // Without includeSubDomains or preload, one hop is what HT306 recommends.
        #expect(findings(of: "HT306", in: text.replacingOccurrences(of: "; includeSubDomains", with: "")).isEmpty)
    }

    @Test func twoHopsNameBothOptionsUnlessPreloadNeedsThem() {
        let text = """
            RewriteEngine On
            RewriteCond %{HTTPS} off
            RewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]
            RewriteCond %{HTTP_HOST} !^www\\. [NC]
            RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
            Header always set Strict-Transport-Security "max-age=31536000"
            """
        let found = findings(of: "HT306", in: text)
        #expect(found.map { position(in: text, $0) } == [SourcePosition(line: 3, column: 1)])
        #expect(found.first?.message == "2 redirects before the final page: http://example.com/ → https://example.com/ → https://www.example.com/; "
                + "this order lets `example.com` send its `Strict-Transport-Security` over https, which `includeSubDomains` and the HSTS "
                + "preload list need (`redirects.http.www_first`): keep it for those, else redirect in one hop"
                + " (and 1 more probe request)")
        let preload = text.replacingOccurrences(of: "max-age=31536000", with: "max-age=63072000; includeSubDomains; preload")
        #expect(findings(of: "HT306", in: preload).isEmpty)
    }
}
