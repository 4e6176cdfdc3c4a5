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
    func expand(_ template: Template, _ scope: ExpansionScope, _ r: RequestRecord, _ chain: RequestChain,
                escaping: BackrefEscaping? = nil, serverContext: Bool) -> Expansion {
        var out = ""
        var firstQ: Bool? = nil
        var lastQ: Bool? = nil
        func add(_ s: String, expanded: Bool) {
            if s.utf8.contains(UInt8(ascii: "?")) {
                if firstQ == nil { firstQ = expanded }
                lastQ = expanded
            }
            out += s
        }
        func capture(_ list: [String], _ i: Int) -> String { i < list.count ? list[i] : "" }
        for part in template.parts {
            switch part {
            case .literal(let s): add(s, expanded: false)
            case .ruleCapture(let i):
                let v = capture(scope.ruleCaptures, i)
                add(escaping.map { escapeBackreference(v, $0) } ?? v, expanded: true)
            case .conditionCapture(let i):
                let v = capture(scope.conditionCaptures, i)
                add(escaping.map { escapeBackreference(v, $0) } ?? v, expanded: true)
            case .variable(let name):
                add(variable(name, r, chain, serverContext: serverContext), expanded: true)
            case .map(_, _, let fallback):
                // Maps can only be defined in server configuration, which htlint does not load yet:
                // an unknown map yields the default (apache-semantics §6.1).
                add(fallback.map { expand($0, scope, r, chain, serverContext: serverContext).text } ?? "", expanded: true)
            }
        }
        return Expansion(text: out, firstQuestionMarkExpanded: firstQ ?? false, lastQuestionMarkExpanded: lastQ ?? false)
    }
}
