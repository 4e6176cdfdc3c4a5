import HtlintDiagnostics

/// Checkstyle XML, which Jenkins (warnings-ng), reviewdog and many CI dashboards read:
///
/// ```
/// <checkstyle version="4.3">
///   <file name="public/.htaccess">
///     <error line="4" column="20" severity="error" message="…" source="htlint.HT301"/>
///   </file>
/// </checkstyle>
/// ```
///
/// Every checked file gets a `<file>` element, clean ones empty, so that consumers can tell a
/// checked clean file from one that was not checked. Notes and fix titles follow the message
/// on lines of their own, as in the other one-line formats. Severity `note` is Checkstyle's `info`.
public struct CheckstyleFormatter: ReportFormatter {
    public let id = "checkstyle"
    public init() {}

    public func format(_ report: Report) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for file in report.mentionedFiles {
            let found = report.diagnostics.filter { $0.range.file == file }
            guard !found.isEmpty else {
                out += "  <file name=\"\(Self.escape(file))\"/>\n"
                continue
            }
            out += "  <file name=\"\(Self.escape(file))\">\n"
            for d in found {
                let p = report.position(d.range)
                var lines = [d.message]
                for note in d.notes {
                    if let r = note.range {
                        let np = report.position(r)
                        lines.append("note: \(r.file):\(np.line):\(np.column): \(note.message)")
                    } else {
                        lines.append("note: \(note.message)")
                    }
                }
                lines += d.fixIts.map { "help: \($0.title)" }
                let severity = d.severity == .note ? "info" : d.severity.rawValue
                out += "    <error line=\"\(p.line)\" column=\"\(p.column)\" severity=\"\(severity)\""
                    + " message=\"\(Self.escape(lines.joined(separator: "\n")))\" source=\"htlint.\(Self.escape(d.code))\"/>\n"
            }
            out += "  </file>\n"
        }
        out += "</checkstyle>\n"
        return out
    }

    /// Text for an XML 1.0 attribute value in double quotes. Markup characters become entities;
    /// tab, LF and CR become character references because attribute-value normalisation would
    /// turn them into spaces; characters XML 1.0 cannot carry at all (other C0 controls, U+FFFE,
    /// U+FFFF) become U+FFFD rather than making the document ill-formed.
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
