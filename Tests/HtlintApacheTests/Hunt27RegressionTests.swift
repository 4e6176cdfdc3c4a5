import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 27 (real-world https/www/CMS snippets behind CDN
/// edges, with variable dumps); every expected value was recorded from Apache 2.4 (the fixtures
/// named on each test).
struct Hunt27RegressionTests {
    func respond(_ target: String, method: String = "GET", vhost: [String], access: [(String, String)], files: [String],
                 tls: Bool = false) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in access {
            fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
        }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        return origin.respond(to: OriginRequest(method: method, target: target,
                                                headers: [HTTPHeader("Host", "shop.example")], tls: tls))
    }

    func header(_ name: String, _ response: OriginResponse) -> String? {
        response.headers.first { $0.name == name }?.value
    }

    /// fixtures/apache/rewrite-cond-server-protocol-subrequest: %{SERVER_PROTOCOL} is r->protocol,
    /// "INCLUDED" in every subrequest (mod_dir's index look-up, whose environment the fast
    /// redirect keeps); mod_headers' expression at output time reads the main request's.
    @Test func serverProtocolInSubrequest() {
        let access = [("/", "RewriteEngine On\nRewriteRule ^ - [E=V:%{SERVER_PROTOCOL}|%{SSL:SERVER_PROTOCOL}|%{IS_SUBREQ}|%{REQUEST_METHOD}]\n"
                       + "Header always set X-E \"%{V}e\"\nHeader always set X-P \"expr=%{SERVER_PROTOCOL}\"\n")]
        let files = ["/index.html", "/a.html", "/sub/index.html"]
        let index = respond("/", vhost: [], access: access, files: files)
        #expect(header("X-E", index) == "INCLUDED|INCLUDED|true|GET")
        #expect(header("X-P", index) == "HTTP/1.1")
        let post = respond("/sub/", method: "POST", vhost: [], access: access, files: files, tls: true)
        #expect(header("X-E", post) == "INCLUDED|INCLUDED|true|GET")
        let file = respond("/a.html", vhost: [], access: access, files: files)
        #expect(header("X-E", file) == "HTTP/1.1|HTTP/1.1|false|GET")
    }

    /// fixtures/apache/section-if-translate-redirect-sees-no-filename: a server-context redirect
    /// answers in translate_name with the configuration the location and if walks merged before
    /// it, when r->filename was unset: REQUEST_FILENAME is not the redirect URL there.
    @Test func translateRedirectKeepsEarlyIfWalk() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/old$ https://shop.example/new.html [R=301,L]",
                     "<If \"%{REQUEST_FILENAME} =~ /https/\">", "Header always set X-H filename-is-url", "</If>",
                     "<Location />", "<If \"-n %{REQUEST_FILENAME}\">", "Header always set X-G has-filename", "</If>",
                     "<Else>", "Header always set X-G no-filename", "</Else>", "</Location>"]
        let old = respond("/old", vhost: vhost, access: [], files: ["/new.html"])
        #expect(old.status == 301)
        #expect(old.location == "https://shop.example/new.html")
        #expect(header("X-G", old) == "no-filename")
        #expect(header("X-H", old) == nil)
        let page = respond("/new.html", vhost: vhost, access: [], files: ["/new.html"])
        #expect(header("X-G", page) == "has-filename")
    }

    /// fixtures/apache/errordoc-post-becomes-get-through-rewrite: ap_die_r makes the ErrorDocument
    /// request a GET (HEAD too) and notes the method as REQUEST_METHOD first; an internal redirect
    /// from the page keeps r->method, so a rewrite there sees GET, not the client's method.
    @Test func errorDocumentMethodCarriesThroughRewrite() {
        let access = [("/", "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} =GET\nRewriteRule ^errors/404$ /errors/404.html [L]\n"
                       + "RewriteRule ^errors/404\\.html$ - [E=M:%{REQUEST_METHOD}]\n"
                       + "Header always set X-M \"%{M}e|%{REDIRECT_REQUEST_METHOD}e|%{REDIRECT_REDIRECT_REQUEST_METHOD}e\"\n")]
        let vhost = ["ErrorDocument 404 /errors/404"]
        for method in ["POST", "HEAD", "GET"] {
            let r = respond("/missing", method: method, vhost: vhost, access: access, files: ["/errors/404.html"])
            #expect(r.status == 404)
            #expect(header("X-M", r) == "GET|(null)|\(method)")
            #expect(r.final.uri == "/errors/404.html")
        }
    }

    /// fixtures/apache/env-setenvif-before-bad-path: server-context SetEnvIf runs in
    /// post_read_request, on the URI as received, before the path is decoded: the 404 for `%2F`
    /// and the 400 for a bad escape carry its variables.
    @Test func setEnvIfRunsBeforePathDecoding() {
        let vhost = ["SetEnvIf Request_URI ^(.*)$ U=$1", "SetEnvIfExpr \"%{HTTPS} == 'on'\" SCHEME=https",
                     "Header always set X-S \"%{U}e|%{SCHEME}e\""]
        let slash = respond("/go/x%2Fy", vhost: vhost, access: [], files: ["/a.html"], tls: true)
        #expect(slash.status == 404)
        #expect(header("X-S", slash) == "/go/x%2Fy|https")
        let escape = respond("/bad%zzpath", vhost: vhost, access: [], files: ["/a.html"], tls: true)
        #expect(escape.status == 400)
        #expect(header("X-S", escape) == "/bad%zzpath|https")
        #expect(header("X-S", respond("/caf%C3%A9/%2F", vhost: vhost, access: [], files: ["/a.html"])) == "/caf%C3%A9/%2F|(null)")
    }

    /// fixtures/apache/recursion-errordocument-notes-method: past the recursion limit the 500's
    /// ErrorDocument redirect fails too, but ap_die_r has noted REQUEST_METHOD on the failing
    /// request first: the canned 500 carries it.
    @Test func recursionLimitErrorDocumentNotesMethod() {
        let access = [("/", "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} !^(GET|HEAD)$\nRewriteRule ^ /index.php [L]\n"
                       + "ErrorDocument 500 /oops.html\nHeader always set X-M \"%{REQUEST_METHOD}e\"\n")]
        let files = ["/index.php", "/oops.html"]
        let patch = respond("/x", method: "PATCH", vhost: [], access: access, files: files)
        #expect(patch.status == 500)
        #expect(patch.errorCodes == ["AH00124", "AH00124"])
        #expect(header("X-M", patch) == "PATCH")
        #expect(header("X-M", respond("/index.php", method: "POST", vhost: [], access: access, files: files)) == "POST")
        #expect(header("X-M", respond("/index.php", vhost: [], access: access, files: files)) == "(null)")
    }

    /// fixtures/apache/vhost-nameless-section-takes-main-servername: a section without ServerName
    /// takes the main server's (the file's last, even below the sections) for name-based matching,
    /// so it answers that host ahead of a later section named for it.
    @Test func namelessSectionTakesMainServerName() {
        let conf = ["<VirtualHost *:80>", "DocumentRoot /var/www/html", "Header always set X-V nameless", "</VirtualHost>",
                    "<VirtualHost *:80>", "ServerName shop.example", "Header always set X-V named", "</VirtualHost>",
                    "<VirtualHost *:443>", "ServerName www.shop.example", "Header always set X-V tls-www", "</VirtualHost>",
                    "<VirtualHost *:443>", "Header always set X-V tls-nameless", "</VirtualHost>",
                    "ServerName shop.example"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a.html")
        func xv(_ port: Int, _ host: String) -> String? {
            let site = Site(serverName: "shop.example", files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: port, host: host))
            let r = Origin(site: site).respond(to: OriginRequest(target: "/a.html", headers: [HTTPHeader("Host", host)], tls: port == 443))
            return header("X-V", r)
        }
        #expect(xv(80, "shop.example") == "nameless")
        #expect(xv(443, "shop.example") == "tls-nameless")
        #expect(xv(443, "www.shop.example") == "tls-www")
        // Without a main ServerName the nameless section is only the default of its port.
        let bare = Site(serverName: "shop.example", files: fs, vhostLines: Array(conf.dropLast()),
                        virtualHost: VirtualHostChoice(port: 443, host: "shop.example"))
        let r = Origin(site: bare).respond(to: OriginRequest(target: "/a.html", headers: [HTTPHeader("Host", "shop.example")], tls: true))
        #expect(header("X-V", r) == "tls-www")
    }

    /// fixtures/apache/vhost-canonical-name-physical-port-without-servername-port: under
    /// UseCanonicalName On, a ServerName without a port leaves r->server->port 0, and
    /// UseCanonicalPhysicalPort On then takes the connection's port before the scheme's default.
    @Test func canonicalNameWithPhysicalPort() {
        let vhost = ["ServerName https://shop.example", "UseCanonicalName On", "UseCanonicalPhysicalPort On"]
        let access = [("/", "RewriteEngine On\nRewriteRule ^ - [E=P:%{SERVER_NAME}:%{SERVER_PORT}]\nHeader always set X-E \"%{P}e\"\n")]
        let files = ["/dir/index.html", "/a.html"]
        let plain = respond("/dir", vhost: vhost, access: access, files: files)
        #expect(plain.status == 301)
        #expect(plain.location == "https://shop.example:80/dir/")
        #expect(header("X-E", plain) == "shop.example:80")
        let tls = respond("/dir", vhost: vhost, access: access, files: files, tls: true)
        #expect(tls.location == "https://shop.example/dir/")
        #expect(header("X-E", tls) == "shop.example:443")
        // Without UseCanonicalPhysicalPort the scheme's default port is taken.
        #expect(respond("/dir", vhost: Array(vhost.dropLast()), access: access, files: files).location == "https://shop.example/dir/")
    }

    /// fixtures/apache/rewrite-script-uri-index-subrequest-port: the server hook rebuilds SCRIPT_URI
    /// in the index subrequest from the main request's SCRIPT_URL and the subrequest's own port
    /// (the scheme's default), which the fast redirect keeps; a file keeps the Host header's port.
    @Test func scriptURIInIndexSubrequest() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/nothing$ - [L]"]
        let access = [("/", "RewriteEngine On\nRewriteRule ^ - [E=SU:%{ENV:SCRIPT_URI}]\n"
                       + "Header always set X-E \"%{SU}e|%{SCRIPT_URI}e|%{SCRIPT_URL}e\"\n")]
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/index.html", "/a.html"] { fs.addFile(f) }
        for (dir, text) in access { fs.addAccessFile(dir, displayPath: "/var/www/html/.htaccess", text: text) }
        let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
        func xe(_ target: String) -> String? {
            header("X-E", origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example:8080")])))
        }
        #expect(xe("/") == "http://shop.example/|http://shop.example/|/")
        #expect(xe("/a.html") == "http://shop.example:8080/a.html|http://shop.example:8080/a.html|/a.html")
    }
}
