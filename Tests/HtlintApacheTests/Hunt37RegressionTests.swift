import Testing
@testable import HtlintApache

/// Disagreements found by differential round 37 (real-world CMS, plugin and hosting-panel
/// `.htaccess` files); every expected value was recorded from Apache 2.4 (the fixtures named on
/// each test).
struct Hunt37RegressionTests {
    /// `/t.html` answered under a root `.htaccess` of `text` (a newline is added when missing).
    func get(_ text: String) -> OriginResponse {
        respond("/t.html", access: [("/", text.hasSuffix("\n") ? text : text + "\n")], files: ["/t.html"])
    }

    /// fixtures/apache/syntax-error-options-all-none-placement: `All`/`None` must be the first word
    /// and unsigned; each misplacement is its own message and a 500.
    @Test func optionsAllAndNoneMustComeFirstUnsigned() {
        #expect(get("Options +All -Indexes").status == 500)
        #expect(get("Options +All -Indexes").errors == ["alert: /var/www/html/.htaccess: You may not use 'Options +All' or 'Options -All'."])
        #expect(get("Options -Indexes +All").errors == ["alert: /var/www/html/.htaccess: 'Options All' must be the first option given."])
        #expect(get("Options Indexes None").errors == ["alert: /var/www/html/.htaccess: 'Options None' must be the first Option given."])
        #expect(get("Options -None").errors == ["alert: /var/www/html/.htaccess: You may not use 'Options +None' or 'Options -None'."])
        #expect(get("Options None +Indexes").status == 200)
        #expect(get("Options RunScripts").status == 200)
    }

    /// fixtures/apache/negotiation-options-plain-words-add-up: plain words add up after the reset
    /// to None, so `All MultiViews` keeps MultiViews; `RunScripts` is MultiViews plus ExecCGI.
    @Test func plainOptionsWordsAddUp() {
        func get(_ options: String) -> Int {
            respond(testOrigin(options + "\n", files: [("/t.html", 0)], serverName: "example.com", modules: ["negotiation"]), "/t").status
        }
        #expect(get("Options All MultiViews") == 200)
        #expect(get("Options None MultiViews") == 200)
        #expect(get("Options RunScripts") == 200)
        #expect(get("Options All") == 404)
    }

    /// fixtures/apache/syntax-error-ifmodule-close-with-trailing-text: a true conditional section
    /// only ends at a line that is exactly `</Name>`; with a comment after it the line is a closer
    /// without an open section (500). A false section and `<Files>` close either way.
    @Test func trueConditionalSectionNeedsAnExactClosingLine() {
        let commented = get("<IfModule mod_headers.c>\nHeader set X-T a\n</IfModule> # end\n")
        #expect(commented.status == 500)
        #expect(commented.errors == ["alert: /var/www/html/.htaccess: </IfModule> without matching <IfModule> section"])
        #expect(get("<IfDefine !FOO>\nHeader set X-T a\n</IfDefine> # x\n").status == 500)
        #expect(header(get("<IfModule mod_nope.c>\nHeader set X-T a\n</IfModule> # end\nHeader set X-T b\n"), "X-T") == "b")
        #expect(header(get("<Files t.html>\nHeader set X-T a\n</Files> # end\n"), "X-T") == "a")
        #expect(header(get("  <IfModule mod_headers.c>\n  Header set X-T a\n  </ifmodule>  \n"), "X-T") == "a")
    }

    /// fixtures/apache/syntax-error-trailing-comment-arguments: a comment after the arguments is
    /// more arguments; directives that check their words refuse it.
    @Test func trailingCommentsAreArguments() {
        func errors(_ line: String) -> [String] {
            respond("/t.html", access: [("/", line + "\n")], files: ["/t.html"]).errors
        }
        let prefix = "alert: /var/www/html/.htaccess: "
        #expect(errors("Require all granted # c") == [prefix + "Argument for 'Require all' must be 'granted' or 'denied'"])
        #expect(errors("Order allow,deny # c") == [prefix + "order takes one argument, 'allow,deny', 'deny,allow', or 'mutual-failure'"])
        #expect(errors("Order Deny, Allow") == [prefix + "order takes one argument, 'allow,deny', 'deny,allow', or 'mutual-failure'"])
        #expect(errors("Deny from all # c") == [prefix + "No comments are allowed here"])
        #expect(errors("Allow from env=a#b").isEmpty)
        #expect(errors("FileETag None # c") == [prefix + "Unknown keyword '#' for FileETag directive"])
        #expect(errors("ServerSignature Off # c") == [prefix + "ServerSignature takes one argument, En-/disable server signature (on|off|email)"])
        #expect(errors("Require ip 127.0.0.1 # office") == [prefix + "ip address '#' appears to be invalid"])
        #expect(errors("RewriteEngine On # enable").isEmpty)
    }

    /// fixtures/apache/syntax-error-empty-quoted-arguments: an empty quoted word is a missing
    /// required argument, and ends a list read word by word.
    @Test func emptyQuotedWords() {
        func get(_ line: String, _ target: String = "/t.html") -> OriginResponse {
            respond(target, access: [("/", line + "\n")], files: ["/t.html", "/t.php", "/index.html"])
        }
        let prefix = "alert: /var/www/html/.htaccess: "
        #expect(get("ErrorDocument 404 \"\"").errors == [prefix + "ErrorDocument takes two arguments, Change responses for HTTP errors"])
        #expect(get("DirectoryIndex index.html", "/").served == "/index.html")
        #expect(get("DirectoryIndex \"\" index.html", "/").served == nil)
        #expect(get("DirectoryIndex", "/").served == nil)
        #expect(header(get("AddType text/plain \"\" .php", "/t.php"), "Content-Type") == nil)
        #expect(get("SetEnvIf Host x \"\"").errors == [prefix + "Missing envariable expression for SetEnvIf"])
        #expect(get("SetEnvIf \"\" x T=1").errors == [prefix + "Missing header-field name for SetEnvIf"])
        #expect(get("Require ip 127.0.0.1/abc").errors == [prefix + "ip address '127.0.0.1/abc' appears to be invalid: The specified network mask is invalid."])
        #expect(get("Order allow,deny,x").errors == [prefix + "unknown order"])
    }

    /// fixtures/apache/syntax-error-unread-directive-arguments: directives htlint does not model
    /// still get invoke_cmd's argument checks; SSLRequireSSL refuses no arguments.
    @Test func unreadDirectivesGetApachesArgumentChecks() {
        let prefix = "alert: /var/www/html/.htaccess: "
        #expect(get("EnableMMAP Off # c").errors == [prefix + "EnableMMAP takes one argument, Controls whether memory-mapping may be used to read files"])
        #expect(get("EnableSendfile maybe").errors == [prefix + "parameter must be 'on' or 'off'"])
        #expect(get("SSLOptions +StdEnvVars # c").errors == [prefix + "SSLOptions: Illegal option '#'"])
        #expect(get("SSLOptions StdEnvVars -ExportCertData").status == 200)
        #expect(get("RemoveHandler \"\"").errors == [prefix + "RemoveHandler requires at least one argument, one or more file extensions"])
        #expect(get("RedirectMatch 301 \"\" /b.html").status == 500)
        #expect(get("SSLRequireSSL # c").status == 403)
    }

    /// fixtures/apache/access-authn-file-missing-password-file: Basic credentials are checked
    /// against AuthUserFile; a file that cannot be opened is a 500 (AH01620), while no
    /// credentials or another scheme still get the 401 challenge.
    @Test func missingPasswordFileFailsEveryLogin() {
        let htaccess = "AuthType Basic\nAuthName \"Restricted\"\nAuthUserFile /home/user/passwd\nRequire valid-user\n"
        let origin = testOrigin(htaccess, files: [("/index.html", 0)], serverName: "example.com",
                                modules: ["auth_basic", "authn_file", "authn_core", "authz_user"])
        #expect(respond(origin, "/").status == 401)
        let login = respond(origin, "/", headers: [HTTPHeader("Authorization", "Basic Ym9iOnNlY3JldA==")])
        #expect(login.status == 500)
        #expect(login.errorCodes == ["AH01620"])
        #expect(respond(origin, "/", headers: [HTTPHeader("Authorization", "Bearer abc")]).status == 401)
    }

    /// fixtures/apache/header-empty-or-invalid-name-aborts: the header filter refuses an empty
    /// header name (AH02428) and one that is no HTTP token (AH02429) with a 500.
    @Test func headerFilterRefusesBadNames() {
        #expect(get("Header set \"\" v").status == 500)
        #expect(get("Header set \"\" v").errorCodes == ["AH02428"])
        #expect(get("Header set \"X T\" v").errorCodes == ["AH02429"])
        #expect(get("Header set X(T) v").status == 500)
        #expect(get("Header set X-Ok v").status == 200)
    }

    /// fixtures/apache/section-files-multiple-arguments: `<Files>` takes one path word (two with
    /// `~`); more is a 500 once the contents are read.
    @Test func filesSectionTakesOnePathWord() {
        #expect(get("<Files t.html x.php>\nHeader set X-T two\n</Files>\n").errors
                == ["alert: /var/www/html/.htaccess: Multiple <Files> arguments not (yet) supported."])
        #expect(get("<FilesMatch \\.html$ x>\n</FilesMatch>\n").status == 500)
        #expect(get("<Files ~ \\.html$ x>\n</Files>\n").status == 500)
        #expect(header(get("<Files ~ \\.html$>\nHeader set X-T ok\n</Files>\n"), "X-T") == "ok")
    }

    /// fixtures/apache/header-format-backslash-escapes: mod_headers reads `\\t`, `\\n`, `\\r` and
    /// `\\\\` in a value's text; another backslash stays.
    @Test func headerValueBackslashEscapes() {
        #expect(parseHeaderFormat("tab\\there") == .success([.literal("tab\there")]))
        #expect(parseHeaderFormat("back\\\\slash") == .success([.literal("back\\slash")]))
        #expect(parseHeaderFormat("keep\\x41") == .success([.literal("keep\\x41")]))
        let r = respond("/t.html", access: [("/", "Header set X-T \"line\\nbreak\"\n")], files: ["/t.html"])
        #expect(r.status == 500)
        #expect(r.errorCodes == ["AH02430"])
    }
}
