import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by the round-14 differential fuzz (today's features: bytes that are not
/// UTF-8, mod_negotiation, mod_autoindex, mod_remoteip, the mime.types table); every expected
/// value was recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz14RegressionTests {
    func site(_ htaccess: String, vhost: [String] = [], files: [(String, Int)], modules extra: [String] = []) -> Origin {
        testOrigin(htaccess, vhost: vhost, files: files, serverName: "example.org", modules: extra)
    }

    /// fixtures/apache/negotiation-vary-error-document-merged: the ErrorDocument request shares the
    /// error table, so its negotiation's Vary tokens join the failing request's; no variant, no Vary.
    @Test func negotiationVaryAccumulatesAcrossTheErrorDocument() {
        let o = site("Options +MultiViews\nErrorDocument 404 /err404.html\nErrorDocument 406 /err406\n",
                     files: [("/page.html", 12), ("/page.txt", 10), ("/err404.html", 0), ("/err406.html", 0)],
                     modules: ["negotiation"])
        let json = [HTTPHeader("Accept", "application/json")]
        #expect(header(respond(o, "/page/extra", headers: [HTTPHeader("Accept", "text/plain")]), "Vary") == "accept")
        #expect(header(respond(o, "/page", headers: json), "Vary") == "negotiate,accept")
        #expect(header(respond(o, "/page", method: "OPTIONS", headers: json), "Vary") == "accept,negotiate")
        #expect(header(respond(o, "/page", method: "POST", headers: json), "Vary") == "accept,negotiate")
        #expect(header(respond(o, "/missing"), "Vary") == nil)
    }

    /// fixtures/apache/access-remoteip-inet-aton-and-trimmed-rest: getaddrinfo's IPv4 forms, and
    /// the element the walk stopped on stays trimmed of its trailing spaces.
    @Test(arguments: [
        ("1.2.3", "1.2.0.3", nil),
        ("010.0.0.1", "8.0.0.1", nil),
        ("1.2", "1.0.0.2", nil),
        ("::1 , 100.64.0.1", "100.64.0.1", "::1"),
        ("198.51.100.2 , 10.0.0.1 , 203.0.113.7", "203.0.113.7", "198.51.100.2 , 10.0.0.1"),
        ("10.0.0.1 ,  , 203.0.113.7", "203.0.113.7", "10.0.0.1 ,  "),
    ] as [(String, String, String?)])
    func remoteIPReadsInetAtonFormsAndTrimsTheStoppingElement(value: String, address: String, rest: String?) {
        let answer = RemoteIPTests.settings([]).resolve(peer: "127.0.0.1", header: value)
        #expect(answer?.address == address)
        #expect(answer?.header == rest)
    }

    /// fixtures/apache/access-remoteip-ipv4-mapped: an IPv4-mapped address is its IPv4 address.
    @Test func remoteIPTakesIPv4MappedAddressesAsIPv4() {
        #expect(RemoteIPTests.settings([]).resolve(peer: "127.0.0.1", header: "::ffff:203.0.113.9")! == ("203.0.113.9", nil))
        #expect(RemoteIPTests.settings([]).resolve(peer: "127.0.0.1", header: "::ffff:10.0.0.1") == nil)
        #expect(RemoteIPTests.settings([]).resolve(peer: "127.0.0.1", header: "203.0.113.7, ::ffff:198.51.100.2")! == ("203.0.113.7", nil))
    }

    @Test func remoteIPLeavesHeadersItCannotRead() {
        for value in ["203.0.113.300", "1.2.3.4 x", "0x7f.1"] {
            #expect(RemoteIPTests.settings([]).resolve(peer: "127.0.0.1", header: value) == nil, "\(value)")
        }
    }

    /// fixtures/apache/access-remoteip-ipv6-subnet: apr_ipsubnet takes IPv6 prefixes.
    @Test func ipv6SubnetsMatchAsBytes() {
        #expect(ipMatches("2001:db8::/32", "2001:db8::1"))
        #expect(ipMatches("2001:db8::/32", "2001:db8::5"))
        #expect(!ipMatches("2001:db8::/32", "2001:db9::1"))
        #expect(!ipMatches("2001:db8::/32", "203.0.113.7"))
        #expect(ipMatches("2001:0db8::1", "2001:db8::1"))
        #expect(!ipMatches("2001:db8::/129", "2001:db8::1"))
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/dirindex-autoindex-head-reads-no-entries: HEAD is answered before the
    /// directory is read, so no `.ht*` entry is looked up and denied.
    @Test func autoindexAnswersHeadWithoutLookingUpEntries() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/list/a.txt")
        fs.addFile("/list/.htpasswd")
        fs.addAccessFile("/list", displayPath: "/var/www/html/list/.htaccess", text: "Options +Indexes\n")
        let o = Origin(site: Site(serverName: "example.org", files: fs))
        #expect(respond(o, "/list/").errorCodes.contains("AH01630"))
        let head = respond(o, "/list/", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.errorCodes.isEmpty)
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/rewrite-escape-non-utf8-b-list: [B=chars] leaves other bytes as they are,
    /// a lone 0xE9 too (escaped again as %e9 in Location, not %ef%bf%bd); the ldap function
    /// escapes control bytes and every byte from 0x7F.
    @Test func bListKeepsBytesThatAreNotUTF8() {
        let o = site("RewriteEngine On\nRewriteRule ^old/(.*)$ /new/$1 [R=302,L,B=/]\nHeader always set X-L \"expr=%{ldap:%{REQUEST_URI}}\"\n",
                     files: [("/page.html", 0)])
        #expect(respond(o, "/old/caf%e9").location == "http://example.org/new/caf%e9")
        #expect(respond(o, "/old/%fe%ff/x").location == "http://example.org/new/%fe%ff%252fx")
        #expect(header(respond(o, "/l/%01%20%7f~%C3%A9(x)"), "X-L") == "/l/\\01 \\7f~\\c3\\a9\\28x\\29")
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/negotiation-accept-wildcards-and-redirect: without a q below 1 a wildcard
    /// match is worth 0.02 (type/*) or 0.01 (*/*); with one, qualities count as written.
    @Test func acceptWildcardsAreFiddledDownWithoutExplicitQualities() {
        #expect(AcceptList("application/*, image/png, */*").quality(of: "application/xml") == 0.02)
        #expect(AcceptList("application/*, image/png, */*").quality(of: "text/html") == 0.01)
        #expect(AcceptList("*, image/png").quality(of: "text/html") == 0.01)
        #expect(AcceptList("application/*;q=0.9, image/png;q=0.8").quality(of: "application/xml") == 0.9)
        #expect(AcceptList("application/*, image/png;q=1.0").quality(of: "application/xml") == 0.02)
        #expect(AcceptList(nil).quality(of: "text/html") == 1)
    }

    /// The same fixture: Content-Location is in the error table, so a rewrite's redirect after
    /// the negotiation still carries it (with the Vary).
    @Test func contentLocationSurvivesARedirectAfterNegotiation() {
        let o = site("Options +MultiViews\nRewriteEngine On\nRewriteRule ^doc\\.xml$ /elsewhere [R=302,L]\n",
                     files: [("/doc.html", 0), ("/doc.xml", 0), ("/doc.png", 37)], modules: ["negotiation"])
        let png = respond(o, "/doc", headers: [HTTPHeader("Accept", "application/*, image/png, */*")])
        #expect(png.served == "/doc.png")
        let xml = respond(o, "/doc", headers: [HTTPHeader("Accept", "application/xml")])
        #expect(xml.status == 302)
        #expect(header(xml, "Content-Location") == "doc.xml")
        #expect(header(xml, "Vary") == "negotiate,accept")
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/negotiation-directory-index-negotiated: the index subrequest's error table
    /// (Vary, Content-Location) comes with it; its 406 as the only candidate is the answer.
    @Test func aNegotiatedDirectoryIndexBringsItsNegotiationHeaders() {
        let o = site("Options +MultiViews\nDirectoryIndex index\n", files: [("/index.html", 0), ("/index.txt", 20)],
                     modules: ["negotiation"])
        let text = respond(o, "/", method: "POST", headers: [HTTPHeader("Accept", "text/plain")])
        #expect(text.served == "/index.txt")
        #expect(header(text, "Vary") == "negotiate,accept")
        #expect(header(text, "Content-Location") == "index.txt")
        let none = respond(o, "/", headers: [HTTPHeader("Accept", "image/png")])
        #expect(none.status == 406)
        #expect(header(none, "Vary") == "negotiate,accept")
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/dirindex-autoindex-slash-off-other-methods: with DirectorySlash Off the
    /// filename gains its slash only when mod_autoindex lists (GET, HEAD).
    @Test func autoindexAppendsTheSlashOnlyForTheMethodsItServes() {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/idx/z.txt")
        fs.addAccessFile("/idx", displayPath: "/var/www/html/idx/.htaccess", text: "Options +Indexes\nDirectorySlash Off\n")
        let o = Origin(site: Site(serverName: "example.org", files: fs))
        #expect(respond(o, "/idx").final.filename == "/idx/")
        #expect(respond(o, "/idx", method: "HEAD").final.filename == "/idx/")
        for method in ["POST", "OPTIONS", "PUT"] {
            #expect(respond(o, "/idx", method: method).final.filename == "/idx", "\(method)")
        }
    }
}

extension Fuzz14RegressionTests {
    /// fixtures/apache/negotiation-accept-header-parsing: get_entry and atoq.
    @Test func acceptIsReadAsModNegotiationReadsIt() {
        #expect(AcceptList.qvalue("-1") == 1)
        #expect(AcceptList.qvalue("2") == 1)
        #expect(AcceptList.qvalue("abc") == 1)
        #expect(AcceptList.qvalue(".5") == 0.5)
        #expect(AcceptList.qvalue("0.99999") == 0.999)
        #expect(AcceptList.qvalue("0") == 0)
        #expect(AcceptList("TEXT/PLAIN;Q=0.1, image/png;q=.5").quality(of: "text/plain") == 0.1)
        #expect(AcceptList("*;q=0.5, image/png;qs=0.6").quality(of: "image/png") == 0.6)
        #expect(AcceptList("text/html text/plain;q=0").quality(of: "text/html") == 1)
        #expect(AcceptList("text/html text/plain;q=0").quality(of: "text/plain") == 0)
        #expect(AcceptList("text/html;level=1").quality(of: "text/html") == 0)
        #expect(AcceptList("text/html;level=3;q=0.5").quality(of: "text/html") == 0.5)
    }
}
