import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-12 differential fuzz (awkward requests on realistic
/// configurations, mod_headers / mod_setenvif / mod_mime); every expected value was recorded
/// from Apache 2.4 (the fixtures named on each test).
struct Fuzz12RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [String] = ["/page.html", "/dir/index.html"]) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files.map { ($0, 1) }, serverName: "shop.example", aliases: ["www.shop.example"])
    }

    /// fixtures/apache/rewrite-escape-dotdot-above-root: a `..` (or `%2e%2e`) above `/` is 400
    /// AH10244 before any rewrite; inside the tree it resolves.
    @Test func dotDotAboveTheRootIsABadRequest() {
        let o = site("RewriteEngine On\nRewriteRule ^old$ /page.html [R=302,L]\n")
        for t in ["/dir/%2e%2e/%2e%2e/page.html", "/%2E%2E/old", "/dir/../../old"] {
            let r = respond(o, t)
            #expect(r.status == 400, "\(t)")
            #expect(r.errorCodes == ["AH10244"], "\(t)")
        }
        #expect(respond(o, "/dir/%2e%2e/page.html").status == 200)
        #expect(respond(o, "/dir/%2e%2e/old?x=1").status == 302)
    }

    /// fixtures/apache/syntax-error-defaulttype-ignored: DefaultType is accepted and ignored.
    @Test func defaultTypeIsAcceptedAndIgnored() {
        let o = site("DefaultType text/plain\nHeader set X-Seen yes\n", files: ["/page.html", "/noext"])
        let r = respond(o, "/noext")
        #expect(r.status == 200)
        #expect(r.headers.first { $0.name == "Content-Type" } == nil)
        #expect(r.headers.contains { $0.name == "X-Seen" && $0.value == "yes" })
    }

    func contentType(_ r: OriginResponse) -> String? {
        let all = r.headers.filter { $0.name.lowercased() == "content-type" }.map(\.value)
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }

    /// fixtures/apache/header-content-type-apache-answers: answers Apache writes itself carry
    /// its canned page's type; Header set/unset Content-Type act on r->content_type.
    @Test func apacheWrittenAnswersCarryTheirOwnContentType() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/page.html", "/dir/index.html", "/sub/page.html", "/plain/page.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: "RewriteEngine On\nRewriteRule ^old$ /page.html [R=302,L]\nSetEnvIf Request_URI ^/quiet suppress-error-charset\n")
        fs.addAccessFile("/sub", displayPath: "sub/.htaccess", text: "Header always set Content-Type x/y\n")
        fs.addAccessFile("/plain", displayPath: "plain/.htaccess", text: "Header unset Content-Type\nHeader add Content-Type foo\n")
        fs.addFile("/empty/page.html")
        fs.addAccessFile("/empty", displayPath: "empty/.htaccess", text: "Header always setifempty Content-Type a%%b\nHeader setifempty Content-Type \"expr=%{HTTP:X-None}\"\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs))
        #expect(contentType(respond(o, "/empty/page.html")) == "a%b, ")
        #expect(contentType(respond(o, "/missing")) == "text/html; charset=iso-8859-1")
        #expect(contentType(respond(o, "/old")) == "text/html; charset=iso-8859-1")
        #expect(contentType(respond(o, "/dir")) == "text/html; charset=iso-8859-1")
        #expect(contentType(respond(o, "/missing", method: "HEAD")) == "text/html; charset=iso-8859-1")
        #expect(contentType(respond(o, "/page.html", method: "DELETE")) == "text/html; charset=iso-8859-1")
        #expect(contentType(respond(o, "/quiet/missing")) == "text/html")
        #expect(contentType(respond(o, "/sub/page.html")) == "x/y")
        #expect(contentType(respond(o, "/sub/missing")) == "x/y")
        #expect(contentType(respond(o, "/plain/page.html")) == "foo")
        #expect(contentType(respond(o, "/page.html", method: "OPTIONS")) == "text/html")
    }

    /// fixtures/apache/header-content-type-mime-directives: mod_mime per directory, ForceType,
    /// AddDefaultCharset.
    @Test func perDirectoryMimeDirectives() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for d in ["", "/force", "/force/inner", "/remove", "/charset", "/off"] {
            for f in ["page.html", "a.txt", "b.css", "f.txt.html"] { fs.addFile(d + "/" + f) }
        }
        fs.addFile("/x.vh")
        fs.addAccessFile("/", displayPath: ".htaccess", text: "AddType application/x-custom .txt\nRemoveType .html\nAddCharset UTF-8 .css\nAddDefaultCharset UTF-8\n")
        fs.addAccessFile("/force", displayPath: "force/.htaccess", text: "ForceType text/plain\n")
        fs.addAccessFile("/force/inner", displayPath: "force/inner/.htaccess", text: "ForceType None\n")
        fs.addAccessFile("/remove", displayPath: "remove/.htaccess", text: "AddType text/html .txt\nRemoveType .txt\nRemoveType .css\n")
        fs.addAccessFile("/charset", displayPath: "charset/.htaccess", text: "AddType \"text/html; charset=koi8-r\" .HTML\nAddCharset latin1 .txt\nRemoveCharset .css\n")
        fs.addAccessFile("/off", displayPath: "off/.htaccess", text: "AddDefaultCharset Off\nAddType text/plain .html\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: ["AddType text/x-vhost .vh"]))
        let expected: [(String, String?)] = [
            ("/page.html", nil), ("/a.txt", "application/x-custom"), ("/b.css", "text/css; charset=utf-8"),
            ("/f.txt.html", "application/x-custom"), ("/force/b.css", "text/plain; charset=UTF-8"),
            ("/force/inner/page.html", nil), ("/force/inner/b.css", "text/css; charset=utf-8"),
            ("/remove/a.txt", nil), ("/remove/b.css", nil), ("/remove/f.txt.html", nil),
            ("/charset/page.html", "text/html; charset=koi8-r"), ("/charset/a.txt", "application/x-custom; charset=latin1"),
            ("/charset/b.css", "text/css"), ("/charset/f.txt.html", "text/html; charset=latin1"),
            ("/off/page.html", "text/plain"), ("/off/f.txt.html", "text/plain"), ("/x.vh", "text/x-vhost"),
            ("/force/missing", "text/html; charset=iso-8859-1"),
        ]
        for (path, type) in expected {
            #expect(contentType(respond(o, path)) == type, "\(path)")
        }
    }

    /// fixtures/apache/header-requestheader-fixup-and-echo: RequestHeader runs in the fixups
    /// (after the rewrite conditions, not on [F]); `early` runs on every internal redirect;
    /// Header echo copies request headers.
    @Test func requestHeaderEditsTheRequestInTheFixups() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/page.html", "/err/404.html", "/rw/target.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: """
            RequestHeader append X-Test more
            RequestHeader setifempty X-Dflt dflt
            Header echo ^X-(Test|Dflt|Early)$
            Header always set X-Seen "expr=%{req:X-Test}"
            ErrorDocument 404 /err/404.html
            RewriteEngine On
            RewriteCond %{HTTP:X-Dflt} ^dflt$
            RewriteRule ^cond$ /page.html [R=302,L]
            RewriteRule ^forbid$ - [F]

            """)
        fs.addAccessFile("/rw", displayPath: "rw/.htaccess", text: "RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^a$ target.html [L]\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs,
                                  vhostLines: ["RequestHeader set X-Early early-%{FOO}e early", "RequestHeader set X-Test early early"]))
        let page = respond(o, "/page.html", headers: [HTTPHeader("X-Test", "a")])
        #expect(header(page, "X-Test") == "early, more")
        #expect(header(page, "X-Dflt") == "dflt")
        #expect(header(page, "X-Early") == "early-(null)")
        #expect(respond(o, "/cond").status == 404)
        let forbid = respond(o, "/forbid")
        #expect(header(forbid, "X-Seen") == "early")
        #expect(header(forbid, "X-Test") == nil)
        #expect(header(respond(o, "/missing"), "X-Test") == "early, more")
        #expect(header(respond(o, "/rw/a"), "X-Test") == "early, more")
        #expect(header(respond(o, "/rw/target.html", headers: [HTTPHeader("X-Dflt", "mine")]), "X-Dflt") == "mine")
    }

    /// fixtures/apache/conditional-if-request-status-errordocument: an ErrorDocument request
    /// starts with the error as its status, so `<If "%{REQUEST_STATUS} == 200">` is false there.
    @Test func errorDocumentRequestsSeeTheErrorAsRequestStatus() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/page.html", "/err/404.html", "/err/real.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: """
            <If "%{REQUEST_STATUS} == 200">
              Header always set X-Branch if
            </If>
            <Else>
              Header always set X-Branch else
            </Else>
            ErrorDocument 404 /err/404.html
            ErrorDocument 410 /err/gone.html
            RewriteEngine On
            RewriteRule ^gone$ - [G]

            """)
        fs.addAccessFile("/err", displayPath: "err/.htaccess", text: "RewriteEngine On\nRewriteRule ^gone\\.html$ real.html [L]\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs))
        func branch(_ t: String) -> String? { respond(o, t).headers.first { $0.name == "X-Branch" }?.value }
        #expect(branch("/page.html") == "if")
        #expect(branch("/missing") == "else")
        #expect(branch("/gone") == "else")
        #expect(respond(o, "/gone").served == "/err/real.html")
        #expect(branch("/err/404.html") == "if")
    }

    /// fixtures/apache/header-edit-star-empty-match-crashes: `Header edit*` meeting an empty
    /// match recurses until the child crashes (status 0: no response).
    @Test func editStarWithAnEmptyMatchCrashesTheChild() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for d in ["crash", "star", "fine", "absent"] { fs.addFile("/\(d)/page.html") }
        fs.addAccessFile("/crash", displayPath: "crash/.htaccess", text: "Header set X-A abc\nHeader edit* X-A ^ x\n")
        fs.addAccessFile("/star", displayPath: "star/.htaccess", text: "Header set X-A abc\nHeader edit* X-A b* y\n")
        fs.addAccessFile("/fine", displayPath: "fine/.htaccess", text: "Header set X-A abc\nHeader edit X-A ^ x\nHeader set X-B abcb\nHeader edit* X-B b z\n")
        fs.addAccessFile("/absent", displayPath: "absent/.htaccess", text: "Header edit* X-A ^ x\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs))
        #expect(respond(o, "/crash/page.html").status == 0)
        #expect(respond(o, "/star/page.html").status == 0)
        let fine = respond(o, "/fine/page.html")
        #expect(fine.status == 200)
        #expect(fine.header("X-A") == "xabc")
        #expect(fine.header("X-B") == "azcz")
        #expect(respond(o, "/absent/page.html").status == 200)
    }

    /// fixtures/apache/rewrite-escape-encoded-slash-dot-segments: dot segments are resolved
    /// before `%2F` is decoded, so `a%2Fb/..` drops the whole `a%2Fb`.
    @Test func dotSegmentsAreResolvedBeforeEncodedSlashesAreDecoded() {
        let o = site("", files: ["/page.html", "/dir/page.html"])
        #expect(respond(o, "/dir/a%2Fb/../page.html").served == "/dir/page.html")
        #expect(respond(o, "/dir/x/../a%2fb/%2e%2e/page.html").served == "/dir/page.html")
        #expect(respond(o, "/a%2Fb/%2e%2e/%2e%2e/page.html").status == 400)
        #expect(respond(o, "/dir/a%2Fb").status == 404)
        #expect(respond(o, "/dir/a%2Fb/./page.html").status == 404)
        #expect(decodingUnreserved("/%2e%41%2F%7e%20") == "/.A%2F~%20")
    }

    /// fixtures/apache/header-broken-htaccess-no-if-sections: the 500 of an unreadable
    /// `.htaccess` has the virtual host's own Header lines, not its `<If>` sections'.
    @Test func aBrokenHtaccessAnswersWithoutTheVhostsIfSections() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/page.html")
        fs.addFile("/broken/page.html")
        fs.addAccessFile("/broken", displayPath: "broken/.htaccess", text: "Nonsense here\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [
            "Header always set X-V v", "<If \"true\">", "  Header always set X-If yes", "</If>"]))
        let broken = respond(o, "/broken/page.html")
        #expect(broken.status == 500)
        #expect(broken.header("X-V") == "v")
        #expect(broken.header("X-If") == nil)
        #expect(respond(o, "/page.html").header("X-If") == "yes")
    }

    /// fixtures/apache/syntax-error-header-missing-words: a missing header name is an empty
    /// word (bare `Header unset` / `Header echo` are accepted); DefaultType needs one argument.
    @Test func headerReadsAMissingNameAsAnEmptyWord() {
        func status(_ line: String) -> Int { respond(site(line + "\n"), "/page.html").status }
        #expect(status("Header unset") == 200)
        #expect(status("Header onsuccess unset") == 200)
        #expect(status("RequestHeader set") == 500)
        #expect(status("DefaultType") == 500)
        #expect(status("Header always") == 500)
        let echo = respond(site("Header echo\n"), "/page.html", headers: [HTTPHeader("X-Test", "t")])
        #expect(echo.header("X-Test") == "t")
    }

    /// fixtures/apache/header-expression-functions-and-regex: ap_expr functions and parsing.
    @Test func expressionFunctionsAndRegexDelimiters() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/caf\u{e9}.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: """
            Header always set X-A "expr=%{tolower:%{HTTP_HOST}}|%{toupper:%{REQUEST_URI}}|%{base64:%{QUERY_STRING}}|%{unbase64:YWJj}|%{ldap:a*b(c)}|%{API_VERSION}|%{CONTENT_TYPE}"
            Header always set X-B yes "expr=%{THE_REQUEST} =~ /1\\.1$/"

            """)
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: ["Header always set X-V \"expr=%{osenv:LANG}\""]))
        let page = respond(o, "/caf%C3%A9.html?q=abc")
        #expect(page.header("X-A") == "shop.example|/CAF\u{e9}.HTML|cT1hYmM=|abc|a\\2ab\\28c\\29|20120211|text/html")
        #expect(page.header("X-B") == "yes")
        #expect(page.header("X-V") == "C")
        #expect(respond(o, "/missing").header("X-A")?.hasSuffix("|text/html; charset=iso-8859-1") == true)
        for line in ["Header set X-C \"expr=%{file:/etc/hostname}\"", "Header set X-C \"expr=%{filesize:/etc/hostname}\"",
                     "Header set X-C \"expr=%{replace:x}\"", "Header set X-C yes \"expr=%{THE_REQUEST} =~ /HTTP\\/1/\""] {
            #expect(respond(site(line + "\n"), "/page.html").status == 500, "\(line)")
        }
        // Server context is not restricted.
        #expect((try? ApExpression.parsingString("%{file:/etc/hostname}")) != nil)
    }

    /// fixtures/apache/header-expression-handler-and-filename: %{HANDLER} while the default
    /// handler sends a page is its type; a server SetEnvIfExpr sees an empty REQUEST_FILENAME.
    @Test func handlerAndFilenameInExpressions() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/page.html", "/dir/index.html", "/x.php"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: ".htaccess", text: "Header always set X-H \"expr=%{HANDLER}\"\nHeader always set X-F \"expr=%{env:FOO}\"\n")
        let o = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: [
            "SetEnvIfExpr \"%{REQUEST_FILENAME} -strmatch '*.html' || -z %{REQUEST_FILENAME}\" FOO=empty",
            "AddType 'text/html; charset=koi8-r' .php"]))
        #expect(respond(o, "/page.html").header("X-H") == "text/html")
        #expect(respond(o, "/x.php").header("X-H") == "text/html")
        #expect(respond(o, "/x.php").header("X-F") == "empty")
        #expect(respond(o, "/page.html", method: "OPTIONS").header("X-H") == "")
        #expect(respond(o, "/dir", method: "POST").header("X-H") == "httpd/unix-directory")
        #expect(respond(o, "/missing").header("X-H") == "")
    }

    /// fixtures/apache/header-expression-unescape: unescape() keeps %2F and fails to "".
    @Test func expressionUnescapeKeepsEncodedSlashesAndFailsEmpty() {
        let o = site("", vhost: ["Header always set X-U \"expr=%{unescape:%{THE_REQUEST}}\""], files: ["/page.html", "/a b.html"])
        #expect(respond(o, "/a%20b.html").header("X-U") == "GET /a b.html HTTP/1.1")
        #expect(respond(o, "/page.html?x=a%2Fb").header("X-U") == "GET /page.html?x=a%2Fb HTTP/1.1")
        #expect(respond(o, "/page.html?x=%zz").header("X-U") == "")
        #expect(respond(o, "/page.html?x=%00").header("X-U") == "")
    }

    /// fixtures/apache/header-expression-digests: md5() and sha1() as lower-case hex.
    @Test func expressionDigests() {
        #expect(Digest.md5("x") == "9dd4e461268c8034f5c8564e155c67a6")
        #expect(Digest.md5("") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Digest.sha1("x") == "11f6ad8ec52a2984abaafd7c3b516503785c2072")
        #expect(Digest.sha1("/page.html") == "4c9ae249e9e061dd6e30893e03dc10a58cc40ee6")
        #expect(Digest.sha1(String(repeating: "a", count: 200)).count == 40)
        let o = site("Header always set X-M \"expr=%{md5:x}|%{sha1:x}\"\n")
        #expect(respond(o, "/page.html").header("X-M") == "9dd4e461268c8034f5c8564e155c67a6|11f6ad8ec52a2984abaafd7c3b516503785c2072")
        #expect(respond(site("Header always set X-M \"expr=%{md5:}\"\n"), "/page.html").status == 500)
    }
}
