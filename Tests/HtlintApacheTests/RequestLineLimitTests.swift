import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Apache's LimitRequestLine (read_request_line): a request line of the limit plus one byte
/// passes, one of the limit plus two is refused 414 before anything in it is read. Measured by
/// hand against Apache 2.4.71 with raw requests (the oracle's access-log matching cannot record
/// a refused line): with the default 8190, `GET /` + 8177 bytes + ` HTTP/1.1` (8191 bytes) is
/// served, 8192 bytes are 414.
struct RequestLineLimitTests {
    private func status(_ targetLength: Int, method: String = "GET", vhost: [String] = [],
                        rewrite: String? = nil) -> Int {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        if let rewrite { fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: rewrite) }
        let target = "/" + String(repeating: "ab/", count: (targetLength - 1) / 3)
        let padded = target + String(repeating: "c", count: targetLength - target.utf8.count)
        let origin = Origin(site: Site(serverName: "example.com", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(method: method, target: padded, headers: [HTTPHeader("Host", "example.com")])).status
    }

    @Test func theDefaultLimitAllowsEightThousandOneHundredNinetyOneBytes() {
        // 8178 + "GET " + " HTTP/1.1" = 8191 bytes: read; past PATH_MAX, so 403.
        #expect(status(8178) == 403)
        #expect(status(8179) == 414)
        // The method counts: POST's line is a byte longer.
        #expect(status(8178, method: "POST") == 414)
    }

    @Test func refusedBeforeAnyRuleRuns() {
        // A rule that would answer everything 410 never sees the request.
        #expect(status(9000, rewrite: "RewriteEngine On\nRewriteRule ^ - [G]") == 414)
        #expect(status(20, rewrite: "RewriteEngine On\nRewriteRule ^ - [G]") == 410)
    }

    @Test func limitRequestLineSetsIt() {
        // `GET ` + 38 bytes + ` HTTP/1.1` is 51 bytes, the limit plus one; 52 are refused.
        #expect(status(38, vhost: ["LimitRequestLine 50"]) == 404)
        #expect(status(39, vhost: ["LimitRequestLine 50"]) == 414)
    }

    @Test func limitRequestLineMustBeANonNegativeInteger() {
        let file = ConfigReader.read(SourceFile(path: "site.conf", text: "LimitRequestLine -1"), context: .server)
        #expect(file.fatal?.message == "LimitRequestLine \"-1\" must be a non-negative integer")
        #expect(ConfigReader.read(SourceFile(path: "site.conf", text: "LimitRequestLine 16384"), context: .server).fatal == nil)
        // atoi is (int)strtol (checked with apache2 -t): a value past 32 bits keeps its low 32.
        for huge in ["3000000000", "9223372036854775807", "99999999999999999999"] {
            let read = ConfigReader.read(SourceFile(path: "site.conf", text: "LimitRequestLine \(huge)"), context: .server)
            #expect(read.fatal?.message == "LimitRequestLine \"\(huge)\" must be a non-negative integer")
        }
        #expect(status(100, vhost: ["LimitRequestLine 5000000000"]) == 404)
    }
}
