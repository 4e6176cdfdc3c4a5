import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Fuzz 34: HTTPS, host, slash, alias and access stories mutated from the shared corpus, plus
/// generated CMS and pair sites, each disagreement recorded from Apache 2.4 (the fixtures named
/// on each test).
struct Fuzz34RegressionTests {
    func respond(_ target: String, vhost: [String], files: [String]) -> OriginResponse {
        respondOnSite(target, host: "example.org", vhost: vhost, files: files)
    }

    /// fixtures/apache/rewrite-server-dot-segment-from-expansion: a server rule's result whose
    /// first segment is `.` or `..` is a filesystem path (prefix_stat finds the root) as soon as
    /// the substitution writes its leading slash, even when `$1`, `%1` or a variable produced the
    /// segment: `/../about/` is `/about`, outside the document root, denied (AH01630), not the
    /// AH00127 of a merge onto the document root. A first segment like `etc` must still be
    /// literal, and a substitution without the literal slash still joins the document root.
    @Test func dotSegmentFromAnExpansionIsAFilesystemPath() {
        let vhost = ["RewriteEngine On",
                     "RewriteRule ^/r2$ ../about.html",
                     "RewriteRule ^/r3$ ../about.html [L]",
                     "RewriteRule ^/r4$ /..%{ENV:NOPE}/about/ [L]",
                     "RewriteRule ^/r5$ /%{ENV:NOPE}../about/ [L]",
                     "RewriteRule ^/r6$ /%{ENV:NOPE}etc/x [L]",
                     "RewriteRule ^/p1$ /%{ENV:NOPE}./etc/x [L]",
                     "RewriteRule ^/p2$ /%{ENV:NOPE}etc/../a.html [L]",
                     "RewriteCond %{QUERY_STRING} (.*)",
                     "RewriteRule ^/p5$ /%1? [L]",
                     "RewriteRule ^/p6$ %{ENV:NOPE}/../a.html [L]",
                     "RewriteRule ^/p7$ /..%{ENV:NOPE} [L]",
                     "RewriteRule ^/p8$ /.%{ENV:NOPE}./a.html [L]",
                     "RewriteRule ^/p11$ /%{ENV:NOPE}.../a.html [L]",
                     "RewriteRule (.*)\\.html$ /$1/"]
        let files = ["/index.html", "/a.html", "/etc/x"]
        let expected: [(String, Int, String?, [String])] = [
            ("/r2", 403, "/about", ["AH01630"]),
            ("/r3", 403, "/../about.html", ["AH00127"]),
            ("/r4", 403, "/about", ["AH01630"]),
            ("/r5", 403, "/about", ["AH01630"]),
            ("/r6", 200, "/etc/x", []),
            ("/p1", 403, "/etc/x", ["AH01630"]),
            ("/p2", 200, "/a.html", []),
            ("/p5?../a.html", 403, "/a.html", ["AH01630"]),
            ("/p6", 403, "/../a.html", ["AH00127"]),
            ("/p7", 403, "/", ["AH01630"]),
            ("/p8", 403, "/a.html", ["AH01630"]),
            ("/p11", 404, "/...", []),
        ]
        for (target, status, filename, codes) in expected {
            let r = respond(target, vhost: vhost, files: files)
            #expect(r.status == status, "\(target)")
            #expect(r.final.filename == filename, "\(target)")
            #expect(r.errorCodes == codes, "\(target)")
        }
    }

    /// A site whose Apache listens on `address` (127.0.0.2 behind the recordings' edge).
    func respond(_ target: String, host: String, tls: Bool = false, address: String = "127.0.0.1", vhost: [String],
                 files: [String]) -> OriginResponse {
        respondOnSite(target, serverName: "example.org", host: host, vhost: vhost, files: files, tls: tls, serverAddress: address)
    }

    /// fixtures/apache/vhost-usecanonicalname-dns-local-address: under `UseCanonicalName DNS`
    /// ap_get_server_name is the connection's local address looked up by name (127.0.0.1 is
    /// `localhost` on the recording host), whatever the Host header, whose port still counts; a
    /// `<Directory>` with `UseCanonicalName Off` takes the Host header again.
    @Test func useCanonicalNameDNSNamesTheLocalAddress() {
        let vhost = ["UseCanonicalName DNS", "<Directory /var/www/html/sec>", "UseCanonicalName Off", "</Directory>",
                     "RewriteEngine On", "RewriteRule ^/sn$ /index.html?%{SERVER_NAME}:%{SERVER_PORT} [R=302,L]"]
        let files = ["/index.html", "/dir/index.html", "/sec/index.html"]
        #expect(respond("/dir", host: "example.org", vhost: vhost, files: files).location == "http://localhost/dir/")
        #expect(respond("/dir", host: "www.example.org", tls: true, vhost: vhost, files: files).location == "https://localhost/dir/")
        #expect(respond("/dir", host: "www.example.org:8080", vhost: vhost, files: files).location == "http://localhost:8080/dir/")
        #expect(respond("/dir", host: "WWW.Example.org.", vhost: vhost, files: files).location == "http://localhost/dir/")
        #expect(respond("/sec", host: "www.example.org", vhost: vhost, files: files).location == "http://www.example.org/sec/")
        #expect(respond("/sn", host: "example.org", vhost: vhost, files: files).location == "http://localhost/index.html?localhost:80")
        #expect(respond("/sn", host: "www.example.org", tls: true, vhost: vhost, files: files).location
                == "https://localhost/index.html?localhost:443")
    }

    /// fixtures/apache/https-usecanonicalname-dns-behind-edge: behind the edge Apache is on
    /// 127.0.0.2, which has no name; apr_getnameinfo fails (NI_NAMEREQD) and ServerName stands in,
    /// with the Host header's port. A `<Directory>`'s DNS counts below it only.
    @Test func useCanonicalNameDNSWithoutANameIsTheServerName() {
        let vhost = ["<Directory /var/www/html/sec>", "UseCanonicalName DNS", "</Directory>", "RewriteEngine On",
                     "RewriteRule ^/sn$ /index.html?%{SERVER_NAME}:%{SERVER_PORT} [R=302,L]"]
        let files = ["/index.html", "/dir/index.html", "/sec/index.html"]
        let dns = ["UseCanonicalName DNS"] + vhost
        #expect(respond("/dir", host: "www.example.org", tls: true, address: "127.0.0.2", vhost: dns, files: files).location
                == "https://example.org/dir/")
        #expect(respond("/dir", host: "www.example.org:8443", tls: true, address: "127.0.0.2", vhost: dns, files: files).location
                == "https://example.org:8443/dir/")
        #expect(respond("/sn", host: "www.example.org", tls: true, address: "127.0.0.2", vhost: dns, files: files).location
                == "https://example.org/index.html?example.org:443")
        #expect(respond("/dir", host: "www.example.org", address: "127.0.0.2", vhost: vhost, files: files).location
                == "http://www.example.org/dir/")
        #expect(respond("/sec", host: "www.example.org", address: "127.0.0.2", vhost: vhost, files: files).location
                == "http://example.org/sec/")
        #expect(respond("/sn", host: "www.example.org", address: "127.0.0.2", vhost: vhost, files: files).location
                == "http://www.example.org/index.html?www.example.org:80")
    }

    /// fixtures/apache/section-usecanonicalname-dns-in-sections: DNS set by a `<Location>`, an
    /// `<If>` or a `<Directory>` counts for the requests under it only (a `<Location>`'s already for
    /// translate_name's Redirect and the server rules; a `<Directory>`'s for `.htaccess` rules).
    @Test func useCanonicalNameDNSInSections() {
        let vhost = ["<Location /loc>", "UseCanonicalName DNS", "</Location>", "<If \"%{QUERY_STRING} =~ /dns/\">",
                     "UseCanonicalName DNS", "</If>", "<Directory /var/www/html/sub>", "UseCanonicalName DNS", "</Directory>",
                     "Redirect 302 /old /index.html", "<Location /old2>", "UseCanonicalName DNS", "</Location>",
                     "Redirect 302 /old2 /index.html", "RewriteEngine On", "RewriteRule ^/loc/sn$ /index.html?%{SERVER_NAME} [R=302,L]"]
        let files = ["/index.html", "/dir/index.html", "/loc/index.html", "/sub/dir/index.html"]
        let access = [("/sub", "RewriteEngine On\nRewriteRule ^x$ /index.html?%{SERVER_NAME} [R=302,L]\n")]
        func location(_ target: String) -> String? {
            respondOnSite(target, serverName: "example.org", host: "www.example.org", vhost: vhost, access: access, files: files).location
        }
        #expect(location("/loc") == "http://localhost/loc/")
        #expect(location("/loc/sn") == "http://localhost/index.html?localhost")
        #expect(location("/dir?dns=1") == "http://localhost/dir/?dns=1")
        #expect(location("/dir") == "http://www.example.org/dir/")
        #expect(location("/sub/dir") == "http://localhost/sub/dir/")
        #expect(location("/sub/x") == "http://localhost/index.html?localhost")
        #expect(location("/old") == "http://www.example.org/index.html")
        #expect(location("/old2") == "http://localhost/index.html")
    }
}
