import HtlintDiagnostics
import Testing
@testable import HtlintApache

// mod_mime's table is Debian's /etc/mime.types as `TypesConfig` reads it
// (fixtures/apache/header-content-type-mime-types-table, negotiation-per-directory-mime-types).
struct MimeTypesTests {
    @Test func theWholeDebianTableIsKnown() {
        #expect(MimeTypes.byExtension.count > 1_400)
        #expect(MimeTypes.type(forPath: "/b.xhtml") == "application/xhtml+xml")
        #expect(MimeTypes.type(forPath: "/f.JSONLD") == "application/ld+json")
        #expect(MimeTypes.type(forPath: "/index.php") == nil)
        #expect(MimeTypes.type(forPath: "/j.unknownext") == nil)
    }

    @Test func aLaterLineForTheSameExtensionWins() {
        // application/x-sh comes first in the file, text/x-sh later: Apache sends the later.
        #expect(MimeTypes.type(forPath: "/a.sh") == "text/x-sh")
        #expect(MimeTypes.type(forPath: "/d.csh") == "text/x-csh")
    }

    @Test func theDirectorysAddTypeAndRemoveTypeDecideWhatIsKnown() {
        var config = MimeConfig()
        config.types[PathKey("page")] = .some("text/html")
        config.types[PathKey("txt")] = .some(nil)
        #expect(MimeTypes.knows("page", config: config))
        #expect(!MimeTypes.knows("txt", config: config))
        #expect(MimeTypes.knows("txt", config: nil))
        #expect(MimeTypes.knows("css", config: config))
        #expect(!MimeTypes.knows("page", config: nil))
    }
}

/// RemoveType stores an empty type as it is read, so it takes turns with AddType; the other
/// Remove lines wait for the merge (fixtures/apache/header-mime-removetype-in-order).
@Test func removeTypeTakesTurnsWithAddType() {
    let o = testOrigin("RemoveType .a\nAddType text/x-a .a\nAddType text/x-b .b\nRemoveType .b\nRemoveLanguage .a\nAddLanguage de .a\n",
                       files: [("/f.a", 0), ("/f.b", 0)], serverName: "shop.example")
    #expect(header(respond(o, "/f.a"), "Content-Type") == "text/x-a")
    #expect(header(respond(o, "/f.a"), "Content-Language") == nil)
    #expect(header(respond(o, "/f.b"), "Content-Type") == nil)
}

/// The walk's first object keeps its Remove lines until it is merged as the child: alone they
/// clear its own Add lines, under a later object they are dropped
/// (fixtures/apache/header-mime-own-removal-undone-below).
@Test func aWalksFirstObjectKeepsItsRemoveLinesForTheMerge() {
    var first = MimeDirectives()
    first.handlers = [("h", "foo-handler"), ("h", nil)]
    first.modMimeObject = true
    var below = MimeDirectives()
    below.languages = [("txt", "de")]
    below.modMimeObject = true
    var vhost = MimeConfig()
    vhost.handlers[PathKey("x")] = .some("bar-handler")
    var alone = MimeWalk(before: vhost)
    alone.merge(first)
    #expect(alone.result.handler(forPath: "/f.h") == nil)
    var two = alone
    two.merge(below)
    #expect(two.result.handler(forPath: "/f.h") == "foo-handler")
    // A later object's Remove line clears the walk's entry, not the virtual host's.
    var removesInherited = MimeDirectives()
    removesInherited.handlers = [("x", nil)]
    removesInherited.modMimeObject = true
    two.merge(removesInherited)
    #expect(two.result.handler(forPath: "/f.x") == "bar-handler")
}

/// mod_autoindex writes its listing's type itself (fixtures/apache/dirindex-autoindex-*).
@Test func theListingTypeFollowsIndexOptionsCharset() {
    #expect(MimeTypes.listingType(charset: nil) == "text/html;charset=ISO-8859-1")
    let file = ConfigReader.read(SourceFile(path: ".htaccess", text: "IndexOptions FancyIndexing Charset=UTF-8\n"), context: .htaccess)
    #expect(file.block.indexCharset == "UTF-8")
    #expect(MimeTypes.listingType(charset: file.block.indexCharset) == "text/html;charset=UTF-8")
}

// ap_make_content_type (fixtures/apache/header-default-charset-any-text-type, header-default-charset-substring-match).
@Test func addDefaultCharsetTakesAnyTypeContainingTextHTMLOrPlain() {
    #expect(MimeTypes.withDefaultCharset("text/html", "utf-8") == "text/html; charset=utf-8")
    #expect(MimeTypes.withDefaultCharset("[text/html]", "utf-8") == "[text/html]; charset=utf-8")
    #expect(MimeTypes.withDefaultCharset("text/html; level=1", "utf-8") == "text/html; level=1; charset=utf-8")
    #expect(MimeTypes.withDefaultCharset("-etext/html", "utf-8") == "-etext/html; charset=utf-8")
    #expect(MimeTypes.withDefaultCharset("text/plain; charset=latin1", "utf-8") == "text/plain; charset=latin1")
    #expect(MimeTypes.withDefaultCharset("TEXT/PLAIN", "utf-8") == "TEXT/PLAIN; charset=utf-8")
    #expect(MimeTypes.withDefaultCharset("text/html; Charset=x", "utf-8") == "text/html; Charset=x")
    #expect(MimeTypes.withDefaultCharset("text/css", "utf-8") == "text/css")
    #expect(MimeTypes.withDefaultCharset("text/html", nil) == "text/html")
}

/// mod_mime's languages and codings (fixtures/apache/header-mime-language-and-encoding,
/// header-content-language-merges-table, syntax-error-addencoding-arguments).
struct MimeLanguageAndEncodingTests {
    let origin = testOrigin("""
        DefaultLanguage EN
        AddLanguage de .de .html
        AddLanguage EN .en
        AddEncoding GZIP .gz
        AddEncoding br .br
        ErrorDocument 404 /err.txt
        RewriteEngine On
        RewriteRule ^f$ - [F]

        """, files: [("/y.html", 0), ("/x.de.en.html", 0), ("/a.css.gz", 0), ("/s.css.br.gz", 0), ("/err.txt", 0)],
        serverName: "shop.example")

    @Test func eachExtensionAddsItsLanguageAndTheDefaultFillsIn() {
        #expect(header(respond(origin, "/y.html"), "Content-Language") == "de")
        #expect(header(respond(origin, "/x.de.en.html"), "Content-Language") == "de,en,de")
        // DefaultLanguage keeps the case it was written in; AddLanguage's value is lower-cased.
        #expect(header(respond(origin, "/a.css.gz"), "Content-Language") == "EN")
        #expect(header(respond(origin, "/y.html", method: "OPTIONS"), "Content-Language") == "de")
    }

    @Test func codingsJoinInTheOrderOfTheName() {
        #expect(header(respond(origin, "/a.css.gz"), "Content-Encoding") == "gzip")
        #expect(header(respond(origin, "/s.css.br.gz"), "Content-Encoding") == "br, gzip")
        #expect(header(respond(origin, "/y.html"), "Content-Encoding") == nil)
    }

    @Test func cannedErrorsHaveNoneAndAnErrorDocumentPageItsOwn() {
        let forbidden = respond(origin, "/f")
        #expect(forbidden.status == 403)
        #expect(header(forbidden, "Content-Language") == nil)
        let missing = respond(origin, "/missing")
        #expect(missing.status == 404)
        #expect(header(missing, "Content-Language") == "EN")
    }

    @Test func theFirstTableLineJoinsTheLanguages() {
        let o = testOrigin("AddLanguage de .de\nHeader set Content-Language \"xx, yy\"\nHeader always set Content-Language zz\n",
                           files: [("/y.html", 0), ("/doc.de.html", 0)], serverName: "shop.example")
        let withLanguage = respond(o, "/doc.de.html").headers.filter { $0.name == "Content-Language" }.map(\.value)
        #expect(withLanguage == ["de,zz"])
        let without = respond(o, "/y.html").headers.filter { $0.name == "Content-Language" }.map(\.value)
        #expect(without == ["zz", "xx, yy"])
    }

    /// fixtures/apache/header-content-language-table-duplicates.
    @Test func tableTokensTheLanguagesNameAreNotRepeated() {
        let o = testOrigin("AddLanguage de .de\nHeader set Content-Language \"de, DE, fr\"\n",
                           files: [("/y.html", 0), ("/doc.de.html", 0)], serverName: "shop.example")
        #expect(header(respond(o, "/doc.de.html"), "Content-Language") == "de,fr")
        #expect(header(respond(o, "/y.html"), "Content-Language") == "de, DE, fr")
    }

    /// fixtures/apache/negotiation-encoding-extension-is-known.
    @Test func anEncodingExtensionMakesAVariant() {
        let o = testOrigin("Options +MultiViews\nAddEncoding x-zz .zz\n", files: [("/page.html.zz", 0), ("/other.qq", 0)],
                           serverName: "shop.example")
        let page = respond(o, "/page")
        #expect(page.served == "/page.html.zz")
        #expect(header(page, "Content-Encoding") == "x-zz")
        #expect(respond(o, "/other").status == 404)
    }

    /// fixtures/apache/alias-scriptalias-addhandler-replaces-handler.
    @Test func addHandlerNamesTheHandlerBelowAScriptAlias() {
        let o = testOrigin("AddHandler application/x-httpd-php .php\n", vhost: ["ScriptAlias /cgi/ ${DOCROOT}/cgi/"],
                           files: [("/cgi/x.php", 0)], serverName: "shop.example")
        #expect(respond(o, "/cgi/x.php").final.handler == "application/x-httpd-php")
    }

    @Test func missingArgumentsAreMimesUsageErrors() {
        let file = ConfigReader.read(SourceFile(path: ".htaccess", text: "AddEncoding gzip\nDefaultLanguage en fr\n"), context: .htaccess)
        #expect(file.diagnostics.map(\.message) == [
            "AddEncoding requires at least two arguments, an encoding (e.g., gzip), followed by one or more file extensions",
            "DefaultLanguage takes one argument, language to use for documents with no other language file extension",
        ])
    }
}
