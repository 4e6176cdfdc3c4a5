import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Apache's LimitRequestFieldsize and LimitRequestFields (ap_get_mime_headers_core), measured
/// by hand against Apache 2.4.71 with raw requests (the oracle cannot record them: it matches
/// a hop to its access-log line by a header Apache stops reading before): with the default
/// 8190, a header line `X-A: …` of 8191 bytes is read and one of 8192 refused with 400;
/// `LimitRequestFieldsize 100` reads 101 bytes and refuses 102; `LimitRequestFieldsize 0`
/// refuses every header line; `LimitRequestFields 4` reads Host and three more lines and
/// refuses a fifth; `LimitRequestFields 0` has no limit.
struct RequestHeaderLimitTests {
    private func status(headerLine length: Int = 10, extraHeaders: Int = 0, vhost: [String] = [],
                        target: String = "/index.html") -> Int {
        respond(headerLine: length, extraHeaders: extraHeaders, vhost: vhost, target: target).status
    }

    private func respond(headerLine length: Int = 10, extraHeaders: Int = 0, vhost: [String] = [],
                         target: String = "/index.html") -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let origin = Origin(site: Site(serverName: "example.com", files: fs, vhostLines: vhost))
        var headers = [HTTPHeader("Host", "example.com"),
                       HTTPHeader("X-A", String(repeating: "a", count: length - "X-A: ".utf8.count))]
        headers += (0..<extraHeaders).map { HTTPHeader("X-B\($0)", "1") }
        return origin.respond(to: OriginRequest(target: target, headers: headers))
    }

    @Test func theDefaultFieldLimitAllowsEightThousandOneHundredNinetyOneBytes() {
        #expect(status(headerLine: 8191) == 200)
        #expect(status(headerLine: 8192) == 400)
    }

    @Test func limitRequestFieldSizeSetsItAndZeroRefusesEveryHeader() {
        #expect(status(headerLine: 101, vhost: ["LimitRequestFieldSize 100"]) == 200)
        #expect(status(headerLine: 102, vhost: ["LimitRequestFieldSize 100"]) == 400)
        #expect(status(headerLine: 10, vhost: ["LimitRequestFieldSize 0"]) == 400)
        #expect(status(headerLine: 9001, vhost: ["LimitRequestFieldSize 9000"]) == 200)
    }

    @Test func limitRequestFieldsCountsEveryLineHostIncluded() {
        // Host and X-A are two lines.
        #expect(status(extraHeaders: 2, vhost: ["LimitRequestFields 4"]) == 200)
        #expect(status(extraHeaders: 3, vhost: ["LimitRequestFields 4"]) == 400)
        #expect(status(extraHeaders: 98) == 200)
        #expect(status(extraHeaders: 99) == 400)
        #expect(status(extraHeaders: 149, vhost: ["LimitRequestFields 0"]) == 200)
    }

    @Test func theRequestLineIsCheckedFirst() {
        let longTarget = "/" + String(repeating: "a", count: 8200)
        #expect(status(headerLine: 9000, target: longTarget) == 414)
    }

    /// Refused while the request is read (die_unusable_input), as a malformed Host is (recorded:
    /// env-setenvif-before-bad-path): post_read_request's SetEnvIf never runs.
    @Test func refusedBeforePostReadRequest() {
        let vhost = ["SetEnvIf Request_URI ^(.*)$ U=$1", "Header always set X-S %{U}e"]
        let refused = respond(headerLine: 8192, vhost: vhost)
        #expect(refused.status == 400)
        #expect(refused.headers.first { $0.name == "X-S" }?.value == "(null)")
        #expect(respond(vhost: vhost).headers.first { $0.name == "X-S" }?.value == "/index.html")
    }

    @Test func theValuesAreCheckedAsApacheReadsThem() {
        let cases: [(String, String?)] = [
            ("LimitRequestFieldSize -1", "LimitRequestFieldsize \"-1\" must be a non-negative integer"),
            ("LimitRequestFieldSize 3000000000", "LimitRequestFieldsize \"3000000000\" must be a non-negative integer"),
            ("LimitRequestFieldSize", "LimitRequestFieldsize takes one argument, Limit on maximum size of an HTTP request header field"),
            ("LimitRequestFieldSize abc", nil),
            ("LimitRequestFields -1", "LimitRequestFields \"-1\" must be a non-negative integer (0 = no limit)"),
            ("LimitRequestFields 1 2", "LimitRequestFields takes one argument, Limit (0 = unlimited) on max number of header fields in a request message"),
            ("LimitRequestFields 0", nil),
        ]
        for (line, message) in cases {
            let read = ConfigReader.read(SourceFile(path: "site.conf", text: line), context: .server)
            #expect(read.fatal?.message == message, "\(line)")
        }
    }
}
