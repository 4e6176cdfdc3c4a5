import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintGraph

/// In-memory sites for the graph tests.
enum TestSites {
    /// A site whose root `.htaccess` is `htaccess`, with `files` (URL-paths) and optional
    /// sub-directory `.htaccess` files.
    static func simulator(_ htaccess: String, host: String = "example.com", aliases: [String] = ["www.example.com"],
                          files: [String] = ["/index.html"], subdirectories: [String: String] = [:],
                          edge: String = "none", vhostLines: [String] = []) -> ChainSimulator {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in files { fs.addFile(f) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", text: htaccess))
        for (dir, text) in subdirectories {
            fs.addDirectory(dir)
            fs.addAccessFile(dir, file: SourceFile(path: String(dir.dropFirst()) + "/.htaccess", text: text))
        }
        let site = Site(serverName: host, aliases: aliases, files: fs, vhostLines: vhostLines)
        return ChainSimulator(origin: Origin(site: site), edge: Edge(name: edge)!)
    }

    static func analysis(_ htaccess: String, host: String = "example.com", aliases: [String] = ["www.example.com"],
                         files: [String] = ["/index.html"], subdirectories: [String: String] = [:],
                         edge: String = "none", vhostLines: [String] = []) -> GraphAnalysis {
        SiteAnalyzer(simulator: simulator(htaccess, host: host, aliases: aliases, files: files,
                                          subdirectories: subdirectories, edge: edge, vhostLines: vhostLines)).analyze()
    }

    // MARK: - Acceptance cases: loops outside the default probes

    /// Only `^shop/[0-9]+/?$` loops: slashes are stripped everywhere, product pages get one back.
    static let shopLoop = """
        RewriteEngine On
        # Strip trailing slashes (but not from directories)
        RewriteCond %{REQUEST_FILENAME} !-d
        RewriteRule ^(.*)/$ /$1 [R=301,L]
        # Product pages of the old shop software need a trailing slash
        RewriteCond %{REQUEST_URI} ^/shop/[0-9]+$
        RewriteRule ^ %{REQUEST_URI}/ [R=301,L]
        """
    static let shopLoopFixed = """
        RewriteEngine On
        # Strip trailing slashes (but not from directories or product pages)
        RewriteCond %{REQUEST_FILENAME} !-d
        RewriteCond %{REQUEST_URI} !^/shop/[0-9]+/$
        RewriteRule ^(.*)/$ /$1 [R=301,L]
        # Product pages of the old shop software need a trailing slash
        RewriteCond %{REQUEST_URI} ^/shop/[0-9]+$
        RewriteRule ^ %{REQUEST_URI}/ [R=301,L]
        """

    /// Only the `shop.example.com` host (under `ServerAlias *.example.com`) loops.
    static let aliasLoop = """
        RewriteEngine On
        # Every host gets its www. prefix
        RewriteCond %{HTTP_HOST} !^www\\. [NC]
        RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
        # ... except the shop, which moved to its bare host name
        RewriteCond %{HTTP_HOST} ^www\\.shop\\.example\\.com$ [NC]
        RewriteRule ^(.*)$ https://shop.example.com/$1 [R=301,L]
        """
    static let aliasLoopFixed = """
        RewriteEngine On
        # Every host but the shop gets its www. prefix
        RewriteCond %{HTTP_HOST} !^www\\. [NC]
        RewriteCond %{HTTP_HOST} !^shop\\.example\\.com$ [NC]
        RewriteRule ^(.*)$ https://www.%{HTTP_HOST}/$1 [R=301,L]
        # The shop moved to its bare host name
        RewriteCond %{HTTP_HOST} ^www\\.shop\\.example\\.com$ [NC]
        RewriteRule ^(.*)$ https://shop.example.com/$1 [R=301,L]
        """
    static let aliasHosts = ["*.example.com"]

    /// Only requests with tracking parameters loop: the redirect keeps the query string.
    static let queryLoop = """
        RewriteEngine On
        # Drop tracking parameters (the trailing ? that clears the query is missing)
        RewriteCond %{QUERY_STRING} (^|&)utm_[a-z]+= [NC]
        RewriteRule ^(.*)$ /$1 [R=301,L]
        """
    static let queryLoopFixed = """
        RewriteEngine On
        # Drop tracking parameters
        RewriteCond %{QUERY_STRING} (^|&)utm_[a-z]+= [NC]
        RewriteRule ^(.*)$ /$1? [R=301,L]
        """
}
