import HtlintApache
@testable import HtlintSimulation

/// Small in-memory topologies in the notation of layers-and-mixed-content §16: a site for
/// `example.com` (alias `www.example.com`), `.htaccess` files by directory, layers, origin TLS.
enum Scenario {
    static let httpsRedirect = """
        RewriteEngine On
        RewriteCond %{HTTPS} off
        RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
        """

    static let wordpressBlock = """
        # BEGIN WordPress
        RewriteEngine On
        RewriteRule .* - [E=HTTP_AUTHORIZATION:%{HTTP:Authorization}]
        RewriteBase /
        RewriteRule ^index\\.php$ - [L]
        RewriteCond %{REQUEST_FILENAME} !-f
        RewriteCond %{REQUEST_FILENAME} !-d
        RewriteRule . /index.php [L]
        # END WordPress
        """

    static let wordpressFiles = ["/index.php", "/wp-login.php", "/wp-admin/index.php", "/wp-content/themes/t/style.css"]

    /// The site: `.htaccess` text by directory (`/`, `/blog`), files, vhost lines.
    static func source(_ htaccess: [String: String], files: [String] = ["/index.html", "/x", "/a", "/page", "/new"],
                       host: String = "example.com", aliases: [String] = ["www.example.com"], vhost: [String] = []) -> SiteSource {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        for (dir, text) in htaccess.sorted(by: { $0.key < $1.key }) {
            fs.addAccessFile(dir, displayPath: dir == "/" ? ".htaccess" : String(dir.dropFirst()) + "/.htaccess", text: text)
        }
        return SiteSource(serverName: host, aliases: aliases, files: fs, vhostLines: vhost)
    }

    static func simulator(_ htaccess: String?, layers: [any Layer] = [], tls: OriginServer.TLS = .valid,
                          app: WordPress? = nil, browser: Browser = .chrome,
                          files: [String] = ["/index.html", "/x", "/a", "/page", "/new"],
                          more: [String: String] = [:], vhost: [String] = []) -> ChainSimulator {
        var all = more
        if let htaccess { all["/"] = htaccess }
        return ChainSimulator(source: source(all, files: files, vhost: vhost), layers: layers,
                              originServer: OriginServer(tls: tls), app: app, browser: browser)
    }

    static func flexible(alwaysHTTPS: Bool = false) -> Edge { Edge(mode: .cloudflareFlexible, alwaysHTTPS: alwaysHTTPS) }

    /// Fixes for a chain, each one re-simulated independently of the finder.
    static func verifiedFixes(_ r: ChainResult, _ s: ChainSimulator) -> [Fix] {
        FixFinder.fixes(for: r, request: .init(url: r.request), simulator: s)
    }
}

extension ChainResult {
    var statuses: [Int] { hops.map(\.status) }
    var urls: [String] { hops.map(\.url) }
    var locations: [String?] { hops.map(\.location) }
}
