import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Disagreements found by differential round 24; every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt24RegressionTests {
    func respond(_ target: String, vhost: [String], access: [(String, String)], files: [String]) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
        }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    /// fixtures/apache/allowoverride-core-and-ssl-directive-classes: each directive needs the
    /// override class core.c / mod_ssl declare for it; Define, UnDefine, LogLevel and
    /// LimitRequestFieldsize (RSRC_CONF|ACCESS_CONF or server only) are refused whatever the class.
    @Test(arguments: [
        ("FileInfo", "EnableSendfile Off\nEnableMMAP Off\nQualifyRedirectURL On\n", nil),
        ("FileInfo", "ContentDigest On\n", "ContentDigest not allowed here"),
        ("Options", "ContentDigest On\n", nil),
        ("FileInfo", "CGIPassAuth On\n", "CGIPassAuth not allowed here"),
        ("AuthConfig", "CGIPassAuth On\nSSLRequire true\nSSLCipherSuite HIGH\nSSLVerifyClient none\nSSLUserName SSL_CLIENT_S_DN_CN\nSSLRenegBufferSize 1000\n", nil),
        ("Limit", "RLimitCPU 100\n", nil),
        ("Options", "EnableSendfile Off\n", "EnableSendfile not allowed here"),
        ("All", "Define FOO bar\n", "Define not allowed here"),
        ("All", "UnDefine FOO\n", "UnDefine not allowed here"),
        ("All", "LogLevel warn\n", "LogLevel not allowed here"),
        ("All", "LimitRequestFieldSize 100\n", "LimitRequestFieldsize not allowed here"),
    ] as [(String, String, String?)])
    func coreAndSSLOverrideClasses(_ allow: String, _ text: String, _ message: String?) {
        let vhost = ["<Directory ${DOCROOT}/d>", "AllowOverride \(allow)", "</Directory>"]
        let r = respond("/d/x.html", vhost: vhost, access: [("/d", text)], files: ["/d/x.html"])
        #expect(r.status == (message == nil ? 200 : 500))
        if let message { #expect(r.errors.contains { $0.hasSuffix(message) }) }
    }
}
