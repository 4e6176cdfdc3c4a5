import Foundation
import Testing
import HtlintDiagnostics
@testable import HtlintApache

// RewriteMap defined in the virtual host, used there and in .htaccess (recorded in
// fixtures/apache/rewrite-map-*).
struct RewriteMapTests {
    @Test func internalFunctions() {
        #expect(RewriteMapTable.internalFunction("tolower").lookup("ABC") == "abc")
        #expect(RewriteMapTable.internalFunction("toupper").lookup("abc") == "ABC")
        #expect(RewriteMapTable.internalFunction("escape").lookup("a b") == "a%20b")
        #expect(RewriteMapTable.internalFunction("unescape").lookup("a%41") == "aA")
        #expect(RewriteMapTable.internalFunction("unescape").lookup("a%zz%4") == "a%zz%4")
        #expect(RewriteMapTable.internalFunction("unescape").lookup("a%00b") == "a")
    }

    @Test func textMapFormat() {
        let entries = RewriteMapTable.parseText("# c\none first extra\n  two skipped\ntwo second\none again\nlonely\n")
        #expect(entries == ["one": "first", "two": "second"])
        #expect(RewriteMapTable.text(entries).lookup("zzz") == nil)
    }

    /// lookup_map_txtfile scans what apr_file_gets read only up to a NUL byte
    /// (recorded: rewrite-map-txt-nul-ends-the-line).
    @Test func textMapLineEndsAtANulByte() {
        let entries = RewriteMapTable.parseText("a one\u{0}two\nb\u{0} three\n\u{0}c four\nd five \u{0}\ne\u{0}\ne six\n")
        #expect(entries == ["a": "one", "d": "five", "e": "six"])
    }

    @Test func definitionsAndDiagnostics() {
        let file = ConfigReader.read(SourceFile(path: "<vhost>", text: """
            RewriteMap a int:tolower
            RewriteMap b int:nosuch
            RewriteMap c prg:/usr/bin/x
            RewriteMap d /etc/apache2/map.txt
            """), context: .server)
        #expect(file.block.server?.rewriteMaps["a"]?.kind == .internalFunction("tolower"))
        #expect(file.block.server?.rewriteMaps["c"]?.kind == .unsupported("prg"))
        #expect(file.block.server?.rewriteMaps["d"]?.kind == .text(path: "/etc/apache2/map.txt"))
        #expect(file.diagnostics.map(\.message) == ["RewriteMap: internal map not found:nosuch",
                                                    "RewriteMap type prg: is not simulated: lookups give the default"])
    }

    @Test func mapsExpandInVhostAndHtaccess() {
        let vhost = ["RewriteMap lc int:tolower", "RewriteEngine On", "RewriteRule ^/Go/(.*)$ /t.html?v=${lc:$1} [R=302,L]"]
        #expect(respond("/Go/ABC", vhost: vhost).location == "http://shop.example/t.html?v=abc")
        let access = [("/", "RewriteEngine On\nRewriteRule ^p/(.*)$ /t.html?v=${lc:$1}-${nomap:$1|dflt} [R=302,L]")]
        #expect(respond("/p/XY", vhost: ["RewriteMap lc int:tolower"], access: access).location
                == "http://shop.example/t.html?v=xy-dflt")
    }

    @Test func textMapReadFromTheSiteDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-map-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "one first\n".write(to: dir.appendingPathComponent("map.txt"), atomically: true, encoding: .utf8)
        let fs = try SiteFileSystem.load(directory: dir.path, mountedAt: "/var/www/html")
        let site = Site(serverName: "shop.example", files: fs, vhostLines: ["RewriteMap m txt:${DOCROOT}/map.txt"])
        #expect(site.rewriteMaps["m"]?.lookup("one") == "first")
        #expect(site.rewriteMaps["m"]?.lookup("two") == nil)
    }
}
