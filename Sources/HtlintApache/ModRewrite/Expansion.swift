import HtlintBytes
import HtlintRegex

/// Values a rule's expansions can refer to.
struct ExpansionScope {
    var ruleCaptures: [String] = []
    var conditionCaptures: [String] = []
}

/// The result of expanding a substitution: the text, and where its `?` came from
/// (the unsafe-`?` rule, apache-semantics §6.3).
struct Expansion {
    var text: String
    /// The first `?` came from an expansion rather than literal text.
    var firstQuestionMarkExpanded = false
    /// The last `?` came from an expansion.
    var lastQuestionMarkExpanded = false
}

extension Origin {
    /// Expands `template` for this request. Where each `?` came from is only worked out with
    /// `tracksQuestionMarks` (substitutions need it; condition test strings and flags do not).
    func expand(_ template: Template, _ scope: ExpansionScope, _ r: RequestRecord, _ chain: RequestChain,
                escaping: BackrefEscaping? = nil, serverContext: Bool, tracksQuestionMarks: Bool = false) -> Expansion {
        func capture(_ list: [String], _ i: Int) -> String {
            let v = i < list.count ? list[i] : ""
            return escaping.map { escapeBackreference(v, $0) } ?? v
        }
        var variables = template.variables.makeIterator()
        func value(_ part: Template.Part) -> String {
            switch part {
            case .literal(let s): return s
            case .ruleCapture(let i): return capture(scope.ruleCaptures, i)
            case .conditionCapture(let i): return capture(scope.conditionCaptures, i)
            case .variable: return self.value(of: variables.next()!, r, chain, serverContext: serverContext)
            case .map(let name, let key, let fallback):
                // An unknown map or key yields the default (apache-semantics §6.1).
                if let map = site.rewriteMaps[name],
                   let v = map.lookup(expand(key, scope, r, chain, escaping: escaping, serverContext: serverContext).text) {
                    return v
                }
                // do_expand expands the default with the rule entry too: [B] escapes its backreferences.
                return fallback.map { expand($0, scope, r, chain, escaping: escaping, serverContext: serverContext).text } ?? ""
            }
        }
        let parts = template.parts
        // Most test strings are one variable (`%{HTTP_HOST}`), most substitutions one literal.
        if !tracksQuestionMarks, parts.count <= 1 { return Expansion(text: parts.first.map(value) ?? "") }
        var out = ""
        var firstQ: Bool? = nil
        var lastQ: Bool? = nil
        for part in parts {
            let s = value(part)
            if tracksQuestionMarks, s.containsByte(UInt8(ascii: "?")) {
                let expanded = if case .literal = part { false } else { true }
                if firstQ == nil { firstQ = expanded }
                lastQ = expanded
            }
            out += s
        }
        // Pieces of a split character (`$1$2` of `^(.)(.*)$` on `é`) join into the character.
        if out.mayHoldRawBytes { out = String(preservingBytes: out.rawBytes) }
        return Expansion(text: out, firstQuestionMarkExpanded: firstQ ?? false, lastQuestionMarkExpanded: lastQ ?? false)
    }
}
