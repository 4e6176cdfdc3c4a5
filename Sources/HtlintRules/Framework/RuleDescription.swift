import HtlintDiagnostics

/// Rule families; the hundreds of a code name the family (HT1xx syntax, …).
public enum RuleFamily: String, Sendable, CaseIterable {
    case syntax, semantics, https = "loops-and-https", security, mixedContent = "mixed-content", style
}

/// An example configuration for a rule: documentation and test at once. `↓` marks where a
/// finding must start. `edge` names the layer in front of the origin when the rule depends on it.
public struct Example: Sendable {
    public var code: String
    public var edge: String?
    /// When set, `code` is a subdirectory's `.htaccess` (`/sub/`) and this is the root's.
    public var parent: String?
    /// Other files of the example's document root with their text, by URL-path
    /// (`/index.html`, `/css/site.css`, `/wp-config.php`), for rules that read pages, style
    /// sheets or `wp-config.php`. `↓` markers may stand in them too.
    public var pages: [String: String]
    /// Virtual-host configuration of the example's site (`${DOCROOT}` is the document root),
    /// for rules that read what the vhost sets (RewriteEngine, AllowOverride, ErrorDocument).
    public var vhost: String?
    public var file: String
    public var line: Int

    public init(_ code: String, edge: String? = nil, parent: String? = nil, pages: [String: String] = [:],
                vhost: String? = nil, file: String = #filePath, line: Int = #line) {
        self.code = code
        self.edge = edge
        self.parent = parent
        self.pages = pages
        self.vhost = vhost
        self.file = file
        self.line = line
    }
}

/// What a rule is: id, name, summary, rationale, default severity and examples.
public struct RuleDescription: Sendable {
    /// `HT` + three digits; stable forever.
    public var id: String
    /// kebab-case name of the pattern (`redirect-without-last`).
    public var name: String
    public var family: RuleFamily
    /// One line: what it flags.
    public var summary: String
    /// Why it matters, how to fix it (markdown).
    public var rationale: String
    public var severity: Severity
    public var triggering: [Example]
    public var nonTriggering: [Example]
    /// True when the rule runs the simulator (needs a site).
    public var usesSimulation: Bool
    /// True when the rule runs the rule-graph analysis without the simulator; such rules share
    /// a lane with the simulating ones rather than run beside them (see `Linter.run`).
    public var usesGraphAnalysis: Bool
    /// True for a rule that runs only when asked for (`--enable`, `--only`, `rules: enable:`):
    /// its pattern is harmless in the common setup and would otherwise flag most sites.
    public var optIn: Bool

    public init(id: String, name: String, family: RuleFamily, summary: String, rationale: String, severity: Severity,
                triggering: [Example], nonTriggering: [Example], usesSimulation: Bool = false, usesGraphAnalysis: Bool = false,
                optIn: Bool = false) {
        self.id = id
        self.name = name
        self.family = family
        self.summary = summary
        self.rationale = rationale
        self.severity = severity
        self.triggering = triggering
        self.nonTriggering = nonTriggering
        self.usesSimulation = usesSimulation
        self.usesGraphAnalysis = usesGraphAnalysis
        self.optIn = optIn
    }
}

/// A lint rule. Rules are stateless values; the registry holds instances.
public protocol LintRule: Sendable {
    var description: RuleDescription { get }
    func check(_ context: LintContext) -> [Diagnostic]
}

extension LintRule {
    /// A finding of this rule at `range` with the rule's default severity.
    public func finding(_ message: String, at range: SourceRange, notes: [Note] = [], fixes: [FixIt] = []) -> Diagnostic {
        Diagnostic(code: description.id, severity: description.severity, message: message, range: range,
                   notes: notes, fixIts: fixes)
    }
}
