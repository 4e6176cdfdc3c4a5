import HtlintBytes
import Testing
@testable import HtlintApache
import HtlintRegex

// `AllowEncodedSlashes` in the vhost decides what %2F does before any rule runs; `%00` is
// always a 404 and the logged URI ends at the NUL (fixtures/apache/rewrite-escape-encoded-slashes-*,
// rewrite-escape-bad-encodings-and-dots).
struct EncodedSlashesTests {
    static let rules = """
        RewriteEngine On
        RewriteRule ^f/(.*)$ /show.html?n=$1 [R=302,L]
        RewriteRule ^g/(.*)$ /show.html?n=$1 [B,R=302,L]
        """

    static func get(_ target: String, _ setting: String?) -> OriginResponse {
        respond(target, vhost: setting.map { ["AllowEncodedSlashes \($0)"] } ?? [], access: [("/", rules)],
                files: ["/show.html"])
    }

    @Test func decoding() {
        #expect(decodeURLPath("/a%2Fb") == .failure(.forbiddenByte("/a/b")))
        #expect(decodeURLPath("/a%2Fb", encodedSlashes: .decode) == .success("/a/b"))
        #expect(decodeURLPath("/a%2fb%20c", encodedSlashes: .keep) == .success("/a%2fb c"))
        #expect(decodeURLPath("/a%00b", encodedSlashes: .decode) == .failure(.forbiddenByte("/a\u{0}b")))
    }

    @Test func offIsA404() {
        let r = Self.get("/f/a%2Fb", nil)
        #expect(r.status == 404)
        #expect(r.location == nil)
    }

    @Test func onDecodesBeforeTheRules() {
        let r = Self.get("/f/a%2Fb", "On")
        #expect(r.status == 302)
        #expect(r.location == "http://shop.example/show.html?n=a/b")
        #expect(r.final.uri == "/f/a/b")
        #expect(Self.get("/g/x%2Fy", "On").location == "http://shop.example/show.html?n=x%252fy")
    }

    @Test func noDecodeKeepsTheEscape() {
        let r = Self.get("/f/a%2Fb", "NoDecode")
        #expect(r.location == "http://shop.example/show.html?n=a%252Fb")
        #expect(r.final.uri == "/f/a%2Fb")
        #expect(Self.get("/g/x%2Fy", "NoDecode").location == "http://shop.example/show.html?n=x%25252Fy")
    }

    @Test func nulEndsTheLoggedURI() {
        for setting in [nil, "On", "NoDecode"] {
            let r = Self.get("/f/a%00b", setting)
            #expect(r.status == 404)
            #expect(r.final.uri == "/f/a")
            #expect(r.final.filename == nil)
        }
    }

    @Test func badValueIsAConfigError() {
        let site = Site(serverName: "shop.example", files: SiteFileSystem(root: "/var/www/html"),
                        vhostLines: ["AllowEncodedSlashes Maybe"])
        #expect(site.vhost.diagnostics.map(\.message) == ["AllowEncodedSlashes must be On, Off, or NoDecode"])
        #expect(site.encodedSlashes == .forbid)
    }
}

/// A Latin-1 escape decodes to the byte itself (kept as a raw byte) and escapes back to it,
/// as Apache's unescape/escape pair does; UTF-8 escapes stay characters.
@Test func nonUTF8EscapesRoundTripAsBytes() throws {
    let decoded = try decodeURLPath("/caf%e9%20x").get()
    #expect(decoded.rawBytes == Array("/caf".utf8) + [0xE9] + Array(" x".utf8))
    #expect(escapePath(decoded) == "/caf%e9%20x")
    #expect(try decodeURLPath("/caf%C3%A9").get() == "/café")
    #expect(escapeBackreference(String(preservingBytes: [0xFF, 0x41]), { var e = BackrefEscaping(); e.all = true; return e }()) == "%ffA")
}
