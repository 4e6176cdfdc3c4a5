import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 28 (generated nested `.htaccess` files, flags,
/// internal recursion, sections in the virtual host); every expected value was recorded from
/// Apache 2.4 (the fixtures named on each test).
struct Hunt28RegressionTests {
    /// fixtures/apache/errordoc-location-answers-server-rule-status: the location walk runs before
    /// translate_name, so a `<Location>`'s ErrorDocument answers a server rule's [F]; a
    /// `<Directory>`'s is not merged yet, and a broken `.htaccess` leaves only the server's.
    @Test func locationErrorDocumentBeforeDirectoryWalk() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/(.*)\\.html$ - [F]",
                     "<Location /sub/deeper>", "ErrorDocument 403 /sub/err.txt", "</Location>",
                     "<Directory ${DOCROOT}/other>", "ErrorDocument 403 /sub/err.txt", "</Directory>",
                     "<Location /broken>", "ErrorDocument 500 /sub/err.txt", "</Location>"]
        let files = ["/sub/deeper/x.html", "/sub/deeper/x.txt", "/sub/err.txt", "/other/o.html", "/broken/x.txt"]
        let access = [("/broken", "BogusDirective on\n")]
        let located = respond("/sub/deeper/x.html?a=1", vhost: vhost, access: access, files: files)
        #expect(located.status == 403)
        #expect(located.served == "/sub/err.txt")
        #expect(located.final.uri == "/sub/err.txt")
        #expect(located.final.query == "")
        let directory = respond("/other/o.html", vhost: vhost, access: access, files: files)
        #expect(directory.status == 403)
        #expect(directory.served == nil)
        #expect(directory.final.uri == "/other/o.html")
        let broken = respond("/broken/x.txt", vhost: vhost, access: access, files: files)
        #expect(broken.status == 500)
        #expect(broken.served == nil)
        #expect(broken.final.uri == "/broken/x.txt")
    }

    /// fixtures/apache/rewrite-base-location-root-eats-a-slash: the RewriteBase hack on a
    /// redirect matches `<Location />`'s empty directory followed by a slash, so with
    /// `RewriteBase /` one leading slash of `//a.html` goes; without a base both stay.
    @Test func locationRootBaseDropsOneSlash() {
        let vhost = ["<Location />", "RewriteEngine On", "RewriteBase /", "RewriteRule ^(.*)/$ /%{REQUEST_URI} [R=302,L]",
                     "RewriteRule /x$ //a.html [R,L]", "RewriteRule /y$ ///a.html [R,L]", "</Location>",
                     "<Location /nb>", "RewriteEngine On", "RewriteRule x$ //a.html [R,L]", "</Location>"]
        let files = ["/a.html", "/sub/page.html"]
        #expect(respond("/x", vhost: vhost, access: [], files: files).location == "http://shop.example/a.html")
        #expect(respond("/y?q=1", vhost: vhost, access: [], files: files).location == "http://shop.example//a.html?q=1")
        #expect(respond("/sub/", vhost: vhost, access: [], files: files).location == "http://shop.example/sub/")
        #expect(respond("/nb/x", vhost: vhost, access: [], files: files).location == "http://shop.example//a.html")
    }

    /// fixtures/apache/alias-rewrite-base-outside-directory-context-prefix: with a RewriteBase, a
    /// filesystem result outside the directory but under an Alias's directory takes the Alias's
    /// URL prefix (checked before the document root is stripped); reached without the Alias the
    /// document root and its slash go, and `sub/page.html` is a 400.
    @Test func aliasContextPrefixBeforeDocumentRootStrip() {
        let vhost = ["Alias /al ${DOCROOT}/sub", "<Directory ${DOCROOT}/sub/deeper>", "RewriteEngine On",
                     "RewriteBase /sub/", "RewriteRule ^x\\.html$ /var/www/html/sub/page.html [L]", "</Directory>"]
        let files = ["/sub/page.html", "/sub/deeper/x.html"]
        let aliased = respond("/al/deeper/x.html", vhost: vhost, access: [], files: files)
        #expect(aliased.status == 200)
        #expect(aliased.served == "/sub/page.html")
        #expect(aliased.final.uri == "/al/page.html")
        let plain = respond("/sub/deeper/x.html", vhost: vhost, access: [], files: files)
        #expect(plain.status == 400)
        #expect(plain.served == nil)
        #expect(plain.final.uri == "sub/page.html")
    }
}
