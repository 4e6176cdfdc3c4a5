import Foundation
import Testing
import HtlintCLI

/// `lint --vhost`: a `.htaccess` that `AllowOverride None` keeps Apache from opening is not
/// linted, not even for syntax errors (the case diffhunt/allowoverride-limits); HT223 says once
/// that it is not read.
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
        // The file Apache reads is still reported; the one it never opens only as not read.
        #expect(o.stdout.contains("fi/.htaccess:1:1"))
        let unread = o.stdout.split(separator: "\n").filter { $0.contains("none/.htaccess") }
        #expect(unread.count == 1, "\(o.stdout)")
        #expect(unread.first?.contains("HT223") == true && unread.first?.contains("<Directory /var/www/html/none>") == true, "\(o.stdout)")
    }

    /// `AccessFileName .config` next to a `.htaccess` (fixture allowoverride-accessfilename-vhost):
    /// the site listed `.config` twice and lint crashed on a duplicate key. Apache reads `.config`
    /// once: recorded, /b is rewritten by it to t2.html.
    @Test func otherAccessFileNameNextToHtaccessIsLintedOnce() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-accessfilename-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = dir.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "RewriteEngine On\nRewriteRule ^a$ t1.html [L]\n".write(to: root.appendingPathComponent(".htaccess"), atomically: true, encoding: .utf8)
        try "RewriteEngine On\nRewriteRule ^b$ t2.html [R]\n".write(to: root.appendingPathComponent(".config"), atomically: true, encoding: .utf8)
        let vhost = dir.appendingPathComponent("vhost.conf")
        try "AccessFileName .config\n".write(to: vhost, atomically: true, encoding: .utf8)
        let o = runCLI(["lint", "--docroot", root.path, "--host", "shop.example", "--vhost", vhost.path, "--format", "concise"],
                       environment: .live)
        // HT202 on the [R] without [L], once, in .config; .htaccess is not read.
        #expect(o.stdout.components(separatedBy: "HT202").count == 2, "\(o.stdout)")
        #expect(o.stdout.contains(".config:2:1"), "\(o.stdout)")
        #expect(!o.stdout.contains(".htaccess"), "\(o.stdout)")
    }
}
