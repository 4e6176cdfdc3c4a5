import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT224's messages, for the answers recorded in alias-redirect-trailing-slash-mismatch:
/// /docs/x → /manualx, /old/x → /new//x, /moved/x → https://www.example.netx.
struct RedirectSlashMismatchTests {
    static func messages(_ code: String, pages: [String: String] = [:]) -> [String] {
        Linter(rules: [RedirectSlashMismatch()]).run(LintContext(htaccess: code, pages: pages)).map(\.message)
    }

    @Test func aSlashOnlyOnTheURLPathIsLost() {
        #expect(Self.messages("Redirect 301 /docs/ /manual\n")
                == ["`/docs/x` is sent to `/manualx`, without the slash: end both the URL-path and the target with a slash, or neither"])
    }

    @Test func aTargetWithoutAPathGetsAnotherHost() {
        #expect(Self.messages("RedirectPermanent /moved/ https://www.example.net\n")
                == ["`/moved/x` is sent to `https://www.example.netx`, another host: end both the URL-path and the target with a slash, or neither"])
    }

    /// A doubled slash is reported where the URL-path is a directory of the site, not for a page.
    @Test func aSlashOnlyOnTheTargetIsDoubledBelowADirectory() {
        #expect(Self.messages("Redirect 301 /old /new/\n", pages: ["/old/index.html": "<p>old</p>"])
                == ["`/old/x` is sent to `/new//x`, with a double slash: end both the URL-path and the target with a slash, or neither"])
        #expect(Self.messages("Redirect 301 /old /new/\n").isEmpty)
    }
}
