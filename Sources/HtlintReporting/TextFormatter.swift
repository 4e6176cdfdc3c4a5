import HtlintDiagnostics

/// Output for people: a header per finding, a code frame with a caret under the range, notes
/// and fix titles, and a summary line.
///
/// ```
/// public/.htaccess:4:20: error[HT301]: `https://example.org/$1` redirects …
///   |
/// 4 | RewriteRule ^(.*)$ https://example.org/$1 [R,L]
///   |                    ^~~~~~~~~~~~~~~~~~~~~~
///   = help: Add `[L]`
/// ```
///
/// The caret is placed by display width, not bytes: a tab advances to the next multiple of
/// ``tabWidth`` (and is shown as spaces), East Asian wide characters take two cells, combining
/// marks none, and control characters are shown as their Unicode control pictures. A range over
/// several lines is marked on its first line, up to the end of that line.
public struct TextFormatter: ReportFormatter {
    public let id = "text"
    /// Whether to colour with ANSI escapes. Off by default; the CLI switches it on for a terminal
    /// without `NO_COLOR`, since a formatter does no terminal detection.
    public var colour: Bool
    /// Tab stops in the code frame, in cells.
    public static let tabWidth = 4

    /// A formatter for plain text unless `colour` is true.
    public init(colour: Bool = false) {
        self.colour = colour
    }

    public func format(_ report: Report) -> String {
        var out = ""
        for d in report.diagnostics {
            let framed = [d.range] + d.notes.compactMap(\.range)
            let gutter = framed.map { String(report.position($0).line).count }.max() ?? 1
            let p = report.position(d.range)
            out += paint("\(terminalSafe(d.range.file)):\(p.line):\(p.column):", .bold) + " "
                + paint("\(d.severity.rawValue)[\(d.code)]:", style(d.severity)) + " "
                + paint(terminalSafe(d.message), .bold) + "\n"
            out += frame(d.range, in: report, gutter: gutter, caret: style(d.severity))
            for note in d.notes {
                if let r = note.range {
                    let np = report.position(r)
                    out += paint("\(terminalSafe(r.file)):\(np.line):\(np.column):", .bold) + " "
                        + paint("note:", .note) + " \(terminalSafe(note.message))\n"
                    out += frame(r, in: report, gutter: gutter, caret: .note)
                } else {
                    out += String(repeating: " ", count: gutter + 1) + paint("=", .gutter) + " "
                        + paint("note:", .note) + " \(terminalSafe(note.message))\n"
                }
            }
            for fix in d.fixIts {
                out += String(repeating: " ", count: gutter + 1) + paint("=", .gutter) + " "
                    + paint("help:", .help) + " \(fix.title)\n"
            }
            out += "\n"
        }
        out += paint(summary(report), .bold) + "\n"
        return out
    }

    /// `found 1 error, 2 warnings and 1 note in 3 files`, or `no problems found in 3 files`.
    func summary(_ report: Report) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        let files = count(report.checkedPaths.count, "file")
        let parts = [(report.errorCount, "error"), (report.warningCount, "warning"), (report.noteCount, "note")]
            .filter { $0.0 > 0 }
            .map { count($0.0, $0.1) }
        guard let last = parts.last else { return "no problems found in \(files)" }
        let list = parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + " and " + last
        return "found \(list) in \(files)"
    }

    // MARK: Code frame

    /// The source line of `range`'s start between gutter lines, with a caret under the range;
    /// empty when the file's text is not in the report.
    func frame(_ range: SourceRange, in report: Report, gutter: Int, caret: Style) -> String {
        guard let source = report.sources[range.file] else { return "" }
        let bytes = source.bytes
        let line = source.lines.position(of: range.start).line
        var lineStart = source.lines.lineStarts[line - 1]
        // The byte-order mark is not part of the text (LineIndex does not count it either).
        if lineStart == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { lineStart = 3 }
        var lineEnd = line < source.lines.lineCount ? source.lines.lineStarts[line] - 1 : bytes.count
        if lineEnd > lineStart, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let start = min(max(range.start, lineStart), lineEnd)
        let end = min(max(range.end, start), lineEnd)

        let (shown, _) = Self.render(source.text(lineStart..<lineEnd), from: 0)
        let (_, before) = Self.render(source.text(lineStart..<start), from: 0)
        let (_, after) = Self.render(source.text(start..<end), from: before)
        let marker = "^" + String(repeating: "~", count: max(1, after - before) - 1)

        let blank = String(repeating: " ", count: gutter)
        let number = String(line)
        var out = paint(blank + " |", .gutter) + "\n"
        out += paint(String(repeating: " ", count: gutter - number.count) + number + " |", .gutter)
            + (shown.isEmpty ? "" : " " + shown) + "\n"
        out += paint(blank + " |", .gutter) + " " + String(repeating: " ", count: before)
            + paint(marker, caret) + "\n"
        return out
    }

    /// `text` as shown in the frame, starting at display column `column` (0-based, for tab
    /// stops), and the display column after it.
    static func render(_ text: String, from column: Int) -> (String, Int) {
        var shown = ""
        var column = column
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09:
                let next = (column / tabWidth + 1) * tabWidth
                shown += String(repeating: " ", count: next - column)
                column = next
            case 0x00..<0x20:
                // Control pictures keep stray control bytes visible and one cell wide.
                shown.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
                column += 1
            case 0x7F:
                shown.unicodeScalars.append(Unicode.Scalar(0x2421)!)
                column += 1
            case 0x80..<0xA0:
                shown.unicodeScalars.append(Unicode.Scalar(0xFFFD)!)
                column += 1
            default:
                shown.unicodeScalars.append(scalar)
                column += cells(scalar)
            }
        }
        return (shown, column)
    }

    /// Terminal cells of a printable scalar: 0 for combining marks and format characters, 2 for
    /// East Asian wide and fullwidth characters and emoji, 1 otherwise. A small table instead of
    /// `wcwidth`, which Swift does not expose; it covers the scripts people write in paths.
    static func cells(_ scalar: Unicode.Scalar) -> Int {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        switch scalar.value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5,
             0x26FA, 0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF,
             0x1B000...0x1B2FF, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251,
             0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF,
             0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    // MARK: Colour

    /// What a piece of output is, for colouring.
    enum Style {
        case bold, error, warning, note, help, gutter

        var ansi: String {
            switch self {
            case .bold: "\u{1B}[1m"
            case .error: "\u{1B}[1;31m"
            case .warning: "\u{1B}[1;33m"
            case .note: "\u{1B}[1;36m"
            case .help: "\u{1B}[1;32m"
            case .gutter: "\u{1B}[1;34m"
            }
        }
    }

    func style(_ severity: Severity) -> Style {
        switch severity {
        case .error: .error
        case .warning: .warning
        case .note: .note
        }
    }

    func paint(_ text: String, _ style: Style) -> String {
        colour && !text.isEmpty ? style.ansi + text + "\u{1B}[0m" : text
    }
}
