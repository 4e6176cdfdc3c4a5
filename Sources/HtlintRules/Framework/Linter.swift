import Dispatch
import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// Which rules run and at what severity (from `.htlint.yml` and flags).
public struct LintConfiguration: Sendable {
    /// Rules switched off (ids or names).
    public var disabled: Set<String> = []
    /// Opt-in rules switched on (ids or names).
    public var enabled: Set<String> = []
    /// When non-empty, only these rules run (opt-in ones included).
    public var only: Set<String> = []
    public var severities: [String: Severity] = [:]
    public init() {}

    /// A configuration that also runs these opt-in rules.
    public init(enabling rules: [RuleDescription]) {
        enabled = Set(rules.map(\.id))
    }

    func isEnabled(_ d: RuleDescription) -> Bool {
        if disabled.contains(d.id) || disabled.contains(d.name) { return false }
        if !only.isEmpty { return only.contains(d.id) || only.contains(d.name) }
        return !d.optIn || enabled.contains(d.id) || enabled.contains(d.name)
    }
}

/// Runs rules over a context and applies suppressions: a comment line
/// `# htlint disable=HT202[,HT305]` silences those rules on the next directive (or section line),
/// `# htlint disable-file=HT202` (or `disable-file` alone) for the whole file. Findings in the
/// site's content files (pages, style sheets, `wp-config.php`), which have no htlint comments of
/// their own, are silenced by a `disable-file=CODES` in any of the context's configuration files.
public struct Linter: Sendable {
    public var rules: [any LintRule]
    public var configuration: LintConfiguration

    public init(rules: [any LintRule] = builtInRules, configuration: LintConfiguration = LintConfiguration()) {
        self.rules = rules
        self.configuration = configuration
    }

    public func run(_ context: LintContext) -> [Diagnostic] {
        let active = rules.filter { rule in
            configuration.isEnabled(rule.description) && !(rule.description.usesSimulation && context.simulator == nil)
        }
        // Rules are independent and read an immutable context, so they run on every core. The
        // ones that simulate or analyse the rule graph share lane 0 (the graph analysis keeps
        // process-wide caches); the others are dealt round-robin over all lanes. Each rule's
        // findings keep their slot, so the output does not depend on timing.
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        var lane: [Int] = []
        var next = 0
        for rule in active {
            if rule.description.usesSimulation || rule.description.usesGraphAnalysis {
                lane.append(0)
            } else {
                lane.append(next)
                next = (next + 1) % lanes
            }
        }
        let slots = ConcurrentSlots<[Diagnostic]>(repeating: [], count: active.count)
        let laneOf = lane
        DispatchQueue.concurrentPerform(iterations: lanes) { l in
            for (i, rule) in active.enumerated() where laneOf[i] == l {
                slots.set(i, rule.check(context))
            }
        }
        var found: [Diagnostic] = []
        let perRule = slots.values
        for (i, rule) in active.enumerated() {
            for var d in perRule[i] {
                if let s = configuration.severities[d.code] ?? configuration.severities[rule.description.name] {
                    d.severity = s
                }
                found.append(d)
            }
        }
        // One entry per path: a site can list the same file twice (an `AccessFileName` other than
        // `.htaccess` next to a `.htaccess` crashed here), and its comments are the same.
        let suppressions = Dictionary((context.files + context.unreadAccessFiles).map { ($0.source.path, Suppressions($0.tree)) },
                                      uniquingKeysWith: { first, _ in first })
        var names: [String: String] = [:]
        for r in rules { names[r.description.id] = r.description.name }
        var seen = Set<String>()
        return found.filter { d in
            if let own = suppressions[d.range.file] {
                if own.silences(d, name: names[d.code]) { return false }
            } else if suppressions.values.contains(where: { $0.silencesContent(d, name: names[d.code]) }) {
                return false
            }
            // The same finding from several probes is reported once.
            return seen.insert("\(d.code)|\(d.range.file)|\(d.range.start)|\(d.message)").inserted
        }.sorted(by: Diagnostic.byLocation)
    }
}


/// Suppression comments of one file.
struct Suppressions {
    var fileWide: Set<String> = []
    var silenceWholeFile = false
    /// Ranges of the directives that follow a `disable=` comment, with the codes.
    var local: [(range: SourceRange, codes: Set<String>)] = []

    init(_ tree: SyntaxTree) {
        var pending: Set<String>? = nil
        func visit(_ nodes: [ConfigNode]) {
            for node in nodes {
                switch node {
                case .comment(let c):
                    let text = c.text.trimmed(of: " \t")
                    guard text.hasPrefix("htlint ") || text.hasPrefix("htlint:") else { continue }
                    let body = String(text.dropFirst(7)).trimmed(of: " \t")
                    if body == "disable-file" { silenceWholeFile = true; continue }
                    for (prefix, isFile) in [("disable-file=", true), ("disable=", false)] where body.hasPrefix(prefix) {
                        let codes = Set(body.dropFirst(prefix.count).split(separator: ",").map {
                            String($0).trimmed(of: " \t")
                        })
                        if isFile { fileWide.formUnion(codes) } else { pending = (pending ?? []).union(codes) }
                        break
                    }
                case .directive(let d):
                    if let codes = pending { local.append((d.range, codes)); pending = nil }
                case .section(let s):
                    if let codes = pending { local.append((s.openRange, codes)); pending = nil }
                    visit(s.children)
                }
            }
        }
        visit(tree.nodes)
    }

    /// Whether a file-wide list names the code of a finding located outside configuration files.
    func silencesContent(_ d: Diagnostic, name: String?) -> Bool {
        fileWide.contains(d.code) || name.map(fileWide.contains) == true
    }

    func silences(_ d: Diagnostic, name: String?) -> Bool {
        func named(_ codes: Set<String>) -> Bool { codes.contains(d.code) || name.map(codes.contains) == true }
        if silenceWholeFile || named(fileWide) { return true }
        return local.contains { named($0.codes) && d.range.start >= $0.range.start && d.range.start < max($0.range.end, $0.range.start + 1) }
    }
}

extension String {
    func trimmed(of set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s.removeFirst() }
        while let l = s.last, set.contains(l) { s.removeLast() }
        return String(s)
    }
}
