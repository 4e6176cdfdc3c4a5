/// How serious a finding is. Ordered: `note < warning < error`.
public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// Whether applying a fix-it keeps behaviour (`safe`) or changes it on purpose (`unsafe`).
public enum Applicability: String, Sendable, Codable {
    case safe, unsafe, displayOnly
}

/// One replacement of a range of source text.
public struct TextEdit: Hashable, Sendable, Codable {
    public var range: SourceRange
    public var replacement: String
    public init(range: SourceRange, replacement: String) {
        self.range = range
        self.replacement = replacement
    }
}

/// A suggested change; the title is an imperative ("Add `[L]`").
public struct FixIt: Hashable, Sendable, Codable {
    public var title: String
    public var edits: [TextEdit]
    public var applicability: Applicability
    public init(title: String, edits: [TextEdit], applicability: Applicability) {
        self.title = title
        self.edits = edits
        self.applicability = applicability
    }
}

/// A secondary location that explains a diagnostic ("the loop continues at line 7").
public struct Note: Hashable, Sendable, Codable {
    public var message: String
    public var range: SourceRange?
    public init(message: String, range: SourceRange? = nil) {
        self.message = message
        self.range = range
    }
}

/// A finding about the user's configuration: parse errors, Apache read-time errors and lint
/// results all use this one value.
public struct Diagnostic: Hashable, Sendable, Codable {
    /// Stable rule code, e.g. `HT101`.
    public var code: String
    public var severity: Severity
    /// What is wrong, as a lower-case fragment without a trailing period.
    public var message: String
    public var range: SourceRange
    public var notes: [Note]
    public var fixIts: [FixIt]

    public init(code: String, severity: Severity, message: String, range: SourceRange,
                notes: [Note] = [], fixIts: [FixIt] = []) {
        self.code = code
        self.severity = severity
        self.message = message
        self.range = range
        self.notes = notes
        self.fixIts = fixIts
    }
}

extension Diagnostic {
    /// Sort order for output: file, then position, then code.
    public static func byLocation(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        if a.range.file != b.range.file { return a.range.file < b.range.file }
        if a.range.start != b.range.start { return a.range.start < b.range.start }
        return a.code < b.code
    }
}
