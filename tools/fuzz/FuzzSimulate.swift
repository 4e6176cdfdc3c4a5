// libFuzzer target: a whole origin simulation from bytes (issue 9, item 1). The input is the
// root .htaccess of a small site (first byte 0–127), or the substitution of a rule that
// reads captures, %{QUERY_STRING} and headers (first byte 128–255, the expander); three requests
// are answered. Every answer must come back: the engine bounds hops, internal redirects and
// [N] rounds itself.
import HtlintApache
import HtlintDiagnostics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSimulate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text: [UInt8]
    if bytes[0] < 128 {
        text = Array(bytes.dropFirst())
    } else {
        let substitution = bytes.dropFirst().filter { $0 != 0x0A && $0 != 0x0D }
        text = Array("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^(.*)$\nRewriteRule ^([^/]*)/?(.*)$ ".utf8)
            + substitution + Array(" [L]\n".utf8)
    }
    var fs = SiteFileSystem(root: "/var/www/html")
    fs.addFile("/index.html")
    fs.addFile("/a/b.php")
    fs.addDirectory("/dir")
    fs.addSymlink("/link", target: "/etc")
    fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: text))
    let site = Site(serverName: "example.org", files: fs)
    // A hundredth of the product's work budget: the instrumented build is ~60× slower (the
    // 30 s per-input timeout), and the budget's end is the same code path whatever its size.
    let origin = Origin(site: site, ruleEvaluationBudget: 10_000)
    for target in ["/", "/a/b.php?x=1&y=%2F", "/dir/..%2f/link/passwd"] {
        _ = origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org"),
                                                                        HTTPHeader("X-Forwarded-Proto", "https")]))
    }
    return 0
}
