import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

/// Hunt 38: rules in the server configuration (virtual hosts), each recorded with Apache 2.4.
struct Hunt38RegressionTests {
    func respond(_ target: String, vhost: [String], access: [(String, String)] = [], files: [String]) -> OriginResponse {
        respondOnSite(target, host: "www.shop.example", vhost: vhost, access: access, files: files)
    }

    /// fixtures/apache/section-directory-usecanonicalname: UseCanonicalName is per-directory
    /// (RSRC_CONF|ACCESS_CONF); a `<Directory>`'s applies once the walk merged it (mod_dir, its
    /// `.htaccess`), a `<Location>`'s already to server-context rules, each only under the section.
    @Test func useCanonicalNameInSections() {
        let vhost = ["<Directory /var/www/html/dir>", "UseCanonicalName On", "</Directory>",
                     "<Location /loc>", "UseCanonicalName On", "</Location>", "RewriteEngine On",
                     "RewriteRule ^/loc/sn$ /index.html?%{SERVER_NAME} [R=302,L]", "Redirect 302 /dir/old /dir/b.html"]
        let access = [("/dir", "RewriteEngine On\nRewriteRule ^x$ /index.html [R=302]\n")]
        let files = ["/index.html", "/dir/index.html", "/dir/b.html", "/other/index.html"]
        #expect(respond("/dir", vhost: vhost, files: files).location == "http://shop.example/dir/")
        #expect(respond("/other", vhost: vhost, files: files).location == "http://www.shop.example/other/")
        #expect(respond("/loc/sn", vhost: vhost, files: files).location == "http://shop.example/index.html?shop.example")
        #expect(respond("/dir/x", vhost: vhost, access: access, files: files).location == "http://shop.example/index.html")
        #expect(respond("/dir/old", vhost: vhost, files: files).location == "http://www.shop.example/dir/b.html")
    }

    /// fixtures/apache/section-directory-canonical-physical-port: UseCanonicalPhysicalPort is
    /// per-directory too; under a ServerName without a port it puts the connection's port (80)
    /// into mod_dir's redirect only below its `<Directory>`.
    @Test func useCanonicalPhysicalPortInADirectory() {
        let vhost = ["ServerName https://shop.example", "UseCanonicalName On",
                     "<Directory /var/www/html/dir>", "UseCanonicalPhysicalPort On", "</Directory>"]
        let files = ["/dir/index.html", "/sub/index.html"]
        #expect(respond("/dir", vhost: vhost, files: files).location == "https://shop.example:80/dir/")
        #expect(respond("/sub", vhost: vhost, files: files).location == "https://shop.example/sub/")
    }

    /// ServerAlias outside every `<VirtualHost>` (the main server): Apache refuses to start.
    @Test func serverAliasInTheMainServer() {
        let main = ConfigReader.read(SourceFile(path: "site.conf", text: "ServerAlias www.example.com\n<VirtualHost *:80>\nServerAlias a.example\n</VirtualHost>"),
                                     context: .server)
        #expect(main.diagnostics.filter { $0.severity == .error }.map(\.message) == ["ServerAlias only used in <VirtualHost>"])
        let lines = Site(serverName: "example.com", files: SiteFileSystem(root: "/var/www/html"), vhostLines: ["ServerAlias www.example.com"])
        #expect(lines.vhost.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    /// Apache refuses to start on a UseCanonicalName that is not On, Off or DNS.
    @Test func useCanonicalNameValues() {
        let read = ConfigReader.read(SourceFile(path: "site.conf", text: "UseCanonicalName Maybe"), context: .server)
        #expect(read.diagnostics.filter { $0.severity == .error }.map(\.message) == ["parameter must be 'on', 'off', or 'dns'"])
        let dns = ConfigReader.read(SourceFile(path: "site.conf", text: "UseCanonicalName DNS"), context: .server)
        #expect(dns.diagnostics.isEmpty)
    }

    /// A `<Directory>`/`<Location>` section (RSRC_CONF) inside a per-directory section, and a
    /// `<Files>` inside a `<Location>`: Apache refuses to start; `<Files>`/`<If>` elsewhere are read.
    @Test(arguments: [
        ("<Location />", "<Directory /tmp>", "<Directory not allowed in <Location> context"),
        ("<Directory /var/www/html>", "<LocationMatch ^/x>", "<LocationMatch not allowed in <Directory> context"),
        ("<If \"true\">", "<Location /x>", "<Location not allowed in <If> context"),
        ("<FilesMatch x>", "<DirectoryMatch ^/tmp>", "<DirectoryMatch not allowed in <FilesMatch> context"),
        ("<LocationMatch ^/>", "<Files y>", "<Files> cannot occur within <LocationMatch> section"),
        ("<Directory /var/www/html>", "<Files y>", nil), ("<Location />", "<If \"true\">", nil), ("<Files x>", "<Files y>", nil),
    ] as [(String, String, String?)])
    func sectionsInsideSections(_ outer: String, _ inner: String, _ message: String?) {
        func close(_ open: String) -> String { "</" + open.dropFirst().prefix { $0 != " " && $0 != ">" } + ">" }
        let text = ["<VirtualHost *:80>", outer, inner, "Header set X-E a", close(inner), close(outer), "</VirtualHost>"]
        let read = ConfigReader.read(SourceFile(path: "site.conf", text: text.joined(separator: "\n")), context: .server)
        #expect(read.diagnostics.filter { $0.severity == .error }.map(\.message) == (message.map { [$0] } ?? []))
    }
}
