import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-13 differential fuzz (random combinations in the style of
/// the shared conformance categories); every expected value was recorded from Apache 2.4 (the
/// fixtures named on each test).
struct Fuzz13RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [String] = ["/page.html", "/dir/file.html"]) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files.map { ($0, 1) }, serverName: "example.org", aliases: ["www.example.org"])
    }

    /// fixtures/apache/env-setenvif-request-uri-raw: server-context SetEnvIf (post_read_request)
    /// sees r->uri as sent, before normalisation and decoding; an internal redirect's target as written.
    @Test func serverSetEnvIfSeesTheURIAsSent() {
        let o = site("RewriteEngine On\nRewriteRule ^about\\.html$ dir/../dir/file.html [L]\nHeader always set X-Env \"%{INDIR}e|%{DOTS}e\"\n",
                     vhost: ["SetEnvIf Request_URI \"^/dir\" INDIR=yes", "SetEnvIf Request_URI \"/\\.\\./\" DOTS=yes"],
                     files: ["/page.html", "/about.html", "/dir/file.html"])
        #expect(header(respond(o, "/dir/../page.html"), "X-Env") == "yes|yes")
        #expect(header(respond(o, "/%64ir/file.html"), "X-Env") == "(null)|(null)")
        #expect(header(respond(o, "/./dir/file.html"), "X-Env") == "(null)|(null)")
        #expect(header(respond(o, "/about.html"), "X-Env") == "yes|yes")
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-server-empty-result: a server-context result of `/` is the filesystem
    /// root only when the substitution writes the slash; `$1` (empty) or `$1/` is the document root.
    @Test func serverResultSlashWithoutALiteralSlashIsTheDocumentRoot() {
        let o = site("RewriteEngine On\nRewriteRule ^$ - [E=ROOT:yes]\nHeader always set X-Root \"%{ROOT}e\"\n",
                     vhost: ["RewriteEngine On", "RewriteRule ^/x$ / [L]", "RewriteRule ^/a$ /$1 [L]",
                             "RewriteRule ^/b$ $1/ [L]", "RewriteRule ^/z$ $1 [L]"])
        for t in ["/x", "/a"] {
            let r = respond(o, t)
            #expect(r.status == 403, "\(t)")
            #expect(r.errorCodes == ["AH01630"], "\(t)")
        }
        for t in ["/b", "/z"] {
            let r = respond(o, t)
            #expect(r.status == 301, "\(t)")
            #expect(r.location == "http://example.org\(t)/", "\(t)")
            #expect(header(r, "X-Root") == "yes", "\(t)")
        }
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-escape-unsafe-qmark-status-flag: [F]/[G]/[R=4xx] answer their status
    /// (and set [E]) even when the substitution expands a decoded `?`; other rules get 403 AH10508.
    @Test func statusRulesSkipTheUnsafeQuestionMarkCheck() {
        let o = site("RewriteEngine On\nRewriteRule ^g/(.*)$ /x/$1 [G]\nRewriteRule ^n/(.*)$ /x/$1 [R=404,E=SEEN:yes]\nRewriteRule ^e/(.*)$ /x/$1 [E=SEEN:yes]\nHeader always set X-Seen \"%{SEEN}e\"\n",
                     vhost: ["RewriteEngine On", "RewriteRule ^/f/(.*)$ /x/$1 [F]"])
        let f = respond(o, "/f/a%3Fb")
        #expect(f.status == 403)
        #expect(f.errorCodes.isEmpty)
        #expect(respond(o, "/g/a%3Fb").status == 410)
        let n = respond(o, "/n/a%3Fb")
        #expect(n.status == 404)
        #expect(header(n, "X-Seen") == "yes")
        let e = respond(o, "/e/a%3Fb")
        #expect(e.status == 403)
        #expect(e.errorCodes == ["AH10508"])
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-escape-encoded-slash-refused-not-merged: a refused `%2F` (404) leaves
    /// the slashes it decodes to in r->uri; only an allowed one is normalised again.
    @Test func refusedEncodedSlashesAreNotMerged() {
        let o = site("")
        let r = respond(o, "/x%2F%2Fy")
        #expect(r.status == 404)
        #expect(r.final.uri == "/x//y")
        #expect(respond(o, "/a%2F..%2F%2Fb/").final.uri == "/a/..//b/")
        let on = site("", vhost: ["AllowEncodedSlashes On"])
        #expect(respond(on, "/dir%2F%2Ffile.html").final.uri == "/dir/file.html")
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/dirslash-port-lost-in-index-subrequest: a DirectoryIndex subrequest's
    /// redirect carries the server's port; the main request and its internal redirects keep the
    /// Host header's.
    @Test func indexSubrequestRedirectsUseTheServerPort() {
        let o = site("RewriteEngine On\nRewriteRule ^go$ dir [L]\n", vhost: ["RewriteEngine On", "RewriteRule ^/idx/index\\.html$ /dir [L]"],
                     files: ["/page.html", "/dir/file.html", "/idx/x.html"])
        func get(_ t: String) -> OriginResponse {
            o.respond(to: OriginRequest(method: "GET", target: t, headers: [HTTPHeader("Host", "example.org:8080")], tls: false))
        }
        #expect(get("/dir").location == "http://example.org:8080/dir/")
        #expect(get("/go").location == "http://example.org:8080/dir/")
        #expect(get("/idx/").location == "http://example.org/idx/index.html/")
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/dirindex-subrequest-limit-each-candidate, -lowered: past the subrequest
    /// nesting limit each DirectoryIndex candidate fails with AH00125 and the next is still tried;
    /// `LimitInternalRecursion N` sets that limit too.
    @Test func everyCandidatePastTheNestingLimitLogsAH00125() {
        let d = site("", vhost: ["DirectoryIndex index.html index.php", "RewriteEngine On", "RewriteRule ^/d/index\\.html$ /d/ [PT]"], files: ["/d/x.txt"])
        let r = respond(d, "/d/")
        #expect(r.status == 500)
        #expect(r.errorCodes == ["AH00125", "AH00125"])
        let low = site("", vhost: ["DirectoryIndex index.html index.php", "LimitInternalRecursion 3", "RewriteEngine On", "RewriteRule ^/d/index\\.(html|php)$ /d/ [PT]"],
                       files: ["/d/x.txt"])
        #expect(respond(low, "/d/").errorCodes == Array(repeating: "AH00125", count: 16))
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/errordoc-500-after-recursion-limit: past LimitInternalRecursion ap_die(500)
    /// tries ErrorDocument 500: a local page exceeds the limit again (AH00124 twice), a URL is a 302.
    @Test func recursionLimitTriesErrorDocument500() {
        let loop = "RewriteEngine On\nRewriteRule ^a$ b [L]\nRewriteRule ^b$ a [L]\n"
        let local = site(loop + "ErrorDocument 500 /errors/500.html\n", files: ["/errors/500.html"])
        let r = respond(local, "/a")
        #expect(r.status == 500)
        #expect(r.errorCodes == ["AH00124", "AH00124"])
        let url = respond(site(loop + "ErrorDocument 500 https://example.org/page.html\n"), "/a")
        #expect(url.status == 302)
        #expect(url.location == "https://example.org/page.html")
        #expect(url.errorCodes == ["AH00124"])
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-flags-handler-blocks-internal-redirect: [H=text/plain] on an internal
    /// per-directory rewrite stops the redirect; the default handler then fails on `redirect:…`.
    @Test func forcedHandlerStopsThePerDirectoryRedirect() {
        let o = site("RewriteEngine On\nRewriteRule ^(page\\.html|y)$ /dir/$1 [H=text/plain]\n",
                     files: ["/page.html", "/dir/page.html"])
        let r = respond(o, "/page.html")
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH00132"])
        #expect(r.final.filename == "redirect:/dir/page.html")
        #expect(r.final.handler == "text/plain")
        // The rewritten target does not exist: the default handler's 404, still with the handler.
        let missing = respond(o, "/y")
        #expect(missing.status == 404)
        #expect(missing.errorCodes.isEmpty)
        #expect(missing.final.filename == "redirect:/dir/y")
        #expect(missing.final.handler == "text/plain")
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-cond-x-directory: `-x` holds for a directory (search bits), not for
    /// the site's files.
    @Test func executableTestHoldsForDirectories() {
        let o = site("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} -x\nRewriteRule ^ /page.html?x=yes [R=302,L]\n")
        let dir = respond(o, "/dir/")
        #expect(dir.status == 302)
        #expect(dir.location == "http://example.org/page.html?x=yes")
        #expect(respond(o, "/dir/file.html").status == 200)
        #expect(respond(o, "/missing").status == 404)
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-cond-lookup-file-directory: `-F` on a directory's own path is false
    /// (the look-up's placeholder URI makes mod_dir answer 301); on a file beside it, true.
    @Test func fileLookupOfADirectoryFails() {
        let o = site("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} -F\nRewriteRule ^ /page.html?f=1 [R=302,L]\n",
                     files: ["/page.html", "/index.html", "/dir/index.html"])
        #expect(respond(o, "/").status == 200)
        #expect(respond(o, "/dir/").status == 200)
        #expect(respond(o, "/page.html").status == 302)
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/env-server-addr-behind-edge: %{SERVER_ADDR} and SetEnvIf Server_Addr report
    /// the address the request reached Apache on.
    @Test func serverAddressComesFromTheConnection() {
        let o = site("RewriteEngine On\nRewriteCond %{SERVER_ADDR} =127.0.0.2\nRewriteRule ^x$ /page.html?behind=edge [R=302,L]\nHeader always set X-Addr \"%{ADDR}e\"\n",
                     vhost: ["SetEnvIf Server_Addr ^(.*)$ ADDR=$1"])
        let behind = o.respond(to: OriginRequest(method: "GET", target: "/x", headers: [HTTPHeader("Host", "example.org")],
                                                 serverAddress: "127.0.0.2"))
        #expect(behind.status == 302)
        #expect(header(behind, "X-Addr") == "127.0.0.2")
        let direct = respond(o, "/x")
        #expect(direct.status == 404)
        #expect(header(direct, "X-Addr") == "127.0.0.1")
    }
}

extension Fuzz13RegressionTests {
    /// fixtures/apache/rewrite-flags-handler-after-mod-dir: [H] takes effect after mod_dir, so a
    /// DirectorySlash answer logs httpd/unix-directory and a served page logs the forced handler.
    @Test func forcedHandlerComesAfterModDir() {
        let o = site("RewriteEngine On\nRewriteRule (.*) - [H=text/plain]\n", files: ["/page.html", "/dir/index.html"])
        let slash = respond(o, "/dir")
        #expect(slash.status == 301)
        #expect(slash.final.handler == "httpd/unix-directory")
        let page = respond(o, "/page.html")
        #expect(page.status == 200)
        #expect(page.final.handler == "text/plain")
    }
}
