import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

// AllowOverride / AllowOverrideList in vhost `<Directory>` blocks decide whether a `.htaccess`
// is read and what it may contain; messages as recorded from Apache 2.4 in
// fixtures/apache/allowoverride-*.

/// The fatal message of `text` read as a `.htaccess` under the vhost lines' `<Directory>`.
private func fatal(_ text: String, allow: [String]) -> String? {
    var block = ConfigBlock()
    let vhost = ConfigReader.read(SourceFile(path: "<vhost>", text: (["<Directory /d>"] + allow + ["</Directory>"]).joined(separator: "\n")),
                                  context: .server)
    block = vhost.block.server?.directories.first?.block ?? block
    var allowed = AllowedOverrides.all
    allowed.apply(block)
    return ConfigReader.read(SourceFile(path: "/d/.htaccess", text: text), context: .htaccess, overrides: allowed).fatal?.message
}

struct AllowOverrideTests {
    @Test(arguments: [
        ("Options -Indexes", ["AllowOverride FileInfo"], "Options not allowed here"),
        ("RewriteEngine On", ["AllowOverride Indexes"], "RewriteEngine not allowed here"),
        ("RewriteEngine On", ["AllowOverride AuthConfig"], "RewriteEngine not allowed here"),
        ("Options +FollowSymLinks", ["AllowOverride Options=Indexes"], "Option FollowSymLinks not allowed here"),
        ("Options +MultiViews", ["AllowOverride Options"], "Option MultiViews not allowed here"),
        ("Options Includes", ["AllowOverride Options=IncludesNOEXEC"], "Option Includes not allowed here"),
        ("Redirect /a /b\nRewriteEngine On", ["AllowOverride None", "AllowOverrideList Redirect"], "RewriteEngine not allowed here"),
        ("<Files x>\nRewriteEngine On\n</Files>", ["AllowOverride Indexes"], "RewriteEngine not allowed in <Files> context"),
        ("<If \"true\">\nRedirect /a /b\n</If>", ["AllowOverride Indexes"], "Redirect not allowed in <If> context"),
        ("<IfModule mod_rewrite.c>\nRewriteEngine On\n</IfModule>", ["AllowOverride Indexes"], "RewriteEngine not allowed here"),
        ("<IfModule mod_alias.c>\nRedirect /a /b\n</IfModule>", ["AllowOverride None", "AllowOverrideList Redirect"],
         "<IfModule not allowed here"),
        ("<Limit GET>\nRequire all granted\n</Limit>", ["AllowOverride FileInfo"], "<Limit not allowed here"),
        // Recorded: allowoverride-satisfy-is-authconfig, access-requireall-refuses-other-directives.
        ("Satisfy any", ["AllowOverride Limit"], "Satisfy not allowed here"),
        ("Order allow,deny", ["AllowOverride AuthConfig"], "order not allowed here"),
        ("<RequireAll>\nRequire all granted\nOptions -Indexes\n</RequireAll>", ["AllowOverride All"],
         "Options not allowed in <RequireAll> context"),
        ("<RequireAny>\nRequire all granted\nRewriteEngine On\n</RequireAny>", ["AllowOverride All"],
         "RewriteEngine not allowed in <RequireAny> context"),
        ("<RequireAll>\nRequire all granted\nDeny from all\n</RequireAll>", ["AllowOverride All"],
         "deny not allowed in <RequireAll> context"),
    ])
    func refused(_ text: String, _ allow: [String], _ message: String) {
        #expect(fatal(text, allow: allow) == message)
    }

    @Test(arguments: [
        ("Options -Indexes\nRedirect /a /b", ["AllowOverride Options FileInfo"]),
        ("Options Indexes MultiViews", ["AllowOverride Options=Indexes,MultiViews"]),
        ("Options All", ["AllowOverride Options"]),
        ("Redirect /a /b", ["AllowOverride None", "AllowOverrideList Redirect"]),
        ("<Files x>\nRequire all denied\n</Files>", ["AllowOverride AuthConfig"]),
        ("<Limit GET>\nRequire all granted\n</Limit>", ["AllowOverride AuthConfig"]),
        ("Options -Indexes\nRedirect /a /b", ["AllowOverride FileInfo Nonfatal=Override"]),
        ("Bogus\nRedirect /a /b", ["AllowOverride FileInfo Nonfatal=Unknown"]),
        ("Satisfy any", ["AllowOverride AuthConfig"]),
        ("<RequireAny>\nRequire all granted\nSatisfy any\nAuthMerging And\n</RequireAny>", ["AllowOverride AuthConfig"]),
    ])
    func accepted(_ text: String, _ allow: [String]) {
        #expect(fatal(text, allow: allow) == nil)
    }

    @Test func nonfatalOverrideSkipsWithAWarning() {
        var allowed = AllowedOverrides.all
        allowed.categories = [.fileInfo]
        allowed.nonfatalOverride = true
        let file = ConfigReader.read(SourceFile(path: "/d/.htaccess", text: "Options -Indexes\nRedirect /a /b"),
                                     context: .htaccess, overrides: allowed)
        #expect(file.diagnostics.map(\.message) == ["Options in .htaccess forbidden by AllowOverride"])
        #expect(file.block.options.isEmpty)
        #expect(file.block.redirects.count == 1)
    }

    @Test func illegalOverrideWordIsAServerError() {
        let vhost = ConfigReader.read(SourceFile(path: "<vhost>", text: "<Directory /d>\nAllowOverride FileInfo Bogus\n</Directory>"),
                                      context: .server)
        #expect(vhost.fatal?.message == "Illegal override option Bogus")
    }

    @Test func nearestDirectoryWinsAndClassesAndListInheritSeparately() {
        let site = Site(serverName: "shop.example", files: SiteFileSystem(root: "/var/www/html"), vhostLines: [
            "<Directory ${DOCROOT}/a>", "AllowOverride None", "AllowOverrideList Redirect", "</Directory>",
            "<Directory ${DOCROOT}/a/b>", "AllowOverride FileInfo", "</Directory>",
            "<Directory ${DOCROOT}/o>", "AllowOverride Options=Indexes", "</Directory>",
            "<Directory ${DOCROOT}/o/p/>", "AllowOverride AuthConfig", "</Directory>",
        ])
        #expect(site.allowedOverrides(forDirectory: "/var/www/html/") == .all)
        #expect(site.allowedOverrides(forDirectory: "/var/www/") == .none)
        let a = site.allowedOverrides(forDirectory: "/var/www/html/a/x/")
        #expect(a.categories.isEmpty && a.list == ["redirect"] && a.readsFiles)
        let b = site.allowedOverrides(forDirectory: "/var/www/html/a/b/")
        #expect(b.categories == [.fileInfo] && b.list == ["redirect"])
        // AllowOverride AuthConfig replaces the classes but keeps the inherited Options= list.
        let p = site.allowedOverrides(forDirectory: "/var/www/html/o/p/")
        #expect(p.categories == [.authConfig] && p.options == ["indexes"])
    }

    @Test func noneLeavesTheFileUnreadAndRequestsServed() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/none/x")
        fs.addFile("/fi/x")
        fs.addAccessFile("/none", displayPath: "/var/www/html/none/.htaccess", text: "garbage directive\nRedirect 302 /none/x /y")
        fs.addAccessFile("/fi", displayPath: "/var/www/html/fi/.htaccess", text: "Options -Indexes")
        let site = Site(serverName: "shop.example", files: fs, vhostLines: [
            "<Directory ${DOCROOT}/none>", "AllowOverride None", "</Directory>",
            "<Directory ${DOCROOT}/fi>", "AllowOverride FileInfo", "</Directory>",
        ])
        #expect(site.accessConfigs.keys.sorted() == ["/var/www/html/fi/"])
        let origin = Origin(site: site)
        let none = origin.respond(to: OriginRequest(target: "/none/x", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(none.status == 200 && none.served == "/none/x" && none.errors.isEmpty)
        let fi = origin.respond(to: OriginRequest(target: "/fi/x", headers: [HTTPHeader("Host", "shop.example")]))
        #expect(fi.status == 500)
        #expect(fi.final.filename == "/fi/")
        #expect(fi.errors == ["alert: /var/www/html/fi/.htaccess: Options not allowed here"])
    }
}
