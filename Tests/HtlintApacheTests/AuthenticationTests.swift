import Testing
@testable import HtlintApache

// A `Require` that needs a user, for a browser that sends no credentials (fixtures/apache/
// access-authn-*): mod_auth_basic answers 401 with a challenge before .htaccess rewrites run;
// without a usable AuthType or AuthName Apache answers 500.
struct AuthenticationTests {
    static let basic = "AuthType Basic\nAuthName \"Staging area\"\nAuthUserFile /etc/htpasswd\n"

    @Test func validUserAsksForCredentialsBeforeRewrites() {
        let access = [("/", Self.basic + "Require valid-user\nRewriteEngine On\nRewriteRule ^old$ /new [R=301,L]")]
        for target in ["/", "/old"] {
            let r = respond(target, access: access, files: ["/index.html"])
            #expect(r.status == 401)
            #expect(r.location == nil)
            #expect(r.headers.first { $0.name == "WWW-Authenticate" }?.value == "Basic realm=\"Staging area\"")
        }
    }

    @Test func containersCombineTheWantOfAUserAsApacheDoes() {
        func status(_ container: String, _ other: String) -> Int {
            let text = Self.basic + "<\(container)>\nRequire \(other)\nRequire valid-user\n</\(container)>"
            return respond("/x.html", access: [("/", text)], files: ["/x.html"]).status
        }
        #expect(status("RequireAny", "all granted") == 200)
        #expect(status("RequireAll", "all granted") == 401)
        #expect(status("RequireAll", "all denied") == 403)
        #expect(status("RequireAny", "all denied") == 401)
    }

    /// mod_access_compat refuses in the access_checker phase, before credentials are asked for.
    @Test func denyFromAllRefusesBeforeRequireAsksForCredentials() {
        let denied = respond("/x.html", access: [("/", Self.basic + "Order deny,allow\nDeny from all\nRequire valid-user")], files: ["/x.html"])
        #expect(denied.status == 403)
        #expect(denied.errorCodes == ["AH01797"])
        let allowed = respond("/x.html", access: [("/", Self.basic + "Order allow,deny\nAllow from all\nRequire valid-user")], files: ["/x.html"])
        #expect(allowed.status == 401)
    }

    @Test func withoutUsableAuthTypeOrRealmApacheAnswers500() {
        let cases: [(String, String)] = [
            ("Require valid-user", "AH00027"),
            ("AuthType Digest\nAuthName D\nRequire valid-user", "AH01796"),
            ("AuthType Basic\nRequire user alice", "AH01615"),
        ]
        for (text, code) in cases {
            let r = respond("/", access: [("/", text)], files: ["/index.html"])
            #expect(r.status == 500)
            #expect(r.errorCodes.contains(code))
        }
    }

    @Test func errorDocument401IsServedWithTheChallenge() {
        let text = "ErrorDocument 401 /e401.html\n<Files wp-login.php>\n" + Self.basic + "Require valid-user\n</Files>"
        let r = respond("/sub/wp-login.php", access: [("/", text)], files: ["/e401.html", "/sub/wp-login.php"])
        #expect(r.status == 401)
        #expect(r.served == "/e401.html")
        #expect(r.headers.first { $0.name == "WWW-Authenticate" }?.value == "Basic realm=\"Staging area\"")
        #expect(respond("/e401.html", access: [("/", text)], files: ["/e401.html"]).status == 200)
    }
}
