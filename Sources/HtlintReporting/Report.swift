import HtlintDiagnostics

/// Everything a formatter may show: the diagnostics and the files they point into.
public struct Report: Sendable {
    /// The findings, sorted by file, position and code.
    public var diagnostics: [Diagnostic]
    /// Source files by path, for line/column and excerpts.
    public var sources: [String: SourceFile]
    /// Paths that were checked (including clean ones), in order.
    public var checkedPaths: [String]
    /// Metadata of the rules by code, set by the CLI from the catalog (empty when unknown).
    /// Formats that describe rules use it; a code without an entry is still reported.
    public var rules: [String: RuleMetadata]
    /// htlint's version, for formats that name the tool (SARIF's `tool.driver.version`);
    /// set by the CLI, since this target cannot see it.
    public var toolVersion: String?

    /// `checkedPaths` defaults to the paths of `sources`, in order.
    public init(diagnostics: [Diagnostic], sources: [SourceFile], checkedPaths: [String]? = nil,
                rules: [String: RuleMetadata] = [:], toolVersion: String? = nil) {
        self.diagnostics = diagnostics.sorted(by: Diagnostic.byLocation)
        var map: [String: SourceFile] = [:]
        for s in sources { map[s.path] = s }
        self.sources = map
        self.checkedPaths = checkedPaths ?? sources.map(\.path)
        self.rules = rules
        self.toolVersion = toolVersion
    }

    /// 1-based position of a range's start (1:1 when the file is unknown).
    public func position(_ range: SourceRange) -> SourcePosition {
        sources[range.file]?.lines.position(of: range.start) ?? SourcePosition(line: 1, column: 1)
    }

    /// 1-based position of a range's end (exclusive: the column after the last character).
    public func endPosition(_ range: SourceRange) -> SourcePosition {
        sources[range.file]?.lines.position(of: range.end) ?? position(range)
    }

    /// Number of error diagnostics.
    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    /// Number of warning diagnostics.
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    /// Number of note diagnostics.
    public var noteCount: Int { diagnostics.filter { $0.severity == .note }.count }
}

/// A pure function from a report to text; no I/O, no terminal detection.
public protocol ReportFormatter: Sendable {
    /// The value of `--format`.
    var id: String { get }
    /// The whole output, ending with a newline when it is not empty.
    func format(_ report: Report) -> String
}

/// Registry of formatter instances (instances, not types: calling `init()` through
/// `any ReportFormatter.Type` crashed the 6.3.1 compiler), in the order `--help` lists them.
public let allFormatters: [any ReportFormatter] = [
    TextFormatter(), ConciseFormatter(), JSONFormatter(), SARIFFormatter(), GitHubFormatter(),
    CheckstyleFormatter(), GitLabFormatter(),
]

/// The registered formatter for a `--format` value.
public func formatter(named id: String) -> (any ReportFormatter)? {
    allFormatters.first { $0.id == id }
}

/// The registered formatter for a `--format` value, with ANSI colour switched on or off where the
/// format has colour (only `text`). The CLI decides `colour` from the TTY and `NO_COLOR`.
public func formatter(named id: String, colour: Bool) -> (any ReportFormatter)? {
    guard let found = formatter(named: id) else { return nil }
    if var text = found as? TextFormatter {
        text.colour = colour
        return text
    }
    return found
}
