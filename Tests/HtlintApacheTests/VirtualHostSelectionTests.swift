import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// A configuration with `<VirtualHost>` sections is read per connection: the section its port
/// and host name pick (the first named for the host among those on the port, else the first
/// on the port), plus the lines outside every section; the others have no say. Checked on
/// Debian's Apache 2.4 with two name-based sections on one port and one on another: the Host
/// named by a section (or by a wildcard alias) gets it, an unknown Host the first section of the
/// port, a port with one section that section whatever the Host, and `Header` lines outside
/// every section go out from all of them.
struct VirtualHostSelectionTests {
    static let conf = [
        "Header always set X-Main main",
        "<VirtualHost *:80>",
        "ServerName example.com",
        "ServerAlias www.example.com *.example.net",
        "Redirect permanent / https://www.example.com/",
        "</VirtualHost>",
        "<IfModule mod_ssl.c>",
        "<VirtualHost *:443>",
        "ServerName example.com",
        "Redirect permanent / https://www.example.com/",
        "</VirtualHost>",
        "<VirtualHost _default_:443>",
        "ServerName www.example.com",
        "Header always set X-Section www",
        "</VirtualHost>",
        "</IfModule>",
    ]

    func answer(_ port: Int?, _ host: String, _ target: String = "/") -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let choice = port.map { VirtualHostChoice(port: $0, host: host) }
        let site = Site(serverName: host, files: fs, vhostLines: Self.conf, virtualHost: choice)
        return Origin(site: site).respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", host)], tls: port == 443))
    }

    @Test func thePortPicksTheSection() {
        let http = answer(80, "www.example.com")
        #expect(http.status == 301)
        #expect(http.location == "https://www.example.com/")
        let tls = answer(443, "www.example.com")
        #expect(tls.status == 200)
        #expect(tls.header("X-Section") == "www")
    }

    @Test func theHostPicksAmongTheSectionsOfAPort() {
        #expect(answer(443, "example.com").status == 301)
        // An alias with a wildcard names the section too.
        #expect(answer(80, "shop.example.net").status == 301)
        // A host no section names: the first section on the port answers.
        let other = answer(443, "other.org")
        #expect(other.status == 301)
        #expect(other.header("X-Section") == nil)
    }

    @Test func linesOutsideEverySectionApplyToAll() {
        #expect(answer(80, "example.com").header("X-Main") == "main")
        #expect(answer(443, "www.example.com").header("X-Main") == "main")
        // No section listens on 8080: the main server answers, with none of the sections' lines.
        let main = answer(8080, "example.com")
        #expect(main.status == 200)
        #expect(main.header("X-Main") == "main")
        #expect(main.header("X-Section") == nil)
    }

    @Test func withoutAConnectionEverySectionIsRead() {
        // `check` and lint read the whole file: the :80 redirect and the :443 header both count.
        let whole = answer(nil, "www.example.com")
        #expect(whole.status == 301)
        #expect(whole.header("X-Section") == "www")
    }

    @Test func theSectionsAreListedWithTheirPortsAndNames() {
        let source = SourceFile(path: "site.conf", text: Self.conf.joined(separator: "\n"))
        let file = ConfigReader.read(source, context: .server)
        #expect(file.virtualHosts.map(\.ports) == [[80], [443], [443]])
        #expect(file.virtualHosts.map(\.names) == [["example.com", "www.example.com", "*.example.net"], ["example.com"], ["www.example.com"]])
        #expect(file.virtualHosts.map { source.lines.position(of: $0.openRange.start).line } == [2, 8, 12])
        // Of two ServerName lines the last names the section (fixture vhost-last-servername-counts).
        let twice = ConfigReader.read(SourceFile(path: "site.conf", text: "<VirtualHost *:80>\nServerName a.test\nServerAlias c.test\nServerName b.test\n</VirtualHost>"),
                                      context: .server)
        #expect(twice.virtualHosts.map(\.names) == [["b.test", "c.test"]])
        // Apache creates no section inside a false conditional (fixture vhost-section-in-false-conditional).
        let hidden = ConfigReader.read(SourceFile(path: "site.conf", text: "<IfModule !mod_ssl.c>\n<VirtualHost *:80>\n</VirtualHost>\n</IfModule>"),
                                       context: .server)
        #expect(hidden.virtualHosts.isEmpty)
        // An `.htaccess` has no sections to list (`<VirtualHost>` is refused there).
        #expect(ConfigReader.read(SourceFile(path: ".htaccess", text: "Redirect / /x"), context: .htaccess).virtualHosts.isEmpty)
    }

    /// A section for any port (`<VirtualHost *>`) is another address than `*:80`: on a port some
    /// section names exactly, only those are matched by name, wherever the `*` section stands
    /// (fixture vhost-exact-port-before-any-port); it answers only on ports nothing else names.
    @Test func anExactPortSectionHidesAnAnyPortSection() {
        let source = SourceFile(path: "site.conf", text: [
            "<VirtualHost *>", "ServerName b.test", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName a.test", "</VirtualHost>",
        ].joined(separator: "\n"))
        let sections = ConfigReader.read(source, context: .server).virtualHosts
        #expect(sections.answering(VirtualHostChoice(port: 80, host: "b.test")) == sections[1])
        #expect(sections.answering(VirtualHostChoice(port: 8080, host: "a.test")) == sections[0])
    }

    /// The main server's rewrite rules run in a virtual host only with `RewriteOptions Inherit`
    /// (after the section's) or `InheritBefore` (before), though its `RewriteEngine On` carries
    /// over; its `Redirect` lines come after the section's. Each expectation is what Apache 2.4
    /// answered with this configuration on one port, six name-based sections.
    @Test(arguments: [
        ("a.test", "/main", 404, nil), ("a.test", "/aliasmain", 302, "http://a.test/index.html?alias=main"),
        ("b.test", "/main", 404, nil), ("b.test", "/b", 302, "http://b.test/index.html?from=b"),
        ("c.test", "/main", 302, "http://c.test/index.html?from=c"),
        ("d.test", "/main", 302, "http://d.test/index.html?from=main"),
        ("e.test", "/main", 302, "http://e.test/index.html?from=main"),
        ("f.test", "/aliasmain", 302, "http://f.test/index.html?alias=f"),
    ] as [(String, String, Int, String?)])
    func theMainServersRulesAreMergedAsApacheMergesThem(_ host: String, _ path: String, _ status: Int, _ location: String?) {
        let conf = [
            "RewriteEngine On", "RewriteRule ^/main$ /index.html?from=main [R=302]", "Redirect /aliasmain /index.html?alias=main",
            "<VirtualHost *:80>", "ServerName a.test", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName b.test", "RewriteEngine On", "RewriteRule ^/b$ /index.html?from=b [R=302]", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName c.test", "RewriteEngine On", "RewriteOptions Inherit",
            "RewriteRule ^/main$ /index.html?from=c [R=302]", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName d.test", "RewriteOptions Inherit", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName e.test", "RewriteOptions InheritBefore", "RewriteEngine On",
            "RewriteRule ^/main$ /index.html?from=e [R=302]", "</VirtualHost>",
            "<VirtualHost *:80>", "ServerName f.test", "Redirect /aliasmain /index.html?alias=f", "</VirtualHost>",
        ]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let site = Site(serverName: host, files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: 80, host: host))
        let r = Origin(site: site).respond(to: OriginRequest(target: path, headers: [HTTPHeader("Host", host)]))
        #expect(r.status == status)
        #expect(r.location == location)
    }

    /// Apache merges each section over the whole main server, wherever its lines stand: a
    /// `RewriteEngine Off` below the section does not turn its engine off, a `DocumentRoot` below
    /// it is the default of a section without one (fixture vhost-main-lines-after-sections).
    @Test func mainServerLinesBelowASectionStillComeUnderIt() {
        let conf = ["<VirtualHost *:80>", "ServerName a.test", "RewriteEngine On", "RewriteRule ^/page$ /index.html [R=302]",
                    "</VirtualHost>", "<VirtualHost *:80>", "ServerName b.test", "DocumentRoot /var/www/html",
                    "</VirtualHost>", "RewriteEngine Off", "DocumentRoot /var/www/html/b"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addFile("/b/index.html")
        func site(_ host: String) -> Site {
            Site(serverName: host, files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: 80, host: host))
        }
        #expect(Origin(site: site("a.test")).respond(to: OriginRequest(target: "/page", headers: [HTTPHeader("Host", "a.test")])).location
                == "http://a.test/index.html")
        #expect(site("a.test").documentRoot == "/var/www/html/b")
        #expect(site("b.test").documentRoot == "/var/www/html")
    }

    /// A section without a single mod_rewrite line shares the main server's configuration and
    /// mod_rewrite's translate hook declines there: no rules, and `%f` of a `Redirect` unset
    /// (with rules that decline it is the URL-path); the main `RewriteEngine On` still is the
    /// per-directory default (fixture vhost-section-without-rewrite-directives).
    @Test func aSectionWithoutRewriteLinesRunsNoServerRewriting() {
        let conf = ["RewriteEngine On", "RewriteOptions Inherit", "RewriteRule ^/h$ /index.html [R=302]",
                    "<VirtualHost *:80>", "ServerName a.test", "Redirect /old /index.html", "</VirtualHost>",
                    "<VirtualHost *:80>", "ServerName b.test", "RewriteOptions Inherit", "Redirect /old /index.html", "</VirtualHost>"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        func answer(_ host: String, _ target: String) -> OriginResponse {
            let site = Site(serverName: host, files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: 80, host: host))
            return Origin(site: site).respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", host)]))
        }
        #expect(answer("a.test", "/h").status == 404)
        #expect(answer("a.test", "/old").final.filename == nil)
        #expect(answer("b.test", "/h").location == "http://b.test/index.html")
        #expect(answer("b.test", "/old").final.filename == "/old")
    }

    /// One mod_rewrite line inside the section's `<Directory>` gives it its own configuration, so
    /// the main server's inherited rules run (fixture vhost-rewrite-only-in-section-directory).
    @Test func aRewriteLineInTheSectionsDirectoryIsEnough() {
        let conf = ["RewriteEngine On", "RewriteOptions Inherit", "RewriteRule ^/h$ /index.html [R=302]",
                    "<VirtualHost *:80>", "<Directory /var/www/html>", "RewriteRule ^x$ index.html", "</Directory>", "</VirtualHost>"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let site = Site(serverName: "a.test", files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: 80, host: "a.test"))
        #expect(Origin(site: site).respond(to: OriginRequest(target: "/h", headers: [HTTPHeader("Host", "a.test")])).status == 302)
    }

    /// The main server's `DirectoryIndex` object already holds the server's list, which its lines
    /// extend (`disabled` alone clears it); a section's own list replaces it (fixture
    /// vhost-directory-index-main-and-section).
    @Test(arguments: [
        (["DirectoryIndex page.html"], "/index.html"), (["DirectoryIndex disabled", "DirectoryIndex page.html"], "/page.html"),
        (["DirectoryIndex index.php", "<VirtualHost *:80>", "DirectoryIndex page.html", "</VirtualHost>"], "/page.html"),
    ] as [([String], String)])
    func mainServerDirectoryIndexExtendsTheServersList(_ conf: [String], _ served: String) {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addFile("/page.html")
        let site = Site(serverName: "a.test", files: fs, vhostLines: conf + ["<VirtualHost *:443>", "</VirtualHost>"],
                        directoryIndex: ["index.html"], virtualHost: VirtualHostChoice(port: 80, host: "a.test"))
        #expect(Origin(site: site).respond(to: OriginRequest(target: "/", headers: [HTTPHeader("Host", "a.test")])).served == served)
    }

    /// ServerName keeps its case in self-referential URLs and %{SERVER_NAME}; it is compared
    /// without case when a section is picked (fixture vhost-servername-case).
    @Test func serverNameKeepsItsCase() {
        let conf = ["<VirtualHost *:80>", "ServerName WWW.Example.NET", "UseCanonicalName On", "Redirect /old /new.html",
                    "RewriteEngine On", "RewriteCond %{SERVER_NAME} =www.example.net", "RewriteRule ^/x$ /y [R=302]", "</VirtualHost>"]
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        let site = Site(serverName: "a.test", files: fs, vhostLines: conf, virtualHost: VirtualHostChoice(port: 80, host: "www.example.net"))
        #expect(site.canonicalHost == "www.example.net")
        #expect(site.serverHostName == "WWW.Example.NET")
        func answer(_ target: String) -> OriginResponse {
            Origin(site: site).respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "www.example.net")]))
        }
        #expect(answer("/old").location == "http://WWW.Example.NET/new.html")
        #expect(answer("/x").status == 404)
    }

    /// config_server_merge's order: the section's `Inherit` (or the main server's `InheritDown`)
    /// before `InheritBefore` (or `InheritDownBefore`); `IgnoreInherit` refuses only the downward
    /// ones (fixture vhost-rewrite-options-inherit-down).
    @Test(arguments: [
        ([], [], ConfigReader.RuleInheritance.none), (["inherit"], [], .after), (["inheritbefore"], [], .before),
        (["inherit", "inheritbefore"], [], .after), ([], ["inheritdown"], .after), ([], ["inheritdownbefore"], .before),
        (["inheritbefore"], ["inheritdown"], .after), (["ignoreinherit"], ["inheritdown"], .none),
        (["ignoreinherit", "inherit"], ["inheritdownbefore"], .after),
    ] as [(Set<String>, Set<String>, ConfigReader.RuleInheritance)])
    func whereTheMainServersRulesGo(_ section: Set<String>, _ main: Set<String>, _ expected: ConfigReader.RuleInheritance) {
        #expect(ConfigReader.inheritance(section, fromMain: main) == expected)
    }

    /// Recorded with `apache2 -t`: a section inside another, or inside `<Directory>`, stops the server.
    @Test func misplacedSectionsAreApachesErrors() {
        func errors(_ text: String) -> [String] {
            ConfigReader.read(SourceFile(path: "site.conf", text: text), context: .server).diagnostics
                .filter { $0.severity == .error }.map(\.message)
        }
        #expect(errors("<VirtualHost *:80>\n<VirtualHost *:443>\n</VirtualHost>\n</VirtualHost>")
                == ["<VirtualHost> cannot occur within <VirtualHost> section"])
        #expect(errors("<Directory /tmp>\n<VirtualHost *:80>\n</VirtualHost>\n</Directory>")
                == ["<VirtualHost not allowed in <Directory> context"])
        #expect(errors("<IfModule mod_ssl.c>\n<VirtualHost *:443>\n</VirtualHost>\n</IfModule>").isEmpty)
    }

    @Test(arguments: [("*:80", 80), ("[::1]:443", 443), ("_default_:443", 443), ("192.0.2.1:8080", 8080)])
    func addressesWithAPort(_ address: String, _ port: Int) {
        #expect(VirtualHosts.port(of: address) == port)
    }

    @Test(arguments: ["*", "_default_", "192.0.2.1", "[::1]"])
    func addressesWithoutAPortMatchAnyPort(_ address: String) {
        #expect(VirtualHosts.port(of: address) == nil)
    }
}
