// libFuzzer target: the substitution and variable expander (issue 9, item 1). The input's
// lines are a RewriteRule substitution, a RewriteCond test string, an [E=] value and a request
// target; every expansion path (captures, %{VAR}, %{ENV:}, %{HTTP:}, maps, escaping flags,
// the query-string merge) is reached from a site whose rules read all of them.
import HtlintApache
import HtlintDiagnostics

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpander(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var lines = bytes.split(separator: 0x0A, maxSplits: 3, omittingEmptySubsequences: false)
        .map { Array($0.filter { $0 != 0x0D && $0 != 0x0A }) }
    while lines.count < 4 { lines.append([]) }
    // Blanks would split the directive into more arguments: keep each piece one argument.
    func argument(_ piece: [UInt8], fallback: String) -> [UInt8] {
        let kept = piece.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x00 }
        return kept.isEmpty ? Array(fallback.utf8) : kept
    }
    let substitution = argument(lines[0], fallback: "/$1?%1")
    let testString = argument(lines[1], fallback: "%{QUERY_STRING}")
    let envValue = argument(lines[2], fallback: "$2")
    var text = Array("RewriteEngine On\nRewriteCond ".utf8) + testString + Array(" ^(.*)$\n".utf8)
    text += Array("RewriteRule ^([^/]*)/?(.*)$ - [E=FZ:".utf8) + envValue + Array("]\n".utf8)
    text += Array("RewriteCond %{ENV:FZ}&%{HTTP:X-Fz} ^(.*)&(.*)$\n".utf8)
    text += Array("RewriteRule ^([^/]*)/?(.*)$ ".utf8) + substitution + Array(" [B,NE,QSA,L]\n".utf8)
    var fs = SiteFileSystem(root: "/var/www/html")
    fs.addFile("/index.html")
    fs.addDirectory("/dir")
    fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: text))
    // A hundredth of the product's work budget, as in FuzzSimulate (the instrumented build is slow).
    let origin = Origin(site: Site(serverName: "example.org", files: fs), ruleEvaluationBudget: 10_000)
    var target = String(decoding: lines[3].filter { $0 > 0x20 && $0 < 0x7F }, as: UTF8.self)
    if !target.hasPrefix("/") { target = "/" + target }
    _ = origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org"),
                                                                    HTTPHeader("X-Fz", "a b%2F&c")]))
    return 0
}
