extension BacktrackingAnalysis {
    /// PCRE2 syntax (no UTF, DOTALL as Apache compiles) into `Node`s with the offsets of
    /// repetitions. What the analysis cannot reason about becomes `.opaque`; nil means the
    /// parser could not even skip over the pattern (then nothing is reported).
    struct Parser {
        let bytes: [UInt8]
        private var i = 0
        private var caseless: Bool

        init(_ bytes: [UInt8], caseless: Bool) {
            self.bytes = bytes
            self.caseless = caseless
        }

        mutating func parse() -> Node? {
            guard let root = alternation(), i == bytes.count else { return nil }
            return root
        }

        private func peek(_ k: Int = 0) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }
        private func at(_ c: Character, _ k: Int = 0) -> Bool { peek(k) == c.asciiValue }

        private mutating func alternation() -> Node? {
            var branches: [Node] = []
            while true {
                guard let s = sequence() else { return nil }
                branches.append(s)
                guard at("|") else { break }
                i += 1
            }
            return branches.count == 1 ? branches[0] : .alt(branches)
        }

        private mutating func sequence() -> Node? {
            var items: [Node] = []
            while i < bytes.count, !at("|"), !at(")") {
                let start = i
                guard let atom = atom() else { return nil }
                items.append(quantified(atom, from: start))
            }
            return items.count == 1 ? items[0] : .seq(items)
        }

        private mutating func quantified(_ atom: Node, from start: Int) -> Node {
            var node = atom
            while let c = peek() {
                var lo = 0, hi: Int? = nil
                switch c {
                case UInt8(ascii: "*"): i += 1
                case UInt8(ascii: "+"): lo = 1; i += 1
                case UInt8(ascii: "?"): hi = 1; i += 1
                case UInt8(ascii: "{"):
                    guard let (a, b, length) = brace() else { return node }
                    lo = a; hi = b; i += length
                default: return node
                }
                var possessive = false
                if at("?") { i += 1 } else if at("+") { i += 1; possessive = true }
                node = .rep(node, min: lo, max: hi, possessive: possessive, span: start..<i)
            }
            return node
        }

        /// `{n}`, `{n,}`, `{n,m}`; anything else is a literal `{`.
        private func brace() -> (Int, Int?, Int)? {
            var j = i + 1
            func number() -> Int? {
                let s = j
                while j < bytes.count, (0x30...0x39).contains(bytes[j]) { j += 1 }
                return j > s ? Int(String(decoding: bytes[s..<j], as: UTF8.self)).map { min($0, 65535) } : nil
            }
            guard let lo = number(), j < bytes.count else { return nil }
            if bytes[j] == UInt8(ascii: "}") { return (lo, lo, j - i + 1) }
            guard bytes[j] == UInt8(ascii: ",") else { return nil }
            j += 1
            let hi = number()
            guard j < bytes.count, bytes[j] == UInt8(ascii: "}") else { return nil }
            return (lo, hi, j - i + 1)
        }

        private func set(_ s: Bytes) -> Node { .chars(caseless ? s.caseFolded : s) }

        private mutating func atom() -> Node? {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "^"), UInt8(ascii: "$"): i += 1; return .zeroWidth
            case UInt8(ascii: "."): i += 1; return .chars(.all)
            case UInt8(ascii: "["): return characterClass().map(set)
            case UInt8(ascii: "("): return group()
            case UInt8(ascii: "\\"): return escape()
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"): return nil
            default: i += 1; return set(Bytes([c]))
            }
        }

        private mutating func group() -> Node? {
            i += 1
            var lookaround = false, opaque = false, keepOptions = false
            let outerCaseless = caseless
            // Options set inside a group end with it; a bare `(?i)` lasts to the end of the enclosing one.
            defer { if !keepOptions { caseless = outerCaseless } }
            if at("*") {   // (*VERB)
                while i < bytes.count, !at(")") { i += 1 }
                guard i < bytes.count else { return nil }
                i += 1
                return .zeroWidth
            }
            if at("?") {
                i += 1
                guard let c = peek() else { return nil }
                switch c {
                case UInt8(ascii: ":"), UInt8(ascii: "|"): i += 1
                case UInt8(ascii: ">"): i += 1; opaque = true   // atomic: no backtracking into it
                case UInt8(ascii: "="), UInt8(ascii: "!"): i += 1; lookaround = true
                case UInt8(ascii: "<") where at("=", 1) || at("!", 1): i += 2; lookaround = true
                case UInt8(ascii: "#"):
                    while i < bytes.count, !at(")") { i += 1 }
                    guard i < bytes.count else { return nil }
                    i += 1
                    return .zeroWidth
                case UInt8(ascii: "<"), UInt8(ascii: "'"), UInt8(ascii: "P"):
                    if c == UInt8(ascii: "P"), at(">", 1) || at("=", 1) { return skipGroup() }
                    let close: UInt8 = at("'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                    while let x = peek(), x != close { i += 1 }
                    guard i < bytes.count else { return nil }
                    i += 1
                case UInt8(ascii: "("), UInt8(ascii: "R"), UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: "-"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"):
                    return skipGroup()
                default:
                    // Inline options: `(?i)` for the rest of the group, `(?i:…)` for its body.
                    var on = true, fold = caseless
                    while let x = peek(), x != UInt8(ascii: ")"), x != UInt8(ascii: ":") {
                        if x == UInt8(ascii: "-") { on = false } else if x == UInt8(ascii: "i") { fold = on }
                        i += 1
                    }
                    guard let x = peek() else { return nil }
                    i += 1
                    if x == UInt8(ascii: ")") {
                        keepOptions = true
                        caseless = fold
                        return .zeroWidth
                    }
                    caseless = fold
                }
            }
            guard let body = alternation(), at(")") else { return nil }
            i += 1
            if lookaround { return .zeroWidth }
            return opaque ? .opaque : .group(body)
        }

        /// Recursion and conditional groups: skipped as opaque.
        private mutating func skipGroup() -> Node? {
            var depth = 1
            while let x = peek() {
                if x == UInt8(ascii: "\\") { i += 2; continue }
                if x == UInt8(ascii: "(") { depth += 1 }
                if x == UInt8(ascii: ")") { depth -= 1; if depth == 0 { i += 1; return .opaque } }
                i += 1
            }
            return nil
        }

        private mutating func escape() -> Node? {
            guard let e = peek(1) else { return nil }
            i += 2
            switch e {
            case UInt8(ascii: "d"): return set(.digits)
            case UInt8(ascii: "D"): return set(Bytes.digits.inverted)
            case UInt8(ascii: "w"): return set(.word)
            case UInt8(ascii: "W"): return set(Bytes.word.inverted)
            case UInt8(ascii: "s"): return set(.space)
            case UInt8(ascii: "S"): return set(Bytes.space.inverted)
            case UInt8(ascii: "N"): return set(Bytes([0x0A]).inverted)
            case UInt8(ascii: "h"), UInt8(ascii: "v"), UInt8(ascii: "H"), UInt8(ascii: "V"), UInt8(ascii: "R"),
                 UInt8(ascii: "X"), UInt8(ascii: "C"):
                return .chars(.all)   // wide sets: over-approximated
            case UInt8(ascii: "p"), UInt8(ascii: "P"):
                if at("{") { while i < bytes.count, !at("}") { i += 1 }; i += 1 } else { i += 1 }
                return .chars(.all)
            case UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"), UInt8(ascii: "b"), UInt8(ascii: "B"),
                 UInt8(ascii: "G"), UInt8(ascii: "K"), UInt8(ascii: "E"):
                return .zeroWidth
            case UInt8(ascii: "Q"):
                var items: [Node] = []
                while i < bytes.count, !(at("\\") && at("E", 1)) { items.append(set(Bytes([bytes[i]]))); i += 1 }
                if i < bytes.count { i += 2 }
                return .seq(items)
            case UInt8(ascii: "g"), UInt8(ascii: "k"), UInt8(ascii: "1")...UInt8(ascii: "9"):
                // Backreferences (and octal escapes, rare in URLs): not analysed.
                if let o = peek(), [UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "'")].contains(o) {
                    let close: UInt8 = o == UInt8(ascii: "{") ? UInt8(ascii: "}") : o == UInt8(ascii: "<") ? UInt8(ascii: ">") : o
                    while let x = peek(), x != close { i += 1 }
                    i += 1
                } else {
                    while let x = peek(), (0x30...0x39).contains(x) || x == UInt8(ascii: "-") { i += 1 }
                }
                return .opaque
            case UInt8(ascii: "x"):
                if at("{") { while i < bytes.count, !at("}") { i += 1 }; i += 1; return .chars(.all) }
                var hex = ""
                while hex.count < 2, let x = peek(), Character(Unicode.Scalar(x)).isHexDigit { hex.append(Character(Unicode.Scalar(x))); i += 1 }
                return set(Bytes([UInt8(Int(hex, radix: 16) ?? 0)]))
            default:
                return set(Bytes([Self.simpleEscape(e)]))
            }
        }

        private static func simpleEscape(_ e: UInt8) -> UInt8 {
            switch e {
            case UInt8(ascii: "n"): return 0x0A
            case UInt8(ascii: "r"): return 0x0D
            case UInt8(ascii: "t"): return 0x09
            case UInt8(ascii: "f"): return 0x0C
            case UInt8(ascii: "e"): return 0x1B
            case UInt8(ascii: "a"): return 0x07
            case UInt8(ascii: "0"): return 0x00
            default: return e
            }
        }

        /// `[…]`; leaves `i` after `]`. Posix classes and escapes inside are over-approximated
        /// where the exact set does not matter for overlap.
        private mutating func characterClass() -> Bytes? {
            i += 1
            var negated = false
            if at("^") { negated = true; i += 1 }
            var s = Bytes()
            var first = true
            while let c = peek() {
                if c == UInt8(ascii: "]"), !first {
                    i += 1
                    // `[^s]` with [NC] excludes `S` too: fold before negating.
                    if caseless { s = s.caseFolded }
                    return negated ? s.inverted : s
                }
                first = false
                if c == UInt8(ascii: "["), at(":", 1) {
                    guard let end = (i + 2..<bytes.count).first(where: { bytes[$0] == UInt8(ascii: "]") }) else { return nil }
                    let name = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
                    s = s.union(Self.posix(name))
                    i = end + 1
                    continue
                }
                var low = c
                if c == UInt8(ascii: "\\") {
                    guard let e = peek(1) else { return nil }
                    i += 2
                    switch e {
                    case UInt8(ascii: "d"): s = s.union(.digits); continue
                    case UInt8(ascii: "w"): s = s.union(.word); continue
                    case UInt8(ascii: "s"): s = s.union(.space); continue
                    case UInt8(ascii: "D"), UInt8(ascii: "W"), UInt8(ascii: "S"), UInt8(ascii: "p"), UInt8(ascii: "P"),
                         UInt8(ascii: "x"), UInt8(ascii: "h"), UInt8(ascii: "v"):
                        if e == UInt8(ascii: "p") || e == UInt8(ascii: "P") || e == UInt8(ascii: "x"), at("{") {
                            while i < bytes.count, !at("}") { i += 1 }
                            i += 1
                        }
                        s = .all; continue
                    default: low = Self.simpleEscape(e)
                    }
                } else {
                    i += 1
                }
                if at("-"), let next = peek(1), next != UInt8(ascii: "]"), next != UInt8(ascii: "\\"), next != UInt8(ascii: "[") {
                    i += 2
                    if low <= next { s = s.union(Bytes(range: low...next)) }
                } else {
                    s.insert(low)
                }
            }
            return nil
        }

        private static func posix(_ name: String) -> Bytes {
            let upper = Bytes(range: 0x41...0x5A), lower = Bytes(range: 0x61...0x7A)
            switch name.hasPrefix("^") ? "" : name.replacingOccurrences(of: ":", with: "") {
            case "alpha": return upper.union(lower)
            case "digit": return .digits
            case "alnum": return upper.union(lower).union(.digits)
            case "upper": return upper
            case "lower": return lower
            case "space": return .space
            case "word": return .word
            default: return .all
            }
        }
    }
}
