import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// `Satisfy Any|All` (mod_access_compat) and `AuthMerging And|Or` (mod_authz_core), as recorded in
/// fixtures/apache/access-satisfy-* and access-authmerging-*. The simulated client is 127.0.0.1.
struct SatisfyAndAuthMergingTests {
    static let basic = "AuthType Basic\nAuthName \"Members\"\nAuthUserFile /etc/htpasswd\nRequire valid-user\n"

    func status(_ path: String, method: String = "GET", _ access: [(String, String)]) -> Int {
        respond(path, method: method, access: access, files: [path]).status
    }

    @Test func satisfyAnyLetsTheAllowedAddressInWithoutAPassword() {
        let hosts = "Order deny,allow\nDeny from all\n"
        #expect(status("/a.html", [("/", hosts + "Allow from 127.0.0.1\n" + Self.basic + "Satisfy Any\n")]) == 200)
        #expect(status("/a.html", [("/", hosts + "Allow from 10.9.9.9\n" + Self.basic + "Satisfy Any\n")]) == 401)
        #expect(status("/a.html", [("/", hosts + "Allow from 127.0.0.1\n" + Self.basic + "Satisfy All\n")]) == 401)
    }

    @Test func whenTheHostCheckRefusesRequireDecides() {
        #expect(status("/x.html", [("/", "Order allow,deny\nSatisfy Any\nRequire all granted\n")]) == 200)
        #expect(status("/x.html", [("/", "Order allow,deny\nSatisfy any\nRequire all denied\n")]) == 403)
        // No Allow/Deny line: the default order lets everyone in, and Require is not consulted.
        #expect(status("/x.html", [("/", "Satisfy Any\nRequire all denied\n")]) == 200)
    }

    @Test func satisfyTravelsWithTheHostLines() {
        let root = ("/", "Order deny,allow\nDeny from all\nSatisfy Any\n")
        #expect(status("/keep/x.html", [root, ("/keep", "Require all granted\n")]) == 200)
        #expect(status("/reset/x.html", [root, ("/reset", "Deny from 10.9.9.9\nRequire all denied\n")]) == 403)
    }

    /// fixtures/apache/access-authmerging-or-server-grant: with no `Require` line above, `Or`
    /// merges with the server's `Require all granted` for the document root.
    @Test func authMergingOrAtTheTopMeetsTheServersGrant() {
        let top = ("/", "Require ip 10.0.0.0/8\nAuthMerging Or\n")
        #expect(status("/a.html", [top]) == 200)
        #expect(status("/sub/b.html", [top, ("/sub", "Require host example.com\nAuthMerging Or\n")]) == 200)
        #expect(status("/and/c.html", [top, ("/and", "Require ip 10.0.0.0/8\nAuthMerging And\n")]) == 403)
        #expect(status("/plain/d.html", [top, ("/plain", "Require ip 10.0.0.0/8\n")]) == 403)
        #expect(status("/a.html", [("/", "Require ip 10.0.0.0/8\nAuthMerging And\n")]) == 403)
    }

    @Test func satisfyInsideLimitCoversItsMethods() {
        let access = [("/", "Order allow,deny\n<Limit POST>\nSatisfy Any\n</Limit>\nRequire all granted\n")]
        #expect(status("/x.html", access) == 403)
        #expect(status("/x.html", method: "POST", access) == 200)
    }

    @Test func badSatisfyOrAuthMergingFailsTheFile() {
        for text in ["Satisfy sometimes\n", "Satisfy\n", "AuthMerging Maybe\nRequire all granted\n"] {
            #expect(status("/x.html", [("/", text)]) == 500, "\(text)")
        }
    }

    @Test func authMergingCombinesWithTheNearestRequire() {
        let root = ("/", "Require all denied\n")
        #expect(status("/s/x.html", [root, ("/s", "AuthMerging And\nRequire all granted\n")]) == 403)
        #expect(status("/s/x.html", [root, ("/s", "AuthMerging Or\nRequire all granted\n")]) == 200)
        #expect(status("/s/x.html", [root, ("/s", "AuthMerging Off\nRequire all granted\n")]) == 200)
    }

    @Test func authMergingIsNotInherited() {
        let access = [("/", "Require ip 10.9.9.9\n"), ("/s", "AuthMerging Or\nRequire all granted\n"),
                      ("/s/deny", "Require all denied\n"), ("/s/keep", "DirectoryIndex x.html\n")]
        #expect(status("/s/x.html", access) == 200)
        #expect(status("/s/deny/x.html", access) == 403)
        #expect(status("/s/keep/x.html", access) == 200)
    }
}

/// mod_ssl's `SSLRequireSSL` (fixtures/apache/https-sslrequiressl-errordocument-none and -flexible).
struct SSLRequireSSLTests {
    let origin = testOrigin("SSLRequireSSL\nErrorDocument 403 https://shop.example%{REQUEST_URI}\n",
                            files: [("/a.html", 0)], serverName: "shop.example", modules: ["access_compat"])

    @Test func aPlainHTTPRequestIsRefusedAndTheErrorDocumentRedirects() {
        let plain = respond(origin, "/a.html")
        #expect(plain.status == 302)
        #expect(plain.location == "https://shop.example/a.html")
        #expect(plain.errorCodes == ["AH02219"])
        #expect(respond(origin, "/a.html", tls: true).status == 200)
    }

    @Test func underSatisfyAnyRequireDecides() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/any/b.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array("SSLRequireSSL\n".utf8)))
        fs.addAccessFile("/any", file: SourceFile(path: "any/.htaccess", bytes: Array("Order allow,deny\nAllow from all\nSatisfy Any\n".utf8)))
        var modules = ModuleSet.standard
        modules.insert("access_compat")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, modules: modules))
        #expect(respond(o, "/any/b.html").status == 200)
    }

    /// fixtures/apache/access-sslrequiressl-before-host-lines: mod_ssl's refusal comes first and
    /// ends the phase; the host lines are not looked at.
    @Test func theTLSCheckComesBeforeTheHostLines() {
        let o = testOrigin("SSLRequireSSL\nOrder deny,allow\nDeny from all\n", files: [("/a.html", 0)],
                           serverName: "shop.example", modules: ["access_compat"])
        #expect(respond(o, "/a.html").errorCodes == ["AH02219"])
        #expect(respond(o, "/a.html", tls: true).errorCodes == ["AH01797"])
        let any = testOrigin("SSLRequireSSL\nOrder deny,allow\nDeny from all\nSatisfy Any\nRequire all granted\n",
                             files: [("/a.html", 0)], serverName: "shop.example", modules: ["access_compat"])
        let plain = respond(any, "/a.html")
        #expect(plain.status == 200)
        #expect(plain.errorCodes == ["AH02219"])
    }

    /// Apache reads no argument of SSLRequireSSL and refuses none (recorded:
    /// syntax-error-unread-directive-arguments, `SSLRequireSSL # c` is a 403 over http).
    @Test func argumentsAreIgnored() {
        let file = ConfigReader.read(SourceFile(path: ".htaccess", text: "SSLRequireSSL on\n"), context: .htaccess)
        #expect(file.diagnostics.isEmpty)
        #expect(file.block.sslRequired)
    }
}
