import HtlintBytes

/// A Thompson automaton built from a `PatternNode`, with PCRE's anchors as assertion moves
/// and group boundaries as marker moves (used to compute what a capture can contain).
struct NFA: Sendable {
    enum Move: Hashable, Sendable {
        case epsilon
        case open(Int)
        case close(Int)
        /// `^`: only while `anchorOK` (nothing consumed since the last `anchorHere`).
        case assertStart
        /// `$`: nothing may be consumed afterwards.
        case assertEnd
        /// Marks the position where the subject starts (sets `anchorOK`).
        case anchorHere
    }

    var byteMoves: [[(set: ByteSet, to: Int)]] = []
    var moves: [[(move: Move, to: Int)]] = []
    var start = 0
    var accept = 0

    /// Upper bound on states; repetition counts can make a small pattern large.
    static let stateLimit = 20_000

    var count: Int { moves.count }

    mutating func add() -> Int {
        byteMoves.append([])
        moves.append([])
        return moves.count - 1
    }

    /// The automaton of strings that *contain* a match of `node`, the way mod_rewrite searches
    /// (an unanchored pattern matches anywhere; `^`/`$` pin it to the ends).
    static func search(_ node: PatternNode) -> NFA? {
        var n = NFA()
        let s0 = n.add(), pre = n.add()
        n.moves[s0].append((.anchorHere, pre))
        n.byteMoves[pre].append((.all, pre))
        guard let (from, to) = n.build(node) else { return nil }
        n.moves[pre].append((.epsilon, from))
        let post = n.add()
        n.moves[to].append((.epsilon, post))
        n.byteMoves[post].append((.all, post))
        n.start = s0
        n.accept = post
        return n
    }

    /// The automaton of strings that match `node` as a whole (no search, no anchors needed).
    static func whole(_ node: PatternNode) -> NFA? {
        var n = NFA()
        let s0 = n.add()
        guard let (from, to) = n.build(node) else { return nil }
        n.moves[s0].append((.anchorHere, from))
        n.start = s0
        n.accept = to
        return n
    }

    /// Adds the fragment for `node`; returns its entry and exit states.
    private mutating func build(_ node: PatternNode) -> (Int, Int)? {
        guard count < NFA.stateLimit else { return nil }
        switch node {
        case .empty:
            let s = add()
            return (s, s)
        case .bytes(let set):
            let a = add(), z = add()
            byteMoves[a].append((set, z))
            return (a, z)
        case .start, .end:
            let a = add(), z = add()
            moves[a].append((node.isStart ? .assertStart : .assertEnd, z))
            return (a, z)
        case .sequence(let items):
            let a = add()
            var last = a
            for item in items {
                guard let (f, t) = build(item) else { return nil }
                moves[last].append((.epsilon, f))
                last = t
            }
            return (a, last)
        case .alternation(let branches):
            let a = add(), z = add()
            for branch in branches {
                guard let (f, t) = build(branch) else { return nil }
                moves[a].append((.epsilon, f))
                moves[t].append((.epsilon, z))
            }
            return (a, z)
        case .group(let inner, let index):
            let a = add(), z = add()
            guard let (f, t) = build(inner) else { return nil }
            moves[a].append((index.map { .open($0) } ?? .epsilon, f))
            moves[t].append((index.map { .close($0) } ?? .epsilon, z))
            return (a, z)
        case .repetition(let inner, let min, let max):
            let a = add()
            var last = a
            for _ in 0..<min {
                guard let (f, t) = build(inner) else { return nil }
                moves[last].append((.epsilon, f))
                last = t
            }
            if let max {
                // Optional copies nest: each may only be entered after the previous one.
                let z = add()
                moves[last].append((.epsilon, z))
                for _ in 0..<(max - min) {
                    guard let (f, t) = build(inner) else { return nil }
                    moves[last].append((.epsilon, f))
                    moves[t].append((.epsilon, z))
                    last = t
                }
                return (a, z)
            }
            guard let (f, t) = build(inner) else { return nil }
            let z = add()
            moves[last].append((.epsilon, f))
            moves[last].append((.epsilon, z))
            moves[t].append((.epsilon, f))
            moves[t].append((.epsilon, z))
            return (a, z)
        }
    }

    /// Every byte set on a move, for splitting the alphabet into classes.
    var byteSets: [ByteSet] {
        var seen = Set<ByteSet>()
        var out: [ByteSet] = []
        for list in byteMoves { for m in list where seen.insert(m.set).inserted { out.append(m.set) } }
        return out
    }
}

extension PatternNode {
    var isStart: Bool { if case .start = self { true } else { false } }
}

/// A state of an `NFA` together with the assertion context it was reached in.
struct NFAConfig: Hashable, Comparable, Sendable {
    var state: Int
    /// No byte consumed since the subject started: `^` holds.
    var anchorOK: Bool
    /// A `$` was passed: no byte may follow.
    var endRequired: Bool

    var packed: Int { state << 2 | (anchorOK ? 2 : 0) | (endRequired ? 1 : 0) }
    static func < (a: NFAConfig, b: NFAConfig) -> Bool { a.packed < b.packed }
}

extension NFA {
    /// The configurations reachable from `seeds` without consuming a byte. `follow` decides
    /// whether marker moves (group boundaries) are taken.
    func closure(_ seeds: [NFAConfig], follow: (Move) -> Bool = { _ in true }) -> [NFAConfig] {
        var seen = Set<NFAConfig>(seeds)
        var stack = seeds
        while let c = stack.popLast() {
            for (move, to) in moves[c.state] where follow(move) {
                var next = NFAConfig(state: to, anchorOK: c.anchorOK, endRequired: c.endRequired)
                switch move {
                case .epsilon, .open, .close: break
                case .assertStart: if !c.anchorOK { continue }
                case .assertEnd: next.endRequired = true
                case .anchorHere: next.anchorOK = true
                }
                if seen.insert(next).inserted { stack.append(next) }
            }
        }
        return seen.sorted()
    }

    /// The configurations after consuming `byte` from `configs` (closure not applied).
    func step(_ configs: [NFAConfig], _ byte: UInt8) -> [NFAConfig] {
        var out: [NFAConfig] = []
        for c in configs where !c.endRequired {
            for (set, to) in byteMoves[c.state] where set.contains(byte) {
                out.append(NFAConfig(state: to, anchorOK: false, endRequired: false))
            }
        }
        return out
    }
}

/// Partition of the 256 bytes into classes that no byte set of an automaton separates.
struct ByteClasses {
    var classOf: [Int]
    var representatives: [UInt8]

    init(_ sets: [ByteSet]) {
        var classOf = [Int](repeating: 0, count: 256)
        var count = 1
        for set in sets {
            var renumber: [Int: Int] = [:]
            var next = 0
            var fresh = [Int](repeating: 0, count: 256)
            for b in 0..<256 {
                let key = classOf[b] * 2 + (set.contains(UInt8(b)) ? 1 : 0)
                if let k = renumber[key] { fresh[b] = k } else { renumber[key] = next; fresh[b] = next; next += 1 }
            }
            classOf = fresh
            count = next
        }
        var reps = [UInt8?](repeating: nil, count: count)
        for b in BytePreference.order where reps[classOf[Int(b)]] == nil { reps[classOf[Int(b)]] = b }
        self.classOf = classOf
        self.representatives = reps.map { $0! }
    }
}
