import Testing
@testable import HtlintApache

// The core's default handler serves GET, HEAD and POST only (fixtures/apache/fallback-methods-default-handler
// records the statuses; Apache lists `Allow` in a hash table's order, so its value is checked here).
struct OriginMethodTests {
    func allowed(_ r: OriginResponse) -> Set<Substring> { Set((r.header("Allow") ?? "").split(separator: ",")) }
    let methods: Set<Substring> = ["GET", "POST", "OPTIONS", "HEAD", "TRACE"]

    @Test func optionsIsAnsweredWithAllowAndNoFile() {
        let r = respond("/t.html", method: "OPTIONS", files: ["/t.html"])
        #expect(r.status == 200)
        #expect(r.served == nil)
        #expect(allowed(r) == methods)
    }

    @Test func otherKnownMethodsAre405EvenForAMissingFile() {
        for (target, method) in [("/t.html", "PUT"), ("/t.html", "DELETE"), ("/nope.html", "PUT")] {
            let r = respond(target, method: method, files: ["/t.html"])
            #expect(r.status == 405, "\(method) \(target)")
            #expect(allowed(r) == methods)
            #expect(r.errorCodes.isEmpty)
        }
    }

    @Test func unknownMethodIs501WithAH00135() {
        let r = respond("/t.html", method: "FOO", files: ["/t.html"])
        #expect(r.status == 501)
        #expect(r.errorCodes == ["AH00135"])
        #expect(r.errors == ["error: AH00135: Invalid method in request FOO /t.html HTTP/1.1"])
    }

    @Test func getHeadAndPostServeTheFile() {
        for method in ["GET", "HEAD", "POST"] {
            let r = respond("/t.html", method: method, files: ["/t.html"])
            #expect(r.status == 200, "\(method)")
            #expect(r.served == "/t.html")
            #expect(r.header("Allow") == nil)
        }
    }

    // fixtures/apache/rewrite-cond-trace-answered-before-htaccess, vhost-trace-echoed-before-htaccess,
    // vhost-trace-enable-off, vhost-traceenable-off-405-empty-allow
    @Test func traceIsEchoedBeforeTheHtaccessAndAccessChecks() {
        let r = respond("/private/t.html", method: "TRACE", vhost: ["Header always set X-A 1"],
                        access: [("/", "RewriteEngine On\nRewriteRule .* - [F]"), ("/private", "Require all denied")],
                        files: ["/private/t.html"])
        #expect(r.status == 200)
        #expect(r.served == nil)
        #expect(r.header("Content-Type") == "message/http")
        #expect(r.header("X-A") == nil)
        #expect(r.errorCodes.isEmpty)
    }

    @Test func traceEnableOffIs405WithAnEmptyAllow() {
        let r = respond("/t.html", method: "TRACE", vhost: ["TraceEnable Off"], files: ["/t.html"])
        #expect(r.status == 405)
        #expect(r.header("Allow") == "")
    }
}
