import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 30; every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt30RegressionTests {
    /// fixtures/apache/section-regex-named-groups-match-env: a matching regex section's named
    /// groups become `MATCH_<NAME>` variables (of the string its walk matched); a group that took
    /// no part sets none, a later group of the same name wins; server rules see the location
    /// walk's, and an internal redirect carries them as `REDIRECT_MATCH_…`.
    @Test func regexSectionNamedGroupsSetMatchVariables() {
        let vhost = ["RewriteEngine On", "RewriteCond %{ENV:MATCH_FIRST} ^srv$",
                     "RewriteRule ^/srv/(.*) /a.html?s=%{ENV:MATCH_SECOND} [R=302,L]",
                     "<LocationMatch \"^/(?<first>[^/]+)/(?<second>[^/]+)(?:/(?<third>x))?|^/(?<first>zz)\">",
                     "Header always set X-Loc \"%{MATCH_FIRST}e|%{MATCH_SECOND}e|%{MATCH_THIRD}e|%{REDIRECT_MATCH_FIRST}e\"",
                     "</LocationMatch>",
                     "<DirectoryMatch \"^/var/www/html/(?<dname>[a-z]+)\">", "Header set X-Dir \"%{MATCH_DNAME}e\"", "</DirectoryMatch>",
                     "<FilesMatch \"^(?<base>[a-z]+)\\.(?<ext>html|txt)$\">", "Header set X-File \"%{MATCH_BASE}e|%{MATCH_EXT}e\"",
                     "</FilesMatch>"]
        let files = ["/a.html", "/blog/post.html", "/other/page.html"]
        let access = [("/blog", "RewriteEngine On\nRewriteRule ^re$ /other/page.html [L]\n")]
        let server = respond("/srv/two", vhost: vhost, access: access, files: files)
        #expect(server.status == 302)
        #expect(server.location == "http://shop.example/a.html?s=two")
        #expect(server.header("X-Loc") == "srv|two|(null)|(null)")
        #expect(respond("/zz", vhost: vhost, access: access, files: files).header("X-Loc") == "zz|(null)|(null)|(null)")
        let page = respond("/a.html", vhost: vhost, access: access, files: files)
        #expect(page.header("X-Dir") == "a")
        #expect(page.header("X-File") == "a|html")
        let redirected = respond("/blog/re", vhost: vhost, access: access, files: files)
        #expect(redirected.served == "/other/page.html")
        #expect(redirected.header("X-Loc") == "other|page.html|(null)|blog")
        #expect(redirected.header("X-Dir") == "other")
    }

    /// fixtures/apache/alias-location-one-argument-alias: a one-argument `Alias` in `<Location>`
    /// maps the whole URL to its expression target, before the server's `Alias`; with
    /// `AliasPreservePath On` the rest after the `<Location>` path is appended, which a
    /// `<LocationMatch>` ignores; `ScriptAlias` forces cgi-script (served as is without mod_cgi).
    @Test func locationAliasOneArgument() {
        let vhost = ["Alias /srv ${DOCROOT}/sub/in",
                     "<Location /ap>", "Alias ${DOCROOT}/sub", "AliasPreservePath On", "</Location>",
                     "<Location /srv>", "Alias ${DOCROOT}/sub", "AliasPreservePath On", "</Location>",
                     "<Location /ex>", "Alias \"${DOCROOT}/sub/%{QUERY_STRING}\"", "</Location>",
                     "<LocationMatch ^/lm>", "Alias ${DOCROOT}/sub", "AliasPreservePath On", "</LocationMatch>",
                     "<Location /sc>", "ScriptAlias ${DOCROOT}/sub/page.html", "</Location>",
                     "<Location /pl>", "Alias ${DOCROOT}/sub/page.html", "</Location>"]
        let files = ["/sub/page.html", "/sub/in/index.html", "/a.html"]
        let preserved = respond("/ap/page.html", vhost: vhost, access: [], files: files)
        #expect(preserved.status == 200)
        #expect(preserved.served == "/sub/page.html")
        let missing = respond("/ap/x/y", vhost: vhost, access: [], files: files)
        #expect(missing.status == 404)
        #expect(missing.final.filename == "/sub/x")
        #expect(respond("/srv/page.html", vhost: vhost, access: [], files: files).served == "/sub/page.html")
        #expect(respond("/ex?page.html", vhost: vhost, access: [], files: files).served == "/sub/page.html")
        let matched = respond("/lm/page.html", vhost: vhost, access: [], files: files)
        #expect(matched.status == 301)
        #expect(matched.location == "http://shop.example/lm/page.html/")
        let script = respond("/sc", vhost: vhost, access: [], files: files)
        #expect(script.served == "/sub/page.html")
        #expect(script.final.handler == "cgi-script")
        let whole = respond("/pl/more?q=1", vhost: vhost, access: [], files: files)
        #expect(whole.status == 200)
        #expect(whole.served == "/sub/page.html")
    }

    /// fixtures/apache/alias-location-one-argument-alias: only the AliasPreservePath form sets the
    /// context (CONTEXT_PREFIX the `<Location>` path, CONTEXT_DOCUMENT_ROOT the evaluated target).
    @Test func locationAliasContextOnlyWithPreservePath() {
        let vhost = ["<Location /ap>", "Alias ${DOCROOT}/sub", "AliasPreservePath On", "</Location>",
                     "<Location /pl>", "Alias ${DOCROOT}/sub/page.html", "</Location>",
                     "Header always set X-C \"expr=%{CONTEXT_PREFIX}|%{CONTEXT_DOCUMENT_ROOT}\""]
        let files = ["/sub/page.html"]
        #expect(respond("/ap/page.html", vhost: vhost, access: [], files: files).header("X-C") == "/ap|/var/www/html/sub")
        #expect(respond("/pl", vhost: vhost, access: [], files: files).header("X-C") == "|/var/www/html")
    }

    /// fixtures/apache/dirindex-check-handler-skips-index: with `DirectoryCheckHandler On` a
    /// directory under `SetHandler` is redirected to its slash but gets no index (404).
    @Test func directoryCheckHandlerSkipsTheIndex() {
        let access = [("/sub", "DirectoryCheckHandler On\nSetHandler foo-handler\n"), ("/d2", "DirectoryCheckHandler On\n")]
        let files = ["/sub/index.html", "/d2/index.html"]
        let slash = respond("/sub", vhost: [], access: access, files: files)
        #expect(slash.status == 301)
        #expect(slash.location == "http://shop.example/sub/")
        let directory = respond("/sub/", vhost: [], access: access, files: files)
        #expect(directory.status == 404)
        #expect(directory.served == nil)
        #expect(directory.final.handler == "foo-handler")
        #expect(respond("/d2/", vhost: [], access: access, files: files).served == "/d2/index.html")
    }

    /// fixtures/apache/access-limitrequestbody-413: a POST body over `LimitRequestBody` turns the
    /// answer into 413 when it is first read or discarded (by the handler, or by ap_die for a
    /// 403, 404 or redirect); a 500 stays, and ErrorDocument 413 applies.
    @Test func requestBodyOverTheLimitIs413() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/a.html", "/den/x.html", "/e13/p.html", "/z/x.html", "/brk/x.html"] { fs.addFile(f) }
        let access = [("/", "LimitRequestBody 4\n"), ("/den", "Require all denied\n"), ("/brk", "Bogus on\n"),
                      ("/e13", "ErrorDocument 413 /e13/p.html\n"), ("/z", "LimitRequestBody 0\n")]
        for (dir, text) in access {
            fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
        }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: ["Redirect 302 /old /a.html"]))
        func post(_ target: String) -> OriginResponse {
            origin.respond(to: OriginRequest(method: "POST", target: target,
                                             headers: [HTTPHeader("Host", "shop.example"), HTTPHeader("Content-Length", "8")]))
        }
        #expect(post("/a.html").status == 413)
        #expect(post("/a.html").served == nil)
        #expect(post("/den/x.html").status == 413)
        #expect(post("/missing").status == 413)
        #expect(post("/brk/x.html").status == 500)
        #expect(post("/old").status == 302)
        #expect(post("/z/x.html").served == "/z/x.html")
        let page = post("/e13/x.html")
        #expect(page.status == 413)
        #expect(page.served == "/e13/p.html")
        let get = origin.respond(to: OriginRequest(target: "/a.html", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(get.served == "/a.html")
    }

    /// fixtures/apache/errordoc-page-redirect-body-too-large-keeps-location: the 403's
    /// ErrorDocument page redirects ([R]) and then finds the body too large: the 403 goes out
    /// with the page's Location.
    @Test func deniedPageRedirectKeepsItsLocationWhenTheBodyIsTooLarge() {
        let access = [("/", "LimitRequestBody 4\n"),
                      ("/rr", "<Files \"x.html\">\nRequire all denied\n</Files>\nErrorDocument 403 /rr/page.html\n"
                        + "RewriteEngine On\nRewriteRule ^page\\.html$ /a.html [R=301,L]\n")]
        let r = respond("/rr/x.html", method: "POST", access: access, files: ["/rr/x.html", "/rr/page.html", "/a.html"],
                        headers: [HTTPHeader("Content-Length", "8")])
        #expect(r.status == 403)
        #expect(r.location == "http://shop.example/a.html")
    }

    /// fixtures/apache/access-limitrequestbody-location-and-if: a translate_name answer (server
    /// `Redirect`, server rule `[R]`) reads the limit of the location walk's configuration.
    @Test func requestBodyLimitOfTheLocationWalk() {
        let vhost = ["<Location /old>", "LimitRequestBody 3", "</Location>", "Redirect 302 /old /a.html",
                     "RewriteEngine On", "RewriteRule ^/rw$ /a.html [R=302,L]", "<Location /rw>", "LimitRequestBody 3", "</Location>",
                     "<Directory ${DOCROOT}/sub>", "LimitRequestBody 2", "</Directory>",
                     "<If \"%{QUERY_STRING} == 'big'\">", "LimitRequestBody 100", "</If>"]
        func post(_ target: String) -> OriginResponse {
            var fs = SiteFileSystem(root: "/var/www/html")
            fs.addFile("/a.html")
            fs.addFile("/sub/page.html")
            let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
            return origin.respond(to: OriginRequest(method: "POST", target: target,
                                                    headers: [HTTPHeader("Host", "shop.example"), HTTPHeader("Content-Length", "8")]))
        }
        #expect(post("/old").status == 413)
        #expect(post("/old").location == nil)
        #expect(post("/rw").status == 413)
        #expect(post("/sub/page.html").status == 413)
        #expect(post("/sub/page.html?big").served == "/sub/page.html")
    }

    /// fixtures/apache/negotiation-multiviewsmatch-handlers-any: under `MultiviewsMatch Handlers`
    /// an AddHandler extension makes a variant with the CGI magic type, which only the appended
    /// q=0.001 Accept range takes (a typed variant wins); under the default it is no variant.
    @Test func multiviewsMatchHandlersMakesScriptVariants() {
        let htaccess = "Options +MultiViews\nAddHandler my-handler .php\n"
        let files = [("/h/run.php", 0), ("/h/both.php", 0), ("/h/both.html", 26), ("/f/run.php", 0)]
        var fs = SiteFileSystem(root: "/var/www/html")
        for (path, size) in files { fs.addFile(path, size: size) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
        fs.addAccessFile("/h", file: SourceFile(path: "h/.htaccess", bytes: Array("MultiviewsMatch Handlers\n".utf8)))
        var modules = ModuleSet.standard
        modules.insert("negotiation")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [], modules: modules))
        func get(_ target: String, _ headers: [HTTPHeader] = []) -> OriginResponse {
            o.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
        }
        let script = get("/h/run")
        #expect(script.status == 200)
        #expect(script.served == "/h/run.php")
        #expect(script.header("Content-Type") == "application/x-httpd-cgi")
        #expect(script.final.handler == "my-handler")
        #expect(get("/h/both").served == "/h/both.html")
        #expect(get("/h/both", [HTTPHeader("Accept", "application/x-httpd-cgi, text/html;q=0.5")]).served == "/h/both.php")
        #expect(get("/f/run").status == 404)
    }

    /// fixtures/apache/errordoc-413-not-for-hook-answers: a hook's answer to a POST whose body is
    /// over LimitRequestBody is a canned 413 (no ErrorDocument 413) unless its own status has a
    /// local ErrorDocument: that page's handler then fails and the hook's status goes out.
    @Test func bodyTooLargeAfterHookAnswer() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/a.html", "/p413.html", "/p403.html", "/plain/x.html", "/den/x.html", "/rw2/page.html"] { fs.addFile(f) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array("LimitRequestBody 4\nErrorDocument 413 /p413.html\n".utf8)))
        fs.addAccessFile("/plain", file: SourceFile(path: "plain/.htaccess", bytes: Array("Require all denied\n".utf8)))
        fs.addAccessFile("/rw2", file: SourceFile(path: "rw2/.htaccess", bytes: Array(
            "RewriteEngine On\nRewriteRule ^r$ /a.html [R,L]\nRewriteRule ^page\\.html$ /a.html?from=page [R=301,L]\nErrorDocument 302 /rw2/page.html\n".utf8)))
        fs.addAccessFile("/den", file: SourceFile(path: "den/.htaccess", bytes: Array("Require all denied\nErrorDocument 403 /p403.html\n".utf8)))
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: []))
        func post(_ target: String) -> OriginResponse {
            o.respond(to: OriginRequest(method: "POST", target: target,
                                        headers: [HTTPHeader("Host", "shop.example"), HTTPHeader("Content-Length", "8")]))
        }
        let served = post("/a.html")
        #expect(served.status == 413)
        #expect(served.served == "/p413.html")
        let plain = post("/plain/x.html")
        #expect(plain.status == 413)
        #expect(plain.served == nil)
        let den = post("/den/x.html")
        #expect(den.status == 403)
        #expect(den.final.status == 413)
        // The page's own [R] finds the body too large: the first 302 goes out with its Location.
        let redirected = post("/rw2/r?a=1")
        #expect(redirected.status == 302)
        #expect(redirected.location == "http://shop.example/a.html?a=1")
    }

    /// fixtures/apache/negotiation-script-variant-preferred-with-args-post-or-path-info: a query
    /// (even empty), path info or a POST makes handle_multi add the CGI magic range at q 2, so
    /// the script variant wins; an Accept naming the type keeps its own quality.
    @Test func scriptVariantPreferredWithArgumentsPathInfoOrPost() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/h/both.php", size: 0)
        fs.addFile("/h/both.html", size: 26)
        fs.addAccessFile("/h", file: SourceFile(path: "h/.htaccess",
                                                bytes: Array("MultiviewsMatch Handlers\nAddHandler my-handler .php\nOptions +MultiViews\n".utf8)))
        var modules = ModuleSet.standard
        modules.insert("negotiation")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [], modules: modules))
        func send(_ target: String, _ method: String = "GET", _ headers: [HTTPHeader] = []) -> OriginResponse {
            o.respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
        }
        #expect(send("/h/both").served == "/h/both.html")
        #expect(send("/h/both?a=1").served == "/h/both.php")
        #expect(send("/h/both?").served == "/h/both.php")
        #expect(send("/h/both", "POST").served == "/h/both.php")
        #expect(send("/h/both/x").final.uri == "/h/both.php/x")
        #expect(send("/h/both?q", "GET", [HTTPHeader("Accept", "text/html, application/x-httpd-cgi;q=0.5")]).served == "/h/both.html")
        #expect(AcceptList(nil).quality(of: "application/x-httpd-cgi", preferScripts: true) == 2)
    }

    /// fixtures/apache/negotiation-multiviewsmatch-handlers-any: under `MultiviewsMatch Any` a
    /// `<FilesMatch>`'s SetHandler makes `login.php` a script variant (Debian's PHP set-up);
    /// `Handlers` reads AddHandler extensions only.
    @Test func multiviewsMatchAnyTakesSetHandlerVariants() {
        let files = "<FilesMatch \"\\.php$\">\nSetHandler my-handler\n</FilesMatch>\n"
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/s/login.php")
        fs.addFile("/s2/login.php")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array("Options +MultiViews\n".utf8)))
        fs.addAccessFile("/s", file: SourceFile(path: "s/.htaccess", bytes: Array(("MultiviewsMatch Any\n" + files).utf8)))
        fs.addAccessFile("/s2", file: SourceFile(path: "s2/.htaccess", bytes: Array(("MultiviewsMatch Handlers\n" + files).utf8)))
        var modules = ModuleSet.standard
        modules.insert("negotiation")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [], modules: modules))
        func get(_ target: String) -> OriginResponse {
            o.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
        }
        let any = get("/s/login")
        #expect(any.served == "/s/login.php")
        #expect(any.header("Content-Type") == "application/x-httpd-cgi")
        #expect(get("/s2/login").status == 404)
    }

    /// fixtures/apache/header-content-type-mime-use-path-info: with `ModMimeUsePathInfo On`
    /// mod_mime reads the filename with the path info appended for the type and the handler.
    @Test func mimeUsePathInfoTypesByThePathInfo() {
        let vhost = ["<Directory ${DOCROOT}/sub>", "ModMimeUsePathInfo On", "AcceptPathInfo On",
                     "AddHandler my-handler .css", "</Directory>"]
        let files = ["/sub/p.php", "/sub/d.txt"]
        let php = respond("/sub/p.php/x.html", vhost: vhost, access: [], files: files)
        #expect(php.served == "/sub/p.php")
        #expect(php.header("Content-Type") == "text/html")
        let css = respond("/sub/d.txt/y.css", vhost: vhost, access: [], files: files)
        #expect(css.header("Content-Type") == "text/css")
        #expect(css.final.handler == "my-handler")
        #expect(respond("/sub/d.txt/noext", vhost: vhost, access: [], files: files).header("Content-Type") == nil)
        #expect(respond("/sub/d.txt", vhost: vhost, access: [], files: files).header("Content-Type") == "text/plain")
    }
}
