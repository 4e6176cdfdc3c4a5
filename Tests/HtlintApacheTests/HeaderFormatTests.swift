import Testing
@testable import HtlintApache

// mod_headers value formats (fixtures/apache/header-format-*).
struct HeaderFormatTests {
    func respond(_ htaccess: String, tls: Bool = false) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/x.html")
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: htaccess)
        return Origin(site: Site(serverName: "shop.example", files: fs))
            .respond(to: OriginRequest(target: "/x.html", headers: [HTTPHeader("Host", "shop.example")], tls: tls))
    }

    @Test func sslVariables() {
        let h = "Header set X-S \"%{HTTPS}s|%{SSL_TLS_SNI}s|%{NOPE}s\""
        #expect(respond(h).combinedHeader("X-S") == "off|(null)|(null)")
        #expect(respond(h, tls: true).combinedHeader("X-S") == "on|shop.example|(null)")
    }

    /// mod_ssl's fixup sets HTTPS=on after mod_rewrite's (fixtures/apache/header-env-https-from-mod-ssl-fixup).
    @Test func modSSLSetsHTTPSInTheEnvironmentAfterRewrite() {
        let h = "Header always set X-E \"%{HTTPS}e\" env=HTTPS\nRewriteEngine On\nRewriteRule ^old$ /x.html [R=301,L]"
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/x.html")
        fs.addAccessFile("/", displayPath: "/var/www/html/.htaccess", text: h)
        let origin = Origin(site: Site(serverName: "shop.example", files: fs))
        func get(_ target: String, tls: Bool) -> OriginResponse {
            origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "shop.example")], tls: tls))
        }
        #expect(get("/x.html", tls: true).combinedHeader("X-E") == "on")
        #expect(get("/missing", tls: true).combinedHeader("X-E") == "on")
        #expect(get("/old", tls: true).status == 301)
        #expect(get("/old", tls: true).combinedHeader("X-E") == nil)
        #expect(get("/x.html", tls: false).combinedHeader("X-E") == nil)
    }

    /// `%{X-In}i` is not a request header in mod_headers but the idle share (`i=…`, its
    /// argument ignored), so Apache's `Header always setifempty` finds a value already set and
    /// the merged answer is `z, i=50` (recorded with real Apache, whose numbers vary: htlint
    /// writes stand-ins in the same shape).
    @Test func timeLoadAndWorkerFormatsHaveApachesShape() {
        #expect(respond("Header set X-L \"%l|%{x}b|%i|%{y}D|%t\"").combinedHeader("X-L")
            == "l=0.00/0.00/0.00|b=100|i=0|D=0|t=0")
        let merged = respond("Header set X-B \"%{X-In}i\"\nHeader always setifempty X-B \"z\"")
        #expect(merged.combinedHeader("X-B") == "z, i=0")
    }

    @Test func percentAndUnsetEnvironment() {
        #expect(respond("Header set X-P \"100%% [%{NOPE}e]\"").combinedHeader("X-P") == "100% [(null)]")
    }

    @Test func unknownTagFailsTheFile() {
        let r = respond("Header set X-P \"a%qb\"")
        #expect(r.status == 500)
        #expect(r.errors == ["alert: /var/www/html/.htaccess: Unrecognized header format %q"])
    }

    @Test func formatPieces() {
        #expect(parseHeaderFormat("a%{X}eb%") == .success([.literal("a"), .tag("e", arg: "X"), .literal("b%")]))
        #expect(parseHeaderFormat("%{X}") == .failure(HeaderFormatError(message: "Unrecognized header format %")))
    }
}
