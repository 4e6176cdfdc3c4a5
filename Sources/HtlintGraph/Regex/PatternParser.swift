import HtlintBytes

/// A regular expression as a tree, for the subset of PCRE2 that rewrite rules use in practice.
indirect enum PatternNode: Sendable {
    case empty
    /// One byte out of a set (a literal, `.`, a class, `\d`, …).
    case bytes(ByteSet)
    case sequence([PatternNode])
    case alternation([PatternNode])
    /// `max == nil`: unbounded.
    case repetition(PatternNode, min: Int, max: Int?)
    /// A group; `index` for capturing groups (1-based, in order of their opening parenthesis).
    case group(PatternNode, index: Int?)
    /// `^` / `\A`: the start of the subject.
    case start
    /// `$` / `\z`: the end of the subject (Apache compiles with DOLLAR_ENDONLY).
    case end
}

/// The tree of a pattern, and what had to be approximated to get it.
struct ParsedPattern: Sendable {
    var root: PatternNode
    var groupCount: Int
    /// Constructs outside the subset, each replaced by something that matches *more* strings
    /// (a lookahead by nothing, a backreference by a copy of its group, …). Empty when the
    /// tree describes exactly the strings PCRE2 matches.
    var approximations: [String]

    var isExact: Bool { approximations.isEmpty }
}

/// Parses PCRE2 syntax (without UTF, with Apache's DOTALL and DOLLAR_ENDONLY) into a
/// `PatternNode` tree. Everything the tree cannot express exactly is over-approximated and
/// listed in `approximations`, so that the language of the tree always contains the language
/// of the pattern.
struct PatternParser {
    private let b: [UInt8]
    private var i = 0
    private var groupCount = 0
    private var approximations: [String] = []
    /// Groups parsed so far, for backreferences.
    private var groups: [Int: PatternNode] = [:]
    private var names: [String: Int] = [:]

    private init(_ pattern: String) {
        b = Array(pattern.utf8)
    }

    /// Parses `pattern`; nil only for syntax this parser cannot even skip over.
    static func parse(_ pattern: String, caseInsensitive: Bool) -> ParsedPattern? {
        var p = PatternParser(pattern)
        guard let root = p.alternation(caseless: caseInsensitive), p.i == p.b.count else { return nil }
        return ParsedPattern(root: root, groupCount: p.groupCount, approximations: p.approximations)
    }

    private var atEnd: Bool { i >= b.count }
    private func peek(_ offset: Int = 0) -> UInt8? { i + offset < b.count ? b[i + offset] : nil }
    private func isChar(_ c: Character, at offset: Int = 0) -> Bool { peek(offset) == c.asciiValue }

    private mutating func approximate(_ what: String) {
        if !approximations.contains(what) { approximations.append(what) }
    }

    private static let anyString = PatternNode.repetition(.bytes(.all), min: 0, max: nil)

    // MARK: - Grammar

    private mutating func alternation(caseless: Bool) -> PatternNode? {
        var caseless = caseless
        var branches: [PatternNode] = []
        while true {
            guard let s = sequence(caseless: &caseless) else { return nil }
            branches.append(s)
            if isChar("|") { i += 1; continue }
            break
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// A sequence up to `|`, `)` or the end. `caseless` can be switched by `(?i)` for the rest
    /// of the enclosing group.
    private mutating func sequence(caseless: inout Bool) -> PatternNode? {
        var items: [PatternNode] = []
        while !atEnd, !isChar("|"), !isChar(")") {
            guard let atom = atom(caseless: &caseless) else { return nil }
            guard let quantified = quantifier(atom) else { return nil }
            items.append(quantified)
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func quantifier(_ atom: PatternNode) -> PatternNode? {
        var node = atom
        while let c = peek() {
            var min = 0, max: Int? = nil
            switch c {
            case UInt8(ascii: "*"): i += 1
            case UInt8(ascii: "+"): min = 1; i += 1
            case UInt8(ascii: "?"): max = 1; i += 1
            case UInt8(ascii: "{"):
                guard let (lo, hi, length) = braceQuantifier(at: i) else { return node }
                i += length
                min = lo
                max = hi
            default: return node
            }
            if isChar("?") { i += 1 }  // lazy: same language
            else if isChar("+") { i += 1; approximate("possessive quantifier") }
            // Very large counts are widened (the language only grows).
            if min > 64 { approximate("repetition count above 64"); min = 64; max = nil }
            if let m = max, m > 64 { approximate("repetition count above 64"); max = nil }
            node = .repetition(node, min: min, max: max)
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}` at `at`; anything else is a literal `{` in PCRE2 10.42.
    private func braceQuantifier(at start: Int) -> (Int, Int?, Int)? {
        var j = start + 1
        var lo = "", hi = ""
        while j < b.count, (0x30...0x39).contains(b[j]) { lo.append(Character(Unicode.Scalar(b[j]))); j += 1 }
        guard !lo.isEmpty, j < b.count else { return nil }
        if b[j] == UInt8(ascii: "}") {
            let n = Int(lo) ?? 0
            return (n, n, j - start + 1)
        }
        guard b[j] == UInt8(ascii: ",") else { return nil }
        j += 1
        while j < b.count, (0x30...0x39).contains(b[j]) { hi.append(Character(Unicode.Scalar(b[j]))); j += 1 }
        guard j < b.count, b[j] == UInt8(ascii: "}") else { return nil }
        return (Int(lo) ?? 0, hi.isEmpty ? nil : Int(hi), j - start + 1)
    }

    private func literal(_ c: UInt8, caseless: Bool) -> PatternNode {
        let s = ByteSet([c])
        return .bytes(caseless ? s.caseFolded : s)
    }

    private mutating func atom(caseless: inout Bool) -> PatternNode? {
        let c = b[i]
        switch c {
        case UInt8(ascii: "^"): i += 1; return .start
        case UInt8(ascii: "$"): i += 1; return .end
        case UInt8(ascii: "."): i += 1; return .bytes(.all)
        case UInt8(ascii: "["):
            guard let set = characterClass() else { return nil }
            return .bytes(caseless ? set.caseFolded : set)
        case UInt8(ascii: "("): return group(caseless: &caseless)
        case UInt8(ascii: "\\"): return escape(caseless: caseless)
        case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"):
            return nil  // nothing to repeat: PCRE2 rejects it, so Apache would have too
        default:
            i += 1
            return literal(c, caseless: caseless)
        }
    }

    private mutating func group(caseless: inout Bool) -> PatternNode? {
        i += 1  // (
        var capture: Int? = nil
        var inner = caseless
        var kind = "capture"
        if isChar("*") {
            // (*VERB) and (*UTF) start-of-pattern options: ignored.
            while !atEnd, !isChar(")") { i += 1 }
            guard !atEnd else { return nil }
            i += 1
            approximate("(*VERB)")
            return .empty
        }
        if isChar("?") {
            i += 1
            guard let c = peek() else { return nil }
            switch c {
            case UInt8(ascii: ":"): i += 1; kind = "plain"
            case UInt8(ascii: "|"): i += 1; kind = "plain"; approximate("branch reset group")
            case UInt8(ascii: ">"): i += 1; kind = "plain"; approximate("atomic group")
            case UInt8(ascii: "="), UInt8(ascii: "!"): i += 1; kind = "lookaround"
            case UInt8(ascii: "<") where isChar("=", at: 1) || isChar("!", at: 1): i += 2; kind = "lookaround"
            case UInt8(ascii: "#"):
                while !atEnd, !isChar(")") { i += 1 }
                guard !atEnd else { return nil }
                i += 1
                return .empty
            case UInt8(ascii: "<"), UInt8(ascii: "'"), UInt8(ascii: "P"):
                if c == UInt8(ascii: "P") {
                    i += 1
                    if isChar(">") || isChar("=") { return recursion() }
                }
                let close: UInt8 = isChar("'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                i += 1
                var name = ""
                while let x = peek(), x != close { name.append(Character(Unicode.Scalar(x))); i += 1 }
                guard !atEnd else { return nil }
                i += 1
                kind = "capture"
                names[name] = groupCount + 1
            case UInt8(ascii: "("):
                // Conditional group: both branches are possible.
                approximate("conditional group")
                var depth = 0
                while let x = peek() {
                    if x == UInt8(ascii: "(") { depth += 1 }
                    if x == UInt8(ascii: ")") { depth -= 1; if depth == 0 { i += 1; break } }
                    i += 1
                }
                kind = "plain"
            case UInt8(ascii: "R"), UInt8(ascii: "&"), UInt8(ascii: "+"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return recursion()
            case UInt8(ascii: "-") where isChar("0", at: 1) == false && (peek(1).map { (0x30...0x39).contains($0) } ?? false):
                return recursion()
            default:
                // Inline options: (?i) (?-i) (?i:…) and friends.
                var on = true
                var newCaseless = caseless
                while let x = peek(), x != UInt8(ascii: ")"), x != UInt8(ascii: ":") {
                    switch x {
                    case UInt8(ascii: "-"): on = false
                    case UInt8(ascii: "i"): newCaseless = on
                    case UInt8(ascii: "s"), UInt8(ascii: "U"), UInt8(ascii: "J"), UInt8(ascii: "n"): break
                    case UInt8(ascii: "m"): approximate("multiline option")
                    default:
                        approximate("inline option (?\(Character(Unicode.Scalar(x))))")
                        return skipGroupAsAnything()
                    }
                    i += 1
                }
                guard let x = peek() else { return nil }
                i += 1
                if x == UInt8(ascii: ")") {
                    caseless = newCaseless  // applies to the rest of the enclosing group
                    return .empty
                }
                inner = newCaseless
                kind = "plain"
            }
        }
        if kind == "capture" {
            groupCount += 1
            capture = groupCount
        }
        guard let body = alternation(caseless: inner), isChar(")") else { return nil }
        i += 1
        if kind == "lookaround" {
            approximate("lookaround assertion")
            return .empty
        }
        if let capture { groups[capture] = body }
        return .group(body, index: capture)
    }

    /// `(?R)`, `(?1)`, `(?&name)`, `(?P>name)`: recursion cannot be expressed; any string.
    private mutating func recursion() -> PatternNode? {
        while !atEnd, !isChar(")") { i += 1 }
        guard !atEnd else { return nil }
        i += 1
        approximate("recursive subpattern")
        return PatternParser.anyString
    }

    private mutating func skipGroupAsAnything() -> PatternNode? {
        var depth = 1
        while let x = peek() {
            if x == UInt8(ascii: "\\") { i += 2; continue }
            if x == UInt8(ascii: "(") { depth += 1 }
            if x == UInt8(ascii: ")") { depth -= 1; if depth == 0 { i += 1; return PatternParser.anyString } }
            i += 1
        }
        return nil
    }

    private mutating func backreference(_ n: Int) -> PatternNode {
        approximate("backreference")
        // The text of a backreference is some string of its group's language.
        if let g = groups[n] { return .group(g, index: nil) }
        return PatternParser.anyString
    }

    private mutating func escape(caseless: Bool) -> PatternNode? {
        guard let e = peek(1) else { return nil }
        i += 2
        switch e {
        case UInt8(ascii: "d"): return .bytes(.digits)
        case UInt8(ascii: "D"): return .bytes(ByteSet.digits.inverted)
        case UInt8(ascii: "w"): return .bytes(.word)
        case UInt8(ascii: "W"): return .bytes(ByteSet.word.inverted)
        case UInt8(ascii: "s"): return .bytes(.space)
        case UInt8(ascii: "S"): return .bytes(ByteSet.space.inverted)
        case UInt8(ascii: "h"): return .bytes(ByteSet([0x20, 0x09, 0xA0]))
        case UInt8(ascii: "H"): return .bytes(ByteSet([0x20, 0x09, 0xA0]).inverted)
        case UInt8(ascii: "v"): return .bytes(ByteSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85]))
        case UInt8(ascii: "V"): return .bytes(ByteSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85]).inverted)
        case UInt8(ascii: "N"): return .bytes(ByteSet([0x0A]).inverted)
        case UInt8(ascii: "R"):
            return .alternation([.sequence([.bytes(ByteSet([0x0D])), .bytes(ByteSet([0x0A]))]),
                                 .bytes(ByteSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85]))])
        case UInt8(ascii: "A"): return .start
        case UInt8(ascii: "z"): return .end
        case UInt8(ascii: "Z"):
            approximate("\\Z")
            return .sequence([.repetition(.bytes(ByteSet([0x0A])), min: 0, max: 1), .end])
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "G"), UInt8(ascii: "K"):
            approximate("\\\(Character(Unicode.Scalar(e)))")
            return .empty
        case UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "X"), UInt8(ascii: "C"):
            // Unicode properties: skip `{…}` or the one-letter name; any single byte.
            if e != UInt8(ascii: "X"), e != UInt8(ascii: "C") {
                if isChar("{") { while !atEnd, !isChar("}") { i += 1 }; i += 1 } else { i += 1 }
            }
            approximate("\\\(Character(Unicode.Scalar(e)))")
            return e == UInt8(ascii: "X") ? .repetition(.bytes(.all), min: 1, max: nil) : .bytes(.all)
        case UInt8(ascii: "Q"):
            var items: [PatternNode] = []
            while !atEnd {
                if isChar("\\"), isChar("E", at: 1) { i += 2; break }
                items.append(literal(b[i], caseless: caseless))
                i += 1
            }
            return .sequence(items)
        case UInt8(ascii: "E"): return .empty
        case UInt8(ascii: "g"), UInt8(ascii: "k"):
            // \g{1} \g1 \g-1 \k<name> \k{name}: backreferences by number or name.
            var text = ""
            if let o = peek(), [UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "'")].contains(o) {
                let close: UInt8 = o == UInt8(ascii: "{") ? UInt8(ascii: "}") : o == UInt8(ascii: "<") ? UInt8(ascii: ">") : o
                i += 1
                while let x = peek(), x != close { text.append(Character(Unicode.Scalar(x))); i += 1 }
                i += 1
            } else {
                while let x = peek(), (0x30...0x39).contains(x) || x == UInt8(ascii: "-") {
                    text.append(Character(Unicode.Scalar(x))); i += 1
                }
            }
            if let n = Int(text) { return backreference(n < 0 ? groupCount + 1 + n : n) }
            return backreference(names[text] ?? -1)
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            // PCRE2: a one-digit number, or one not above the group count, is a backreference;
            // otherwise up to three octal digits are a character (`\101` is `A`).
            var digits = [e]
            var j = i
            while j < b.count, (0x30...0x39).contains(b[j]) { digits.append(b[j]); j += 1 }
            let n = Int(String(decoding: digits, as: UTF8.self)) ?? 0
            if n < 10 || n <= groupCount {
                i = j
                return backreference(n)
            }
            var value = 0, used = 0
            i -= 1
            while used < 3, let x = peek(), (0x30...0x37).contains(x) { value = value * 8 + Int(x - 0x30); i += 1; used += 1 }
            guard used > 0 else { i += 1; return backreference(n) }
            return literal(UInt8(value & 0xFF), caseless: caseless)
        default:
            guard let byte = simpleEscape(e) else { return nil }
            return literal(byte, caseless: caseless)
        }
    }

    /// Escapes that stand for one byte: `\n`, `\x41`, `\.`, `\0`, …; `i` is past the letter.
    private mutating func simpleEscape(_ e: UInt8) -> UInt8? {
        switch e {
        case UInt8(ascii: "a"): return 0x07
        case UInt8(ascii: "e"): return 0x1B
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "0"):
            var v = 0, n = 0
            while n < 2, let x = peek(), (0x30...0x37).contains(x) { v = v * 8 + Int(x - 0x30); i += 1; n += 1 }
            return UInt8(v & 0xFF)
        case UInt8(ascii: "x"):
            var hex = ""
            if isChar("{") {
                i += 1
                while let x = peek(), x != UInt8(ascii: "}") { hex.append(Character(Unicode.Scalar(x))); i += 1 }
                i += 1
            } else {
                while hex.count < 2, let x = peek(), Character(Unicode.Scalar(x)).isHexDigit {
                    hex.append(Character(Unicode.Scalar(x))); i += 1
                }
            }
            return UInt8((Int(hex, radix: 16) ?? 0) & 0xFF)
        case UInt8(ascii: "c"):
            guard let x = peek() else { return nil }
            i += 1
            return (x & 0xDF) ^ 0x40
        default:
            // Any other escaped character stands for itself (`\.`, `\/`, `\-`).
            return e
        }
    }

    /// `[…]` at `i`; returns the set and leaves `i` after `]`.
    private mutating func characterClass() -> ByteSet? {
        i += 1
        var negated = false
        if isChar("^") { negated = true; i += 1 }
        var set = ByteSet()
        var first = true
        while let c = peek() {
            if c == UInt8(ascii: "]"), !first { i += 1; return negated ? set.inverted : set }
            first = false
            if c == UInt8(ascii: "["), isChar(":", at: 1), let (posix, length) = posixClass(at: i) {
                set = set.union(posix)
                i += length
                continue
            }
            var low: UInt8
            if c == UInt8(ascii: "\\") {
                guard let e = peek(1) else { return nil }
                i += 2
                switch e {
                case UInt8(ascii: "d"): set = set.union(.digits); continue
                case UInt8(ascii: "D"): set = set.union(ByteSet.digits.inverted); continue
                case UInt8(ascii: "w"): set = set.union(.word); continue
                case UInt8(ascii: "W"): set = set.union(ByteSet.word.inverted); continue
                case UInt8(ascii: "s"): set = set.union(.space); continue
                case UInt8(ascii: "S"): set = set.union(ByteSet.space.inverted); continue
                case UInt8(ascii: "h"): set = set.union(ByteSet([0x20, 0x09, 0xA0])); continue
                case UInt8(ascii: "v"): set = set.union(ByteSet([0x0A, 0x0B, 0x0C, 0x0D, 0x85])); continue
                case UInt8(ascii: "p"), UInt8(ascii: "P"):
                    if isChar("{") { while !atEnd, !isChar("}") { i += 1 }; i += 1 } else { i += 1 }
                    approximate("\\p in a class")
                    set = .all
                    continue
                case UInt8(ascii: "b"): low = 0x08
                default:
                    guard let byte = simpleEscape(e) else { return nil }
                    low = byte
                }
            } else {
                low = c
                i += 1
            }
            // A range `a-z` (a `-` before `]` is literal).
            if isChar("-"), let next = peek(1), next != UInt8(ascii: "]") {
                var high: UInt8
                if next == UInt8(ascii: "\\") {
                    guard let e = peek(2) else { return nil }
                    if [UInt8(ascii: "d"), UInt8(ascii: "w"), UInt8(ascii: "s"), UInt8(ascii: "D"), UInt8(ascii: "W"),
                        UInt8(ascii: "S")].contains(e) {
                        set.insert(low)  // `a-\d`: the `-` is literal
                        set.insert(UInt8(ascii: "-"))
                        i += 1
                        continue
                    }
                    i += 3
                    guard let byte = simpleEscape(e) else { return nil }
                    high = byte
                } else if next == UInt8(ascii: "["), isChar(":", at: 2) {
                    set.insert(low)
                    set.insert(UInt8(ascii: "-"))
                    i += 1
                    continue
                } else {
                    high = next
                    i += 2
                }
                guard low <= high else { return nil }
                set = set.union(ByteSet(range: low...high))
            } else {
                set.insert(low)
            }
        }
        return nil
    }

    /// `[:alpha:]` and friends at `at`, with the length consumed.
    private func posixClass(at start: Int) -> (ByteSet, Int)? {
        var j = start + 2
        var negated = false
        if j < b.count, b[j] == UInt8(ascii: "^") { negated = true; j += 1 }
        var name = ""
        while j < b.count, b[j] != UInt8(ascii: ":") { name.append(Character(Unicode.Scalar(b[j]))); j += 1 }
        guard j + 1 < b.count, b[j + 1] == UInt8(ascii: "]") else { return nil }
        let upper = ByteSet(range: 0x41...0x5A), lower = ByteSet(range: 0x61...0x7A)
        let set: ByteSet
        switch name {
        case "alpha": set = upper.union(lower)
        case "digit": set = .digits
        case "alnum": set = upper.union(lower).union(.digits)
        case "upper": set = upper
        case "lower": set = lower
        case "space": set = .space
        case "blank": set = ByteSet([0x20, 0x09])
        case "word": set = .word
        case "xdigit": set = ByteSet.digits.union(ByteSet(range: 0x41...0x46)).union(ByteSet(range: 0x61...0x66))
        case "punct": set = ByteSet((0x21...0x7E).filter { !ByteSet.word.contains(UInt8($0)) || $0 == 0x5F }.map { UInt8($0) })
        case "print": set = ByteSet(range: 0x20...0x7E)
        case "graph": set = ByteSet(range: 0x21...0x7E)
        case "cntrl": set = ByteSet(range: 0x00...0x1F).union(ByteSet([0x7F]))
        case "ascii": set = ByteSet(range: 0x00...0x7F)
        default: return nil
        }
        return (negated ? set.inverted : set, j + 2 - start)
    }
}
