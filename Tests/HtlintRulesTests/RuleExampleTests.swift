import Testing
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Every rule's documented examples are its tests: triggering examples must produce findings
/// exactly at the `↓` markers, non-triggering ones nothing — under variants that must not matter.
struct RuleExampleTests {
    static let ids = builtInRules.map(\.description.id)

    /// Removes `↓` markers; returns the text and the UTF-8 offsets where they stood.
    static func stripMarkers(_ text: String) -> (String, [Int]) {
        var out: [UInt8] = []
        var offsets: [Int] = []
        let marker = Array("↓".utf8)
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if i + marker.count <= bytes.count, Array(bytes[i..<(i + marker.count)]) == marker {
                offsets.append(out.count)
                i += marker.count
                continue
            }
            out.append(bytes[i])
            i += 1
        }
        return (String(decoding: out, as: UTF8.self), offsets)
    }

    /// Changes that must not alter a rule's findings (SwiftLint-style variants). A byte-order
    /// mark is not one: Apache reads it as part of the first directive's name (HT110).
    static func variants(_ code: String, family: RuleFamily) -> [String] {
        var v = [code, "# commentaire déjà vu — ünïcødé\n" + code, code.replacingOccurrences(of: "\n", with: "\r\n")]
        if family != .syntax { v.append("<IfModule mod_rewrite.c>\n" + code + "\n</IfModule>") }
        return v
    }

    static func findings(_ rule: any LintRule, _ code: String, _ example: Example) -> [Diagnostic] {
        let layers = example.edge.flatMap(LayerNames.layers)
        #expect(example.edge == nil || layers != nil, "unknown edge \(example.edge ?? "")")
        let pages = example.pages.mapValues { stripMarkers($0).0 }
        let context = LintContext(htaccess: code, parent: example.parent, layers: layers, pages: pages, vhost: example.vhost)
        let examplePath = example.parent == nil ? ".htaccess" : "sub/.htaccess"
        // Page files are shown as their URL-path without the leading `/` (SiteContent).
        let pageFiles = Set(example.pages.keys.map { String($0.drop { $0 == "/" }) })
        return Linter(rules: [rule], configuration: LintConfiguration(enabling: [rule.description])).run(context).filter { $0.range.file == examplePath || pageFiles.contains($0.range.file) }
    }

    /// "file:offset" of every `↓` in the example's pages.
    static func pageMarkers(_ example: Example) -> Set<String> {
        Set(example.pages.flatMap { path, text in
            stripMarkers(text).1.map { "\(path.drop { $0 == "/" }):\($0)" }
        })
    }

    @Test("examples behave as documented", arguments: ids)
    func examples(_ id: String) {
        let rule = builtInRules.first { $0.description.id == id }!
        let d = rule.description
        for example in d.triggering {
            let location = SourceLocation(fileID: "HtlintRules/\(example.file.split(separator: "/").last ?? "")",
                                          filePath: example.file, line: example.line, column: 1)
            for variant in Self.variants(example.code, family: d.family) {
                let (code, expected) = Self.stripMarkers(variant)
                let found = Self.findings(rule, code, example)
                let examplePath = example.parent == nil ? ".htaccess" : "sub/.htaccess"
                let wanted = Set(expected.map { "\(examplePath):\($0)" }).union(Self.pageMarkers(example))
                #expect(Set(found.map { "\($0.range.file):\($0.range.start)" }) == wanted, "\(id) on: \(code.debugDescription)",
                        sourceLocation: location)
                #expect(found.allSatisfy { $0.code == id }, sourceLocation: location)
            }
            // The suppression comment silences it.
            let (code, _) = Self.stripMarkers("# htlint disable-file=\(id)\n" + example.code)
            #expect(Self.findings(rule, code, example).isEmpty, "suppressed \(id)", sourceLocation: location)
        }
        for example in d.nonTriggering {
            let location = SourceLocation(fileID: "HtlintRules/x", filePath: example.file, line: example.line, column: 1)
            for variant in Self.variants(example.code, family: d.family) {
                let found = Self.findings(rule, variant, example)
                #expect(found.isEmpty, "\(id) should stay silent on: \(variant.debugDescription), found \(found.map(\.message))",
                        sourceLocation: location)
            }
        }
    }

    @Test func catalogIsWellFormed() {
        let ids = builtInRules.map(\.description.id)
        #expect(Set(ids).count == ids.count, "duplicate ids")
        let names = builtInRules.map(\.description.name)
        #expect(Set(names).count == names.count, "duplicate names")
        for rule in builtInRules {
            let d = rule.description
            #expect(d.id.count == 5 && d.id.hasPrefix("HT") && Int(d.id.dropFirst(2)) != nil, "malformed id \(d.id)")
            #expect(!d.triggering.isEmpty && !d.nonTriggering.isEmpty, "\(d.id) needs both kinds of examples")
            #expect(d.name == d.name.lowercased() && !d.name.contains(" ") && !d.name.hasPrefix("no-"), "\(d.id) name")
            let family = ["1": RuleFamily.syntax, "2": .semantics, "3": .https, "4": .security, "5": .mixedContent, "6": .style]
            #expect(family[String(d.id.dropFirst(2).prefix(1))] == d.family, "\(d.id) family")
        }
        #expect(ids == ids.sorted())
    }

    @Test func localSuppressionSilencesOnlyTheNextDirective() {
        let code = """
            RewriteEngine On
            # htlint disable=HT202
            RewriteRule ^a$ /b [R=301]
            RewriteRule ^c$ /d [R=301]
            """
        let found = Linter(rules: [rule(named: "HT202")!]).run(LintContext(htaccess: code))
        #expect(found.count == 1)
        #expect(found.first.map { SourceFile(path: "", text: code).lines.position(of: $0.range.start).line } == 4)
        let byName = code.replacingOccurrences(of: "disable=HT202", with: "disable=redirect-without-last")
        #expect(Linter(rules: [rule(named: "HT202")!]).run(LintContext(htaccess: byName)).count == 1)
    }

    @Test func regexWitnessesMatchTheirPatterns() {
        for p in ["^old/products/compact-boot-0/?$", "^([a-z]{2})/page-(\\d+)\\.html$", "^(.*)/print-3/?$",
                  "^blog/(?:news|posts)/([^/]+)$", "^index\\.php$", "^(en|de)/(.+)$"] {
            let w = RegexWitness.witness(for: p)
            #expect(w != nil, "no witness for \(p)")
        }
        #expect(RegexWitness.witness(for: "^(a)\\1$") == nil)
        #expect(RegexWitness.witness(for: "^(?=x)y") == nil)
        #expect(RegexWitness.witness(for: "^old/page-([0-9]+)$") == "old/page-0")
    }
}
