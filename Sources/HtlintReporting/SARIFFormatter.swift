import Foundation
import HtlintDiagnostics

/// SARIF 2.1.0 (OASIS), as GitHub code scanning and IDE viewers read it: one run whose
/// `tool.driver` describes htlint and its rules, one result per diagnostic.
///
/// - Columns: the run sets `columnKind` to `unicodeCodePoints`, which is what htlint's columns
///   count (Unicode scalars; SARIF's default would be UTF-16 code units, which differ for
///   characters outside the BMP). `endColumn` is exclusive, as SARIF defines it.
/// - Locations: `artifactLocation.uri` is the path as given, percent-encoded where a URI needs it
///   (a relative reference for relative paths, `file://` for absolute ones), plus the index of
///   the file in `artifacts`.
/// - Notes with a range become `relatedLocations`; notes without one are appended to the
///   message text, since a related location without a place is not useful to viewers.
/// - Fix-its become `fixes` whose replacements carry the exact `byteOffset`/`byteLength` of the
///   edit besides lines and columns. `displayOnly` fix-its are left out, because SARIF consumers
///   may offer to apply every fix; the applicability is kept in the fix's property bag.
/// - Rules: `shortDescription` is the summary, `fullDescription` and `help.markdown` the rule's
///   page; `helpUri` only when the help URI is absolute (SARIF requires it), else the path is
///   named in `help.text`.
/// - `ruleIndex` points into `tool.driver.rules`, which lists every rule in `Report.rules` and
///   every code the report uses (codes without metadata get a descriptor with the id only).
public struct SARIFFormatter: ReportFormatter {
    public let id = "sarif"
    public init() {}

    static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    static let informationURI = "https://htlint.dev"

    public func format(_ report: Report) -> String {
        let codes = Set(report.rules.keys).union(report.diagnostics.map(\.code)).sorted()
        let ruleIndex = Dictionary(uniqueKeysWithValues: codes.enumerated().map { ($1, $0) })
        let files = report.mentionedFiles
        let fileIndex = Dictionary(uniqueKeysWithValues: files.enumerated().map { ($1, $0) })

        func artifact(_ path: String) -> ArtifactLocation {
            ArtifactLocation(uri: Self.uri(path), index: fileIndex[path])
        }
        func region(_ range: SourceRange) -> Region {
            let start = report.position(range), end = report.lastPosition(range)
            return Region(startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column)
        }

        let rules = codes.map { code -> Rule in
            guard let meta = report.rules[code] else { return Rule(id: code) }
            return Rule(id: code, name: meta.name, shortDescription: Message(text: meta.summary),
                        fullDescription: MultiformatMessage(text: meta.description),
                        help: MultiformatMessage(text: "\(meta.summary) See \(meta.helpURI)", markdown: meta.description),
                        helpUri: Self.isAbsoluteURI(meta.helpURI) ? meta.helpURI : nil,
                        defaultConfiguration: Configuration(level: Self.level(meta.defaultSeverity)))
        }

        let results = report.diagnostics.map { d -> Result in
            let placed = d.notes.filter { $0.range != nil }
            let unplaced = d.notes.filter { $0.range == nil }
            let text = ([d.message] + unplaced.map { "note: \($0.message)" }).joined(separator: "\n")
            let related = placed.enumerated().map { i, note in
                Location(id: i, physicalLocation: PhysicalLocation(artifactLocation: artifact(note.range!.file),
                                                                   region: region(note.range!)),
                         message: Message(text: note.message))
            }
            let fixes = d.fixIts.filter { $0.applicability != .displayOnly && !$0.edits.isEmpty }.map { fix in
                var changes: [ArtifactChange] = []
                for edit in fix.edits {
                    let start = report.position(edit.range), end = report.endPosition(edit.range)
                    let replacement = Replacement(
                        deletedRegion: Region(startLine: start.line, startColumn: start.column,
                                              endLine: end.line, endColumn: end.column,
                                              byteOffset: edit.range.start, byteLength: edit.range.end - edit.range.start),
                        insertedContent: edit.replacement.isEmpty ? nil : ArtifactContent(text: edit.replacement))
                    if let i = changes.firstIndex(where: { $0.file == edit.range.file }) {
                        changes[i].replacements.append(replacement)
                    } else {
                        changes.append(ArtifactChange(file: edit.range.file, artifactLocation: artifact(edit.range.file),
                                                      replacements: [replacement]))
                    }
                }
                return Fix(description: Message(text: fix.title), artifactChanges: changes,
                           properties: ["applicability": fix.applicability.rawValue])
            }
            return Result(ruleId: d.code, ruleIndex: ruleIndex[d.code]!, level: Self.level(d.severity),
                          message: Message(text: text),
                          locations: [Location(physicalLocation: PhysicalLocation(artifactLocation: artifact(d.range.file),
                                                                                  region: region(d.range)))],
                          relatedLocations: related.isEmpty ? nil : related,
                          fixes: fixes.isEmpty ? nil : fixes)
        }

        let run = Run(tool: Tool(driver: Driver(name: "htlint", version: report.toolVersion,
                                                informationUri: Self.informationURI, rules: rules)),
                      artifacts: files.map { path in
                          Artifact(location: artifact(path), length: report.sources[path]?.bytes.count)
                      },
                      results: results, columnKind: "unicodeCodePoints")
        let log = Log(schema: Self.schemaURI, version: "2.1.0", runs: [run])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(log)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// SARIF's `level` has the same three values as `Severity`.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// Whether `text` starts with a URI scheme (`https:`). SARIF's `helpUri` must be an absolute
    /// URI, so a docs path is given only in the help text.
    static func isAbsoluteURI(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
            return false
        }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// A URI reference for a path: relative paths stay relative (GitHub resolves them against the
    /// repository root), absolute ones become `file://` URIs. Bytes outside RFC 3986's unreserved
    /// characters, `/` and the sub-delimiters are percent-encoded; so is `:`, which would make a
    /// relative path's first segment read as a scheme.
    static func uri(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-._~/!$&'()*+,;=@".utf8.contains(byte):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    // MARK: SARIF objects (only the properties htlint fills; nil ones are left out)

    struct Log: Encodable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema", version, runs
        }
    }
    struct Run: Encodable {
        var tool: Tool
        var artifacts: [Artifact]
        var results: [Result]
        var columnKind: String
    }
    struct Tool: Encodable { var driver: Driver }
    struct Driver: Encodable {
        var name: String
        var version: String?
        var informationUri: String
        var rules: [Rule]
    }
    struct Rule: Encodable {
        var id: String
        var name: String?
        var shortDescription: Message?
        var fullDescription: MultiformatMessage?
        var help: MultiformatMessage?
        var helpUri: String?
        var defaultConfiguration: Configuration?
    }
    struct Configuration: Encodable { var level: String }
    struct Message: Encodable { var text: String }
    struct MultiformatMessage: Encodable {
        var text: String
        var markdown: String?
    }
    struct Artifact: Encodable {
        var location: ArtifactLocation
        var length: Int?
    }
    struct ArtifactLocation: Encodable {
        var uri: String
        var index: Int?
    }
    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Message
        var locations: [Location]
        var relatedLocations: [Location]?
        var fixes: [Fix]?
    }
    struct Location: Encodable {
        var id: Int?
        var physicalLocation: PhysicalLocation?
        var message: Message?
    }
    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }
    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
        var endLine: Int
        var endColumn: Int
        var byteOffset: Int?
        var byteLength: Int?
    }
    struct Fix: Encodable {
        var description: Message
        var artifactChanges: [ArtifactChange]
        var properties: [String: String]
    }
    struct ArtifactChange: Encodable {
        /// Grouping key only; not encoded.
        var file: String
        var artifactLocation: ArtifactLocation
        var replacements: [Replacement]
        enum CodingKeys: String, CodingKey {
            case artifactLocation, replacements
        }
    }
    struct Replacement: Encodable {
        var deletedRegion: Region
        var insertedContent: ArtifactContent?
    }
    struct ArtifactContent: Encodable { var text: String }
}
