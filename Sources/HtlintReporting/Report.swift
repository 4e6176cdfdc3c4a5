import HtlintDiagnostics

/// Everything a formatter may show: the diagnostics and the files they point into.
public struct Report: Sendable {
    public var diagnostics: [Diagnostic]
    /// Source files by path, for line/column and excerpts.
    public var sources: [String: SourceFile]
    /// Paths that were checked (including clean ones), in order.
    public var checkedPaths: [String]

    public init(diagnostics: [Diagnostic], sources: [SourceFile], checkedPaths: [String]? = nil) {
        self.diagnostics = diagnostics.sorted(by: Diagnostic.byLocation)
        var map: [String: SourceFile] = [:]
        for s in sources { map[s.path] = s }
        self.sources = map
        self.checkedPaths = checkedPaths ?? sources.map(\.path)
    }

    /// 1-based position of a range's start (1:1 when the file is unknown).
    public func position(_ range: SourceRange) -> SourcePosition {
        sources[range.file]?.lines.position(of: range.start) ?? SourcePosition(line: 1, column: 1)
    }

    public func endPosition(_ range: SourceRange) -> SourcePosition {
        sources[range.file]?.lines.position(of: range.end) ?? position(range)
    }

    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
}

/// A pure function from a report to text; no I/O, no terminal detection.
public protocol ReportFormatter: Sendable {
    /// The value of `--format`.
    var id: String { get }
    func format(_ report: Report) -> String
}

/// Registry of formatter instances.
public let allFormatters: [any ReportFormatter] = [ConciseFormatter(), JSONFormatter()]

public func formatter(named id: String) -> (any ReportFormatter)? {
    allFormatters.first { $0.id == id }
}
