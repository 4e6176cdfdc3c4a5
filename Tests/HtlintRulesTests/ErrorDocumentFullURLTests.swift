import Testing
import HtlintDiagnostics
@testable import HtlintRules

/// HT222's messages, for the answers recorded in errordoc-url-405-redirect-no-allow (a full-URL
/// ErrorDocument answers with a 302) and errordoc-401-full-url-ignored (the 401 line is ignored).
struct ErrorDocumentFullURLTests {
    static func messages(_ code: String) -> [String] {
        Linter(rules: [ErrorDocumentFullURL()]).run(LintContext(htaccess: code)).map(\.message)
    }

    @Test func aFullURLForAnErrorSaysTheStatusIsLost() {
        #expect(Self.messages("ErrorDocument 404 https://example.com/errors/404.html\n")
                == ["`ErrorDocument 404` with a full URL answers every 404 with a 302 to it: clients and crawlers never see the 404; "
                    + "use a local path (`/errors/404.html`)"])
    }

    @Test func aFullURLFor401IsIgnoredByApache() {
        let found = Self.messages("ErrorDocument 401 http://example.com/login.html\n")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("Apache ignores `ErrorDocument 401` with a full URL (AH00113)") == true)
    }

    /// Local pages, messages and redirect statuses are left alone.
    @Test func localPagesAndMessagesAreFine() {
        #expect(Self.messages("ErrorDocument 404 /404.html\nErrorDocument 403 \"No: https://x.example/\"\nErrorDocument 302 http://example.com/\n").isEmpty)
    }
}
