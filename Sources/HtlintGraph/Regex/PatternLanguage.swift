import Foundation
import HtlintBytes

/// A rewrite pattern compiled for analysis: the set of subjects it matches (as mod_rewrite
/// searches: anywhere unless anchored) and what each capture group can contain.
final class PatternLanguage: @unchecked Sendable {
    let pattern: String
    let caseInsensitive: Bool
    let parsed: ParsedPattern?
    private let automataLock = NSLock()
    private var built = false
    private var builtNFA: NFA?
    private var builtDFA: DFA?

    private init(_ pattern: String, caseInsensitive: Bool) {
        self.pattern = pattern
        self.caseInsensitive = caseInsensitive
        parsed = PatternParser.parse(pattern, caseInsensitive: caseInsensitive)
    }

    /// The automata are built on first use: probes of a 100,000-rule file only need the
    /// parse (for the natural witness), not a determinised automaton per rule.
    private func automata() -> (NFA?, DFA?) {
        automataLock.lock()
        defer { automataLock.unlock() }
        if !built {
            builtNFA = parsed.flatMap { NFA.search(.group($0.root, index: 0)) }
            builtDFA = builtNFA.flatMap { DFA($0) }
            built = true
        }
        return (builtNFA, builtDFA)
    }

    /// The search automaton with group markers (group 0 is the whole match).
    var nfa: NFA? { automata().0 }

    /// Subjects that contain a match; nil when the pattern is outside the parser's reach or
    /// the automaton would be too large.
    var matches: DFA? { automata().1 }

    /// True when the parse needed no approximation (the automaton may still be too large).
    var isParsedExactly: Bool { parsed?.isExact == true }

    /// True when `matches` is exactly the set of subjects PCRE2 matches.
    var isExact: Bool { parsed?.isExact == true && matches != nil }

    /// A superset of the matched subjects (everything when unknown).
    var overApproximation: DFA { matches ?? .all() }

    /// Subjects that do *not* match, when that can be known exactly.
    var nonMatches: DFA? {
        guard isExact, let m = matches else { return nil }
        return DFA.all().subtracting(m)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: PatternLanguage] = [:]

    /// Compiles `pattern` once per process (rule sets repeat patterns across contexts).
    static func of(_ pattern: String, caseInsensitive: Bool) -> PatternLanguage {
        let key = (caseInsensitive ? "i:" : "s:") + pattern
        lock.lock()
        if let c = cache[key] { lock.unlock(); return c }
        lock.unlock()
        let compiled = PatternLanguage(pattern, caseInsensitive: caseInsensitive)
        lock.lock()
        if cache.count > 4_000 { cache.removeAll() }
        cache[key] = compiled
        lock.unlock()
        return compiled
    }

    /// What capture `n` can contain when the pattern matches a subject from `domain`. Exact
    /// up to the choice between alternative parses (PCRE2's leftmost-greedy choice is not
    /// modelled, so the answer may be larger than the truth, never smaller).
    func capture(_ n: Int, within domain: DFA) -> DFA? {
        guard let nfa, n <= (parsed?.groupCount ?? 0), !domain.isEmpty else { return nil }
        return CaptureProduct(nfa: nfa, group: n, domain: domain)?.language()
    }
}

/// The product of a pattern's search automaton with a domain automaton, tracking whether the
/// run is before, inside or after the last occurrence of one capture group.
private struct CaptureProduct {
    struct Node: Hashable {
        var config: NFAConfig
        var d: Int32
        var phase: UInt8
    }

    let nfa: NFA
    let group: Int
    let domain: DFA
    var nodes: [Node] = []
    var index: [Node: Int] = [:]
    /// Byte edges (set, target) and epsilon edges (target, kind: 0 plain, 1 open, 2 close).
    var byteEdges: [[(ByteSet, Int)]] = []
    var epsEdges: [[(Int, UInt8)]] = []

    static let limit = 30_000

    init?(nfa: NFA, group: Int, domain: DFA) {
        self.nfa = nfa
        self.group = group
        self.domain = domain
        guard explore() else { return nil }
    }

    private mutating func intern(_ n: Node) -> Int? {
        if let i = index[n] { return i }
        guard nodes.count < CaptureProduct.limit else { return nil }
        index[n] = nodes.count
        nodes.append(n)
        byteEdges.append([])
        epsEdges.append([])
        return nodes.count - 1
    }

    private mutating func explore() -> Bool {
        // Byte classes that neither the pattern nor the domain separates.
        var sets = nfa.byteSets
        for members in domain.classMembers where !members.isEmpty { sets.append(ByteSet(members)) }
        let classes = ByteClasses(sets)
        var members = [[UInt8]](repeating: [], count: classes.representatives.count)
        for b in 0..<256 { members[classes.classOf[b]].append(UInt8(b)) }

        guard let s0 = intern(Node(config: NFAConfig(state: nfa.start, anchorOK: false, endRequired: false),
                                   d: domain.start, phase: 0)) else { return false }
        _ = s0
        var work = 0
        while work < nodes.count {
            let node = nodes[work]
            let c = node.config
            for (move, to) in nfa.moves[c.state] {
                var next = NFAConfig(state: to, anchorOK: c.anchorOK, endRequired: c.endRequired)
                var phase = node.phase
                var kind: UInt8 = 0
                switch move {
                case .epsilon: break
                case .open(let g): if g == group { phase = 1; kind = 1 }
                case .close(let g): if g == group, phase == 1 { phase = 2; kind = 2 }
                case .assertStart: if !c.anchorOK { continue }
                case .assertEnd: next.endRequired = true
                case .anchorHere: next.anchorOK = true
                }
                guard let t = intern(Node(config: next, d: node.d, phase: phase)) else { return false }
                epsEdges[work].append((t, kind))
            }
            if !c.endRequired {
                for (set, to) in nfa.byteMoves[c.state] {
                    var byTarget: [Int: ByteSet] = [:]
                    for (k, rep) in classes.representatives.enumerated() where set.contains(rep) {
                        let d2 = domain.next(node.d, rep)
                        guard d2 >= 0 else { continue }
                        guard let t = intern(Node(config: NFAConfig(state: to, anchorOK: false, endRequired: false),
                                                  d: d2, phase: node.phase)) else { return false }
                        var s = byTarget[t] ?? ByteSet()
                        for b in members[k] { s.insert(b) }
                        byTarget[t] = s
                    }
                    for (t, s) in byTarget { byteEdges[work].append((s, t)) }
                }
            }
            work += 1
        }
        return true
    }

    /// The language of the bytes read inside the group, on runs that end accepted.
    func language() -> DFA? {
        // Nodes from which an accepting node can be reached.
        var reverse = [[Int]](repeating: [], count: nodes.count)
        for (i, list) in byteEdges.enumerated() { for (_, t) in list { reverse[t].append(i) } }
        for (i, list) in epsEdges.enumerated() { for (t, _) in list { reverse[t].append(i) } }
        var live = [Bool](repeating: false, count: nodes.count)
        var stack: [Int] = []
        for (i, n) in nodes.enumerated() where n.config.state == nfa.accept && domain.isAccepting(n.d) {
            live[i] = true
            stack.append(i)
        }
        while let s = stack.popLast() {
            for p in reverse[s] where !live[p] { live[p] = true; stack.append(p) }
        }
        // Capture automaton: the inside-phase nodes.
        var out = NFA()
        let start = out.add(), accept = out.add()
        var map: [Int: Int] = [:]
        for (i, n) in nodes.enumerated() where n.phase == 1 && live[i] { map[i] = out.add() }
        guard !map.isEmpty else { return .nothing }
        for (i, list) in epsEdges.enumerated() {
            for (t, kind) in list where live[t] {
                if kind == 1, let m = map[t] { out.moves[start].append((.epsilon, m)) }
                if kind == 2, let m = map[i] { out.moves[m].append((.epsilon, accept)) }
                if kind == 0, let a = map[i], let b = map[t] { out.moves[a].append((.epsilon, b)) }
            }
        }
        for (i, list) in byteEdges.enumerated() {
            guard let a = map[i] else { continue }
            for (set, t) in list { if let b = map[t] { out.byteMoves[a].append((set, b)) } }
        }
        out.start = start
        out.accept = accept
        return DFA(out)
    }
}
