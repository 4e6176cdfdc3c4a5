import Testing
import HtlintApache
@testable import HtlintCLI

/// Replay caches a request's answer only when no part of the configuration reads the clock:
/// a `%{TIME…}` anywhere the engine expands makes answers differ from one second to the next.
struct ReplayCacheabilityTests {
    func site(_ htaccess: String, vhost: [String] = []) -> Site {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        return Site(serverName: "example.com", files: fs, vhostLines: vhost)
    }

    @Test(arguments: [
        "RewriteEngine On\nRewriteRule ^a$ /b?t=%{TIME} [R=302,L]",
        "RewriteEngine On\nRewriteCond %{TIME_HOUR} <12\nRewriteRule ^a$ /b [L]",
        "RewriteEngine On\nRewriteRule ^ - [E=T:%{TIME}]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:%{TIME_SEC}:example.com]",
        "RewriteEngine On\nRewriteRule ^a$ /b?m=${map:%{TIME}|x} [L]",
        "RewriteEngine On\nRewriteCond expr \"%{TIME_HOUR} -lt 12\"\nRewriteRule ^a$ /b [L]",
        "<If \"%{REQUEST_URI} == '/a'\">\nRewriteEngine On\nRewriteRule ^ /b?t=%{TIME} [L]\n</If>",
        "<Files a.html>\nRewriteEngine On\nRewriteRule ^ /b?t=%{TIME_MIN} [L]\n</Files>",
    ])
    func clockReadingConfigurationIsNotCached(_ htaccess: String) {
        #expect(!Replayer.canCache(site(htaccess)))
    }

    @Test func clockFreeConfigurationIsCached() {
        #expect(Replayer.canCache(site("RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.\nRewriteRule ^(.*)$ /x/$1?h=%{HTTP_HOST} [R=301,L]")))
    }
}
