import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 22 (random mod_rewrite / mod_alias cases); every
/// expected value was recorded from Apache 2.4 (the fixtures named on each test).
struct Hunt22RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)]) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "shop.example")
    }

    /// fixtures/apache/rewrite-cond-la-f-path-info-bad-escape: per directory the look-aheads
    /// look up the filename plus the path info; a file look-up outside the current file's
    /// directory has an empty URI, and its path is unescaped: a bad escape fails it (AH10244).
    @Test func lookAheadsCarryThePathInfo() {
        let o = site("""
            RewriteEngine On
            RewriteCond %{LA-F:REQUEST_FILENAME}|%{LA-F:REQUEST_URI}|%{LA-F:PATH_INFO}|%{LA-U:REQUEST_FILENAME}|%{LA-U:REQUEST_URI} ^(.*)$
            RewriteRule ^(old|a\\.html|dir|zz) /b.html?v=%1 [R,L,NE]

            """, files: [("/a.html", 0), ("/dir/x.html", 0)])
        #expect(respond(o, "/a.html/extra").location
                == "http://shop.example/b.html?v=/var/www/html/a.html||/extra|/var/www/html/var|/var/www/html/a.html/extra")
        #expect(respond(o, "/dir/x.html").location
                == "http://shop.example/b.html?v=/var/www/html/dir/x.html|/dir/x.html||/var/www/html/var|/var/www/html/dir/x.html")
        let bad = respond(o, "/old/%25")
        #expect(bad.location == "http://shop.example/b.html?v=/var/www/html/old/%||||/var/www/html/old/%")
        #expect(bad.errorCodes == Array(repeating: "AH10244", count: 5))
    }

    /// fixtures/apache/rewrite-cond-la-f-path-info-trailing-slash: the file look-up keeps a
    /// trailing slash (apr_filepath_merge): in the path info and in a directory's filename.
    @Test func fileLookAheadKeepsTheTrailingSlash() {
        let o = site("""
            RewriteEngine On
            RewriteCond %{LA-F:PATH_INFO}|%{LA-F:REQUEST_FILENAME} ^(.*)$
            RewriteRule ^(old|a\\.html|dir) /b.html?v=%1 [R,L,NE]

            """, files: [("/a.html", 0), ("/b.html", 0), ("/dir/x.html", 0)])
        #expect(respond(o, "/old/x/").location == "http://shop.example/b.html?v=/x/|/var/www/html/old")
        #expect(respond(o, "/a.html/").location == "http://shop.example/b.html?v=/|/var/www/html/a.html")
        #expect(respond(o, "/dir/").location == "http://shop.example/b.html?v=|/var/www/html/dir/")
    }

    /// fixtures/apache/rewrite-cond-la-u-rewritebase: per directory LA-U looks up the match input
    /// behind the RewriteBase, so a condition that looks itself up stops at the first nested
    /// look-up (same URI) instead of nesting to the subrequest limit.
    @Test func lookAheadUsesTheRewriteBase() {
        let o = site("""
            RewriteEngine on
            RewriteBase /
            RewriteCond %{LA-U:REQUEST_FILENAME}|%{LA-U:REQUEST_URI} ^(.*)$
            RewriteRule ^(a\\.html|old/.*)$ /b.html?v=%1 [R,L,NE]
            RewriteCond %{LA-U:REQUEST_FILENAME} -f
            RewriteRule !\\.css$ dir/x.html [L]

            """, files: [("/a.html", 0), ("/b.html", 0), ("/dir/x.html", 0)])
        #expect(respond(o, "/old/x").location == "http://shop.example/b.html?v=/var/www/html/old|/old/x")
        let r = respond(o, "/b.html")
        #expect(r.served == "/dir/x.html")
        #expect(r.errorCodes == [])
    }

    /// fixtures/apache/recursion-la-u-lookup-past-redirect-limit: the look-ahead of the 10th
    /// internally redirected request fails before any phase, with an empty filename, so `!-f`
    /// holds and the rule redirects once more: 500 (AH00124), not the file.
    @Test func lookAheadPastTheRedirectLimitHasNoFilename() {
        let o = site("""
            RewriteEngine On
            RewriteCond %{LA-U:REQUEST_FILENAME} !-f
            RewriteRule !^a\\.html$ /b.html?a=1 [QSD]

            """, files: [("/a.html", 0), ("/b.html", 0)])
        let r = respond(o, "/b.html")
        #expect(r.status == 500)
        #expect(r.final.filename == "redirect:/b.html")
        #expect(r.errorCodes.filter { $0 == "AH00124" }.count == 2)
        #expect(respond(o, "/a.html").served == "/a.html")
    }

    /// fixtures/apache/rewrite-cond-file-lookup-nested-empty-uri: a file look-up made by a
    /// look-up without a URI gets none either, even for a file beside the current one, so the
    /// nesting stops one level later and `-F` is false for the main request.
    @Test func fileLookupOfALookupWithoutURI() {
        let o = site("""
            RewriteEngine On
            RewriteCond %{DOCUMENT_ROOT}/a.html -F
            RewriteRule (.*) sub/z.html

            """, files: [("/a.html", 0), ("/b.html", 0), ("/static/x.css", 0), ("/sub/z.html", 0)])
        #expect(respond(o, "/static/x.css").served == "/static/x.css")
        #expect(respond(o, "/b.html").served == "/b.html")
        #expect(respond(o, "/a.html").served == "/sub/z.html")
    }

    /// fixtures/apache/alias-scriptalias-handler-kept-by-rewrite-redirect: a per-directory [R]
    /// leaves the handler ScriptAlias set at translation.
    @Test func rewriteRedirectKeepsTheScriptAliasHandler() {
        let o = site("RewriteEngine On\nRewriteRule ^files/doc\\.txt$ /b.html [R=301,L]\n",
                     vhost: ["ScriptAlias /cgi /var/www/html/files"], files: [("/files/doc.txt", 0), ("/b.html", 0)])
        let r = respond(o, "/cgi/doc.txt")
        #expect(r.status == 301)
        #expect(r.final.handler == "cgi-script")
        #expect(respond(o, "/files/doc.txt").final.handler == nil)
    }
}
