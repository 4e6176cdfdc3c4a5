import Foundation
import HtlintApache
import HtlintDiagnostics

/// One `RewriteCond` of a rule that fired, with the value its test string had.
public struct ConditionCheck: Sendable {
    /// `file:line`.
    public var location: String
    /// The directive as written.
    public var text: String
    /// The test string as written (`%{HTTPS}`) and its value, when htlint can recompute it.
    public var testString: String
    /// Value of the test string, nil when htlint cannot recompute it.
    public var value: String?
    /// Whether the condition held (nil when unknown).
    public var holds: Bool?
}

/// One thing Apache did for a hop: a rule that fired (with its conditions), a redirect, an
/// internal redirect, mod_dir's answer.
public struct OriginStep: Sendable {
    /// The engine's kind of step.
    public var kind: TraceEvent.Kind
    /// `file:line` of the directive responsible, when known.
    public var location: String?
    /// The directive as written, or the engine's description of the step.
    public var text: String
    /// The engine's own description of the step.
    public var detail: String
    /// For a rule that fired: its conditions with their values.
    public var conditions: [ConditionCheck]
    /// The directive responsible.
    public var range: SourceRange?
    /// False for a rule with `-` as substitution (it only sets flags such as `[E=…]` or ends a pass).
    public var substitutes: Bool = true
}

/// A variable Apache (or PHP) saw that mattered, with why it had that value.
public struct VariableFact: Sendable, Hashable {
    /// `%{NAME}` as written in the configuration.
    public var name: String
    /// Its value for this hop.
    public var value: String
    /// Why it had that value, in terms of the layers.
    public var why: String?
}

/// What explains one hop: the steps Apache took and the variables that decided them.
public struct HopAnalysis: Sendable {
    /// In the order Apache took them.
    public var steps: [OriginStep]
    /// Variables the fired rules tested or used, with their values.
    public var variables: [VariableFact]
}

extension Site {
    /// Every `RewriteRule` of the site's configuration, wherever it is written.
    public var allRewriteRules: [RewriteRule] {
        func collect(_ b: ConfigBlock) -> [RewriteRule] {
            var out = b.rewrite?.rules ?? []
            for f in b.files { out += collect(f.block) }
            for chain in b.ifChains { for branch in chain.branches { out += collect(branch.block) } }
            for d in b.server?.directories ?? [] { out += collect(d.block) }
            return out
        }
        return collect(vhost.block) + accessConfigs.keys.sorted().flatMap { collect(accessConfigs[$0]!.block) }
    }

    func rule(at range: SourceRange) -> RewriteRule? { allRewriteRules.first { $0.range == range } }
}

/// Explains an origin hop from the engine's trace and what Apache received.
public enum HopDiagnosis {
    /// Analyses an origin (or application) hop; empty for hops Apache did not answer.
    public static func analyze(_ hop: Hop, site: Site) -> HopAnalysis {
        guard let response = hop.origin, let request = hop.originRequest else { return HopAnalysis(steps: [], variables: []) }
        var steps: [OriginStep] = []
        var referenced: [String] = []
        let query: String? = request.target.firstIndex(of: "?").map { String(request.target[request.target.index(after: $0)...]) }
        for event in response.trace {
            switch event.kind {
            case .request, .conditionFailed, .ruleSkipped: continue
            default: break
            }
            var step = OriginStep(kind: event.kind, location: event.range.map { site.location(of: $0) },
                                  text: event.range.flatMap { site.text(of: $0) } ?? event.detail, detail: event.detail,
                                  conditions: [], range: event.range)
            if event.kind == .ruleMatched, let range = event.range, let rule = site.rule(at: range) {
                let input = matchedInput(event.detail)
                let vars = passVariables(rule, input: input, request: request, site: site, query: query)
                step.conditions = conditions(of: rule, input: input, vars: vars, site: site)
                step.substitutes = !rule.isDash
                referenced += rule.conditions.flatMap { variables(in: $0.testString) } + variables(in: rule.substitution)
            }
            steps.append(step)
        }
        let firstPath = request.target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        let vars = OriginVariables(request: request, site: site, uri: firstPath.removingPercentEncoding ?? firstPath, query: query)
        var facts: [VariableFact] = []
        var seen: Set<String> = []
        // Path variables change from pass to pass; they are shown with each condition instead.
        for name in referenced where seen.insert(name.uppercased()).inserted && !pathVariables.contains(name.uppercased()) {
            guard let value = vars.value(name) else { continue }
            facts.append(VariableFact(name: "%{\(name)}", value: value, why: why(name, value, hop: hop, vars: vars)))
        }
        return HopAnalysis(steps: steps, variables: facts)
    }

    static let pathVariables: Set<String> = ["REQUEST_URI", "REQUEST_FILENAME", "SCRIPT_FILENAME", "DOCUMENT_URI", "QUERY_STRING",
                                             "PATH_INFO", "THE_REQUEST"]

    /// The variables of the pass a rule ran in: a per-directory rule's subject is relative to
    /// its directory (subrequests for DirectoryIndex included), a server rule's is the URL-path.
    static func passVariables(_ rule: RewriteRule, input: String?, request: OriginRequest, site: Site, query: String?) -> OriginVariables {
        let root = site.documentRoot
        let directory = site.files.accessFileEntries.first { $0.value.path == rule.range.file }?.key
        let subject = input ?? ""
        if let directory {
            let urlPrefix = directory.hasPrefix(root) ? String(directory.dropFirst(root.count)) : directory
            return OriginVariables(request: request, site: site, uri: urlPrefix + subject, query: query,
                                   filename: directory + subject)
        }
        return OriginVariables(request: request, site: site, uri: subject, query: query, filename: root + subject)
    }

    /// The subject a rule's pattern matched, from the engine's trace ("… matched `about.html`").
    static func matchedInput(_ detail: String) -> String? {
        guard let r = detail.range(of: "` matched `", options: .backwards), detail.hasSuffix("`") else { return nil }
        return String(detail[r.upperBound..<detail.index(before: detail.endIndex)])
    }

    static func variables(in t: Template) -> [String] {
        t.parts.compactMap { if case .variable(let n) = $0 { n } else { nil } }
    }

    /// Recomputes each condition of a rule that fired.
    static func conditions(of rule: RewriteRule, input: String?, vars: OriginVariables, site: Site) -> [ConditionCheck] {
        let ruleCaptures = input.flatMap { rule.regex.firstMatch(in: $0) }.map { m in (0...9).map { m[$0] } } ?? []
        var conditionCaptures: [String] = []
        var out: [ConditionCheck] = []
        for c in rule.conditions {
            let value = vars.expand(c.testString, ruleCaptures: ruleCaptures, conditionCaptures: conditionCaptures)
            var holds: Bool? = nil
            if let value {
                switch c.test {
                case .regex(let regex):
                    let m = regex.firstMatch(in: value)
                    if let m, !c.negated { conditionCaptures = (0...9).map { m[$0] } }
                    holds = (m != nil) != c.negated
                case .string(let op, let operand):
                    if let b = vars.expand(operand, ruleCaptures: ruleCaptures, conditionCaptures: conditionCaptures) {
                        let x = c.noCase ? value.lowercased() : value, y = c.noCase ? b.lowercased() : b
                        let r: Bool
                        switch op {
                        case "=": r = x == y
                        case "<": r = x < y
                        case ">": r = x > y
                        case "<=": r = x <= y
                        default: r = x >= y
                        }
                        holds = r != c.negated
                    }
                case .file(let op):
                    let fs = site.files
                    let r: Bool? = switch op {
                    case "f": fs.isFile(value)
                    case "d": fs.isDirectory(value)
                    case "s": { if case .file(let size)? = fs.stat(value) { size > 0 } else { false } }()
                    default: nil
                    }
                    holds = r.map { $0 != c.negated }
                case .integer, .expression: break
                }
            }
            out.append(ConditionCheck(location: site.location(of: c.range), text: site.text(of: c.range) ?? c.rawTestString,
                                      testString: c.rawTestString, value: value, holds: holds))
        }
        return out
    }

    /// Why a variable had its value, in terms of the layers in front of Apache.
    static func why(_ name: String, _ value: String, hop: Hop, vars: OriginVariables) -> String? {
        let visitor = URLParts(hop.url)?.scheme ?? "http"
        let inner = hop.path.last { $0.component != "Apache" && $0.component != "WordPress" && $0.forwarded != nil }
        let connector = inner?.component ?? "the browser"
        let upper = name.uppercased()
        switch upper {
        case "HTTPS", "REQUEST_SCHEME":
            if vars.request.tls { return "the connection from \(connector) to Apache is TLS" }
            if upper == "REQUEST_SCHEME", value == "https" { return "ServerName is written with https://" }
            if visitor == "https" { return "\(connector) reaches Apache over plain HTTP, although the visitor uses https" }
            return "the visitor uses http"
        case "SERVER_PORT":
            if let host = vars.request.header("Host"), host.contains(":"), !host.hasPrefix("[") {
                return "from the port in the Host header `\(host)`"
            }
            if vars.site.useCanonicalName { return "UseCanonicalName On: ServerName's port" }
            return "no port in the Host header: the default port of the connection's scheme (\(vars.request.tls ? "https" : "http"))"
        case "HTTP_HOST", "SERVER_NAME", "HTTP:HOST":
            let visitorHost = URLParts(hop.url)?.hostHeader ?? ""
            if let setter = hop.path.last(where: { $0.setHeaders.contains("Host") }) {
                return "\(setter.component) sends Host: \(vars.request.header("Host") ?? "") instead of the visitor's \(visitorHost)"
            }
            return upper == "SERVER_NAME" ? "from the Host header (UseCanonicalName Off)" : "the visitor's host"
        case "ENV:HTTPS":
            if let set = vars.setEnvHTTPS { return "set by SetEnvIf at \(set.at)" }
            return vars.request.tls ? "empty: mod_ssl sets HTTPS only after the .htaccess rules have run"
                : "empty: nothing sets it for a plain-HTTP connection"
        default:
            guard upper.hasPrefix("HTTP:") else { return nil }
            let header = String(name.dropFirst(5))
            if let setter = hop.path.last(where: { $0.setHeaders.contains { $0.lowercased() == header.lowercased() } }) {
                let note = setter.notes.first { $0.contains(header) }
                return "set by \(setter.component)" + (note.map { ": \($0)" } ?? "")
            }
            if value.isEmpty { return hop.path.count > 1 ? "no layer sends \(header)" : "nothing in front of Apache sets \(header)" }
            return "sent by the client"
        }
    }
}
