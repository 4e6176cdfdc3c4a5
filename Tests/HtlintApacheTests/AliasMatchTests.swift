import Testing
@testable import HtlintApache

// AliasMatch substitutes groups into the target and sets no context prefix; ScriptAlias forces
// the cgi-script handler, which without mod_cgi serves the file as is (fixtures/apache/alias-aliasmatch-*,
// alias-scriptalias-no-cgi).
struct AliasMatchTests {
    /// alias_matches consumes nothing of an empty path, and only a match of at least one byte
    /// applies: `Redirect 301 "" /b.html` is as if absent, in .htaccess and in the server
    /// (recorded: alias-empty-path-never-matches).
    @Test func anEmptyPathNeverMatches() {
        let inFile = respond("/x.php", access: [("/", "Redirect 301 \"\" /b.html\n")], files: ["/x.php"])
        #expect(inFile.status == 200)
        #expect(inFile.location == nil)
        let inServer = respond("/", vhost: ["Redirect 301 \"\" /b.html"], files: ["/index.html"])
        #expect(inServer.status == 200)
    }

    @Test func aliasMatchServesSubstitutedPath() {
        let r = respond("/pics/a.png", vhost: ["AliasMatch ^/pics/(.*)$ /var/www/html/store/$1"], files: ["/store/a.png"])
        #expect(r.status == 200)
        #expect(r.served == "/store/a.png")
        #expect(r.final.uri == "/pics/a.png")
    }

    @Test func htaccessUnderAliasMatchRewritesWithoutBase() {
        let r = respond("/pics/old", vhost: ["AliasMatch ^/pics/(.*)$ /var/www/html/store/$1"],
                        access: [("/store", "RewriteEngine On\nRewriteRule ^old$ new.png [L]")],
                        files: ["/store/new.png"])
        #expect(r.status == 200)
        #expect(r.final.uri == "/store/new.png")
        #expect(r.served == "/store/new.png")
    }

    @Test func passThroughReachesAliasMatch() {
        let vhost = ["AliasMatch ^/pics/(.*)$ /var/www/html/store/$1", "RewriteEngine On",
                     "RewriteRule ^/a$ /pics/x.png [PT]", "RewriteRule ^/b$ /pics/x.png"]
        let files = ["/store/x.png", "/pics/x.png"]
        #expect(respond("/a", vhost: vhost, files: files).served == "/store/x.png")
        #expect(respond("/b", vhost: vhost, files: files).served == "/pics/x.png")
    }

    @Test func scriptAliasWithoutCGIServesStatically() {
        let vhost = ["ScriptAlias /cgi-bin/ /var/www/html/cgi/"]
        let r = respond("/cgi-bin/t.sh", vhost: vhost, files: ["/cgi/t.sh"])
        #expect(r.status == 200)
        #expect(r.served == "/cgi/t.sh")
        #expect(r.final.handler == "cgi-script")
        #expect(respond("/cgi-bin/none.sh", vhost: vhost).status == 404)
    }

    @Test func badAliasMatchRegexIsAnError() {
        let site = Site(serverName: "s", files: SiteFileSystem(root: "/var/www/html"), vhostLines: ["AliasMatch ^/(a /x"])
        #expect(site.vhost.fatal?.message == "Regular expression could not be compiled.")
    }
}

/// RedirectMatch targets go through apr_uri_parse/unparse and ap_escape_uri
/// (fixtures/apache/alias-redirectmatch-escapes-whole-url).
struct RedirectMatchTargetEscapingTests {
    @Test func defaultPortDisappearsAndTheHostIsEscaped() {
        let access = [("/", "RedirectMatch 301 ^/a$ https://shop.example:443/b\nRedirectMatch 302 ^/v$ https://%{HTTP_HOST}/x\nRedirect 301 /p https://shop.example:443/q")]
        #expect(respond("/a?x=1", access: access).location == "https://shop.example/b?x=1")
        #expect(respond("/v", access: access).location == "https://%25%7bHTTP_HOST%7d/x")
        #expect(respond("/p/x", access: access).location == "https://shop.example:443/q/x")
    }
}
