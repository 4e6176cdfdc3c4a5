/// Builds a string that a regular expression matches, for the subset of PCRE that rewrite rules
/// use in practice: literals and escapes, `.`, classes, groups with alternation (first branch),
/// `?`, `*`, `+`, `{n,m}`, anchors. Returns nil for what it cannot handle (lookarounds,
/// backreferences, conditionals) — callers then skip the rule rather than guess.
enum RegexWitness {
    static func witness(for pattern: String) -> String? {
        var p = Parser(Array(pattern.utf8))
        guard let s = p.sequence(), p.i == p.b.count else { return nil }
        return s
    }

    private struct Parser {
        let b: [UInt8]
        var i = 0
        init(_ b: [UInt8]) { self.b = b }

        /// A sequence up to `|`, `)` or the end; alternatives after `|` are skipped.
        mutating func sequence() -> String? {
            var out = ""
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: ")") { return out }
                if c == UInt8(ascii: "|") {
                    skipAlternatives()
                    return out
                }
                guard var (atom, canRepeat) = self.atom() else { return nil }
                // Quantifiers: use one occurrence, or the minimum of a {n,m}.
                if i < b.count, canRepeat {
                    switch b[i] {
                    case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"):
                        i += 1
                        if i < b.count, b[i] == UInt8(ascii: "?") || b[i] == UInt8(ascii: "+") { i += 1 }
                    case UInt8(ascii: "{"):
                        var j = i + 1
                        var digits = ""
                        while j < b.count, b[j] >= 0x30, b[j] <= 0x39 { digits.append(Character(Unicode.Scalar(b[j]))); j += 1 }
                        while j < b.count, b[j] != UInt8(ascii: "}") { j += 1 }
                        guard j < b.count else { return nil }
                        i = j + 1
                        let n = max(1, Int(digits) ?? 1)
                        atom = String(repeating: atom, count: min(n, 8))
                    default: break
                    }
                }
                out += atom
            }
            return out
        }

        mutating func skipAlternatives() {
            var depth = 0
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == UInt8(ascii: "[") { skipClass(); continue }
                if c == UInt8(ascii: "(") { depth += 1 }
                if c == UInt8(ascii: ")") {
                    if depth == 0 { return }
                    depth -= 1
                }
                i += 1
            }
        }

        mutating func skipClass() {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "^") { i += 1 }
            if i < b.count, b[i] == UInt8(ascii: "]") { i += 1 }
            while i < b.count, b[i] != UInt8(ascii: "]") { if b[i] == UInt8(ascii: "\\") { i += 1 }; i += 1 }
            i += 1
        }

        /// One atom and whether a quantifier may follow.
        mutating func atom() -> (String, Bool)? {
            let c = b[i]
            switch c {
            case UInt8(ascii: "^"), UInt8(ascii: "$"):
                i += 1
                return ("", false)
            case UInt8(ascii: "."):
                i += 1
                return ("x", true)
            case UInt8(ascii: "("):
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "?") {
                    // Only non-capturing groups are understood.
                    guard i + 1 < b.count, b[i + 1] == UInt8(ascii: ":") else { return nil }
                    i += 2
                }
                guard let inner = sequence(), i < b.count, b[i] == UInt8(ascii: ")") else { return nil }
                i += 1
                return (inner, true)
            case UInt8(ascii: "["):
                let start = i
                i += 1
                var negated = false
                if i < b.count, b[i] == UInt8(ascii: "^") { negated = true; i += 1 }
                var first: UInt8? = nil
                var members: [UInt8] = []
                if i < b.count, b[i] == UInt8(ascii: "]") { members.append(b[i]); i += 1 }
                while i < b.count, b[i] != UInt8(ascii: "]") {
                    if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                        let e = b[i + 1]
                        members.append(e == UInt8(ascii: "d") ? UInt8(ascii: "1") : e == UInt8(ascii: "w") ? UInt8(ascii: "a") : e)
                        i += 2
                        continue
                    }
                    members.append(b[i]); i += 1
                }
                guard i < b.count else { i = start; return nil }
                i += 1
                first = members.first
                if negated {
                    let candidates = Array("xa1-_".utf8)
                    guard let pick = candidates.first(where: { !members.contains($0) }) else { return nil }
                    return (String(Unicode.Scalar(pick)), true)
                }
                guard let f = first else { return nil }
                return (String(Unicode.Scalar(f)), true)
            case UInt8(ascii: "\\"):
                guard i + 1 < b.count else { return nil }
                let e = b[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "d"): return ("1", true)
                case UInt8(ascii: "w"): return ("a", true)
                case UInt8(ascii: "s"): return (" ", true)
                case UInt8(ascii: "D"), UInt8(ascii: "W"), UInt8(ascii: "S"): return ("-", true)
                case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"): return ("", false)
                case UInt8(ascii: "1")...UInt8(ascii: "9"): return nil
                default: return (String(Unicode.Scalar(e)), true)
                }
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                return nil
            default:
                i += 1
                return (String(Unicode.Scalar(c)), true)
            }
        }
    }
}
