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

    /// fixtures/apache/header-requestheader-edit-star-crashes-in-index-lookup: mod_dir's index
    /// look-up runs mod_headers' fixup on its own copy of the headers. An `edit*` meeting an empty
    /// match crashes the child there (status 0: no response), even for a missing candidate or a
    /// line only subrequests run; what the look-up appends does not reach the main request.
    @Test func requestHeaderRunsInTheIndexLookup() {
        let test = [HTTPHeader("X-Test", "abc")]
        let missing = [("/f", """
            DirectoryIndex missing.html index.html
            <Files missing.html>
            RequestHeader edit* X-Test "x*" "-"
            </Files>
            """)]
        #expect(respond("/f/", access: missing, files: ["/f/index.html"], headers: test).status == 0)
        #expect(respond("/f/index.html", access: missing, files: ["/f/index.html"], headers: test).status == 200)
        let onlySub = [("/g", "RequestHeader edit* X-Test \"x*\" \"-\" \"expr=%{IS_SUBREQ} == 'true'\"\n")]
        #expect(respond("/g/", access: onlySub, files: ["/g/index.html"], headers: test).status == 0)
        #expect(respond("/g/", access: onlySub, files: ["/g/index.html"]).status == 200)
        let append = [("/e", "RequestHeader append X-Test more\nHeader echo ^X-Test$\n")]
        let r = respond("/e/", access: append, files: ["/e/index.html"], headers: test)
        #expect(r.status == 200)
        #expect(header(r, "X-Test") == "abc, more")
    }

    /// fixtures/apache/header-requestheader-edit-star-crashes-in-variant-lookup: read_types_multi
    /// looks every MultiViews candidate up with its fixups, mod_headers' included, so an `edit*`
    /// meeting an empty match crashes the child; a candidate a `RewriteRule [F]` refuses in its
    /// look-up never reaches mod_headers (the request is then a 404).
    @Test func requestHeaderRunsInTheVariantLookup() {
        let test = [HTTPHeader("X-Test", "abc")]
        let line = "RequestHeader edit* X-Test \"x*\" \"-\" \"expr=%{IS_SUBREQ} == 'true'\"\n"
        let plain = [("/mv", "Options +MultiViews\n" + line)]
        #expect(respond("/mv/page", access: plain, files: ["/mv/page.html"], headers: test).status == 0)
        #expect(respond("/mv/page", access: plain, files: ["/mv/page.html"]).status == 200)
        #expect(respond("/mv/page.html", access: plain, files: ["/mv/page.html"], headers: test).status == 200)
        let forbidden = [("/mv", "Options +MultiViews\nRewriteEngine On\nRewriteRule ^page\\.html$ - [F]\n" + line)]
        #expect(respond("/mv/page", access: forbidden, files: ["/mv/page.html"], headers: test).status == 404)
    }

    /// fixtures/apache/header-requestheader-content-type-leaves-type: `RequestHeader set
    /// Content-Type` edits the request header only; r->content_type, which a later line's
    /// `%{CONTENT_TYPE}` and the response read, stays mod_mime's.
    @Test func requestContentTypeLeavesTheType() {
        let access = [("/", """
            RequestHeader set Content-Type text/plain
            RequestHeader set X-T yes "expr=%{CONTENT_TYPE} == 'text/plain'"
            RequestHeader set X-H yes "expr=%{CONTENT_TYPE} == 'text/html'"
            Header echo ^X-[TH]$
            Header set X-Req "expr=%{req:Content-Type}"
            """)]
        let r = respond("/page.html", access: access, files: ["/page.html"])
        #expect(header(r, "X-T") == nil)
        #expect(header(r, "X-H") == "yes")
        #expect(header(r, "X-Req") == "text/plain")
        #expect(header(r, "Content-Type") == "text/html")
    }

    /// fixtures/apache/header-requestheader-condition-adds-vary: a `RequestHeader` condition is
    /// run by ap_expr_exec, which merges the headers it reads into r->headers_out's Vary, true
    /// or not, sent or not.
    @Test func requestHeaderConditionAddsVary() {
        let access = [("/", """
            RequestHeader set X-B y "expr=%{req:X-A} == 'a'"
            RequestHeader set X-C y "expr=%{HTTP:X-Z} == 'a'"
            """)]
        for headers in [[HTTPHeader("X-A", "a")], []] {
            let r = respond("/page.html", access: access, files: ["/page.html"], headers: headers)
            #expect(header(r, "Vary") == "X-A,X-Z")
        }
    }

    /// fixtures/apache/header-requestheader-condition-directory-handler: after mod_dir's fixup a
    /// directory's r->handler is httpd/unix-directory (a per-directory RewriteCond, earlier, sees
    /// none); mod_dir drops the directory type when SetHandler took the directory over under
    /// DirectoryCheckHandler On.
    @Test func conditionOnADirectoryAfterModDir() {
        let root = ("/", """
            RewriteEngine On
            RewriteCond expr "%{HANDLER} == ''"
            RewriteRule ^d/$ - [E=EARLY:empty]
            RequestHeader add X-Log "expr=%{HANDLER}|%{CONTENT_TYPE}|%{reqenv:EARLY}"
            Header always echo ^X-Log$
            """)
        let listed = respond("/d/", access: [root], files: ["/d/f.txt"])
        #expect(listed.status == 403)
        #expect(header(listed, "X-Log") == "httpd/unix-directory|httpd/unix-directory|empty")
        let taken = respond("/chk/", access: [root, ("/chk", "DirectoryCheckHandler On\nSetHandler default-handler\n")],
                            files: ["/chk/f.txt"])
        #expect(header(taken, "X-Log") == "default-handler||")
    }

    /// fixtures/apache/recursion-errordocument-method-becomes-get: ap_die_r makes the failing
    /// request a GET before its ErrorDocument redirect, so when that redirect exceeds the
    /// recursion limit the canned 500's headers see %{REQUEST_METHOD} GET, while the variable
    /// it noted keeps HEAD.
    @Test func failedErrorDocumentRedirectLeavesAGet() {
        let access = [("/", """
            RewriteEngine On
            RewriteCond %{REQUEST_METHOD} !^GET$
            RewriteRule ^ /index.php [L]
            ErrorDocument 500 /oops.html
            Header always set X-M "expr=%{tolower:%{REQUEST_METHOD}}"
            Header always set X-E "%{REQUEST_METHOD}e"
            """)]
        let r = respond("/x", method: "HEAD", access: access, files: ["/index.php", "/oops.html"])
        #expect(r.status == 500)
        #expect(header(r, "X-M") == "get")
        #expect(header(r, "X-E") == "HEAD")
    }

    /// fixtures/apache/header-requestheader-condition-vary-from-variant-lookup: the chosen
    /// variant's look-up ran mod_headers' fixup; the headers its conditions read come along in
    /// the Vary the fast redirect overlays, after mod_negotiation's tokens.
    @Test func variantLookupVaryComesAlong() {
        let access = [("/mv", "Options +MultiViews\nRequestHeader set X-N y \"expr=%{IS_SUBREQ} == 'true' && %{req:X-Q} == ''\"\n")]
        let r = respond("/mv/one", access: access, files: ["/mv/one.html"])
        #expect(r.status == 200)
        #expect(header(r, "Vary") == "negotiate,X-Q")
    }
}
