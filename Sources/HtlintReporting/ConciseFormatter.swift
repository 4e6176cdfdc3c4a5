import HtlintDiagnostics

/// `path:line:col: severity: message [CODE]`, one line per diagnostic, notes indented below.
public struct ConciseFormatter: ReportFormatter {
    public let id = "concise"
    public init() {}

    public func format(_ report: Report) -> String {
        var out = ""
        for d in report.diagnostics {
            let p = report.position(d.range)
            out += "\(terminalSafe(d.range.file)):\(p.line):\(p.column): \(d.severity.rawValue): \(terminalSafe(d.message)) [\(d.code)]\n"
            for note in d.notes {
                if let r = note.range {
                    let np = report.position(r)
                    out += "  \(terminalSafe(r.file)):\(np.line):\(np.column): note: \(terminalSafe(note.message))\n"
                } else {
                    out += "  note: \(terminalSafe(note.message))\n"
                }
            }
            for fix in d.fixIts { out += "  fix: \(fix.title)\n" }
        }
        return out
    }
}
