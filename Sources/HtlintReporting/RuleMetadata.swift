import HtlintDiagnostics

/// What a report may say about a rule beyond its code: the rule catalog's entry as formatters
/// see it. The CLI fills `Report.rules` from the catalog; formats that describe rules (SARIF's
/// `tool.driver.rules`, the GitHub annotation title) read it, and every format works without it.
///
/// A plain value so that this target keeps depending on diagnostics only, never on rules.
public struct RuleMetadata: Hashable, Sendable {
    /// Stable code, e.g. `HT301`.
    public var id: String
    /// Kebab-case name of the pattern, e.g. `redirect-loop-through-cdn`.
    public var name: String
    /// One sentence: what the rule finds.
    public var summary: String
    /// The rule's page as Markdown (why it matters, examples, how to fix).
    public var description: String
    /// Severity when the configuration does not change it.
    public var defaultSeverity: Severity
    /// Where the rule's page lives: `https://htlint.dev/rules/HT301` by default, or a docs path.
    public var helpURI: String

    /// `helpURI` defaults to the rule's page on htlint.dev.
    public init(id: String, name: String, summary: String, description: String,
                defaultSeverity: Severity, helpURI: String? = nil) {
        self.id = id
        self.name = name
        self.summary = summary
        self.description = description
        self.defaultSeverity = defaultSeverity
        self.helpURI = helpURI ?? RuleMetadata.defaultHelpURI(for: id)
    }

    /// `https://htlint.dev/rules/<id>`.
    public static func defaultHelpURI(for id: String) -> String {
        "https://htlint.dev/rules/\(id)"
    }
}
