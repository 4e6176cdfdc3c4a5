import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Hunt 40: mod_rewrite across contexts (options, maps, flags, mod_alias/mod_dir), each
/// checked against Apache 2.4.
struct Hunt40RegressionTests {
    func errors(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.filter { $0.severity == .error }.map(\.message)
    }

    /// `RewriteMap` with one word (or four): Apache 2.4's TAKE23 usage text is "a mapname and a
    /// filename and options" (apache2 -t), not the older "optional DBM type".
    @Test func rewriteMapArgumentCount() {
        for line in ["RewriteMap x", "RewriteMap a int:tolower b c"] {
            let read = ConfigReader.read(SourceFile(path: "site.conf", text: line), context: .server)
            #expect(errors(read.diagnostics) == ["RewriteMap takes two or three arguments, a mapname and a filename and options"])
        }
    }

    /// cmd_rewritemap stats a `txt:`/`rnd:` map's file when it reads the line: a file of the site
    /// that does not exist stops the server ("RewriteMap: file for map m2 not found:/var/www/html/
    /// nofile.txt", apache2 -t). Paths outside the site are not known, and not refused.
    @Test func rewriteMapFileMissingFromTheSite() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addTextFile("/map.txt", displayPath: "/var/www/html/map.txt", text: "a b\n")
        let site = Site(serverName: "shop.example", files: fs, vhostLines: [
            "RewriteMap m txt:/var/www/html/map.txt", "RewriteMap m2 txt:/var/www/html/nofile.txt",
            "RewriteMap r rnd:/var/www/html/none.txt", "RewriteMap e txt:/etc/apache2/maps/x.txt", "RewriteMap rel txt:maps/x.txt"])
        #expect(errors(site.diagnostics) == ["RewriteMap: file for map m2 not found:/var/www/html/nofile.txt",
                                              "RewriteMap: file for map r not found:/var/www/html/none.txt"])
        // Without a site (`htlint check` of a configuration file) nothing is known to be missing.
        let read = ConfigReader.read(SourceFile(path: "site.conf", text: "RewriteMap m2 txt:/var/www/html/nofile.txt"), context: .server)
        #expect(errors(read.diagnostics).isEmpty)
    }
}
