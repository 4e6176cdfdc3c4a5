import Testing
import HtlintYAML

struct YAMLTests {
    @Test func mappingsSequencesAndScalars() throws {
        let v = try parseYAML("""
            host: example.org
            aliases: [www.example.org, shop.example.org]
            edge:
              mode: cloudflare-flexible
              always-https: yes
            empty:
            """)
        #expect(v["host"]?.string == "example.org")
        #expect(v["aliases"]?.strings == ["www.example.org", "shop.example.org"])
        #expect(v["edge"]?["mode"]?.string == "cloudflare-flexible")
        #expect(v["edge"]?["always-https"]?.bool == true)
        #expect(v["empty"] == .null(line: 6))
        #expect(v["edge"]?.line == 4)
        #expect(v.keys == ["host", "aliases", "edge", "empty"])
    }

    @Test func quotedScalarsStayStrings() throws {
        let v = try parseYAML("a: 'null'\nb: \"42\"\nc: 42")
        #expect(v["a"]?.string == "null")
        #expect(v["b"]?.int == 42)
        #expect(v["c"]?.int == 42)
    }

    @Test func syntaxErrorHasAPosition() {
        #expect(throws: YAMLError.self) { try parseYAML("a: [1, 2\nb: c") }
        do {
            _ = try parseYAML("key: value\n  - bad: [")
        } catch {
            #expect(error.line >= 2)
        }
    }

    @Test func emptyDocumentIsNull() throws {
        #expect(try parseYAML("") == .null(line: 1))
    }
}
