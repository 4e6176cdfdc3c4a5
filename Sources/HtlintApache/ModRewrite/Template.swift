import HtlintBytes

/// A string with mod_rewrite expansions, parsed once at configuration time
/// (apache-semantics §6.1): `$N`, `%N`, `%{VAR}`, `${map:key|default}` and `\c`.
public struct Template: Sendable, Hashable {
    public enum Part: Sendable, Hashable {
        /// Text copied as is (includes characters escaped with a backslash).
        case literal(String)
        /// `$N`: a capture of the rule pattern.
        case ruleCapture(Int)
        /// `%N`: a capture of the last matched condition.
        case conditionCapture(Int)
        /// `%{NAME}` with the name as written (`HTTP:Accept`, `ENV:X`, `REQUEST_URI`).
        case variable(String)
        /// `${map:key|default}`.
        case map(name: String, key: Template, fallback: Template?)
    }

    public private(set) var parts: [Part]
    /// Each `.variable` part's name resolved once, in order (expansion runs per request and
    /// would otherwise split, upper-case and hash the name every time).
    let variables: [VariableRef]

    public init(parts: [Part]) {
        self.parts = parts
        self.variables = parts.compactMap { if case .variable(let name) = $0 { VariableRef(name) } else { nil } }
    }

    /// Parses `text`; expansion is a single left-to-right pass, never re-scanned.
    public init(parsing text: String) {
        // Plain text keeps the caller's string (its storage is shared, not copied: a redirect
        // map's substitutions are mostly plain paths).
        if !text.containsByte(where: { $0 == UInt8(ascii: "$") || $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") }) {
            self.init(parts: text.isEmpty ? [] : [.literal(text)])
            return
        }
        self.init(parts: Template.parse(Array(text.utf8)))
    }

    /// Whether some part (inside map keys and defaults too) satisfies `test`.
    func refers(_ test: (Part) -> Bool) -> Bool {
        parts.contains { part in
            if test(part) { return true }
            if case .map(_, let key, let fallback) = part {
                return key.refers(test) || (fallback?.refers(test) ?? false)
            }
            return false
        }
    }

    /// True when the template is literal text only.
    public var isLiteral: Bool { parts.allSatisfy { if case .literal = $0 { true } else { false } } }

    /// The literal text of a purely literal template.
    public var literalText: String {
        parts.map { if case .literal(let s) = $0 { s } else { "" } }.joined()
    }

    private static func parse(_ b: [UInt8]) -> [Part] {
        var parts: [Part] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))); literal = [] }
        }
        var i = 0
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\\") {
                if i + 1 < b.count { literal.append(b[i + 1]); i += 2 } else { literal.append(c); i += 1 }
                continue
            }
            if (c == UInt8(ascii: "$") || c == UInt8(ascii: "%")), i + 1 < b.count {
                let n = b[i + 1]
                if n >= UInt8(ascii: "0"), n <= UInt8(ascii: "9") {
                    flush()
                    let index = Int(n - UInt8(ascii: "0"))
                    parts.append(c == UInt8(ascii: "$") ? .ruleCapture(index) : .conditionCapture(index))
                    i += 2
                    continue
                }
                if n == UInt8(ascii: "{"), let close = matchingBrace(b, from: i + 1) {
                    let inner = Array(b[(i + 2)..<close])
                    if c == UInt8(ascii: "%") {
                        flush()
                        parts.append(.variable(String(decoding: inner, as: UTF8.self)))
                        i = close + 1
                        continue
                    }
                    if let colon = inner.firstIndex(of: UInt8(ascii: ":")) {
                        flush()
                        let name = String(decoding: inner[..<colon], as: UTF8.self)
                        let rest = Array(inner[(colon + 1)...])
                        var keyBytes = rest
                        var fallback: Template? = nil
                        if let bar = rest.firstIndex(of: UInt8(ascii: "|")) {
                            keyBytes = Array(rest[..<bar])
                            fallback = Template(parts: parse(Array(rest[(bar + 1)...])))
                        }
                        parts.append(.map(name: name, key: Template(parts: parse(keyBytes)), fallback: fallback))
                        i = close + 1
                        continue
                    }
                }
            }
            literal.append(c)
            i += 1
        }
        flush()
        return parts
    }

    /// Index of the `}` closing the `{` at `open`, counting nested braces.
    private static func matchingBrace(_ b: [UInt8], from open: Int) -> Int? {
        var depth = 0
        var i = open
        while i < b.count {
            if b[i] == UInt8(ascii: "{") { depth += 1 }
            if b[i] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }
}
