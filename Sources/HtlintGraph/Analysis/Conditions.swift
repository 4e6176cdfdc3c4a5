import HtlintApache
import HtlintRegex

/// The component of a request a condition constrains.
enum Dimension: Sendable {
    case host, path, query, theRequest
}

/// What one `RewriteCond` means for a request space with a known scheme.
enum ConditionEffect {
    case always
    case never
    /// May or may not hold: depends on these unmodelled variables (or on something the
    /// analysis cannot express, named by the condition's text).
    case unknown([String])
    /// Holds for the requests whose component is in the language (exactly, or at least:
    /// `exact` false means the language may be too large).
    case constrain(Dimension, DFA, exact: Bool)
    /// Depends on the match (`$1`, `%1`) or mixes components (`%{DOCUMENT_ROOT}/cache%{REQUEST_URI}.html`):
    /// decided on the expansion's language once the rule's match is known.
    case expansion
}

extension Topology {
    /// The effect of `c` for a visitor using `scheme`.
    func effect(of c: RewriteCondition, scheme: String, internalRedirect: Bool, serverContext: Bool) -> ConditionEffect {
        let parts = c.testString.parts
        let values = parts.map { part -> VariableValue? in
            switch part {
            case .literal(let s): return .values([s])
            case .variable(let name):
                let v = variable(name, scheme: scheme, internalRedirect: internalRedirect, serverContext: serverContext)
                if case .unknownName = v { return .values([""]) }
                return v
            default: return nil  // $N, %N, ${map:…}: depend on the match
            }
        }
        if values.contains(where: { $0 == nil }) { return .expansion }
        let opaque = "`\(c.rawTestString)`"
        // One request component between fixed text (`%{REQUEST_FILENAME}.html`,
        // `%{DOCUMENT_ROOT}/cache%{REQUEST_URI}`): a constraint on that component.
        var component: (index: Int, value: VariableValue)? = nil
        var fixed = true
        for (i, v) in values.enumerated() {
            switch v {
            case .values(let options)? where options.count == 1: continue
            case .host?, .path?, .query?, .filename?, .theRequest?:
                if component == nil { component = (i, v!) } else { fixed = false }
            case .free(let name)?: return .unknown([name])
            default: fixed = false
            }
        }
        if fixed, let (i, v) = component {
            func text(_ r: ArraySlice<VariableValue?>) -> String {
                r.map { if case .values(let o)? = $0 { o[0] } else { "" } }.joined()
            }
            let prefix = text(values[..<i]), suffix = text(values[(i + 1)...])
            switch v {
            case .host: return constrain(c, .host, prefix: prefix, suffix: suffix)
            case .path: return constrain(c, .path, prefix: prefix, suffix: suffix)
            case .filename: return constrain(c, .path, prefix: prefix + site.documentRoot, suffix: suffix)
            case .query: return constrain(c, .query, prefix: prefix, suffix: suffix)
            default: return constrain(c, .theRequest, prefix: prefix, suffix: suffix)
            }
        }
        // Fixed values only: evaluate as the engine would.
        var strings = [""]
        for v in values {
            guard case .values(let options)? = v else {
                let free = values.compactMap { if case .free(let n)? = $0 { n } else { nil } }
                if !free.isEmpty { return .unknown(free) }
                return .expansion  // a request component inside a longer string
            }
            strings = strings.flatMap { s in options.map { s + $0 } }
            if strings.count > 16 { return .unknown([opaque]) }
        }
        var sawTrue = false, sawFalse = false
        for s in strings {
            guard let r = evaluate(c, s) else { return .unknown([opaque]) }
            if r { sawTrue = true } else { sawFalse = true }
        }
        if sawTrue && !sawFalse { return .always }
        if sawFalse && !sawTrue { return .never }
        return .unknown([opaque])
    }

    /// A condition on `prefix + component + suffix` as a language over the component.
    private func constrain(_ c: RewriteCondition, _ dim: Dimension, prefix: String, suffix: String) -> ConditionEffect {
        func shifted(_ d: DFA) -> DFA { d.removingPrefix(prefix).removingSuffix(suffix) }
        switch c.test {
        case .regex(let regex):
            let lang = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
            if !c.negated { return .constrain(dim, shifted(lang.overApproximation), exact: lang.isExact) }
            guard let non = lang.nonMatches else { return .unknown(["`\(c.rawPattern)`"]) }
            return .constrain(dim, shifted(non), exact: true)
        case .string("=", let operand) where operand.isLiteral:
            let text = operand.literalText
            let lang = c.noCase
                ? PatternLanguage.of("^" + Topology.escape(text) + "$", caseInsensitive: true).matches ?? .literal(text)
                : DFA.literal(text)
            if !c.negated { return .constrain(dim, shifted(lang), exact: true) }
            return .constrain(dim, shifted(DFA.all().subtracting(lang) ?? .all()), exact: true)
        case .file(let op) where dim == .path:
            let set: DFA?
            switch op {
            case "f", "s": set = filesystemFiles
            case "d": set = filesystemDirectories
            case "x": return c.negated ? .always : .never
            case "l", "L", "h":
                let hasLinks = site.files.hasSymlinks
                if hasLinks { return .unknown(["`\(c.rawTestString) -\(op)`"]) }
                return c.negated ? .always : .never
            default: set = nil
            }
            guard let set else { return .unknown(["`\(c.rawTestString) \(c.rawPattern)`"]) }
            if !c.negated { return .constrain(.path, shifted(set), exact: true) }
            return .constrain(.path, shifted(DFA.all().subtracting(set) ?? .all()), exact: true)
        default:
            return .unknown(["`\(c.rawTestString) \(c.rawPattern)`"])
        }
    }

    /// The condition on a known test string; nil when it cannot be decided here.
    private func evaluate(_ c: RewriteCondition, _ value: String) -> Bool? {
        var result: Bool
        switch c.test {
        case .regex(let regex): result = regex.matches(value)
        case .string(let op, let operand):
            guard operand.isLiteral else { return nil }
            result = ConditionComparison.string(op, value, operand.literalText, noCase: c.noCase)
        case .integer(let op, let operand):
            guard operand.isLiteral else { return nil }
            // Same reading as the engine (C atoi: blanks, sign, digits).
            result = ConditionComparison.integer(op, value, operand.literalText)
        case .file(let op):
            switch op {
            case "d": result = site.files.isDirectory(value)
            case "f", "s", "F": result = site.files.isFile(value)
            // `-l`/`-L`/`-h` on a known path: whether it is a symbolic link (recorded: a
            // condition on a link of the document root holds).
            case "l", "L", "h":
                guard case .symlink? = site.files.lstat(value) else { result = false; break }
                result = true
            // `-U` runs a subrequest for the URL: its status (a `Redirect gone`, a 404, a denial)
            // decides, which is not known here (recorded: `RewriteCond /g -U` with
            // `Redirect gone /g` fails and the next rule fires).
            case "U": return nil
            default: result = false
            }
        case .expression: return nil
        }
        return c.negated ? !result : result
    }

    /// `RewriteCond` string comparison: without `[NC]` a shorter string is smaller (apache-semantics §7.3).
}

extension RewriteRule {
    /// The conditions as alternatives of a disjunctive normal form: each alternative is one
    /// condition out of every `[OR]` group. Nil when there would be too many.
    var conditionAlternatives: [[RewriteCondition]] {
        var alternatives: [[RewriteCondition]] = [[]]
        for g in conditionGroups {
            if alternatives.count * g.count > 32 {
                // Too many combinations: the group is dropped, which only widens the result.
                continue
            }
            alternatives = alternatives.flatMap { alt in g.map { alt + [$0] } }
        }
        return alternatives
    }

    /// False when `conditionAlternatives` had to drop `[OR]` groups (too many combinations).
    var conditionAlternativesAreComplete: Bool {
        conditionGroups.reduce(1) { $0 * $1.count } <= 32
    }

    /// The `[OR]` groups: a condition with `[OR]` and the ones after it up to one without.
    var conditionGroups: [[RewriteCondition]] {
        var groups: [[RewriteCondition]] = []
        var current: [RewriteCondition] = []
        for c in conditions {
            current.append(c)
            if !c.orNext { groups.append(current); current = [] }
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }
}
