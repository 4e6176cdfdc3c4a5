import HtlintDiagnostics
import HtlintSyntax
import Testing
@testable import HtlintApache

// RewriteBase is refused only where Apache's cmd->path is NULL (vhost level); inside a vhost
// `<Directory>` it is the base of that block's rules (fixtures/apache/rewrite-base-vhost-directory*).
struct VhostDirectoryRewriteBaseTests {
    private func server(_ lines: [String]) -> ConfigFile {
        ConfigReader.read(SourceFile(path: "<vhost>", text: lines.joined(separator: "\n")), context: .server)
    }

    @Test func acceptedInDirectoryRefusedAtVhostLevel() {
        let inDir = server(["<Directory /var/www/html/sub>", "<IfModule rewrite_module>", "RewriteBase /base/",
                            "</IfModule>", "</Directory>"])
        #expect(inDir.diagnostics.isEmpty)
        #expect(inDir.block.server?.directories.first?.block.rewrite?.base == "/base/")
        let top = server(["RewriteBase /base/"])
        #expect(top.diagnostics.map(\.message) == ["RewriteBase: only valid in per-directory config files"])
    }

    @Test func internalRewriteUsesTheBase() {
        let r = respond("/sub/x", vhost: ["<Directory /var/www/html/sub>", "RewriteEngine On", "RewriteBase /base/",
                                          "RewriteRule ^x$ y.html [L]", "</Directory>"],
                        files: ["/sub/y.html", "/base/y.html"])
        #expect(r.status == 200)
        #expect(r.final.filename == "/base/y.html")
    }

    @Test func redirectUsesTheBase() {
        let r = respond("/sub/r", vhost: ["<Directory /var/www/html/sub>", "RewriteEngine On", "RewriteBase /base/",
                                          "RewriteRule ^r$ y.html [R=302,L]", "</Directory>"],
                        files: ["/sub/y.html", "/base/y.html"])
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/base/y.html")
    }
}
