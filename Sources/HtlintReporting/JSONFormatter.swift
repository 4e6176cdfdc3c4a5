import Foundation
import HtlintDiagnostics

/// Machine-readable diagnostics. Keys are sorted and the shape carries a `version`; change the
/// shape only together with the version.
public struct JSONFormatter: ReportFormatter {
    public let id = "json"
    public init() {}

    struct Position: Encodable { var line: Int; var column: Int }
    struct Edit: Encodable { var file: String; var start: Position; var end: Position; var replacement: String }
    struct Fix: Encodable { var title: String; var applicability: String; var edits: [Edit] }
    struct NoteOut: Encodable { var message: String; var file: String?; var start: Position? }
    struct Item: Encodable {
        var code: String
        var severity: String
        var message: String
        var file: String
        var start: Position
        var end: Position
        var notes: [NoteOut]
        var fixes: [Fix]
    }
    struct Document: Encodable {
        var version = 1
        var tool = "htlint"
        var diagnostics: [Item]
        var summary: [String: Int]
    }

    public func format(_ report: Report) -> String {
        func pos(_ p: SourcePosition) -> Position { Position(line: p.line, column: p.column) }
        let items = report.diagnostics.map { d in
            Item(code: d.code, severity: d.severity.rawValue, message: d.message, file: d.range.file,
                 start: pos(report.position(d.range)), end: pos(report.endPosition(d.range)),
                 notes: d.notes.map { n in
                     NoteOut(message: n.message, file: n.range?.file, start: n.range.map { pos(report.position($0)) })
                 },
                 fixes: d.fixIts.map { f in
                     Fix(title: f.title, applicability: f.applicability.rawValue, edits: f.edits.map { e in
                         Edit(file: e.range.file, start: pos(report.position(e.range)), end: pos(report.endPosition(e.range)),
                              replacement: e.replacement)
                     })
                 })
        }
        let doc = Document(diagnostics: items, summary: ["errors": report.errorCount, "warnings": report.warningCount,
                                                         "files": report.checkedPaths.count])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(doc)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
