import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-11 differential fuzz of ap_expr (Apache's expression
/// language); every expected value was recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz11RegressionTests {
    struct Env: ExpressionEnvironment {
        var vars = ["REQUEST_URI": "/page.html", "REMOTE_ADDR": "127.0.0.1", "HTTP_HOST": "example.org"]
        var headers = ["X-Num": "5"]
        func expressionVariable(_ name: String) -> String { vars[name] ?? "" }
        func requestHeader(_ name: String) -> String { headers[name] ?? "" }
        func environment(_ name: String) -> String { "" }
        func fileTest(_ op: Character, _ path: String) -> Bool { false }
    }

    func holds(_ text: String, restricted: Bool = false) throws -> Bool {
        var captures: [String] = []
        return try ApExpression(parsing: text, restricted: restricted).evaluate(Env(), captures: &captures)
    }

    func string(_ text: String) throws -> String {
        try ApExpression.parsingString(text).evaluate(Env(), [])
    }

    func refused(_ text: String, restricted: Bool = false) -> Bool {
        (try? ApExpression(parsing: text, restricted: restricted)) == nil
    }

    /// conditional-expr-regex-delimiter-ends-at-first: the scanner ends a regex at the first
    /// delimiter byte; `\/` does not escape it, so `/^\/page/` is `^\` and does not compile.
    @Test func regexEndsAtFirstDelimiter() throws {
        #expect(refused("%{REQUEST_URI} =~ /^\\/page/"))
        #expect(try holds("%{REQUEST_URI} =~ m#^/page#"))
        #expect(try holds("%{REQUEST_URI} =~ m|^/PAGE|i"))
        #expect(refused("%{REQUEST_URI} =~ /x/q"))
    }

    /// conditional-expr-regex-delimiter-m-hash: only a regex with groups sets $0…$9, and a
    /// failed match of one clears them.
    @Test func capturesOnlyFromGroupsAndClearedOnFailure() throws {
        #expect(try holds("%{REQUEST_URI} =~ m#^/(page)# && $1 == 'page'"))
        #expect(try holds("%{REQUEST_URI} =~ m#^/(page)# && %{REQUEST_URI} =~ /(nomatch)/ || $1 == ''"))
        #expect(try holds("%{REQUEST_URI} =~ m#^/(page)# && %{REQUEST_URI} =~ /html/ && $1 == 'page'"))
    }

    /// conditional-expr-grammar-keywords: `and`/`or`/`not`, `eq`/`in` without dash, negative
    /// digits, case-insensitive variable names, -T's false set, HTTP2.
    @Test func grammarKeywordsAndTokens() throws {
        #expect(try holds("%{REQUEST_URI} == '/page.html' and not -z %{HTTP_HOST}"))
        #expect(try holds("req('X-Num') -gt -1 && %{HTTP:X-Num} eq 5"))
        #expect(try holds("-T 'session=abc' && !-T 'OFF' && !-T '0' && !-T 'No' && !-T ''"))
        #expect(try holds("%{request_uri} in {'/page.html'}"))
        #expect(refused("%{REQUEST_URI} -eqx '1'"))
        #expect(refused("-Q %{REQUEST_URI}"))
        #expect(refused("'\\8' == '8'"))
        #expect(try holds("'\\101' == 'A'"))
    }

    /// header-expr-string-functions: md5, sha1, base64, unbase64, unescape, escape.
    @Test func stringFunctions() throws {
        #expect(try string("%{md5:abc}|%{sha1:abc}|%{base64:hello world}|%{unbase64:aGVsbG8=}")
            == "900150983cd24fb0d6963f7d28e17f72|a9993e364706816aba3e25717850c26c9cd0d89d|aGVsbG8gd29ybGQ=|hello")
        #expect(try string("%{unescape:a%20b%2Fc}|%{unescape:%zz}|%{escape:a b?c}|%{toupper:xy}") == "a b%2Fc||a%20b%3fc|XY")
    }

    /// conditional-expr-restricted-file-functions, conditional-expr-unknown-function: names are
    /// checked when the configuration is read.
    @Test func namesCheckedAtParseTime() {
        #expect(refused("filesize('/var/www/html/page.html') -gt 0", restricted: true))
        #expect(!refused("filesize('/var/www/html/page.html') -gt 0"))
        #expect(refused("v('FOO') == ''"))
        #expect(refused("-R '127.0.0.1/40'"))
        #expect(refused("-R '0.0.0.0/0'"))
        #expect(refused("-R %{REMOTE_ADDR}"))
        #expect(!refused("-R '127.0.0.0/8' || %{REMOTE_ADDR} -ipmatch '::1'"))
    }

    func respond(_ htaccess: String, _ target: String) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addFile("/small.txt")
        fs.addDirectory("/dir")
        fs.addFile("/dir/index.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
        return Origin(site: Site(serverName: "example.org", files: fs))
            .respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org")]))
    }

    /// section-filesmatch-if-inside: an <If> chain inside a matching <FilesMatch> is evaluated.
    @Test func ifInsideFilesMatch() {
        let h = """
        <FilesMatch "\\.(html|txt)$">
        <If "%{QUERY_STRING} == 'a=1'">
        Header always set X-A fm
        </If>
        <Else>
        Header always set X-A fmelse
        </Else>
        </FilesMatch>

        """
        #expect(respond(h, "/page.html?a=1").header("X-A") == "fm")
        #expect(respond(h, "/small.txt").header("X-A") == "fmelse")
        #expect(respond(h, "/dir/").header("X-A") == "fmelse")
    }

    /// conditional-else-after-directive: <Else> extends the scope's last <If> across a directive.
    @Test func elseAfterAnInterveningDirective() {
        let h = """
        <If "%{QUERY_STRING} == 'a=1'">
        Header always set X-A if
        </If>
        Header always set X-B between
        <Else>
        Header always set X-A else
        </Else>

        """
        let a = respond(h, "/page.html?a=1"), b = respond(h, "/page.html")
        #expect(a.status == 200 && a.header("X-A") == "if" && a.header("X-B") == "between")
        #expect(b.status == 200 && b.header("X-A") == "else")
    }

    /// conditional-expr-file-tests-system-paths: `/` and `/etc` exist; directories are searchable.
    @Test func fileTestsOnSystemPathsAndSearchBits() {
        let h = """
        Header always set X-A yes "expr=-d '/' && -e '/etc' && !-f '/'"
        Header always set X-B yes "expr=-x '/var/www/html/dir' && !-x '/var/www/html/page.html'"

        """
        let r = respond(h, "/page.html")
        #expect(r.header("X-A") == "yes")
        #expect(r.header("X-B") == "yes")
    }

    /// header-expr-handler-variable: %{HANDLER} at output time is the content type handled.
    @Test func handlerVariableAtOutput() {
        let h = """
        Header always set X-A "expr=[%{HANDLER}]"
        <If "%{HANDLER} == ''">
        Header always set X-B empty-in-if
        </If>

        """
        #expect(respond(h, "/page.html").header("X-A") == "[text/html]")
        #expect(respond(h, "/small.txt").header("X-A") == "[text/plain]")
        #expect(respond(h, "/dir").header("X-A") == "[httpd/unix-directory]")
        #expect(respond(h, "/missing").header("X-A") == "[]")
        #expect(respond(h, "/page.html").header("X-B") == "empty-in-if")
        // header-expr-handler-directory-answers: a Redirect answers before the handler phase.
        #expect(respond("Redirect 302 /dir/ /page.html\n" + h, "/dir/").header("X-A") == "[]")
    }

    /// conditional-expr-fnmatch-bracket-slash: with APR_FNM_PATHNAME a bracket holding `/` is literal.
    @Test func pathnameBracketWithSlashIsLiteral() {
        #expect(!wildcardMatch("[!/]*", "q=test", pathname: true))
        #expect(wildcardMatch("[!/]*", "q=test"))
        #expect(wildcardMatch("[!/]*", "[!/]x", pathname: true))
    }

    /// env-setenvifexpr-failed-regex-keeps-dollar: a failed regex with groups leaves no match
    /// source, so the value is set as written; an expression without a regex substitutes the
    /// groups the previous SetEnvIfExpr left (match_headers' shared regmatch array).
    @Test func setEnvIfExprSubstitution() {
        let h = """
        SetEnvIfExpr "%{QUERY_STRING} =~ /^(x)/ || true" A=v$1w
        SetEnvIfExpr "%{REQUEST_URI} =~ m#^/(page)#" B=v$1w
        SetEnvIfExpr "-n %{REQUEST_URI}" C=v$1w
        Header always set X-A "%{A}e"
        Header always set X-B "%{B}e"
        Header always set X-C "%{C}e"

        """
        let r = respond(h, "/page.html?q=1")
        #expect(r.header("X-A") == "v$1w")
        #expect(r.header("X-B") == "vpagew")
        #expect(r.header("X-C") == "vpagew")
    }

    /// An `<If>` holding an `<If>`/`<Else>` pair (the shape of both nested-section fixtures).
    static let nestedIf = """
        <If "%{REMOTE_ADDR} == '127.0.0.1'">
        <If "%{QUERY_STRING} == 'a=1'">
        Header always set X-A inner
        </If>
        <Else>
        Header always set X-A inner-else
        </Else>
        Header always set X-B outer
        </If>

        """

    /// section-if-nested-in-if: a nested <If> is evaluated when its outer one holds, but not in
    /// a DirectoryIndex subrequest (it reuses the parent's if-walk cache, nested sections skipped).
    @Test func nestedIfSections() {
        let h = Self.nestedIf
        let a = respond(h, "/page.html?a=1"), b = respond(h, "/page.html"), d = respond(h, "/dir/?a=1")
        #expect(a.header("X-A") == "inner" && a.header("X-B") == "outer")
        #expect(b.header("X-A") == "inner-else")
        #expect(d.header("X-A") == nil && d.header("X-B") == "outer")
        #expect(respond(h, "/dir/index.html?a=1").header("X-A") == "inner")
    }

    /// section-nested-if-skipped-after-internal-redirect: an internal redirect (ErrorDocument,
    /// rewrite) to the same configuration with the same top-level matches reuses r->prev's
    /// if-walk cache, so the nested <If>/<Else> are skipped.
    @Test func nestedIfSectionsSkippedAfterInternalRedirect() {
        let h = Self.nestedIf + """
        ErrorDocument 404 /page.html?x=1
        RewriteEngine On
        RewriteRule ^front$ page.html [L]

        """
        let missing = respond(h, "/missing"), front = respond(h, "/front?a=1")
        #expect(missing.status == 404)
        #expect(missing.header("X-A") == nil && missing.header("X-B") == "outer")
        #expect(front.header("X-A") == nil && front.header("X-B") == "outer")
        #expect(respond(h, "/page.html?x=1").header("X-A") == "inner-else")
    }

    /// rewrite-cond-expr-content-type: a per-directory `RewriteCond expr` runs after mod_mime.
    @Test func contentTypeInPerDirectoryExpression() {
        let h = """
        RewriteEngine On
        RewriteCond expr "%{CONTENT_TYPE} == 'text/html'"
        RewriteRule ^(.*)$ - [E=CT:html]
        Header always set X-A "%{CT}e"
        <If "%{CONTENT_TYPE} == ''">
        Header always set X-B empty-in-if
        </If>

        """
        let r = respond(h, "/page.html"), m = respond(h, "/missing.html")
        #expect(r.header("X-A") == "html" && r.header("X-B") == "empty-in-if")
        #expect(m.status == 404 && m.header("X-A") == "html")
    }

    /// header-htaccess-error-without-vhost-if: the 500 of an unreadable .htaccess carries the
    /// virtual host's own headers, not its <If> sections'.
    @Test func brokenHtaccessSkipsVhostIfHeaders() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array("<If \"-R '0.0.0.0/0'\">\nHeader always set X-A x\n</If>\n".utf8)))
        let site = Site(serverName: "example.org", files: fs,
                        vhostLines: ["Header always set X-V plain", "<If \"true\">", "Header always set X-W vif", "</If>"])
        let r = Origin(site: site).respond(to: OriginRequest(target: "/page.html", headers: [HTTPHeader("Host", "example.org")]))
        #expect(r.status == 500)
        #expect(r.header("X-V") == "plain")
        #expect(r.header("X-W") == nil)
    }

    /// alias-redirect-sets-context-info: a prefix Redirect sets CONTEXT_PREFIX/CONTEXT_DOCUMENT_ROOT.
    @Test func prefixRedirectSetsContextInfo() {
        let h = """
        Redirect 302 /dir/ /target.html
        RedirectMatch 302 ^/page\\.html$ http://example.org/t2.html
        Header always set X-A "expr=%{CONTEXT_PREFIX}|%{CONTEXT_DOCUMENT_ROOT}"

        """
        let r = respond(h, "/dir/x")
        #expect(r.status == 302 && r.header("X-A") == "/dir/|/target.html")
        #expect(respond(h, "/page.html").header("X-A") == "|/var/www/html")
    }

    /// conditional-expr-subrequest-drops-body-headers: a subrequest has no Content-Length.
    @Test func subrequestHasNoBodyHeaders() {
        let h = """
        <If "%{HTTP:Content-Length} -gt 3">
        Header always set X-A body
        </If>
        <Else>
        Header always set X-A none
        </Else>

        """
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addDirectory("/dir")
        fs.addFile("/dir/index.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(h.utf8)))
        let origin = Origin(site: Site(serverName: "example.org", files: fs))
        func post(_ target: String) -> OriginResponse {
            origin.respond(to: OriginRequest(method: "POST", target: target,
                                             headers: [HTTPHeader("Host", "example.org"), HTTPHeader("Content-Length", "8")]))
        }
        #expect(post("/page.html").header("X-A") == "body")
        #expect(post("/dir/").header("X-A") == "none")
    }

    /// rewrite-base-inside-if: RewriteBase replaces the `*If/` prefix of an external redirect.
    @Test func rewriteBaseInsideIf() {
        let h = """
        <If "%{QUERY_STRING} == 'r'">
        RewriteEngine On
        RewriteBase /dir/
        RewriteRule ^(.*)$ index.html [R=302,L]
        </If>
        <ElseIf "%{QUERY_STRING} == 'i'">
        RewriteEngine On
        RewriteBase /
        RewriteRule page small.txt [L]
        </ElseIf>

        """
        let r = respond(h, "/page.html?r")
        #expect(r.status == 302 && r.location == "http://example.org/dir/index.html?r")
        #expect(respond(h, "/page.html?i").status == 400)
    }

    /// rewrite-cond-expr-file-lookup-recursion: ap_expr's -F nests to the subrequest limit.
    @Test func expressionFileLookupNestsToTheLimit() {
        let h = """
        RewriteEngine On
        RewriteCond expr "-F %{SCRIPT_FILENAME}"
        RewriteRule ^ - [G]

        """
        let r = respond(h, "/page.html")
        #expect(r.status == 200)
        #expect(r.errorCodes.contains("AH00125"))
    }

    /// conditional-expr-int64-and-netmask, conditional-expr-subnet-v4-mapped-refused.
    @Test func integerSaturationAndSubnetForms() throws {
        #expect(try holds("'99999999999999999999' -gt 9223372036854775806"))
        #expect(try holds("'-99999999999999999999' -lt -9223372036854775807"))
        #expect(try holds("%{REMOTE_ADDR} -ipmatch '127.0.0.1/255.0.0.0' && -R '127.0.0.0/255.255.0.0'"))
        #expect(refused("-R '::ffff:127.0.0.1'"))
        #expect(!refused("-R '::1'"))
    }

    /// errordoc-expression-url: an ErrorDocument URL with %{…} is evaluated for the failing request.
    @Test func errorDocumentExpression() {
        let h = """
        ErrorDocument 404 /small.txt?from=%{REQUEST_URI}&q=%{QUERY_STRING}

        """
        let r = respond(h, "/missing?x=1")
        #expect(r.status == 404)
        #expect(r.final.uri == "/small.txt")
        #expect(r.final.query == "?from=/missing&q=x=1")
    }

    /// rewrite-cond-expr-handler-directory: HANDLER before the handler phase is empty for a directory.
    @Test func handlerOfADirectoryBeforeTheHandlerPhase() {
        let h = """
        RewriteEngine On
        RewriteCond expr "%{HANDLER} == ''"
        RewriteRule ^ - [E=H:empty]
        Header always set X-A "%{H}e"
        Header always set X-B "expr=%{HANDLER}"

        """
        let r = respond(h, "/dir")
        #expect(r.status == 301 && r.header("X-A") == "empty" && r.header("X-B") == "httpd/unix-directory")
    }

    /// header-expr-path-info-on-htaccess-error: PATH_INFO of the 500 is the part not yet walked.
    @Test func pathInfoOfABrokenHtaccess500() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array("<If \"-R '0.0.0.0/0'\">\n</If>\n".utf8)))
        let site = Site(serverName: "example.org", files: fs, vhostLines: ["Header always set X-V \"expr=[%{PATH_INFO}]\""])
        let origin = Origin(site: site)
        func get(_ t: String) -> OriginResponse { origin.respond(to: OriginRequest(target: t, headers: [HTTPHeader("Host", "example.org")])) }
        #expect(get("/page.html").status == 500)
        #expect(get("/page.html").header("X-V") == "[/page.html]")
        #expect(get("/").header("X-V") == "[/]")
    }

    /// rewrite-flags-pt-query-space-filename: the 403 for a query with a space logs passthrough:….
    @Test func passThroughFilenameOnBadQuery() {
        let h = """
        RewriteEngine On
        RewriteRule ^(.*)$ /page.html?u=$1 [PT]

        """
        let r = respond(h, "/x%20y")
        #expect(r.status == 403)
        #expect(r.final.filename == "passthrough:/page.html")
        #expect(r.errorCodes == ["AH10411"])
    }

    /// access-require-expr-remote-user: a false Require expr that reads REMOTE_USER wants a user;
    /// without AuthType that is a 500 (AH00025 with no authn module at all); a plain false one is 403.
    @Test func requireExpressionReadingRemoteUser() {
        let h = """
        Require expr "%{REMOTE_USER} == 'x' || %{QUERY_STRING} == 'ok'"

        """
        let r = respond(h, "/page.html")
        #expect(r.status == 500)
        #expect(respond(h, "/page.html?ok").status == 200)
        #expect(respond("Require expr \"%{QUERY_STRING} == 'ok'\"\n", "/page.html").status == 403)
    }
}
