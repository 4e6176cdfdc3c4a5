import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Hunt 45: mod_headers' `RequestHeader` fixup, each checked against Apache 2.4.
struct Hunt45RegressionTests {
    /// fixtures/apache/header-requestheader-condition-sees-earlier-lines: do_headers_fixup applies
    /// the lines one at a time to r->headers_in, so a later line's `expr=` condition sees what the
    /// earlier ones set, unset or edited.
    @Test func laterConditionSeesEarlierLines() {
        let access = [("/", """
            RequestHeader set X-A one
            RequestHeader set X-B seen-a "expr=%{req:X-A} == 'one'"
            RequestHeader unset X-C
            RequestHeader set X-D c-gone "expr=-z %{req:X-C}"
            RequestHeader edit X-E ^old$ new
            RequestHeader set X-F e-new "expr=%{req:X-E} == 'new'"
            Header echo ^X-[A-F]$
            """)]
        let r = respond("/page.html", access: access, files: ["/page.html"],
                        headers: [HTTPHeader("X-C", "gone"), HTTPHeader("X-E", "old")])
        #expect(r.status == 200)
        #expect(header(r, "X-B") == "seen-a")
        #expect(header(r, "X-C") == nil)
        #expect(header(r, "X-D") == "c-gone")
        #expect(header(r, "X-F") == "e-new")
    }

    /// fixtures/apache/header-requestheader-condition-content-type: mod_headers' fixup runs after
    /// the type checker and mod_rewrite's last fixup, so `%{CONTENT_TYPE}` is mod_mime's type, an
    /// `AddType` one, or what `[T=]` forced; a file mod_mime cannot type has none.
    @Test func conditionSeesTheTypeCheckersType() {
        let access = [("/", """
            AddType application/x-foo .foo
            RewriteEngine On
            RewriteRule ^forced\\.txt$ - [T=image/png]
            RequestHeader set X-Type html "expr=%{CONTENT_TYPE} == 'text/html'"
            RequestHeader set X-Type foo "expr=%{CONTENT_TYPE} == 'application/x-foo'"
            RequestHeader set X-Type png "expr=%{CONTENT_TYPE} == 'image/png'"
            RequestHeader set X-Type none "expr=-z %{CONTENT_TYPE}"
            Header echo ^X-Type$
            """)]
        let files = ["/page.html", "/file.foo", "/forced.txt", "/plain.zzz"]
        for (path, type) in [("/page.html", "html"), ("/file.foo", "foo"), ("/forced.txt", "png"), ("/plain.zzz", "none")] {
            let r = respond(path, vhost: ["<Directory /var/www/html>", "Options FollowSymLinks", "</Directory>"], access: access, files: files)
            #expect(header(r, "X-Type") == type, "\(path)")
        }
    }

    /// fixtures/apache/header-requestheader-condition-sees-rewrite-handler: the LAST fixups run in
    /// load order, mod_dir, mod_rewrite (hook_mimetype applies `[H=]`), mod_headers, so a
    /// `RequestHeader` condition reads the forced handler, also for a directory whose index
    /// mod_dir adopted first.
    @Test func conditionSeesTheRewriteHandler() {
        let access = [("/", """
            RewriteEngine On
            RewriteRule ^(h\\.html|hd/)$ - [H=default-handler]
            RequestHeader set X-Handler "expr=h:%{HANDLER}"
            Header echo ^X-Handler$
            """)]
        let files = ["/page.html", "/h.html", "/hd/index.html"]
        for (path, handler) in [("/page.html", "h:"), ("/h.html", "h:default-handler"), ("/hd/", "h:default-handler")] {
            let r = respond(path, access: access, files: files)
            #expect(r.status == 200)
            #expect(header(r, "X-Handler") == handler, "\(path)")
        }
    }
}
