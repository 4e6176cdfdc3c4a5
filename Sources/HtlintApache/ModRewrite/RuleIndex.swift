import HtlintRegex

/// Which rules of a large rule set can possibly match a request. Each rule is keyed on one
/// fact every matching request has (`PatternShape`): a literal prefix of the input, a literal
/// ending, a complete word of the input, or a complete word of the query string that an
/// AND-ed `RewriteCond %{QUERY_STRING}` requires. Of a rule's facts the index takes the one
/// shared by the fewest other rules, so `^product\.php$` units that differ only in
/// `id=N` are told apart by `N`. The answer is a superset of the rules that can match, in file
/// order, so the rule loop keeps Apache's first-match semantics while skipping regexes that
/// cannot match. Negated rules, rules inside `[C]` chains and rules without facts are always
/// candidates. A per-rule required literal lets the loop reject most remaining candidates
/// before their regex runs.
struct RuleIndex: Sendable {
    /// Rules that must always be tried (sorted).
    private let always: [Int32]
    private let prefixes: PrefixTable
    private let caselessPrefixes: PrefixTable
    /// Endings, stored reversed.
    private let suffixes: PrefixTable
    private let caselessSuffixes: PrefixTable
    /// Words of the input or the query: `wordKey` → index into `wordBuckets`.
    private let words: IntTable
    private let wordBuckets: [[Int32]]
    /// Word domains present, one bit per `WordDomain` raw value (checked on every lookup).
    private let domains: UInt8
    private let emptyOnly: [Int32]
    /// Per rule: a byte run its input must contain (empty: none known).
    private let required: [Prefilter]
    private let requiredBytes: [UInt8]

    /// Below this size a linear scan is as fast as the lookup.
    static let minimumRules = 24

    enum WordDomain: UInt64, Hashable, Sendable {
        case path = 1, caselessPath, query, caselessQuery
        var caseless: Bool { self == .caselessPath || self == .caselessQuery }
    }

    private func has(_ d: WordDomain) -> Bool { domains & (1 << d.rawValue) != 0 }

    private struct Prefilter: Sendable {
        var start: Int32
        var count: Int32
        var caseless: Bool
    }

    private enum Key {
        case prefix([UInt8], caseless: Bool)
        case suffix([UInt8], caseless: Bool)
        case word(UInt64)
        case empty

        /// Identity for counting how many rules offer a key (a collision only skews the count).
        var fingerprint: UInt64 {
            switch self {
            case .prefix(let p, let caseless): RuleIndex.wordKey(p, .path) &+ (caseless ? 11 : 13)
            case .suffix(let p, let caseless): RuleIndex.wordKey(p, .path) &+ (caseless ? 17 : 19)
            case .word(let k): k
            case .empty: 0
            }
        }
    }

    /// A rule's facts: its literal runs (for the pre-filter) and its options, each a set of
    /// keys that together cover all its matches (none: the rule is always tried).
    private static func facts(_ rule: RewriteRule, chained: Bool) -> (runs: [[UInt8]], options: [[Key]]) {
        let caseless = rule.flags.noCase
        let dollarEndOnly = rule.regex.options.contains(.dollarEndOnly)
        let shape = rule.negated ? PatternShape() : PatternShape(pattern: rule.pattern, caseless: caseless, dollarEndOnly: dollarEndOnly)
        guard !chained, !rule.negated else { return (shape.literalRuns, []) }
        var mine: [[Key]] = []
        if shape.emptyOnly { mine.append([.empty]) }
        if !shape.prefix.isEmpty { mine.append([.prefix(shape.prefix, caseless: caseless)]) }
        if !shape.suffixes.isEmpty { mine.append(shape.suffixes.map { .suffix($0, caseless: caseless) }) }
        for w in shape.words { mine.append([.word(RuleIndex.wordKey(w, caseless ? .caselessPath : .path))]) }
        for w in RuleIndex.queryWords(rule) { mine.append([.word(w)]) }
        return (shape.literalRuns, mine)
    }

    /// Two passes over the rules, each reading their facts afresh: the first counts how many
    /// rules share each fact, the second keys every rule on its least shared one. Keeping every
    /// rule's facts between the passes instead cost more memory than the index itself.
    init?(rules: [RewriteRule]) {
        guard rules.count >= RuleIndex.minimumRules else { return nil }
        var chained: [Bool] = []
        chained.reserveCapacity(rules.count)
        var inChain = false
        for rule in rules {
            chained.append(inChain || rule.flags.chain)
            inChain = rule.flags.chain
        }
        // How many rules contain each literal run, and offer each key (the cost of keying a
        // rule on it).
        var runCount: [UInt64: Int32] = [:]
        var offered: [UInt64: Int32] = [:]
        for (i, rule) in rules.enumerated() {
            let (runs, options) = RuleIndex.facts(rule, chained: chained[i])
            for run in Set(runs.map { RuleIndex.wordKey($0, .path) }) { runCount[run, default: 0] += 1 }
            for key in Set(options.joined().map(\.fingerprint)) { offered[key, default: 0] += 1 }
        }
        var always: [Int32] = []
        var prefixes = PrefixTable(), caselessPrefixes = PrefixTable()
        var suffixes = PrefixTable(), caselessSuffixes = PrefixTable()
        var words: [UInt64: [Int32]] = [:]
        var domains: UInt8 = 0
        var emptyOnly: [Int32] = []
        var prefilters: [Prefilter] = []
        prefilters.reserveCapacity(rules.count)
        var requiredBytes: [UInt8] = []
        for (i, rule) in rules.enumerated() {
            let (runs, options) = RuleIndex.facts(rule, chained: chained[i])
            // The pre-filter: of the rule's literal runs, the one the fewest rules share (then
            // the longest), so a shared prefix or extension does not let every sibling through.
            let best = runs.min { a, b in
                let ca = runCount[RuleIndex.wordKey(a, .path)]!, cb = runCount[RuleIndex.wordKey(b, .path)]!
                return ca != cb ? ca < cb : a.count > b.count
            } ?? []
            prefilters.append(Prefilter(start: Int32(requiredBytes.count), count: Int32(best.count), caseless: rule.flags.noCase))
            requiredBytes += best
            let index = Int32(i)
            guard let keys = options.min(by: { a, b in
                a.reduce(0) { $0 + offered[$1.fingerprint]! } < b.reduce(0) { $0 + offered[$1.fingerprint]! }
            }) else {
                always.append(index)
                continue
            }
            for key in keys {
                switch key {
                case .empty: emptyOnly.append(index)
                case .prefix(let p, let caseless):
                    if caseless { caselessPrefixes.insert(p, rule: index) } else { prefixes.insert(p, rule: index) }
                case .suffix(let s, let caseless):
                    if caseless { caselessSuffixes.insert(s.reversed(), rule: index) } else { suffixes.insert(s.reversed(), rule: index) }
                case .word(let k):
                    words[k, default: []].append(index)
                    domains |= 1 << (k & 7)
                }
            }
        }
        self.always = always
        self.prefixes = prefixes
        self.caselessPrefixes = caselessPrefixes
        self.suffixes = suffixes
        self.caselessSuffixes = caselessSuffixes
        var table = IntTable()
        var buckets: [[Int32]] = []
        for (key, rules) in words.sorted(by: { $0.key < $1.key }) {
            table[key] = Int32(buckets.count)
            buckets.append(rules)
        }
        self.words = table
        self.wordBuckets = buckets
        self.domains = domains
        self.emptyOnly = emptyOnly
        self.required = prefilters
        self.requiredBytes = requiredBytes
    }

    /// Keys of the query words a rule's conditions require: only when the conditions are all
    /// AND-ed (no `[OR]`), from a positive regex condition on exactly `%{QUERY_STRING}`.
    private static func queryWords(_ rule: RewriteRule) -> [UInt64] {
        guard !rule.conditions.contains(where: { $0.orNext }) else { return [] }
        var out: [UInt64] = []
        for c in rule.conditions where !c.negated {
            guard case .regex(let regex) = c.test, c.testString.parts == [.variable("QUERY_STRING")] else { continue }
            let shape = PatternShape(pattern: c.rawPattern, caseless: c.noCase,
                                     dollarEndOnly: regex.options.contains(.dollarEndOnly))
            out += shape.words.map { wordKey($0, c.noCase ? .caselessQuery : .query) }
        }
        return out
    }

    /// FNV-1a over the (folded) word, tagged with its domain in the low bits. A collision only
    /// adds candidates.
    static func wordKey<Bytes: Sequence<UInt8>>(_ word: Bytes, _ domain: WordDomain) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in word {
            h = (h ^ UInt64(domain.caseless ? PatternShape.lower(b) : b)) &* 0x100_0000_01b3
        }
        return (h & ~7) | domain.rawValue
    }

    /// Candidate rule indices for a match input and the current query, ascending.
    func candidates(for input: String, query: String?) -> [Int32] {
        var found: [Int32] = []
        var input = input
        input.withUTF8 { bytes in
            prefixes.collect(bytes, lowercase: false, into: &found)
            caselessPrefixes.collect(bytes, lowercase: true, into: &found)
            suffixes.collectReversed(bytes, lowercase: false, into: &found)
            caselessSuffixes.collectReversed(bytes, lowercase: true, into: &found)
            if bytes.isEmpty { found += emptyOnly }
            if has(.path) { collectWords(bytes, .path, into: &found) }
            if has(.caselessPath) { collectWords(bytes, .caselessPath, into: &found) }
        }
        // Without a query, `%{QUERY_STRING}` is empty and has no words.
        if var q = query, has(.query) || has(.caselessQuery) {
            q.withUTF8 { bytes in
                if has(.query) { collectWords(bytes, .query, into: &found) }
                if has(.caselessQuery) { collectWords(bytes, .caselessQuery, into: &found) }
            }
        }
        if found.isEmpty { return always }
        found.sort()
        // Merge with the always-candidates, both sorted, without duplicates.
        var out: [Int32] = []
        out.reserveCapacity(found.count + always.count)
        var a = 0, b = 0
        while a < always.count || b < found.count {
            let next: Int32
            if b == found.count || (a < always.count && always[a] < found[b]) { next = always[a]; a += 1 }
            else { next = found[b]; b += 1 }
            if out.last != next { out.append(next) }
        }
        return out
    }

    private func collectWords(_ bytes: UnsafeBufferPointer<UInt8>, _ domain: WordDomain, into found: inout [Int32]) {
        var start = 0
        for i in 0...bytes.count where i == bytes.count || !PatternShape.isWordByte(bytes[i]) {
            if i > start, let bucket = words[RuleIndex.wordKey(UnsafeBufferPointer(rebasing: bytes[start..<i]), domain)] {
                found += wordBuckets[Int(bucket)]
            }
            start = i + 1
        }
    }

    /// False when rule `i`'s input cannot match: it lacks the rule's required literal.
    func mayMatch(_ i: Int, _ input: String) -> Bool {
        let f = required[i]
        guard f.count > 0 else { return true }
        var input = input
        return input.withUTF8 { bytes in
            requiredBytes.withUnsafeBufferPointer { all in
                RuleIndex.contains(bytes, UnsafeBufferPointer(rebasing: all[Int(f.start)..<Int(f.start + f.count)]), caseless: f.caseless)
            }
        }
    }

    private static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, caseless: Bool) -> Bool {
        let n = needle.count
        guard n <= hay.count else { return false }
        let first = needle[0]
        var i = 0
        while i <= hay.count - n {
            let c = caseless ? PatternShape.lower(hay[i]) : hay[i]
            if c == first {
                var j = 1
                while j < n, (caseless ? PatternShape.lower(hay[i + j]) : hay[i + j]) == needle[j] { j += 1 }
                if j == n { return true }
            }
            i += 1
        }
        return false
    }
}
