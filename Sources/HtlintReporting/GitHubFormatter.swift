import HtlintDiagnostics

/// GitHub Actions workflow commands, one per diagnostic, which the runner turns into annotations
/// on the pull request:
///
/// ```
/// ::error file=public/.htaccess,line=4,col=20,endLine=4,endColumn=43,title=HT301 redirect-loop-through-cdn::message
/// ```
///
/// Notes and fix titles follow the message on lines of their own (as `note:` and `help:`).
/// `col`/`endColumn` are sent only for a range on one line, because GitHub rejects columns on
/// an annotation that spans lines; `endColumn` is exclusive, like htlint's other formats. Paths
/// lose a leading `./` so that they match repository paths. Severity `note` maps to `::notice`.
public struct GitHubFormatter: ReportFormatter {
    public let id = "github"
    public init() {}

    public func format(_ report: Report) -> String {
        var out = ""
        for d in report.diagnostics {
            let start = report.position(d.range), end = report.lastPosition(d.range)
            var properties = [("file", repositoryPath(d.range.file)), ("line", "\(start.line)")]
            if start.line == end.line {
                properties.append(("col", "\(start.column)"))
            }
            properties.append(("endLine", "\(end.line)"))
            if start.line == end.line {
                properties.append(("endColumn", "\(end.column)"))
            }
            let title = report.rules[d.code].map { "\(d.code) \($0.name)" } ?? d.code
            properties.append(("title", title))

            var lines = [d.message]
            for note in d.notes {
                if let r = note.range {
                    let p = report.position(r)
                    lines.append("note: \(repositoryPath(r.file)):\(p.line):\(p.column): \(note.message)")
                } else {
                    lines.append("note: \(note.message)")
                }
            }
            lines += d.fixIts.map { "help: \($0.title)" }

            let command = switch d.severity {
            case .error: "error"
            case .warning: "warning"
            case .note: "notice"
            }
            out += "::\(command) "
                + properties.map { "\($0.0)=\(Self.escapeProperty($0.1))" }.joined(separator: ",")
                + "::" + Self.escapeData(lines.joined(separator: "\n")) + "\n"
        }
        return out
    }

    /// Escaping of a command's message, as the Actions toolkit does it (`escapeData` in
    /// `@actions/core`): `%` first, then CR and LF, so that the message stays one line.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escaping of a property value (`escapeProperty`): as for data, plus `:` and `,`, which
    /// would otherwise end the value.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text)
            .replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}
