import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 25 (multi-directory sites and the layers in front);
/// every expected value was recorded from Apache 2.4 (the fixtures named on each test).
struct Hunt25RegressionTests {
    func respond(_ target: String, vhost: [String], access: [(String, String)], files: [String],
                 host: String = "site.example") -> OriginResponse {
        respondOnSite(target, serverName: "site.example", host: host, vhost: vhost, access: access, files: files)
    }

    /// fixtures/apache/rewrite-server-dot-segments: core_translate merges a server rule's local
    /// result onto the document root with APR_FILEPATH_SECUREROOT: dot segments are resolved
    /// lexically, and climbing above the root is a 403 (AH00127) that keeps r->filename.
    @Test func serverRuleDotSegmentsMergeOntoTheDocumentRoot() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/c$ ../y.html", "RewriteRule ^/d$ x/../y.html",
                     "RewriteRule ^/h$ x/../../y.html [PT]", "RewriteRule ^/i$ /sub/./in/../b.html"]
        let files = ["/y.html", "/sub/b.html"]
        let c = respond("/c", vhost: vhost, access: [], files: files)
        #expect(c.status == 403)
        #expect(c.final.filename == "/../y.html")
        let d = respond("/d", vhost: vhost, access: [], files: files)
        #expect(d.status == 200)
        #expect(d.served == "/y.html")
        let h = respond("/h", vhost: vhost, access: [], files: files)
        #expect(h.status == 403)
        #expect(h.final.filename == "passthrough:/x/../../y.html")
        #expect(respond("/i", vhost: vhost, access: [], files: files).served == "/sub/b.html")
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/section-location-engine-on-without-server-rewrite-lines: mod_rewrite lines
    /// only inside `<Location>` still give the server its own mod_rewrite configuration, so
    /// hook_uri2file runs where the section turns the engine on: SCRIPT_URL is set for the
    /// section's rules, and the URI is left in r->filename for a `<Location>` Redirect.
    @Test func locationOnlyRewriteLinesStillRunTheServerHook() {
        let vhost = ["<Location /other>", "RewriteEngine On", "</Location>",
                     "<Location /other>", "Redirect 302 https://site.example/y.html", "</Location>",
                     "<Location /env>", "RewriteEngine On", "RewriteCond %{ENV:SCRIPT_URL} ^/env/",
                     "RewriteRule ^ /z.html [L]", "</Location>"]
        let files = ["/y.html", "/z.html", "/other/a.html", "/env/a.html"]
        let env = respond("/env/a.html", vhost: vhost, access: [], files: files)
        #expect(env.served == "/z.html")
        let other = respond("/other/a.html", vhost: vhost, access: [], files: files)
        #expect(other.status == 302)
        #expect(other.final.filename == "/other/a.html")
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/dirindex-fallback-carried-redirect-without-location: the index look-up of
    /// index.html falls back to /front.php, whose rules write a URL and then (without [L]) a local
    /// path, so the look-up keeps the 302; fixup_dir propagates any 3xx at once, Location or
    /// none, before index.php is tried.
    @Test func indexLookupPropagatesACarriedRedirectWithoutLocation() {
        let access = [("/", "FallbackResource /front.php\nRewriteEngine On\nRewriteRule ^front\\.php$ http://www.site.example/moved.php\nRewriteRule ^(.*)\\.php$ /$1 [L]\n"),
                      ("/docs", "RewriteEngine On\nRewriteRule ^nothing$ - [L]\n")]
        let files = ["/docs/index.php", "/plain/index.html"]
        let docs = respond("/docs/", vhost: [], access: access, files: files)
        #expect(docs.status == 302)
        #expect(docs.location == nil)
        #expect(docs.served == nil)
        #expect(respond("/plain/", vhost: [], access: access, files: files).served == "/plain/index.html")
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/nested-if-sections-merge-among-themselves-first: ap_if_walk_sub merges the
    /// matching <If> sections together before merging them onto the directory's configuration,
    /// so blog's `RewriteOptions Inherit` (in an <If>) with the root's `RewriteEngine On` (in
    /// another) keeps blog's own [F] rule; the root's <If> alone drops other/'s rule.
    @Test func ifSectionsMergeAmongThemselvesFirst() {
        let access = [("/", "<If \"%{REQUEST_URI} =~ m#^/(blog|other)/#\">\nRewriteEngine On\n</If>\n"),
                      ("/blog", "<If \"-f %{REQUEST_FILENAME}\">\nRewriteOptions Inherit\n</If>\nRewriteRule ^ - [F]\n"),
                      ("/other", "RewriteRule ^ - [F]\n")]
        let files = ["/blog/index.php", "/blog/x.html", "/other/x.html"]
        #expect(respond("/blog/x.html", vhost: [], access: access, files: files).status == 403)
        #expect(respond("/blog/", vhost: [], access: access, files: files).status == 403)
        #expect(respond("/other/x.html", vhost: [], access: access, files: files).served == "/other/x.html")
    }

    /// fixtures/apache/section-location-matches-merge-among-themselves-first: the matching
    /// <Location> sections are merged together first, so /loc/in's `RewriteOptions Inherit`
    /// makes /loc's rules inherit the .htaccess's [F] rule underneath.
    @Test func locationMatchesMergeAmongThemselvesFirst() {
        let vhost = ["<Location /loc>", "RewriteEngine On", "RewriteRule ^nomatch - [G]", "</Location>",
                     "<Location /loc/in>", "RewriteOptions Inherit", "</Location>"]
        let access = [("/loc/in", "RewriteEngine On\nRewriteRule ^ - [F]\n")]
        let files = ["/loc/in/x.html", "/loc/y.html"]
        #expect(respond("/loc/in/x.html", vhost: vhost, access: access, files: files).status == 403)
        #expect(respond("/loc/y.html", vhost: vhost, access: access, files: files).status == 200)
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/nested-if-in-index-lookup-not-cached: the index look-up's top-level <If>
    /// matches (`-f %{REQUEST_FILENAME}` holds for index.php) are not its parent's (false for the
    /// directory), so the if-walk cache it inherited does not stop it: the nested <If> runs and
    /// its Redirect answers for the directory.
    @Test func nestedIfRunsInAnIndexLookupThatMatchedOtherSections() {
        let access = [("/blog", "<If \"-f %{REQUEST_FILENAME}\">\n<If \"%{HTTPS} != 'on'\">\nRedirect 301 / https://site.example/\n</If>\n</If>\n")]
        let files = ["/blog/wp-admin/index.php", "/blog/a.html"]
        let admin = respond("/blog/wp-admin/", vhost: [], access: access, files: files)
        #expect(admin.status == 301)
        #expect(admin.location == "https://site.example/blog/wp-admin/index.php")
        #expect(respond("/blog/a.html", vhost: [], access: access, files: files).location == "https://site.example/blog/a.html")
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/section-files-matches-merge-among-themselves-first: the matching
    /// <Files>/<FilesMatch> sections merge together before the directory's configuration, so
    /// the second one's `RewriteOptions Inherit` keeps the directory's [F] rule under the first's.
    @Test func filesMatchesMergeAmongThemselvesFirst() {
        let access = [("/d", "RewriteEngine On\nRewriteRule ^ - [F]\n<Files \"x.html\">\nRewriteEngine On\nRewriteRule ^nomatch - [G]\n</Files>\n<FilesMatch \"^x\">\nRewriteOptions Inherit\n</FilesMatch>\n<Files \"y.html\">\nRewriteRule ^nomatch - [G]\n</Files>\n")]
        let files = ["/d/x.html", "/d/y.html"]
        #expect(respond("/d/x.html", vhost: [], access: access, files: files).status == 403)
        #expect(respond("/d/y.html", vhost: [], access: access, files: files).status == 200)
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/nested-if-in-index-lookup-other-files-section: the if-walk cache an index
    /// look-up inherits is used only when the look-up starts from its parent's configuration; a
    /// `<Files index.php>` section makes it another, so the nested <If> runs for /d/ but not /e/.
    @Test func nestedIfRunsWhenTheIndexLookupHasItsOwnFilesSection() {
        let vhost = ["<Files index.php>", "Header always set X-Files yes", "</Files>"]
        let access = [("/", "<If \"true\">\n<If \"-f %{REQUEST_FILENAME}\">\nHeader always set X-Nested yes\n</If>\n</If>\n")]
        let files = ["/d/index.php", "/e/index.html"]
        let d = respond("/d/", vhost: vhost, access: access, files: files)
        #expect(d.served == "/d/index.php")
        #expect(d.headers.contains { $0.name == "X-Nested" && $0.value == "yes" })
        let e = respond("/e/", vhost: vhost, access: access, files: files)
        #expect(e.served == "/e/index.html")
        #expect(!e.headers.contains { $0.name == "X-Nested" })
    }
}

extension Hunt25RegressionTests {
    /// fixtures/apache/section-else-inside-ifmodule: `<IfModule>` is read inline, so an
    /// `<Else>` inside it extends the `<If>` before it (htlint answered 500: no previous <If>).
    @Test func elseInsideIfModuleExtendsThePreviousIf() {
        let access = [("/", "<If \"%{QUERY_STRING} =~ /a/\">\nHeader set X-A if\n</If>\n<IfModule mod_headers.c>\n<Else>\nHeader set X-A else\n</Else>\n</IfModule>\n")]
        let files = ["/x.html"]
        let plain = respond("/x.html", vhost: [], access: access, files: files)
        #expect(plain.status == 200)
        #expect(plain.headers.contains { $0.name == "X-A" && $0.value == "else" })
        let a = respond("/x.html?a=1", vhost: [], access: access, files: files)
        #expect(a.headers.contains { $0.name == "X-A" && $0.value == "if" })
    }
}
