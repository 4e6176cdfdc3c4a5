import HtlintBytes

/// A deterministic automaton over bytes: a set of strings that can be intersected,
/// complemented, concatenated and searched for its shortest member. This is what the all-URL
/// analysis computes with (paths, hosts and query strings as languages).
///
/// Bytes that no state tells apart share a class, so the transition table has one column per
/// class rather than 256.
struct DFA: Sendable, Hashable {
    /// Class of each byte (256 entries).
    let classOf: [UInt8]
    let classCount: Int
    /// `count × classCount` targets; -1 is the dead state.
    let table: [Int32]
    let accepting: [Bool]
    /// -1: the empty language.
    let start: Int32
    /// A hash of all of the above, computed once: automata are cache keys, and hashing a
    /// large table on every lookup dominated the analysis.
    private let fingerprint: Int

    var count: Int { accepting.count }

    /// Upper bound on states of any constructed automaton; beyond it an operation gives up
    /// (returns nil) and callers fall back to a coarser answer.
    static let stateLimit = 6_000

    init(classOf: [UInt8], classCount: Int, table: [Int32], accepting: [Bool], start: Int32) {
        self.classOf = classOf
        self.classCount = classCount
        self.table = table
        self.accepting = accepting
        self.start = start
        var h = Hasher()
        h.combine(classOf)
        h.combine(classCount)
        h.combine(table)
        h.combine(accepting)
        h.combine(start)
        fingerprint = h.finalize()
    }

    static func == (a: DFA, b: DFA) -> Bool {
        a.fingerprint == b.fingerprint && a.start == b.start && a.classCount == b.classCount && a.accepting == b.accepting
            && a.table == b.table && a.classOf == b.classOf
    }

    func hash(into h: inout Hasher) { h.combine(fingerprint) }

    @inline(__always) func next(_ s: Int32, _ b: UInt8) -> Int32 {
        s < 0 ? -1 : table[Int(s) * classCount + Int(classOf[Int(b)])]
    }

    @inline(__always) func target(_ s: Int32, class c: Int) -> Int32 {
        s < 0 ? -1 : table[Int(s) * classCount + c]
    }

    func isAccepting(_ s: Int32) -> Bool { s >= 0 && accepting[Int(s)] }

    /// The bytes of each class, most readable first.
    var classMembers: [[UInt8]] {
        var out = [[UInt8]](repeating: [], count: classCount)
        for b in BytePreference.order { out[Int(classOf[Int(b)])].append(b) }
        return out
    }

    // MARK: - Constructors

    static let nothing = DFA(classOf: [UInt8](repeating: 0, count: 256), classCount: 1, table: [], accepting: [], start: -1)

    /// Every string over `bytes` (`Σ*` for `.all`).
    static func all(of bytes: ByteSet = .all) -> DFA {
        let classOf = (0..<256).map { bytes.contains(UInt8($0)) ? UInt8(0) : UInt8(1) }
        return DFA(classOf: classOf, classCount: 2, table: [0, -1], accepting: [true], start: 0)
    }

    /// Exactly this string.
    static func literal(_ s: String) -> DFA { literals([s]) }

    /// Exactly these strings (a trie).
    static func literals(_ strings: some Sequence<String>) -> DFA {
        let list = Array(strings)
        var used = Set<UInt8>()
        for s in list { used.formUnion(s.utf8) }
        var classOf = [UInt8](repeating: 0, count: 256)
        var classCount = 1
        if used.count >= 255 {
            for b in 0..<256 { classOf[b] = UInt8(b) }
            classCount = 256
        } else {
            for b in used.sorted() { classOf[Int(b)] = UInt8(classCount); classCount += 1 }
        }
        var table = [Int32](repeating: -1, count: classCount)
        var accepting = [false]
        for s in list {
            var state = 0
            for b in s.utf8 {
                let i = state * classCount + Int(classOf[Int(b)])
                if table[i] >= 0 {
                    state = Int(table[i])
                } else {
                    accepting.append(false)
                    table += [Int32](repeating: -1, count: classCount)
                    table[i] = Int32(accepting.count - 1)
                    state = accepting.count - 1
                }
            }
            accepting[state] = true
        }
        return DFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting, start: 0).trimmed()
    }

    /// Subset construction over an NFA's configurations (assertions resolved on the way).
    init?(_ nfa: NFA, limit: Int = DFA.stateLimit) {
        let classes = ByteClasses(nfa.byteSets)
        let classCount = classes.representatives.count
        var index: [[NFAConfig]: Int32] = [:]
        var sets: [[NFAConfig]] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        func intern(_ set: [NFAConfig]) -> Int32? {
            if set.isEmpty { return -1 }
            if let i = index[set] { return i }
            guard sets.count < limit else { return nil }
            let i = Int32(sets.count)
            index[set] = i
            sets.append(set)
            table += [Int32](repeating: -1, count: classCount)
            accepting.append(set.contains { $0.state == nfa.accept })
            return i
        }
        guard let s0 = intern(nfa.closure([NFAConfig(state: nfa.start, anchorOK: false, endRequired: false)])) else {
            return nil
        }
        var work = 0
        while work < sets.count {
            let set = sets[work]
            for (c, rep) in classes.representatives.enumerated() {
                let moved = nfa.step(set, rep)
                guard !moved.isEmpty else { continue }
                guard let t = intern(nfa.closure(moved)) else { return nil }
                table[work * classCount + c] = t
            }
            work += 1
        }
        self.init(classOf: classes.classOf.map { UInt8($0) }, classCount: classCount, table: table, accepting: accepting,
                  start: s0)
        self = trimmed()
    }

    // MARK: - Queries

    func accepts(_ s: String) -> Bool {
        var state = start
        for b in s.utf8 {
            state = next(state, b)
            if state < 0 { return false }
        }
        return isAccepting(state)
    }

    var isEmpty: Bool { start < 0 }

    /// The only string of the language, when it has exactly one.
    var singleton: String? {
        guard start >= 0 else { return nil }
        var sizes = [Int](repeating: 0, count: classCount)
        for b in 0..<256 { sizes[Int(classOf[b])] += 1 }
        var state = start
        var out: [UInt8] = []
        var steps = 0
        while steps <= count {
            var live: (Int, Int32)? = nil
            for c in 0..<classCount {
                let t = table[Int(state) * classCount + c]
                guard t >= 0 else { continue }
                if live != nil || sizes[c] != 1 { return nil }
                live = (c, t)
            }
            if accepting[Int(state)] { return live == nil ? String(decoding: out, as: UTF8.self) : nil }
            guard let (c, t) = live else { return nil }
            out.append(UInt8((0..<256).first { Int(classOf[$0]) == c }!))
            state = t
            steps += 1
        }
        return nil
    }

    /// The bytes every member starts with (up to the first choice or possible end).
    var forcedPrefix: String {
        guard start >= 0 else { return "" }
        var sizes = [Int](repeating: 0, count: classCount)
        var byteOf = [UInt8](repeating: 0, count: classCount)
        for b in 0..<256 { sizes[Int(classOf[b])] += 1; byteOf[Int(classOf[b])] = UInt8(b) }
        var state = start
        var out: [UInt8] = []
        while !accepting[Int(state)], out.count < 256 {
            var only: (Int, Int32)? = nil
            for c in 0..<classCount {
                let t = table[Int(state) * classCount + c]
                guard t >= 0 else { continue }
                if only != nil || sizes[c] != 1 { only = nil; break }
                only = (c, t)
            }
            guard let (c, t) = only else { break }
            out.append(byteOf[c])
            state = t
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The shortest member, picking readable bytes first (see `BytePreference`).
    func shortest() -> String? { enumerate(limit: 1).first }

    /// Up to `limit` members in order of length, readable bytes first. For each state only one
    /// byte per class is tried, so that the search stays small.
    /// With `variety` above 1, up to that many bytes of different kinds (letter, digit, other)
    /// are tried per class, for searches that must find a string PCRE2 accepts.
    func enumerate(limit: Int, maxLength: Int = 200, variety: Int = 1) -> [String] {
        guard start >= 0 else { return [] }
        let members = classMembers
        let classOrder = (0..<classCount).filter { !members[$0].isEmpty }
            .sorted { BytePreference.rank[Int(members[$0][0])] < BytePreference.rank[Int(members[$1][0])] }
        func kind(_ b: UInt8) -> Int { (0x61...0x7A).contains(b) ? 0 : (0x30...0x39).contains(b) ? 1 : (0x41...0x5A).contains(b) ? 2 : 3 }
        let picks: [[UInt8]] = members.map { list in
            var seen = Set<Int>(), out: [UInt8] = []
            for b in list where out.count < variety && seen.insert(kind(b)).inserted { out.append(b) }
            return out
        }
        var out: [String] = []
        var queue: [(Int32, [UInt8])] = [(start, [])]
        var head = 0
        var visits = [Int](repeating: 0, count: count)
        while head < queue.count, out.count < limit, queue.count < 50_000 {
            let (state, text) = queue[head]
            head += 1
            if accepting[Int(state)] { out.append(String(decoding: text, as: UTF8.self)) }
            guard text.count < maxLength else { continue }
            // Visiting a state more often only yields longer variants of earlier strings.
            visits[Int(state)] += 1
            guard visits[Int(state)] <= max(1, limit) else { continue }
            var tried = Set<Int32>()
            for c in classOrder {
                let t = table[Int(state) * classCount + c]
                guard t >= 0, variety > 1 || tried.insert(t).inserted else { continue }
                for b in picks[c] { queue.append((t, text + [b])) }
            }
        }
        return out
    }

    // MARK: - Operations

    /// Classes that refine both automata's classes, and for each the pair of old classes.
    private static func jointClasses(_ a: DFA, _ b: DFA) -> (classOf: [UInt8], pairs: [(Int, Int)])? {
        // A flat table of pair → new class; both sides have at most 256 classes.
        var index = [Int16](repeating: -1, count: a.classCount * b.classCount)
        var pairs: [(Int, Int)] = []
        var classOf = [UInt8](repeating: 0, count: 256)
        for byte in 0..<256 {
            let ca = Int(a.classOf[byte]), cb = Int(b.classOf[byte])
            let key = ca * b.classCount + cb
            if index[key] >= 0 { classOf[byte] = UInt8(index[key]); continue }
            guard pairs.count < 256 else { return nil }
            index[key] = Int16(pairs.count)
            classOf[byte] = UInt8(pairs.count)
            pairs.append((ca, cb))
        }
        return (classOf, pairs)
    }

    /// Pairwise product; `keep` decides acceptance from the two sides' acceptance. A side at -1
    /// is an absorbing non-accepting state.
    func product(_ o: DFA, limit: Int = DFA.stateLimit, liveIfLeftDead: Bool, liveIfRightDead: Bool,
                 _ keep: (Bool, Bool) -> Bool) -> DFA? {
        guard let (classOf, classes) = DFA.jointClasses(self, o) else { return nil }
        let n = classes.count
        var index: [Int64: Int32] = [:]
        var pairs: [(Int32, Int32)] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        func intern(_ a: Int32, _ b: Int32) -> Int32? {
            if a < 0 && b < 0 { return -1 }
            if a < 0 && !liveIfLeftDead { return -1 }
            if b < 0 && !liveIfRightDead { return -1 }
            let key = Int64(a) << 32 | Int64(UInt32(bitPattern: b))
            if let i = index[key] { return i }
            guard pairs.count < limit else { return nil }
            let i = Int32(pairs.count)
            index[key] = i
            pairs.append((a, b))
            table += [Int32](repeating: -1, count: n)
            accepting.append(keep(isAccepting(a), o.isAccepting(b)))
            return i
        }
        guard let s0 = intern(start, o.start) else { return nil }
        let left = classes.map(\.0), right = classes.map(\.1)
        var work = 0
        while work < pairs.count {
            let (a, b) = pairs[work]
            var c = 0
            while c < n {
                guard let t = intern(target(a, class: left[c]), o.target(b, class: right[c])) else { return nil }
                table[work * n + c] = t
                c += 1
            }
            work += 1
        }
        return DFA(classOf: classOf, classCount: n, table: table, accepting: accepting, start: s0).trimmed()
    }

    func intersection(_ o: DFA) -> DFA? {
        if isEmpty || o.isEmpty { return .nothing }
        return product(o, liveIfLeftDead: false, liveIfRightDead: false) { $0 && $1 }
    }

    func union(_ o: DFA) -> DFA? {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return product(o, liveIfLeftDead: true, liveIfRightDead: true) { $0 || $1 }
    }

    /// Strings of this language that are not in `o`.
    func subtracting(_ o: DFA) -> DFA? {
        if isEmpty || o.isEmpty { return self }
        return product(o, liveIfLeftDead: false, liveIfRightDead: true) { $0 && !$1 }
    }

    /// `self · o`: deterministic because the left side is; the right side is tracked as a set.
    func concatenating(_ o: DFA, limit: Int = DFA.stateLimit) -> DFA? {
        if isEmpty || o.isEmpty { return DFA.nothing }
        guard let (classOf, classes) = DFA.jointClasses(self, o) else { return nil }
        let n = classes.count
        struct Key: Hashable { var a: Int32; var bs: [Int32] }
        var index: [Key: Int32] = [:]
        var keys: [Key] = []
        var table: [Int32] = []
        var accepting: [Bool] = []
        func intern(_ a: Int32, _ rights: [Int32]) -> Int32? {
            var bs = rights.filter { $0 >= 0 }
            if isAccepting(a) { bs.append(o.start) }
            bs.sort()
            var unique: [Int32] = []
            for x in bs where unique.last != x { unique.append(x) }
            if a < 0 && unique.isEmpty { return -1 }
            let key = Key(a: a, bs: unique)
            if let i = index[key] { return i }
            guard keys.count < limit else { return nil }
            let i = Int32(keys.count)
            index[key] = i
            keys.append(key)
            table += [Int32](repeating: -1, count: n)
            accepting.append(unique.contains { o.accepting[Int($0)] })
            return i
        }
        guard let s0 = intern(start, []) else { return nil }
        let left = classes.map(\.0), right = classes.map(\.1)
        var work = 0
        while work < keys.count {
            let k = keys[work]
            var c = 0
            while c < n {
                let cb = right[c]
                guard let t = intern(target(k.a, class: left[c]), k.bs.map { o.target($0, class: cb) }) else { return nil }
                table[work * n + c] = t
                c += 1
            }
            work += 1
        }
        return DFA(classOf: classOf, classCount: n, table: table, accepting: accepting, start: s0).trimmed()
    }

    /// The strings `s` such that `prefix + s` is in the language (left quotient).
    func removingPrefix(_ prefix: String) -> DFA {
        var state = start
        for b in prefix.utf8 { state = next(state, b) }
        return DFA(classOf: classOf, classCount: classCount, table: table, accepting: accepting, start: state).trimmed()
    }

    /// The strings `s` such that `s + suffix` is in the language (right quotient).
    func removingSuffix(_ suffix: String) -> DFA {
        guard !suffix.isEmpty, start >= 0 else { return self }
        let accepts = (0..<count).map { q -> Bool in
            var state = Int32(q)
            for b in suffix.utf8 { state = next(state, b) }
            return isAccepting(state)
        }
        return DFA(classOf: classOf, classCount: classCount, table: table, accepting: accepts, start: start).trimmed()
    }

    /// Keeps only states that are reachable and can still reach acceptance; renumbers them.
    func trimmed() -> DFA {
        guard start >= 0 else { return .nothing }
        let n = classCount
        let count = self.count
        // Reachable states, breadth-first from the start.
        var reachable = [Bool](repeating: false, count: count)
        var order: [Int32] = [start]
        reachable[Int(start)] = true
        var head = 0
        while head < order.count {
            let base = Int(order[head]) * n
            head += 1
            var c = 0
            while c < n {
                let t = table[base + c]
                if t >= 0, !reachable[Int(t)] { reachable[Int(t)] = true; order.append(t) }
                c += 1
            }
        }
        // Live states (acceptance reachable), by a fixpoint over the reachable ones.
        var live = [Bool](repeating: false, count: count)
        for s in order where accepting[Int(s)] { live[Int(s)] = true }
        var changed = true
        while changed {
            changed = false
            for s in order.reversed() where !live[Int(s)] {
                let base = Int(s) * n
                var c = 0
                while c < n {
                    let t = table[base + c]
                    if t >= 0, live[Int(t)] { live[Int(s)] = true; changed = true; break }
                    c += 1
                }
            }
        }
        guard live[Int(start)] else { return .nothing }
        // Breadth-first numbering from the start, so equal languages built the same way
        // compare (and hash) equal.
        var map = [Int32](repeating: -1, count: count)
        var kept: [Int32] = [start]
        map[Int(start)] = 0
        head = 0
        while head < kept.count {
            let base = Int(kept[head]) * n
            head += 1
            var c = 0
            while c < n {
                let t = table[base + c]
                if t >= 0, live[Int(t)], map[Int(t)] < 0 { map[Int(t)] = Int32(kept.count); kept.append(t) }
                c += 1
            }
        }
        if kept.count == count, map.enumerated().allSatisfy({ $0.offset == Int($0.element) }) { return self }
        var newTable = [Int32](repeating: -1, count: kept.count * n)
        var newAccepting = [Bool](repeating: false, count: kept.count)
        for (k, s) in kept.enumerated() {
            newAccepting[k] = accepting[Int(s)]
            let base = Int(s) * n
            var c = 0
            while c < n {
                let t = table[base + c]
                newTable[k * n + c] = t >= 0 ? map[Int(t)] : -1
                c += 1
            }
        }
        return DFA(classOf: classOf, classCount: n, table: newTable, accepting: newAccepting, start: 0)
    }
}
