import Testing
import HtlintApache
import HtlintSimulation

/// Replay keeps a request's chain for repeated log lines only when no answer in it read the
/// clock: a `%{TIME…}` the engine expands, or a cookie's expiry, makes answers differ from one
/// second to the next. Only what a request actually reads counts.
struct ReplayCacheabilityTests {
    func chain(_ htaccess: String, _ path: String = "/a") -> ChainResult {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        fs.addFile("/a.html")
        fs.addAccessFile("/", displayPath: ".htaccess", text: htaccess)
        let site = Site(serverName: "example.com", files: fs, vhostLines: ["RewriteMap m int:tolower"])
        return ChainSimulator(origin: Origin(site: site, tracing: false), edge: Edge(mode: .none)).run("http://example.com" + path)
    }

    @Test(arguments: [
        "RewriteEngine On\nRewriteRule ^a$ /b?t=%{TIME} [R=302,L]",
        "RewriteEngine On\nRewriteCond %{TIME_HOUR} <99\nRewriteRule ^a$ /index.html [L]",
        "RewriteEngine On\nRewriteRule ^ - [E=T:%{TIME}]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:%{TIME_SEC}:example.com]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:1:example.com:60]",
        "RewriteEngine On\nRewriteRule ^a$ /index.html?m=${m:%{TIME}|x} [L]",
        "RewriteEngine On\nRewriteCond expr \"%{TIME_HOUR} -lt 99\"\nRewriteRule ^a$ /index.html [L]",
        "<If \"%{REQUEST_URI} == '/a'\">\nRewriteEngine On\nRewriteRule ^ /index.html?t=%{TIME} [L]\n</If>",
        "<If \"%{TIME_YEAR} -gt 2000\">\nHeader set X-Y y\n</If>",
    ])
    func anAnswerThatReadsTheClockIsNotKept(_ htaccess: String) {
        #expect(chain(htaccess).readsClock)
    }

    @Test(arguments: [
        "RewriteEngine On\nRewriteCond %{HTTP_HOST} ^www\\.\nRewriteRule ^(.*)$ /x/$1?h=%{HTTP_HOST} [R=301,L]",
        "RewriteEngine On\nRewriteRule ^ - [CO=t:1:example.com]",
        // The clock is read only by the request that reaches the rule.
        "RewriteEngine On\nRewriteRule ^never$ /b?t=%{TIME} [R=302,L]",
    ])
    func anAnswerThatDoesNotIsKept(_ htaccess: String) {
        let result = chain(htaccess)
        #expect(result.hops.count >= 1)
        #expect(!result.readsClock)
    }
}
