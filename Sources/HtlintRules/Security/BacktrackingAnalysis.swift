/// A structural search for patterns that make PCRE2 backtrack exponentially (or with a large
/// polynomial): a repeated group whose body can match the same text in several ways. It keeps
/// byte offsets so a finding points at the group; it is deliberately narrow (few false alarms)
/// rather than a complete ambiguity analysis of the automaton.
struct BacktrackingAnalysis {
    /// One hazardous repetition: where it starts in the pattern, its text, and why.
    struct Hazard: Equatable {
        var offset: Int
        var text: String
        var reason: String
    }

    /// Counted repetitions from this many up behave like `+` for the cost of a failing match.
    static let largeCount = 10

    /// The hazards of `pattern`, outermost first; empty when it cannot be parsed.
    static func hazards(in pattern: String, caseInsensitive: Bool = false) -> [Hazard] {
        var parser = Parser(Array(pattern.utf8), caseless: caseInsensitive)
        guard let root = parser.parse() else { return [] }
        let bytes = parser.bytes
        var out: [Hazard] = []
        func visit(_ n: Node) {
            switch n {
            case .seq(let items): items.forEach(visit)
            case .alt(let branches): branches.forEach(visit)
            case .group(let inner): visit(inner)
            case .rep(let inner, _, let max, let possessive, let span):
                if !possessive, max == nil || max! >= largeCount, let reason = ambiguity(of: inner) {
                    let text = String(decoding: bytes[span], as: UTF8.self)
                    out.append(Hazard(offset: span.lowerBound, text: text, reason: reason))
                    return   // one finding per outermost hazardous repetition
                }
                visit(inner)
            case .chars, .zeroWidth, .opaque: break
            }
        }
        visit(root)
        return out
    }

    /// Why repeating `body` is ambiguous, or nil.
    private static func ambiguity(of body: Node) -> String? {
        let unwrapped = body.unwrapped
        if case .alt(let branches) = unwrapped {
            for (i, a) in branches.enumerated() {
                guard let sa = a.unwrapped.singleCharacterSet else { continue }
                for b in branches[(i + 1)...] {
                    if let sb = b.unwrapped.singleCharacterSet, !sa.intersection(sb).isEmpty {
                        return "its alternatives match the same characters"
                    }
                }
            }
            for branch in branches { if let r = nestedRepetition(in: branch) { return r } }
            return nil
        }
        return nestedRepetition(in: body)
    }

    /// A body made of one unbounded repetition `X+` and otherwise only parts that may be empty
    /// or that `X` can match too: iterations can split a run of `X` in many ways.
    private static func nestedRepetition(in body: Node) -> String? {
        let items = body.flattened
        for (i, item) in items.enumerated() {
            guard case .rep(let inner, _, nil, false, _) = item.unwrapped, !inner.nullable,
                  let set = inner.alphabet, !set.isEmpty else { continue }
            let othersOverlap = items.enumerated().allSatisfy { j, other in
                if j == i || other.nullable { return true }
                guard other.isSimple, let s = other.alphabet else { return false }
                return !s.intersection(set).isEmpty
            }
            if othersOverlap { return "a repeated group contains a repetition that can match the same text" }
        }
        return nil
    }

    // MARK: - Tree

    indirect enum Node {
        case chars(Bytes)
        case seq([Node])
        case alt([Node])
        case group(Node)
        /// `span` covers the repeated atom and its quantifier in the pattern.
        case rep(Node, min: Int, max: Int?, possessive: Bool, span: Range<Int>)
        /// Anchors, lookarounds, `\b`: match no characters.
        case zeroWidth
        /// Backreferences, recursion, atomic groups, conditionals: not analysed.
        case opaque

        /// The node without enclosing groups and one-item sequences.
        var unwrapped: Node {
            if case .group(let inner) = self { return inner.unwrapped }
            if case .seq(let items) = self, items.count == 1 { return items[0].unwrapped }
            return self
        }

        /// The items of a sequence, through groups that are not repeated themselves.
        var flattened: [Node] {
            switch self {
            case .seq(let items): return items.flatMap(\.flattened)
            case .group(let inner): return inner.flattened
            default: return [self]
            }
        }

        var nullable: Bool {
            switch self {
            case .chars, .opaque: return false
            case .seq(let items): return items.allSatisfy(\.nullable)
            case .alt(let branches): return branches.contains(where: \.nullable)
            case .group(let inner): return inner.nullable
            case .rep(let inner, let min, _, _, _): return min == 0 || inner.nullable
            case .zeroWidth: return true
            }
        }

        /// Every byte the node can consume; nil when it contains something opaque.
        var alphabet: Bytes? {
            switch self {
            case .chars(let s): return s
            case .seq(let items), .alt(let items):
                var all = Bytes()
                for i in items { guard let s = i.alphabet else { return nil }; all = all.union(s) }
                return all
            case .group(let inner), .rep(let inner, _, _, _, _): return inner.alphabet
            case .zeroWidth: return Bytes()
            case .opaque: return nil
            }
        }

        /// Characters, or a repetition of characters (`a`, `[a-z]+`, `\w*`).
        var isSimple: Bool {
            switch unwrapped {
            case .chars: return true
            case .rep(let inner, _, _, let possessive, _): return !possessive && inner.unwrapped.isCharacters
            default: return false
            }
        }

        private var isCharacters: Bool { if case .chars = self { true } else { false } }

        /// The set of a branch that is one character or a repetition of one.
        var singleCharacterSet: Bytes? { isSimple ? alphabet : nil }
    }

    /// A set of bytes (PCRE2 runs without UTF under Apache).
    struct Bytes: Equatable {
        private var w = [UInt64](repeating: 0, count: 4)
        init() {}
        init(_ bytes: some Sequence<UInt8>) { for b in bytes { insert(b) } }
        init(range: ClosedRange<UInt8>) { for b in range { insert(b) } }
        static var all: Bytes { var s = Bytes(); s.w = [~0, ~0, ~0, ~0]; return s }
        static let digits = Bytes(range: 0x30...0x39)
        static let word = Bytes(range: 0x30...0x39).union(Bytes(range: 0x41...0x5A)).union(Bytes(range: 0x61...0x7A))
            .union(Bytes([0x5F]))
        static let space = Bytes([0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D])
        mutating func insert(_ b: UInt8) { w[Int(b >> 6)] |= 1 << UInt64(b & 63) }
        func contains(_ b: UInt8) -> Bool { w[Int(b >> 6)] & (1 << UInt64(b & 63)) != 0 }
        func union(_ o: Bytes) -> Bytes { var s = self; for i in 0..<4 { s.w[i] |= o.w[i] }; return s }
        func intersection(_ o: Bytes) -> Bytes { var s = self; for i in 0..<4 { s.w[i] &= o.w[i] }; return s }
        var inverted: Bytes { var s = self; for i in 0..<4 { s.w[i] = ~s.w[i] }; return s }
        var isEmpty: Bool { w.allSatisfy { $0 == 0 } }
        /// Both cases of every ASCII letter in the set.
        var caseFolded: Bytes {
            var s = self
            for b in UInt8(0x41)...0x5A where contains(b) || contains(b | 0x20) { s.insert(b); s.insert(b | 0x20) }
            return s
        }
    }
}
