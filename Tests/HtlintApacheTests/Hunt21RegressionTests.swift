import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 21 (real-world CMS and canonicalisation setups
/// behind edges); every expected value was recorded from Apache 2.4 (the fixtures named on each test).
struct Hunt21RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)], modules: [String] = []) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "shop.example", aliases: ["www.shop.example"],
                   modules: modules)
    }

    /// fixtures/apache/cms-addhandler-php-html-skips-fallback: mod_mime gives a missing `.html` its
    /// `AddHandler` handler, so FallbackResource leaves it a 404; any extension of the name counts.
    @Test func addHandlerNamesTheHandlerAndSkipsFallback() {
        let o = site("AddHandler application/x-httpd-php .html .htm\nFallbackResource /index.php\n",
                     files: [("/page.html", 0), ("/index.php", 0), ("/page.html.txt", 0)])
        let page = respond(o, "/page.html")
        #expect(page.status == 200)
        #expect(page.final.handler == "application/x-httpd-php")
        #expect(respond(o, "/page.html.txt").final.handler == "application/x-httpd-php")
        let missing = respond(o, "/missing.html")
        #expect(missing.status == 404)
        #expect(missing.served == nil)
        #expect(respond(o, "/PAGE.HTML").status == 404)
        #expect(respond(o, "/missing").served == "/index.php")
    }

    /// fixtures/apache/cms-sethandler-skips-fallback: `SetHandler` in a `<FilesMatch>` does the same.
    @Test func setHandlerSkipsFallback() {
        let o = site("<FilesMatch \"\\.txt$\">\nSetHandler my-handler\n</FilesMatch>\nFallbackResource /index.php\n",
                     files: [("/page.txt", 0), ("/index.php", 0)])
        #expect(respond(o, "/page.txt").final.handler == "my-handler")
        #expect(respond(o, "/nope.txt").status == 404)
        #expect(respond(o, "/nope").served == "/index.php")
    }

    /// fixtures/apache/cms-addhandler-kept-by-rewrite-and-negotiation: an `[R]` or `[F]` answer keeps
    /// the handler; `SetHandler none` overrides nothing.
    @Test func addHandlerSurvivesRewriteAnswers() {
        let o = site("Options +MultiViews\nAddHandler application/x-httpd-php .html\nRewriteEngine On\n"
                     + "RewriteRule ^old\\.html$ /page.html [R=301,L]\nRewriteRule ^gone\\.html$ - [F]\n"
                     + "<Files plain.txt>\nSetHandler none\n</Files>\n",
                     files: [("/page.html", 0), ("/contact.html", 0), ("/plain.txt", 0)], modules: ["negotiation"])
        let old = respond(o, "/old.html")
        #expect(old.status == 301)
        #expect(old.final.handler == "application/x-httpd-php")
        #expect(respond(o, "/gone.html").final.handler == "application/x-httpd-php")
        #expect(respond(o, "/contact").final.handler == "application/x-httpd-php")
        #expect(respond(o, "/plain.txt").final.handler == nil)
    }

    /// fixtures/apache/negotiation-variant-subrequest-env-https: the variant's look-up sets HTTPS=on,
    /// which the main request's `[R]` answer then carries into `Header always … env=HTTPS`.
    @Test func variantLookupEnvironmentReachesRedirect() {
        let o = site("Options +MultiViews\nHeader always set Strict-Transport-Security \"max-age=300\" env=HTTPS\n"
                     + "RewriteEngine On\nRewriteCond %{HTTP_HOST} !^www\\. [NC]\n"
                     + "RewriteRule ^ https://www.%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\n",
                     files: [("/contact.html", 0)], modules: ["negotiation"])
        let negotiated = respond(o, "/contact", tls: true)
        #expect(negotiated.status == 301)
        #expect(header(negotiated, "Strict-Transport-Security") == "max-age=300")
        let plain = respond(o, "/contact.html", tls: true)
        #expect(plain.status == 301)
        #expect(header(plain, "Strict-Transport-Security") == nil)
    }

    /// fixtures/apache/negotiation-variant-lookup-rewrite-before-env: the look-up's rewrite runs
    /// before mod_env's and mod_ssl's fixups, so it sees neither SetEnv nor HTTPS.
    @Test func variantLookupRewriteRunsBeforeSetEnvAndHTTPS() {
        let o = site("Options +MultiViews\nSetEnv FOO bar\nRewriteEngine On\n"
                     + "RewriteCond %{IS_SUBREQ} true\nRewriteCond %{ENV:FOO} bar\nRewriteRule ^ - [E=HIT:1]\n"
                     + "Header always set X-Hit %{HIT}e\n",
                     files: [("/page.html", 0)], modules: ["negotiation", "env"])
        let negotiated = respond(o, "/page", tls: true)
        #expect(negotiated.served == "/page.html")
        #expect(header(negotiated, "X-Hit") == "(null)")
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-variant-rewritten-by-lookup: the variant's look-up rewrites it to
    /// `redirect:/public/contact.html`; the main request's rules match that name (a redirect puts it
    /// in the Location, the internal rewrite prefixes it again).
    @Test func variantLookupRewriteIsAdopted() {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/contact.html", "/public/index.php", "/public/contact.html"] { fs.addFile(f) }
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: "Options +MultiViews\nRewriteEngine On\n"
                         + "RewriteCond %{HTTP_HOST} ^www\\. [NC]\nRewriteRule ^(.*)$ http://shop.example/$1 [R=301,L]\n"
                         + "RewriteCond %{REQUEST_URI} !^/public/\nRewriteRule ^(.*)$ /public/$1 [L,QSA]\n")
        fs.addAccessFile("/public", displayPath: "/var/www/html/public/.htaccess",
                         text: "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^ index.php [L]\n")
        var modules = ModuleSet.standard
        modules.insert("negotiation")
        let o = Origin(site: Site(serverName: "shop.example", aliases: ["www.shop.example"], files: fs, modules: modules))
        let plain = respond(o, "/contact")
        #expect(plain.served == "/public/index.php")
        #expect(plain.original.filename == "redirect:/public/redirect:/public/contact.html")
        #expect(respond(o, "/contact/").original.filename == "redirect:/public/redirect:/public/contact.html//")
        let www = o.respond(to: OriginRequest(method: "GET", target: "/contact", headers: [HTTPHeader("Host", "www.shop.example")]))
        #expect(www.status == 301)
        #expect(www.location == "http://shop.example/redirect:/public/contact.html")
        #expect(respond(o, "/contact.html").served == "/public/contact.html")
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-variant-refused-by-lookup-answer: a variant whose look-up a
    /// `Redirect` or `[F]` answers is unavailable (404, AH00687); `[R]` is skipped in the look-up.
    @Test func variantLookupAnswerRefusesTheVariant() {
        let o = site("Options +MultiViews\nRedirect 301 /contact.html /new-contact\nRewriteEngine On\n"
                     + "RewriteRule ^team\\.html$ - [F]\nRewriteRule ^about\\.html$ /elsewhere [R=302,L]\n"
                     + "RewriteRule ^guide\\.txt$ - [G]\n",
                     files: [("/contact.html", 0), ("/team.html", 0), ("/about.html", 0), ("/guide.txt", 0), ("/guide.html", 0)],
                     modules: ["negotiation"])
        for target in ["/contact", "/contact/", "/team"] {
            let r = respond(o, target)
            #expect(r.status == 404)
            #expect(r.errorCodes == ["AH00687"])
        }
        #expect(respond(o, "/contact.html").location == "http://shop.example/new-contact")
        let about = respond(o, "/about")
        #expect(about.status == 302)
        #expect(about.location == "http://shop.example/elsewhere")
        #expect(respond(o, "/guide").served == "/guide.html")
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-variant-lookup-env-adopted: the look-up's `[E=]` value reaches
    /// the main request's `[R]` answer, decided before its own `[E=]` rule.
    @Test func variantLookupEnvironmentIsAdopted() {
        let o = site("Options +MultiViews\nRewriteEngine On\nRewriteCond %{HTTPS} off\n"
                     + "RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]\nRewriteRule ^ - [E=SEEN:%{REQUEST_URI}]\n"
                     + "Header always set X-Seen \"%{SEEN}e|%{REDIRECT_SEEN}e\"\n",
                     files: [("/contact.html", 0)], modules: ["negotiation"])
        let negotiated = respond(o, "/contact")
        #expect(negotiated.status == 301)
        #expect(header(negotiated, "X-Seen") == "/contact.html|(null)")
        #expect(header(respond(o, "/contact.html"), "X-Seen") == "(null)|(null)")
        #expect(header(respond(o, "/contact/x", tls: true), "X-Seen") == "/contact.html/x|(null)")
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-language-priority-and-accept-language: `AddLanguage` extensions
    /// are negotiable; Accept-Language decides, then LanguagePriority; a served file names its language.
    @Test func languageNegotiation() {
        let o = site("Options +MultiViews\nAddLanguage de .de\nAddLanguage en .en\nAddLanguage fr .fr\n"
                     + "LanguagePriority de en\n<Files \"notes*\">\nRemoveLanguage .fr\n</Files>\n",
                     files: [("/about.en.html", 0), ("/about.de.html", 0), ("/guide.html", 0), ("/guide.en.html", 0),
                             ("/notes.fr.html", 0)],
                     modules: ["negotiation"])
        func lang(_ target: String, _ accept: String?) -> OriginResponse {
            respond(o, target, headers: accept.map { [HTTPHeader("Accept-Language", $0)] } ?? [])
        }
        let plain = lang("/about", nil)
        #expect(plain.served == "/about.de.html")
        #expect(header(plain, "Vary") == "negotiate,accept-language")
        #expect(header(plain, "Content-Language") == "de")
        #expect(lang("/about", "de;q=0.5, en;q=0.9").served == "/about.en.html")
        #expect(lang("/about", "en-US").served == "/about.en.html")
        #expect(lang("/about", "DE-at").served == "/about.de.html")
        #expect(lang("/about", "fr").status == 406)
        #expect(lang("/about", "fr, *;q=0.2").served == "/about.de.html")
        #expect(lang("/guide", "fr").served == "/guide.html")
        #expect(lang("/guide", nil).served == "/guide.en.html")
        #expect(header(lang("/about.de.html", nil), "Content-Language") == "de")
        #expect(lang("/notes", nil).status == 404)
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-default-language-fallback-charset-ext.
    @Test func defaultLanguageFallbackAndCharsetExtensions() {
        let o = site("Options +MultiViews\nDefaultLanguage it\nAddLanguage de .de\nAddLanguage en .en\n"
                     + "LanguagePriority en de\nForceLanguagePriority Fallback\nAddCharset UTF-8 .utf8\n"
                     + "<Files \"secret.xx\">\nRequire all denied\n</Files>\n",
                     files: [("/plain.html", 0), ("/news.en.html", 0), ("/news.de.html", 0), ("/t.txt.utf8", 0), ("/secret.xx", 0)],
                     modules: ["negotiation"])
        #expect(header(respond(o, "/plain.html"), "Content-Language") == "it")
        let fallback = respond(o, "/news", headers: [HTTPHeader("Accept-Language", "fr")])
        #expect(fallback.served == "/news.en.html")
        let t = respond(o, "/t")
        #expect(t.served == "/t.txt.utf8")
        #expect(header(t, "Content-Language") == "it")
        let secret = respond(o, "/secret")
        #expect(secret.status == 404)
        #expect(secret.errorCodes == ["AH01630", "AH00687"])
    }
}

extension Hunt21RegressionTests {
    /// fixtures/apache/negotiation-variant-lookup-is-get: the variant's look-up is a GET whatever
    /// the request's method, so a POST adopts the look-up's rewrite to doc.php that its own
    /// `%{REQUEST_METHOD} POST` rule would have skipped.
    @Test func variantLookupIsAGet() {
        let o = site("Options +MultiViews\nRewriteEngine On\nRewriteCond %{REQUEST_METHOD} POST\nRewriteRule ^ - [L]\n"
                     + "RewriteRule ^(.*)\\.html$ $1.php [L]\n",
                     files: [("/doc.html", 0), ("/doc.php", 0)], modules: ["negotiation"])
        let post = respond(o, "/doc", method: "POST")
        #expect(post.status == 200)
        #expect(post.served == "/doc.php")
        #expect(respond(o, "/doc.html", method: "POST").served == "/doc.html")
    }
}
