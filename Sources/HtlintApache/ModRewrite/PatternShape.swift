import HtlintRegex

/// Literal facts about every string a rule pattern matches, read from the pattern's top-level
/// sequence: what the rule index may key a rule on. Every fact is a necessary condition (a
/// string that lacks it cannot match), so keying on any of them keeps the index a superset.
/// Patterns the reader cannot vouch for (inline options, lookarounds, `\Q…\E`, verbs, a
/// top-level alternation) have no facts.
struct PatternShape: Equatable {
    /// Bytes every match starts with (the pattern is anchored with `^`).
    var prefix: [UInt8] = []
    /// Complete words every match contains: runs of word bytes (`isWordByte`) that the pattern
    /// bounds on both sides by a non-word byte, a `^` or a `$`.
    var words: [[UInt8]] = []
    /// Byte runs every match contains (mandatory literals side by side), for the cheap
    /// pre-filter before the regex; the index picks the one fewest other rules share
    /// (`^forum/(topic|thread)-9…` is told apart by `-9`, not by `forum/` or `.html`).
    var literalRuns: [[UInt8]] = []
    /// Every match ends with one of these (empty: unknown).
    var suffixes: [[UInt8]] = []
    /// The pattern is `^$`.
    var emptyOnly = false

    /// Bytes that make up words, in patterns and in inputs alike.
    static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: "-")
    }

    static func isAlphanumeric(_ e: UInt8) -> Bool {
        (e >= 0x30 && e <= 0x39) || (e >= 0x41 && e <= 0x5A) || (e >= 0x61 && e <= 0x7A)
    }

    /// `\d`, `\w`, `\s`, `\h`, `\v` and their negations: one byte of some kind (`\R` and `\X`
    /// may take a CR LF or a grapheme's bytes, which a request path never holds). Any other
    /// letter or digit escape (`\b` and other zero-width assertions, `\cX`, `\x41`,
    /// `\012`, back-references, `\p{L}`…) may consume what follows or match nothing.
    static func isOneByteClass(_ e: UInt8) -> Bool { "dDwWsShHvVRX".containsByte(e) }

    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }

    static func lower(_ bytes: inout [UInt8]) {
        for i in bytes.indices { bytes[i] = lower(bytes[i]) }
    }

    /// One element of the top-level sequence.
    fileprivate enum Atom {
        /// `optional` is `?` (absent or once); `anyNumber` is `*` or `{0,…}`, which may also
        /// repeat, so a match need not end with the literal once.
        enum Count {
            case one, optional, anyNumber, oneOrMore
            var mandatory: Bool { self == .one || self == .oneOrMore }
        }
        case literal(UInt8, Count)
        case start, end
        /// A group; `leftClosed`: every alternative ends with a non-word literal or `^`;
        /// `rightClosed`: every alternative starts with a non-word literal or `$`.
        case group(Count, leftClosed: Bool, rightClosed: Bool)
        /// Anything else (class, dot, escape class, back-reference).
        case other(Count)

        var count: Count {
            switch self {
            case .literal(_, let c), .group(let c, _, _), .other(let c): c
            case .start, .end: .one
            }
        }
    }

    init() {}

    /// `dollarEndOnly`: `$` matches only at the very end (Apache's default); without it, `$`
    /// also matches before a final newline and the endings are not known.
    init(pattern: String, caseless: Bool, dollarEndOnly: Bool = true) {
        let p = Array(pattern.utf8)
        if p.count == 2, p[0] == UInt8(ascii: "^"), p[1] == UInt8(ascii: "$") { emptyOnly = dollarEndOnly; return }
        guard let atoms = PatternShape.atoms(p) else { return }
        func fold(_ c: UInt8) -> UInt8 { caseless ? PatternShape.lower(c) : c }
        // Prefix: literals right after a leading `^`.
        if case .start? = atoms.first {
            prefix.reserveCapacity(atoms.count)
            for atom in atoms.dropFirst() {
                guard case .literal(let b, let n) = atom, n.mandatory else { break }
                prefix.append(fold(b))
                if n == .oneOrMore { break }
            }
        }
        // Literal runs (mandatory literals side by side).
        var i = 0
        while i < atoms.count {
            guard case .literal(_, let n) = atoms[i], n.mandatory else { i += 1; continue }
            var run: [UInt8] = []
            run.reserveCapacity(atoms.count - i)
            var j = i
            while j < atoms.count, case .literal(let b, let m) = atoms[j], m.mandatory {
                run.append(fold(b))
                j += 1
                if m == .oneOrMore { break }
            }
            literalRuns.append(run)
            i = j
        }
        words = PatternShape.boundedWords(atoms)
        if dollarEndOnly { suffixes = PatternShape.suffixes(atoms) }
        if caseless {
            for k in words.indices { PatternShape.lower(&words[k]) }
            for k in suffixes.indices { PatternShape.lower(&suffixes[k]) }
        }
    }

    /// Complete words: a run of mandatory word-byte literals with a boundary on each side.
    private static func boundedWords(_ atoms: [Atom]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = 0
        while i < atoms.count {
            guard case .literal(let b, .one) = atoms[i], isWordByte(b) else { i += 1; continue }
            var word: [UInt8] = []
            word.reserveCapacity(atoms.count - i)
            var j = i
            while j < atoms.count, case .literal(let c, .one) = atoms[j], isWordByte(c) {
                word.append(c)
                j += 1
            }
            if leftBoundary(atoms, before: i), rightBoundary(atoms, at: j) { out.append(word) }
            i = j
        }
        return out
    }

    /// The byte before position `i` of a match cannot be a word byte.
    private static func leftBoundary(_ atoms: [Atom], before i: Int) -> Bool {
        guard i > 0 else { return false }
        switch atoms[i - 1] {
        case .start: return true
        case .literal(let b, let n):
            if isWordByte(b) { return false }
            return n.mandatory || leftBoundary(atoms, before: i - 1)
        case .group(let n, let leftClosed, _):
            return leftClosed && n.mandatory
        default: return false
        }
    }

    /// The byte at atom `i` of a match (after a word) cannot be a word byte.
    private static func rightBoundary(_ atoms: [Atom], at i: Int) -> Bool {
        guard i < atoms.count else { return false }
        switch atoms[i] {
        case .end: return true
        case .literal(let b, let n):
            if isWordByte(b) { return false }
            return n.mandatory || rightBoundary(atoms, at: i + 1)
        case .group(let n, _, let rightClosed):
            return rightClosed && n.mandatory
        default: return false
        }
    }

    /// Literal endings: the mandatory literals before a final `$`, with and without one
    /// optional literal between them and the `$` (`-9/?$` ends with `-9` or `-9/`; `-9/*$` may
    /// end with `//`, so it has none).
    private static func suffixes(_ atoms: [Atom]) -> [[UInt8]] {
        guard case .end? = atoms.last else { return [] }
        var k = atoms.count - 2
        var optionalTail: UInt8? = nil
        if k >= 0, case .literal(let b, .optional) = atoms[k] {
            optionalTail = b
            k -= 1
        }
        // Read backwards, then turned around once.
        var run: [UInt8] = []
        run.reserveCapacity(k + 2)
        while k >= 0, case .literal(let b, let n) = atoms[k], n.mandatory {
            // `a+` still ends with `a`, but nothing before it is adjacent for sure.
            if n == .oneOrMore && !run.isEmpty { break }
            run.append(b)
            k -= 1
            if n == .oneOrMore { break }
        }
        guard !run.isEmpty else { return [] }
        run.reverse()
        guard let tail = optionalTail else { return [run] }
        var longer = run
        longer.append(tail)
        return [run, longer]
    }

    /// The top-level atoms, or nil when the pattern uses something the reader does not model.
    private static func atoms(_ p: [UInt8]) -> [Atom]? {
        var out: [Atom] = []
        out.reserveCapacity(p.count)
        var i = 0
        while i < p.count {
            let c = p[i]
            var atom: Atom
            switch c {
            case UInt8(ascii: "^"): out.append(.start); i += 1; continue
            case UInt8(ascii: "$"): out.append(.end); i += 1; continue
            case UInt8(ascii: "|"), UInt8(ascii: ")"): return nil
            case UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"):
                // A quantifier with nothing to repeat (or `{` read literally): do not guess.
                return nil
            case UInt8(ascii: "("):
                guard let (end, leftClosed, rightClosed) = group(p, from: i) else { return nil }
                atom = .group(.one, leftClosed: leftClosed, rightClosed: rightClosed)
                i = end + 1
            case UInt8(ascii: "["):
                guard let end = classEnd(p, from: i) else { return nil }
                atom = .other(.one)
                i = end + 1
            case UInt8(ascii: "."):
                atom = .other(.one)
                i += 1
            case UInt8(ascii: "\\"):
                guard i + 1 < p.count else { return nil }
                let e = p[i + 1]
                if e == UInt8(ascii: "Q") || e == UInt8(ascii: "E") || e == UInt8(ascii: "K") { return nil }
                // `\d`, `\w`, `\b`, `\x41`, back-references… are not literal bytes.
                if PatternShape.isAlphanumeric(e) {
                    guard PatternShape.isOneByteClass(e) else { return nil }
                    atom = .other(.one)
                } else {
                    atom = .literal(e, .one)
                }
                i += 2
            default:
                atom = .literal(c, .one)
                i += 1
            }
            // Quantifier (and a lazy or possessive mark after it).
            if i < p.count {
                var count: Atom.Count? = nil
                switch p[i] {
                case UInt8(ascii: "?"): count = .optional; i += 1
                case UInt8(ascii: "*"): count = .anyNumber; i += 1
                case UInt8(ascii: "+"): count = .oneOrMore; i += 1
                case UInt8(ascii: "{"):
                    guard let (end, minimum) = braces(p, from: i) else { break }   // a literal `{`
                    count = minimum >= 1 ? .oneOrMore : .anyNumber
                    i = end + 1
                default: break
                }
                if let n = count {
                    if i < p.count, p[i] == UInt8(ascii: "?") || p[i] == UInt8(ascii: "+") { i += 1 }
                    switch atom {
                    case .literal(let b, _): atom = .literal(b, n)
                    case .group(_, let l, let r): atom = .group(n, leftClosed: l, rightClosed: r)
                    case .other: atom = .other(n)
                    case .start, .end: return nil
                    }
                }
            }
            // `{n}` on a literal repeats it: "exactly one" no longer holds, which `.oneOrMore` says.
            out.append(atom)
        }
        return out
    }

    /// A group from its `(`: the index of its `)`, and whether every alternative ends (starts)
    /// with a non-word literal or an anchor. Only plain and `(?:` groups are read.
    private static func group(_ p: [UInt8], from open: Int) -> (Int, Bool, Bool)? {
        var i = open + 1
        if i < p.count, p[i] == UInt8(ascii: "*") { return nil }   // (*VERB)
        if i < p.count, p[i] == UInt8(ascii: "?") {
            guard i + 1 < p.count, p[i + 1] == UInt8(ascii: ":") else { return nil }
            i += 2
        }
        var depth = 1
        // Every alternative so far ends (starts) closed; `current` is the one being read.
        var left = true, right = true
        var current: [UInt8] = []
        current.reserveCapacity(p.count - i)
        while i < p.count {
            let c = p[i]
            if c == UInt8(ascii: "\\") {
                guard i + 1 < p.count else { return nil }
                // Same rule as at the top level: only one-character escapes are understood.
                let e = p[i + 1]
                if PatternShape.isAlphanumeric(e) && !PatternShape.isOneByteClass(e) { return nil }
                if depth == 1 { current.append(c); current.append(e) }
                i += 2
                continue
            }
            if c == UInt8(ascii: "[") {
                guard let end = classEnd(p, from: i) else { return nil }
                if depth == 1 { current += p[i...end] }
                i = end + 1
                continue
            }
            if c == UInt8(ascii: "("), i + 1 < p.count, p[i + 1] == UInt8(ascii: "?") || p[i + 1] == UInt8(ascii: "*") {
                guard i + 2 < p.count, p[i + 1] == UInt8(ascii: "?"), p[i + 2] == UInt8(ascii: ":") else { return nil }
            }
            if c == UInt8(ascii: "(") { depth += 1 }
            if c == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 {
                    return (i, left && endsClosed(current), right && startsClosed(current))
                }
            }
            if c == UInt8(ascii: "|"), depth == 1 {
                left = left && endsClosed(current)
                right = right && startsClosed(current)
                current.removeAll(keepingCapacity: true)
            } else if depth >= 1 {
                current.append(c)
            }
            i += 1
        }
        return nil
    }

    /// The alternative starts with `$` or a mandatory non-word literal.
    private static func startsClosed(_ a: [UInt8]) -> Bool {
        guard let first = a.first else { return false }
        if first == UInt8(ascii: "$") { return true }
        var width = 1
        var byte = first
        if first == UInt8(ascii: "\\") {
            guard a.count > 1 else { return false }
            byte = a[1]
            width = 2
            let isAlnum = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if isAlnum { return false }
        } else if "^.[()*+?{|".containsByte(first) {
            return false
        }
        if isWordByte(byte) { return false }
        if width < a.count, "?*{".utf8.contains(a[width]) { return false }
        return true
    }

    /// The alternative ends with `^` or a non-word literal that is not optional.
    private static func endsClosed(_ a: [UInt8]) -> Bool {
        guard let last = a.last else { return false }
        if a.count == 1, last == UInt8(ascii: "^") { return true }
        // An escaped final byte: `\.` or `\&`.
        if a.count >= 2, a[a.count - 2] == UInt8(ascii: "\\") {
            // `\\\.`-style sequences are rare; only trust a lone escape.
            if a.count >= 3, a[a.count - 3] == UInt8(ascii: "\\") { return false }
            let isAlnum = (last >= 0x30 && last <= 0x39) || (last >= 0x41 && last <= 0x5A) || (last >= 0x61 && last <= 0x7A)
            return !isAlnum && !isWordByte(last)
        }
        if "^$.])}*+?{|\\".containsByte(last) { return false }
        return !isWordByte(last)
    }

    /// The index of the `]` closing the class that starts at `open`.
    private static func classEnd(_ p: [UInt8], from open: Int) -> Int? {
        var i = open + 1
        if i < p.count, p[i] == UInt8(ascii: "^") { i += 1 }
        if i < p.count, p[i] == UInt8(ascii: "]") { i += 1 }
        while i < p.count {
            if p[i] == UInt8(ascii: "\\") { i += 2; continue }
            if p[i] == UInt8(ascii: "["), i + 1 < p.count, p[i + 1] == UInt8(ascii: ":") {
                // POSIX class `[:alpha:]`.
                var j = i + 2
                while j + 1 < p.count, !(p[j] == UInt8(ascii: ":") && p[j + 1] == UInt8(ascii: "]")) { j += 1 }
                guard j + 1 < p.count else { return nil }
                i = j + 2
                continue
            }
            if p[i] == UInt8(ascii: "]") { return i }
            i += 1
        }
        return nil
    }

    /// A `{n}`, `{n,}` or `{n,m}` quantifier from its `{`: the index of `}` and n; nil when
    /// the braces are literal text in PCRE2's eyes.
    private static func braces(_ p: [UInt8], from open: Int) -> (Int, Int)? {
        var i = open + 1
        var minimum = 0
        var digits = 0
        while i < p.count, p[i] >= 0x30, p[i] <= 0x39 {
            minimum = min(minimum * 10 + Int(p[i] - 0x30), 1 << 20)
            digits += 1
            i += 1
        }
        guard digits > 0, i < p.count else { return nil }
        if p[i] == UInt8(ascii: ",") {
            i += 1
            while i < p.count, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        guard i < p.count, p[i] == UInt8(ascii: "}") else { return nil }
        return (i, minimum)
    }
}
