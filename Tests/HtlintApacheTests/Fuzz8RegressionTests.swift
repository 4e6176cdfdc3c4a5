import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-8 random differential fuzz; every expected value was
/// recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz8RegressionTests {
    func respond(_ files: [String], _ access: [String: String], _ target: String) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            let path = dir == "/" ? ".htaccess" : String(dir.dropFirst()) + "/.htaccess"
            fs.addAccessFile(dir, file: SourceFile(path: path, bytes: Array(text.utf8)))
        }
        return Origin(site: Site(serverName: "shop.example", files: fs))
            .respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    /// fixtures/apache/fallback-relative-name: `FallbackResource index.php` is looked up
    /// relative to the request's directory (ap_sub_req_lookup_uri).
    @Test func relativeFallbackResolvesAgainstTheRequestDirectory() {
        let files = ["/app/index.php", "/page.html", "/shop/index.php"]
        let access = ["/": "FallbackResource index.php\n"]
        let r = respond(files, access, "/app/x?q=1")
        #expect(r.status == 200)
        #expect(r.served == "/app/index.php")
        #expect(respond(files, access, "/missing").status == 500)
    }

    /// fixtures/apache/nested-options-inherited-inherit: a configuration without
    /// RewriteOptions keeps its parent's (config_perdir_merge), so InheritBefore carries down.
    @Test func rewriteOptionsAreInheritedByAChildWithoutThem() {
        let files = ["/page.html", "/blog/page.html"]
        let access = [
            "/": "RewriteEngine On\nRewriteOptions InheritBefore\nRewriteRule ^old$ /page.html [R=301,L]\n",
            "/blog": "RewriteEngine On\nRewriteRule ^page$ page.html [L]\n",
            "/blog/x": "RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^page$ /page.html [R=302,L]\n",
        ]
        let r = respond(files, access, "/blog/x/old")
        #expect(r.status == 301)
        #expect(r.location == "http://shop.example/page.html")
        #expect(respond(files, access, "/blog/old").status == 301)
    }

    /// fixtures/apache/rewrite-flags-status-flag-order: one forced_responsecode, last flag wins.
    @Test func statusFlagsShareOneCodeAndTheLastWins() {
        let access = ["/": """
            RewriteEngine On
            RewriteRule ^a$ /page.html [G,R=307]
            RewriteRule ^b$ /page.html [R=301,G]
            RewriteRule ^c$ /page.html [F,R]
            RewriteRule ^e$ - [R=301,F]
            """]
        let a = respond(["/page.html"], access, "/a")
        #expect(a.status == 307)
        #expect(a.location == nil)
        #expect(respond(["/page.html"], access, "/b").status == 410)
        #expect(respond(["/page.html"], access, "/c").status == 403)
        #expect(respond(["/page.html"], access, "/e").status == 403)
    }

    /// fixtures/apache/rewrite-flags-redirect-with-pt: [R,PT] in .htaccess answers 400.
    @Test func redirectWithPassThroughInHtaccessIsABadRequest() {
        let r = respond(["/page.html"], ["/": "RewriteEngine On\nRewriteRule ^f$ /page.html [R=301,PT]\n"], "/f")
        #expect(r.status == 400)
        #expect(r.location == nil)
    }

    /// fixtures/apache/lend-redirect-without-l-carried-status: the 3xx of [R] without [L]
    /// travels with the internal redirect; a failing target answers it canned.
    @Test func aCarriedRedirectStatusAnswersAFailingInternalRedirect() {
        let files = ["/page.html", "/index.php", "/sub/index.html"]
        let access = ["/": """
            ErrorDocument 404 /page.html
            RewriteEngine On
            RewriteRule ^a$ /p1 [R=301]
            RewriteRule ^b$ /p2 [R=307]
            RewriteRule ^c$ /p3 [R]
            RewriteRule p1$ missing.php [L]
            RewriteRule p2$ sub [L]
            RewriteRule p3$ index.php [L]
            """]
        let a = respond(files, access, "/a")
        #expect(a.status == 301)
        #expect(a.location == nil)
        #expect(a.served == nil)
        let b = respond(files, access, "/b")
        #expect(b.status == 307)
        #expect(b.location == nil)
        let c = respond(files, access, "/c")
        #expect(c.status == 302)
        #expect(c.served == "/index.php")
    }

    /// fixtures/apache/fallback-subrequest-status: fixup_dflt returns the subrequest's status
    /// unless it is 200 or 404, a redirect with its Location.
    @Test func fallbackPropagatesTheSubrequestsFailureOrRedirect() {
        let files = ["/index.php", "/page.html", "/go.php", "/sub/page.html"]
        let access = [
            "/": "FallbackResource /index.php\nRedirect 301 /go.php /page.html\nRewriteEngine On\nRewriteCond %{IS_SUBREQ} true\nRewriteRule ^index\\.php$ - [F]\n",
            "/sub": "FallbackResource /go.php\n",
        ]
        #expect(respond(files, access, "/missing").status == 403)
        let r = respond(files, access, "/sub/missing?x=1")
        #expect(r.status == 301)
        #expect(r.location == "http://shop.example/page.html?x=1")
    }

    /// fixtures/apache/lend-redirect-without-l-recursion-limit: at AH00124 ap_die answers the
    /// first carried non-200 status, not 500.
    @Test func recursionLimitWithACarriedStatusAnswersTheFirstOne() {
        let access = ["/": """
            RewriteEngine On
            RewriteRule ^c$ x.htm [L]
            RewriteRule ^a$ /q [R=301]
            RewriteRule ^x\\.htm$ /y [R=302]
            RewriteRule y$ z.htm [L]
            RewriteRule q$ z.htm [L]
            RewriteRule ^z\\.htm$ x.htm [L]
            """]
        let c = respond(["/page.html"], access, "/c")
        #expect(c.status == 302)
        #expect(c.location == nil)
        #expect(c.recursionLimitExceeded)
        #expect(respond(["/page.html"], access, "/a").status == 301)
    }

    /// fixtures/apache/dirindex-lines-append: DirectoryIndex lines of one object append.
    @Test func directoryIndexLinesAppend() {
        let files = ["/both/index.php", "/both/app.php", "/apponly/app.php", "/cleared/index.php", "/cleared/page.html"]
        let access = [
            "/": "DirectoryIndex index.php\nDirectoryIndex app.php\n",
            "/cleared": "DirectoryIndex index.php\nDirectoryIndex disabled\nDirectoryIndex page.html\n",
        ]
        #expect(respond(files, access, "/both/").served == "/both/index.php")
        #expect(respond(files, access, "/apponly/").served == "/apponly/app.php")
        #expect(respond(files, access, "/cleared/").served == "/cleared/page.html")
    }

    /// fixtures/apache/rewrite-flags-implicit-redirect-carried-status: a full-URL substitution
    /// sets r->status 302, which a later local rewrite carries.
    @Test func implicitRedirectStatusIsCarriedByALaterLocalRewrite() {
        let files = ["/index.php", "/page.html"]
        let access = ["/": """
            RewriteEngine On
            RewriteRule ^a$ http://elsewhere.example/x
            RewriteRule ^index\\.php$ http://elsewhere.example/y
            RewriteRule ^http://elsewhere\\.example/[xy]$ page.html [L]
            """]
        let a = respond(files, access, "/a")
        #expect(a.status == 302)
        #expect(a.location == nil)
        #expect(a.served == "/page.html")
        let root = respond(files, access, "/")
        #expect(root.status == 302)
        #expect(root.served == nil)
    }

    /// fixtures/apache/errordoc-after-redirect-then-forbidden: the ErrorDocument comes from the
    /// walk's configuration even when the filename is a URL.
    @Test func errorDocumentAfterARewriteToAURL() {
        let r = respond(["/err.html"], ["/": "ErrorDocument 403 /err.html\nRewriteEngine On\nRewriteRule ^a$ /x [R=301]\nRewriteRule x$ - [F]\n"], "/a")
        #expect(r.status == 403)
        #expect(r.served == "/err.html")
    }

    /// fixtures/apache/fallback-target-rewritten: a fallback subrequest that rewrites on is
    /// adopted when its own file exists.
    @Test func fallbackTargetThatRewritesOnIsAdopted() {
        let files = ["/index.php", "/app.php", "/b/app.php"]
        let access = [
            "/": "FallbackResource /index.php\nRewriteEngine On\nRewriteRule ^index\\.php$ app.php [L]\n",
            "/b": "FallbackResource /b/index.php\nRewriteEngine On\nRewriteRule ^index\\.php$ app.php [L]\n",
        ]
        let r = respond(files, access, "/missing")
        #expect(r.status == 200)
        #expect(r.served == "/app.php")
        #expect(respond(files, access, "/b/missing").status == 404)
    }

    /// fixtures/apache/env-subrequest-copies-environment: subrequests copy subprocess_env.
    @Test func subrequestsSeeTheParentsEnvironment() {
        let files = ["/index.html", "/d/index.html", "/d/page.html"]
        let access = ["/": """
            RewriteEngine On
            RewriteRule ^d/$ - [E=FOO:bar]
            RewriteCond %{ENV:FOO} =bar
            RewriteRule ^d/index\\.html$ d/page.html [L]
            RewriteRule ^d/ - [L]
            RewriteCond %{ENV:REDIRECT_STATUS} ^$
            RewriteRule .* /?q=1 [L]
            """]
        let x = respond(files, access, "/x")
        #expect(x.status == 200)
        #expect(x.served == "/index.html")
        #expect(respond(files, access, "/d/").served == "/d/page.html")
    }

    /// fixtures/apache/recursion-dirindex-subrequest-limit: the recursion check of a
    /// subrequest counts its parent's internal redirects (AH00124 before the fast redirect).
    @Test func indexSubrequestOfTheTenthRedirectFailsTheRecursionCheck() {
        let r = respond(["/index.html", "/app/index.php"], ["/": "RewriteEngine On\nRewriteRule . /app/$1 [END]\n"], "/app/")
        #expect(r.status == 500)
        #expect(r.final.uri == "/app/")
        #expect(r.recursionLimitExceeded)
        // One AH00124 per DirectoryIndex candidate (the oracle's two names log two).
        #expect(!r.errorCodes.isEmpty && r.errorCodes.allSatisfy { $0 == "AH00124" })
    }

    /// fixtures/apache/recursion-path-too-long: core_translate's apr_filepath_merge limit.
    @Test func aPathLongerThanAPRPathMaxIsForbidden() {
        let access = ["/": "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^(.*)$ $1/$1/$1/$1 [L]\n",
                      "/plain": "RewriteEngine Off\n"]
        let grown = respond(["/page.html", "/plain/x"], access, "/a")
        #expect(grown.status == 403)
        #expect(grown.errorCodes == ["AH00127"])
        let fits = "/plain" + String(repeating: "/ab", count: 1357) + "cde"
        #expect(respond(["/page.html", "/plain/x"], access, fits).status == 404)
        #expect(respond(["/page.html", "/plain/x"], access, fits + "f").status == 403)
    }

    /// fixtures/apache/errordoc-missing-page-logged-status: 403 sent, %>s logs the page's 404.
    @Test func missingErrorDocumentPageLogsItsOwnStatus() {
        let r = respond(["/page.html"], ["/": "ErrorDocument 403 /missing.html\nRewriteEngine On\nRewriteRule ^x$ - [F]\n"], "/x")
        #expect(r.status == 403)
        #expect(r.final.status == 404)
        #expect(r.final.uri == "/missing.html")
    }

    /// fixtures/apache/errordoc-page-forbidden-by-rewrite: the page's own [F] loops the
    /// ErrorDocument redirects to AH00124; the first 403 goes out, %>s logs 500.
    @Test func errorDocumentPageForbiddenByARewriteLoopsToTheLimit() {
        let r = respond(["/403.html"], ["/": "ErrorDocument 403 /403.html\nRewriteEngine On\nRewriteRule ^ - [F]\n"], "/x")
        #expect(r.status == 403)
        #expect(r.final.status == 500)
        #expect(r.recursionLimitExceeded)
    }

    /// fixtures/apache/header-recursive-error-first-request: the recursive error response is
    /// the first failing request's, headers included.
    @Test func recursiveErrorHeadersComeFromTheFirstFailingRequest() {
        let access = ["/": """
            ErrorDocument 404 /missing.html
            RewriteEngine On
            RewriteCond %{ENV:REDIRECT_STATUS} ^$
            RewriteCond %{REQUEST_FILENAME} !-f
            RewriteRule ^(.*)$ index.php/$1 [L,QSA]
            Header always set X-T "%{REDIRECT_STATUS}e"
            """]
        let r = respond(["/page.html"], access, "/user")
        #expect(r.status == 404)
        #expect(r.combinedHeader("X-T") == "200")
    }

    /// fixtures/apache/errordoc-page-rewrite-loop: AH00124 inside an ErrorDocument chain
    /// sends the first error, not 500.
    @Test func recursionLimitInsideAnErrorDocumentChainSendsTheFirstError() {
        let access = ["/": "ErrorDocument 404 /404.html\nRewriteEngine On\nRewriteRule ^404\\.html$ /loop/a [L]\nRewriteRule ^loop/a$ /loop/b [L]\nRewriteRule ^loop/b$ /loop/a [L]\n"]
        let r = respond(["/page.html", "/404.html"], access, "/missing")
        #expect(r.status == 404)
        #expect(r.final.status == 500)
        #expect(r.recursionLimitExceeded)
    }

    /// fixtures/apache/rewrite-cond-dir-test-filesystem-root: -d on `/` and `/etc`.
    @Test func directoryTestOnFilesystemRootAndSystemDirectories() {
        let access = ["/": "RewriteEngine On\nRewriteRule ^x$ /\nRewriteRule ^e$ /etc\nRewriteCond %{REQUEST_FILENAME} -d\nRewriteRule ^ - [F]\n"]
        #expect(respond(["/index.html"], access, "/x").status == 403)
        #expect(respond(["/index.html"], access, "/e").status == 403)
    }

    /// fixtures/apache/access-path-component-too-long: ENAMETOOLONG in the walk is 403.
    @Test func aPathComponentOverNameMaxIsForbidden() {
        let long = respond(["/app/index.html"], [:], "/app/" + String(repeating: "a", count: 256))
        #expect(long.status == 403)
        #expect(long.errorCodes == ["AH00036"])
        #expect(respond(["/app/index.html"], [:], "/app/" + String(repeating: "a", count: 255)).status == 404)
        #expect(respond(["/app/index.html"], [:], "/missing/" + String(repeating: "a", count: 256)).status == 404)
    }

    /// fixtures/apache/env-setenvif-not-in-subrequest: no header_parser in subrequests, and
    /// authz skipped for a subrequest with the main request's configuration.
    @Test func subrequestsRunNoSetEnvIfAndSkipAuthzOnTheSameConfiguration() {
        let access = ["/": "SetEnvIf Request_URI \"index\" BLOCK\n<RequireAll>\nRequire all granted\nRequire not env BLOCK\n</RequireAll>\n"]
        let files = ["/page.html", "/sub/index.html"]
        let r = respond(files, access, "/sub/")
        #expect(r.status == 200)
        #expect(r.served == "/sub/index.html")
        #expect(r.errorCodes.isEmpty)
        #expect(respond(files, access, "/sub/index.html").status == 403)
    }

    /// fixtures/apache/errordoc-loop-after-carried-redirect: the recursion limit in an
    /// ErrorDocument chain sends the first non-OK status of the whole run, a carried 302.
    @Test func errorDocumentLoopAfterACarriedRedirectSendsTheCarriedStatus() {
        let access = [
            "/": "ErrorDocument 403 /err.html\nRewriteEngine On\nRewriteRule ^a$ /p [R=302]\nRewriteRule p$ sub/x.php [L]\nRewriteRule ^err\\.html$ sub/x.php [L]\n",
            "/sub": "RewriteEngine On\nRewriteRule ^x\\.php$ - [F]\n",
        ]
        let files = ["/err.html", "/sub/x.php"]
        let r = respond(files, access, "/a")
        #expect(r.status == 302)
        #expect(r.location == nil)
        #expect(respond(files, access, "/sub/x.php").status == 403)
    }

    /// fixtures/apache/header-carried-status-first-request: a carried-status recursive error
    /// goes out with the first request's headers.
    @Test func carriedStatusAnswerHasTheFirstRequestsHeaders() {
        let access = ["/shop": "Header always set X-E \"shop\"\nRewriteEngine On\nRewriteRule ^$ /p [R=308]\nRewriteRule p$ /missing.html [L]\n"]
        let r = respond(["/shop/index.html"], access, "/shop/")
        #expect(r.status == 308)
        #expect(r.combinedHeader("X-E") == "shop")
    }
}
