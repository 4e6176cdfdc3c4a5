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

    /// fixtures/apache/errordoc-page-rewrite-carried-redirect-status: in the ErrorDocument request a
    /// full-URL substitution sets r->status 302, a chained local rewrite keeps it, and the internal
    /// redirect carries it over the 404: the page goes out with 302 and no Location (%<s 404).
    @Test func errorDocumentRewriteCarriesRedirectStatus() {
        let access = [("/", "RewriteEngine On\nRewriteCond %{ENV:REDIRECT_STATUS} =404\nRewriteRule ^q$ http://shop.example/b.html [C]\nRewriteRule ^ /t.html\n")]
        let r = respondOnSite("/missing", vhost: ["ErrorDocument 404 /q"], access: access, files: ["/index.html", "/b.html", "/t.html"])
        #expect(r.status == 302)
        #expect(r.location == nil)
        #expect(r.served == "/t.html")
        #expect(r.original.status == 404)
    }

    /// fixtures/apache/errordoc-skipped-after-rewrite-status-in-internal-redirect: [R=301] without
    /// [L] and a rule back to the same file leave r->status 301. The first request's ap_die gets
    /// r->status reset (ErrorDocument page); one reached by an internal redirect does not: the 404
    /// is a recursive error, sent canned (no page).
    @Test func rewriteStatusWithoutLastInAnInternalRedirect() {
        let access = [("/", "RewriteEngine On\nRewriteRule ^go$ b.html [L]\nRewriteRule ^b\\.html$ /x.html [R=301]\nRewriteRule x\\.html$ b.html?s=1\nErrorDocument 404 /e.html\n")]
        let files = ["/index.html", "/e.html"]
        let first = respondOnSite("/b.html", vhost: [], access: access, files: files)
        #expect(first.status == 404)
        #expect(first.served == "/e.html")
        let redirected = respondOnSite("/go", vhost: [], access: access, files: files)
        #expect(redirected.status == 404)
        #expect(redirected.served == nil)
        #expect(redirected.final.uri == "/b.html")
    }

    /// fixtures/apache/rewrite-escape-b-map-default: do_expand expands a map's default with the
    /// rule entry, so [B] escapes the backreferences there too, also inside a nested map.
    @Test func backreferenceEscapingInAMapDefault() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/t.html")
        fs.addTextFile("/map.txt", displayPath: "/var/www/html/map.txt", text: "one first\n")
        let vhost = ["RewriteMap m txt:/var/www/html/map.txt", "RewriteMap lc int:tolower", "RewriteEngine On",
                     "RewriteRule ^/p/(.*)$ /t.html?v=${m:$1|$1}&w=${m:x|${lc:$1}} [B,L]"]
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        let r = origin.respond(to: OriginRequest(target: "/p/A%20B%26c", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(r.status == 200)
        #expect(r.final.query == "?v=A+B%26c&w=a+b%26c")
    }

    /// fixtures/apache/rewrite-flags-proxy-with-passthrough: [P] with [PT] writes
    /// `passthrough:proxy:…`, which is not the proxy's filename (no AH10160/AH00669 403): per
    /// directory the stripped `proxy:…` is no path (400), in server context core refuses it as
    /// the URL-path (400, AH00126); [P] alone stays the 403.
    @Test func proxyWithPassThrough() {
        let access = [("/", "RewriteEngine On\nRewriteRule ^a\\.html$ /a [P,PT]\nRewriteRule ^b\\.html$ /b [P]\n")]
        let vhost = ["RewriteEngine On", "RewriteRule ^/s$ /a.html [P,PT]"]
        let files = ["/index.html", "/a.html"]
        #expect(respondOnSite("/a.html", vhost: vhost, access: access, files: files).status == 400)
        #expect(respondOnSite("/b.html", vhost: vhost, access: access, files: files).status == 403)
        let server = respondOnSite("/s", vhost: vhost, access: access, files: files)
        #expect(server.status == 400)
        #expect(server.errorCodes == ["AH00126"])
        #expect(server.final.filename == "passthrough:proxy:http://shop.example/a.html")
    }
}
