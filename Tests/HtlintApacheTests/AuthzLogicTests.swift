import Foundation
import HtlintDiagnostics
import Testing
@testable import HtlintApache

// mod_authz_core: top-level Require lines form an implicit <RequireAny>; negation turns a grant
// into a denial and a denial into "neutral" (never a grant); anything but a grant is a 403
// (fixtures/apache/allowoverride-authconfig-require-logic, syntax-error-require-containers).
struct AuthzLogicTests {
    static func status(_ htaccess: String, _ target: String = "/d/x", method: String = "GET") -> Int {
        respond(target, method: method, access: [("/d", htaccess)], files: ["/d/x"]).status
    }

    @Test func requireAllWithNotIPDeniesTheClient() {
        let r = respond("/d/x", access: [("/d", "<RequireAll>\nRequire all granted\nRequire not ip 127.0.0.1\n</RequireAll>")],
                        files: ["/d/x"])
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH01630"])
        #expect(Self.status("<RequireAll>\nRequire all granted\nRequire not ip 10.0.0.1\n</RequireAll>") == 200)
    }

    @Test func requireExprUsesApExpr() {
        let quoted = "Require expr \"%{QUERY_STRING} == 'ok'\""
        #expect(Self.status(quoted, "/d/x?ok") == 200)
        #expect(Self.status(quoted, "/d/x?no") == 403)
        let bare = "Require expr %{QUERY_STRING} == \"ok\""
        #expect(Self.status(bare, "/d/x?ok") == 200)
    }

    @Test func negatedLinesAloneNeverGrant() {
        // Only a negated line that does not match: neutral, so denied.
        #expect(Self.status("<RequireAll>\nRequire not ip 10.0.0.1\n</RequireAll>") == 403)
        // <RequireNone> inside <RequireAll>: denies when a child matches.
        let none = "<RequireAll>\nRequire all granted\n<RequireNone>\nRequire ip %@\n</RequireNone>\n</RequireAll>"
        #expect(Self.status(none.replacingOccurrences(of: "%@", with: "10.0.0.1")) == 200)
        #expect(Self.status(none.replacingOccurrences(of: "%@", with: "127.0.0.1")) == 403)
    }

    @Test func nestedAnyAndAll() {
        let text = "<RequireAny>\nRequire ip 10.0.0.1\n<RequireAll>\nRequire local\nRequire not expr %{QUERY_STRING} =~ /deny/\n</RequireAll>\n</RequireAny>"
        #expect(Self.status(text) == 200)
        #expect(Self.status(text, "/d/x?deny") == 403)
    }

    @Test func limitInsideContainers() {
        // The implicit container covers only POST: GET is not checked.
        #expect(Self.status("<Limit POST>\nRequire all denied\n</Limit>") == 200)
        #expect(Self.status("<Limit POST>\nRequire all denied\n</Limit>", method: "POST") == 403)
        // Inside <RequireAll> a line for other methods counts as granted.
        let lim = "<RequireAll>\nRequire all granted\n<Limit GET>\nRequire not ip 127.0.0.1\n</Limit>\n</RequireAll>"
        #expect(Self.status(lim) == 403)
        #expect(Self.status(lim, method: "POST") == 200)
    }

    @Test func containersApacheRefuses() {
        func messages(_ text: String) -> [String] {
            ConfigReader.read(SourceFile(path: ".htaccess", text: text), context: .htaccess).diagnostics.map(\.message)
        }
        #expect(messages("Require not ip 10.0.0.1") == ["negative Require directive has no effect in <RequireAny> directive"])
        #expect(messages("<RequireNone>\nRequire ip 10.0.0.1\n</RequireNone>")
                == ["<RequireNone> directive has no effect in <RequireAny> directive"])
        #expect(messages("<RequireAll>\n</RequireAll>") == ["<RequireAll> directive contains no authorization directives"])
        #expect(messages("<RequireAll>\nRequire not ip 10.0.0.1\n</RequireAll>").isEmpty)
        #expect(Self.status("Require not ip 10.0.0.1") == 500)
    }
}
