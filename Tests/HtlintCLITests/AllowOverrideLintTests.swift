import Foundation
import Testing
import HtlintCLI

/// `lint --vhost`: a `.htaccess` that `AllowOverride None` keeps Apache from opening has no
/// findings, not even syntax errors (the case diffhunt/allowoverride-limits).
struct AllowOverrideLintTests {
    @Test func unreadHtaccessIsNotLinted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-allowoverride-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("site")
        for sub in ["none", "fi"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(sub), withIntermediateDirectories: true)
            try "garbage directive here\n".write(to: root.appendingPathComponent(sub + "/.htaccess"), atomically: true, encoding: .utf8)
        }
        try "ok\n".write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let vhost = dir.appendingPathComponent("vhost.conf")
        try "<Directory /var/www/html/none>\nAllowOverride None\n</Directory>\n<Directory /var/www/html/fi>\nAllowOverride FileInfo\n</Directory>\n"
            .write(to: vhost, atomically: true, encoding: .utf8)
        let o = runCLI(["lint", "--docroot", root.path, "--host", "shop.example", "--vhost", vhost.path, "--format", "concise"],
                       environment: .live)
        // The file Apache reads is still reported; the one it never opens is not.
        #expect(o.stdout.contains("fi/.htaccess:1:1"))
        #expect(!o.stdout.contains("none/.htaccess"), "\(o.stdout)")
    }
}
