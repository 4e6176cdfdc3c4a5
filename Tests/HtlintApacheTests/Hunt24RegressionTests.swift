import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Disagreements found by differential round 24; every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt24RegressionTests {
    func respond(_ target: String, method: String = "GET", vhost: [String], access: [(String, String)], files: [String],
                 modules: ModuleSet = .standard) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
        }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost, modules: modules))
        return origin.respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")]))
    }

    /// fixtures/apache/allowoverride-core-and-ssl-directive-classes: each directive needs the
    /// override class core.c / mod_ssl declare for it; Define, UnDefine, LogLevel and
    /// LimitRequestFieldsize (RSRC_CONF|ACCESS_CONF or server only) are refused whatever the class.
    @Test(arguments: [
        ("FileInfo", "EnableSendfile Off\nEnableMMAP Off\nQualifyRedirectURL On\n", nil),
        ("FileInfo", "ContentDigest On\n", "ContentDigest not allowed here"),
        ("Options", "ContentDigest On\n", nil),
        ("FileInfo", "CGIPassAuth On\n", "CGIPassAuth not allowed here"),
        ("AuthConfig", "CGIPassAuth On\nSSLRequire true\nSSLCipherSuite HIGH\nSSLVerifyClient none\nSSLUserName SSL_CLIENT_S_DN_CN\nSSLRenegBufferSize 1000\n", nil),
        ("Limit", "RLimitCPU 100\n", nil),
        ("Options", "EnableSendfile Off\n", "EnableSendfile not allowed here"),
        ("All", "Define FOO bar\n", "Define not allowed here"),
        ("All", "UnDefine FOO\n", "UnDefine not allowed here"),
        ("All", "LogLevel warn\n", "LogLevel not allowed here"),
        ("All", "LimitRequestFieldSize 100\n", "LimitRequestFieldsize not allowed here"),
    ] as [(String, String, String?)])
    func coreAndSSLOverrideClasses(_ allow: String, _ text: String, _ message: String?) {
        let vhost = ["<Directory ${DOCROOT}/d>", "AllowOverride \(allow)", "</Directory>"]
        let r = respond("/d/x.html", vhost: vhost, access: [("/d", text)], files: ["/d/x.html"])
        #expect(r.status == (message == nil ? 200 : 500))
        if let message { #expect(r.errors.contains { $0.hasSuffix(message) }) }
    }

    static let speling: ModuleSet = {
        var m = ModuleSet.standard
        m.insert("speling")
        return m
    }()

    /// fixtures/apache/negotiation-speling-corrections: one best candidate answers 301 with the
    /// corrected, escaped URL and the query; ties (`/x` matches `.` and `q` alike) and basename
    /// matches only (`/readme`) answer 300; POST is left alone; a missing directory is corrected
    /// with its path info; `.htaccess` is a candidate.
    @Test func spelingCorrections() {
        let access = [("/", "CheckSpelling On\n")]
        let files = ["/About.html", "/dir/page.html", "/readme.txt", "/readme.html", "/my file.html", "/q", "/Docs/Index.html"]
        func go(_ t: String, _ m: String = "GET") -> OriginResponse {
            respond(t, method: m, vhost: [], access: access, files: files, modules: Self.speling)
        }
        #expect(go("/about.html").location == "http://shop.example/About.html")
        #expect(go("/about.html", "HEAD").status == 301)
        #expect(go("/about.html", "POST").status == 404)
        #expect(go("/DIR/page.html?a=b%20c").location == "http://shop.example/dir/page.html?a=b%20c")
        #expect(go("/dir/pgae.html").location == "http://shop.example/dir/page.html")
        #expect(go("/readme.htm").location == "http://shop.example/readme.html")
        #expect(go("/my%20flie.html").location == "http://shop.example/my%20file.html")
        #expect(go("/docs/index.html").location == "http://shop.example/Docs/index.html")
        #expect(go("/htaccess").location == "http://shop.example/.htaccess")
        let x = go("/x")
        #expect(x.status == 300)
        #expect(x.location == nil)
        #expect(go("/readme").status == 300)
        #expect(go("/nope/deeper/x.html").status == 404)
        // Without the module the directive is unknown: a 500.
        #expect(respond("/about.html", vhost: [], access: access, files: files).status == 500)
    }

    /// fixtures/apache/negotiation-speling-config-replaced: mod_speling has no merge function, so a
    /// configuration object with any Check* line starts from CheckSpelling Off.
    @Test func spelingConfigurationIsReplacedNotMerged() {
        let vhost = ["CheckSpelling On", "<Directory ${DOCROOT}/d>", "CheckCaseOnly On", "</Directory>",
                     "<Directory ${DOCROOT}/e>", "CheckSpelling On", "CheckCaseOnly On", "</Directory>"]
        let access = [("/b", "CheckBasenameMatch On\n"), ("/c", "Header set X y\n")]
        let files = ["/b/Page.html", "/c/Page.html", "/d/Page.html", "/e/Page.html", "/e/other.html"]
        func go(_ t: String) -> OriginResponse { respond(t, vhost: vhost, access: access, files: files, modules: Self.speling) }
        #expect(go("/b/page.html").status == 404)
        #expect(go("/c/page.html").location == "http://shop.example/c/Page.html")
        #expect(go("/d/page.html").status == 404)
        #expect(go("/e/page.html").location == "http://shop.example/e/Page.html")
        #expect(go("/e/othre.html").status == 404)   // CheckCaseOnly: no typo corrections
    }

    /// fixtures/apache/negotiation-speling-after-fallback-and-errordocument: mod_dir's
    /// FallbackResource answers before mod_speling; after a server-context [PT] rewrite the
    /// correction keeps the query of the request line, not the rewritten one.
    @Test func spelingAfterFallbackAndWithTheRequestQuery() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/srvq$ /about.html?new=1 [PT]"]
        let access = [("/", "CheckSpelling On\n"), ("/fb", "FallbackResource /About.html\n")]
        let files = ["/About.html", "/fb/Page.html"]
        let fb = respond("/fb/page.html", vhost: vhost, access: access, files: files, modules: Self.speling)
        #expect(fb.status == 200)
        #expect(fb.served == "/About.html")
        #expect(respond("/srvq?orig=1", vhost: vhost, access: access, files: files, modules: Self.speling).location
                == "http://shop.example/About.html?orig=1")
    }

    static let expires: ModuleSet = {
        var m = ModuleSet.standard
        m.insert("expires")
        return m
    }()

    /// fixtures/apache/header-expires-cache-control: the type's code (without parameters, then
    /// `major/*`) or the default gives `Cache-Control: max-age=N`, which `Header merge` appends
    /// to; a 404 gets none; a redirect gets the code of its canned text/html page.
    @Test func expiresCacheControl() {
        let access = [("/", "ExpiresActive On\nExpiresDefault \"access plus 1 month\"\nExpiresByType text/html \"access plus 0 seconds\"\nExpiresByType image/png \"access plus 1 year\"\nExpiresByType text/css A3600\nExpiresByType image/* \"access plus 1 week\"\n"),
                      ("/h", "Header merge Cache-Control public\n"), ("/j", "ExpiresActive Off\n"),
                      ("/l", "RewriteEngine On\nRewriteRule ^r$ /a.html [R,L]\n")]
        let files = ["/a.html", "/b.png", "/c.css", "/e.gif", "/f.txt", "/h/b.png", "/j/b.png"]
        func cc(_ t: String) -> String? {
            header(respond(t, vhost: [], access: access, files: files, modules: Self.expires), "Cache-Control")
        }
        #expect(cc("/a.html") == "max-age=0")
        #expect(cc("/b.png") == "max-age=31536000")
        #expect(cc("/c.css") == "max-age=3600")
        #expect(cc("/e.gif") == "max-age=604800")
        #expect(cc("/f.txt") == "max-age=2592000")
        #expect(cc("/h/b.png") == "max-age=31536000, public")
        #expect(cc("/j/b.png") == nil)
        #expect(cc("/missing.png") == nil)
        #expect(cc("/l/r") == "max-age=0")
    }

    /// fixtures/apache/header-expires-wildcards-not-inherited: a `major/*` entry is read only where
    /// the object merged last has a wildcard line of its own; a type without a slash fails the file.
    @Test func expiresWildcardsAreTheLastObjects() {
        let access = [("/", "ExpiresActive On\nExpiresByType image/* A100\nExpiresDefault A5\n"),
                      ("/w1", "ExpiresActive On\n"), ("/w3", "ExpiresByType text/* A8\n"),
                      ("/w4", "RewriteEngine On\n"), ("/bad", "ExpiresByType texthtml A1\n")]
        let files = ["/b.png", "/w1/b.png", "/w3/b.png", "/w4/b.png", "/bad/b.png"]
        func cc(_ t: String) -> String? {
            header(respond(t, vhost: [], access: access, files: files, modules: Self.expires), "Cache-Control")
        }
        #expect(cc("/b.png") == "max-age=100")
        #expect(cc("/w1/b.png") == "max-age=5")
        #expect(cc("/w3/b.png") == "max-age=100")
        #expect(cc("/w4/b.png") == "max-age=100")
        let bad = respond("/bad/b.png", vhost: [], access: access, files: files, modules: Self.expires)
        #expect(bad.status == 500)
        #expect(bad.errors.contains { $0.contains("Invalid mimetype: should contain a slash") })
    }

    /// fixtures/apache/header-expires-codes-and-redirects: check_code reads words by their first
    /// letters; a bad code fails the `.htaccess`.
    @Test(arguments: [
        ("n p 1 mo 1 mi 1 s", "A2592061"), ("a 1 d", "A86400"), ("A-50", "A-50"), ("access 2 weeks 3 hours", "A1220400"),
        ("modification", "M0"),
    ])
    func expiresCodes(_ text: String, _ code: String) {
        #expect((try? ExpiresConfig.code(text).get()) == code)
    }

    @Test(arguments: ["access plus 1 m", "later plus 1 day", "access plus x days", "access plus 3"])
    func expiresBadCodesFailTheFile(_ text: String) {
        let r = respond("/x.txt", vhost: [], access: [("/", "ExpiresDefault \"\(text)\"\n")], files: ["/x.txt"], modules: Self.expires)
        #expect(r.status == 500)
        #expect(r.errors.contains { $0.contains("'ExpiresDefault \(text)': bad expires code") })
    }

    /// fixtures/apache/access-allowmethods-405, access-allowmethods-before-require-and-errordocument:
    /// AllowMethods refuses other methods first in the access phase (before `Require`), with
    /// `Allow: TRACE`; HEAD is GET; `reset` lifts the list below.
    @Test func allowMethods() {
        var modules = ModuleSet.standard
        modules.insert("allowmethods")
        let vhost = ["<Directory ${DOCROOT}>", "AllowMethods GET", "</Directory>", "<Directory ${DOCROOT}/g>", "AllowMethods reset", "</Directory>"]
        let access = [("/d", "Require all denied\n")]
        let files = ["/t.html", "/d/t.html", "/g/t.html"]
        func go(_ t: String, _ m: String) -> OriginResponse { respond(t, method: m, vhost: vhost, access: access, files: files, modules: modules) }
        #expect(go("/t.html", "GET").status == 200)
        #expect(go("/t.html", "HEAD").status == 200)
        let post = go("/t.html", "POST")
        #expect(post.status == 405)
        #expect(header(post, "Allow") == "TRACE")
        #expect(post.errorCodes.contains("AH01623"))
        #expect(go("/d/t.html", "POST").status == 405)
        #expect(go("/d/t.html", "GET").status == 403)
        #expect(go("/g/t.html", "POST").status == 200)
    }

    /// fixtures/apache/allowoverride-module-directive-classes: other modules' directives need
    /// their own override class; some are never allowed; a filter provider of a module that is
    /// not loaded and a CGIVar other than REQUEST_URI fail the file.
    @Test(arguments: [
        ("Options", "XBitHack on", nil), ("FileInfo", "XBitHack on", "XBitHack not allowed here"),
        ("Limit", "SSIEtag on", nil), ("AuthConfig", "SSIErrorMsg x", nil), ("All", "SSIStartTag <!--#", "SSIStartTag not allowed here"),
        ("FileInfo", "Action my-h /x.html", nil), ("All", "Script PUT /x.html", "Script not allowed here"),
        ("AuthConfig", "AuthDigestProvider file", nil), ("FileInfo", "AuthDigestDomain /", "AuthDigestDomain not allowed here"),
        ("FileInfo", "CookieName x", nil), ("Indexes", "AddAlt x *.gif", nil),
        ("All", "DeflateCompressionLevel 5", "DeflateCompressionLevel not allowed here"), ("Limit", "DeflateInflateLimitRequestBody 100", nil),
        ("Options", "FilterDeclare x", nil), ("FileInfo", "AddOutputFilterByType DEFLATE text/html", nil),
        ("FileInfo", "AddOutputFilterByType SUBSTITUTE;SED text/html", "Unknown filter provider SED"),
        ("FileInfo", "CGIVar REMOTE_USER authuser", "Unrecognized CGI variable: \"REMOTE_USER\""),
    ] as [(String, String, String?)])
    func moduleOverrideClasses(_ allow: String, _ text: String, _ message: String?) {
        var modules = ModuleSet.standard
        for m in ["include", "actions", "auth_digest", "usertrack", "substitute", "filter", "deflate"] { modules.insert(m) }
        let vhost = ["<Directory ${DOCROOT}/d>", "AllowOverride \(allow)", "</Directory>"]
        let r = respond("/d/x.txt", vhost: vhost, access: [("/d", text + "\n")], files: ["/d/x.txt"], modules: modules)
        #expect(r.status == (message == nil ? 200 : 500))
        if let message { #expect(r.errors.contains { $0.hasSuffix(message) }) }
    }

    /// fixtures/apache/alias-cgi-handler-checks: with mod_cgi the cgi-script handler checks
    /// ExecCGI (not for a ScriptAlias), existence and AcceptPathInfo, then fails to run the file.
    @Test func cgiHandlerChecks() {
        var modules = ModuleSet.standard
        modules.insert("cgi")
        let vhost = ["ScriptAlias /cgi/ /var/www/html/bin/"]
        let access = [("/", "AddHandler cgi-script .cgi\n"), ("/x", "Options +ExecCGI\n"), ("/y", "Options +ExecCGI\nAcceptPathInfo Off\n")]
        let files = ["/a.cgi", "/x/a.cgi", "/y/a.cgi", "/bin/s.sh"]
        func go(_ t: String, _ m: String = "GET") -> OriginResponse { respond(t, method: m, vhost: vhost, access: access, files: files, modules: modules) }
        #expect(go("/a.cgi").status == 403)
        #expect(go("/a.cgi").errorCodes.contains("AH02809"))
        #expect(go("/missing.cgi").status == 403)
        #expect(go("/x/missing.cgi").status == 404)
        #expect(go("/x/a.cgi").status == 500)
        #expect(go("/x/a.cgi", "OPTIONS").status == 500)
        #expect(go("/y/a.cgi/info").status == 404)
        #expect(go("/cgi/s.sh").status == 500)
        // Without mod_cgi the file is served as it is.
        #expect(respond("/x/a.cgi", vhost: vhost, access: access, files: files).status == 200)
    }

    /// fixtures/apache/dirindex-server-status-and-info-handlers: mod_status's handler makes its
    /// page for GET and HEAD whatever the filename; POST falls to the default handler.
    @Test func serverStatusHandler() {
        var modules = ModuleSet.standard
        modules.insert("status")
        let vhost = ["<Location /server-status>", "SetHandler server-status", "</Location>"]
        func go(_ t: String, _ m: String = "GET") -> OriginResponse { respond(t, method: m, vhost: vhost, access: [], files: [], modules: modules) }
        #expect(go("/server-status").status == 200)
        #expect(header(go("/server-status"), "Content-Type") == "text/html; charset=ISO-8859-1")
        #expect(header(go("/server-status?auto"), "Content-Type") == "text/plain; charset=ISO-8859-1")
        #expect(go("/server-status", "POST").status == 404)
    }

    /// fixtures/apache/fallback-action-handlers, fallback-action-missing-file-and-types: an
    /// `Action` for the handler or media type redirects internally to its script with the
    /// escaped URI and the query; without `virtual` a missing file is a 404.
    @Test func actionHandlers() {
        var modules = ModuleSet.standard
        modules.insert("actions")
        let vhost = ["<Location /handler.html>", "AcceptPathInfo On", "</Location>"]
        let access = [("/", "Action my-handler /handler.html\nAddHandler my-handler .foo\nAction text/plain /handler.html\nAction v-h /handler.html virtual\n<Files \"virt\">\nSetHandler v-h\n</Files>\n")]
        let files = ["/handler.html", "/a.foo", "/c.txt"]
        func go(_ t: String) -> OriginResponse { respond(t, vhost: vhost, access: access, files: files, modules: modules) }
        let a = go("/a.foo?x=1")
        #expect(a.status == 200)
        #expect(a.served == "/handler.html")
        #expect(a.final.uri == "/handler.html/a.foo")
        #expect(a.final.query == "?x=1")
        #expect(go("/c.txt").served == "/handler.html")
        #expect(go("/missing.foo").status == 404)
        #expect(go("/virt").served == "/handler.html")
        #expect(respond("/a.foo", vhost: vhost, access: access, files: files).status == 500)   // Action unknown without mod_actions
    }

    /// fixtures/apache/access-authn-digest-challenge: with mod_auth_digest `AuthType Digest`
    /// challenges (401) like Basic; without AuthName it is mod_auth_digest's AH01780 (500).
    @Test func digestChallenge() {
        var modules = ModuleSet([ "core", "http", "authz_core", "authz_host", "authz_user", "authn_core", "authn_file", "auth_digest", "mime", "dir"])
        modules.insert("rewrite")
        let access = [("/d", "AuthType Digest\nAuthName \"realm\"\nRequire valid-user\n"), ("/n", "AuthType Digest\nRequire valid-user\n")]
        let d = respond("/d/x.html", vhost: [], access: access, files: ["/d/x.html", "/n/x.html"], modules: modules)
        #expect(d.status == 401)
        #expect(header(d, "WWW-Authenticate")?.hasPrefix("Digest realm=\"realm\", nonce=") == true)
        let n = respond("/n/x.html", vhost: [], access: access, files: ["/d/x.html", "/n/x.html"], modules: modules)
        #expect(n.status == 500)
        #expect(n.errorCodes.contains("AH01780"))
    }

    /// fixtures/apache/header-deflate-vary-and-encoding: DEFLATE on a body over 68 bytes adds
    /// `Vary: Accept-Encoding`, and `Content-Encoding: gzip` when gzip is accepted.
    @Test func deflateVaryAndEncoding() {
        var modules = ModuleSet.standard
        modules.insert("deflate")
        modules.insert("filter")
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a.html", size: 300)
        fs.addFile("/small.html", size: 68)
        fs.addFile("/c.css", size: 300)
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: "AddOutputFilterByType DEFLATE text/html\n")
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, modules: modules))
        func go(_ t: String, _ headers: [HTTPHeader] = []) -> OriginResponse {
            origin.respond(to: OriginRequest(target: t, headers: [HTTPHeader("Host", "shop.example")] + headers))
        }
        #expect(header(go("/a.html"), "Vary") == "Accept-Encoding")
        #expect(header(go("/a.html"), "Content-Encoding") == nil)
        #expect(header(go("/a.html", [HTTPHeader("Accept-Encoding", "gzip, deflate")]), "Content-Encoding") == "gzip")
        #expect(header(go("/a.html", [HTTPHeader("Accept-Encoding", "gzip;q=0")]), "Content-Encoding") == nil)
        #expect(header(go("/small.html"), "Vary") == nil)
        #expect(header(go("/c.css"), "Vary") == nil)
        // gzip-only-text/html=1 (BrowserMatch) keeps another type uncompressed.
        var fs2 = fs
        fs2.addFile("/b.txt", size: 300)
        fs2.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: "SetOutputFilter DEFLATE\nBrowserMatch . gzip-only-text/html\n")
        let origin2 = Origin(site: Site(serverName: "shop.example", files: fs2, modules: modules))
        func go2(_ t: String) -> OriginResponse { origin2.respond(to: OriginRequest(target: t, headers: [HTTPHeader("Host", "shop.example"), HTTPHeader("User-Agent", "Mozilla/5.0")])) }
        #expect(header(go2("/a.html"), "Vary") == "Accept-Encoding")
        #expect(header(go2("/b.txt"), "Vary") == nil)
    }
}
