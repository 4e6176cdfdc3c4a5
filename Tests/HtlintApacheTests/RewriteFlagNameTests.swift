import Testing
@testable import HtlintApache

/// `RewriteRule` flag names: the one-letter fast path names the same flag as the table of
/// every name Apache accepts, and case never matters.
struct RewriteFlagNameTests {
    @Test func oneLetterNamesAgreeWithTheTable() {
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") {
            let name = String(decoding: [c], as: UTF8.self)
            #expect(RewriteParser.flagName(name) == RewriteParser.flagNames[name], "\(name)")
        }
        #expect(RewriteParser.flagName("l") == .last)
        #expect(RewriteParser.flagName("a") == nil)
        #expect(RewriteParser.flagName("qsa") == .qsAppend)
        #expect(RewriteParser.flagName("") == nil)
    }

    @Test func flagsAreReadWhateverTheirCase() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/new.html")
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess",
                         text: "RewriteEngine On\nRewriteRule ^old$ /new.html [r=308,l]\nRewriteRule ^x$ - [f]\n")
        let origin = Origin(site: Site(serverName: "shop.example", files: fs))
        let moved = origin.respond(to: OriginRequest(target: "/old", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(moved.status == 308)
        #expect(moved.location == "http://shop.example/new.html")
        let forbidden = origin.respond(to: OriginRequest(target: "/x", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(forbidden.status == 403)
    }
}
