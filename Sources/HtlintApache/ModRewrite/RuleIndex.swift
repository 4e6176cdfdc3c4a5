#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
/// before their regex runs. A class: the rule loop reads it for every candidate, and as a
/// struct of a dozen arrays it was copied, each array retained, every time.
final class RuleIndex: Sendable {
    /// Rules that must always be tried (sorted).
    private let always: [Int32]
    /// How many rules at the top of the set are always tried: the ones before the first rule
    /// the index can skip, which run before it is consulted.
    let leadingAlwaysTried: Int
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

    /// Every rule's facts from one reading of its pattern, kept flat — one byte pool and
    /// offsets — between the pass that counts them and the pass that keys the rules: an array
    /// per fact cost more memory than the index itself, and reading every pattern twice cost
    /// a fifth of a second on 100,000 rules.
    private struct FactTable {
        struct Span {
            var start: Int32
            var count: Int32
            var fingerprint: UInt64
        }
        enum Kind: UInt8 { case empty, prefix, suffix, word }
        struct StoredKey {
            var kind: Kind
            var caseless: Bool
            var span: Span
        }
        var bytes: [UInt8] = []
        var runs: [Span] = []
        /// Rule i's runs: `runs[ruleRuns[i]..<ruleRuns[i + 1]]`.
        var ruleRuns: [Int32] = [0]
        var keys: [StoredKey] = []
        /// Group g's keys: `keys[groups[g]..<groups[g + 1]]`.
        var groups: [Int32] = [0]
        /// Rule i's groups: `ruleGroups[i]..<ruleGroups[i + 1]`.
        var ruleGroups: [Int32] = [0]

        private mutating func store(_ b: [UInt8], _ fingerprint: UInt64) -> Span {
            defer { bytes += b }
            return Span(start: Int32(bytes.count), count: Int32(b.count), fingerprint: fingerprint)
        }

        mutating func add(runs newRuns: [[UInt8]], options: [[Key]]) {
            for run in newRuns { runs.append(store(run, RuleIndex.wordKey(run, .path))) }
            ruleRuns.append(Int32(runs.count))
            for group in options {
                for key in group {
                    let none = Span(start: 0, count: 0, fingerprint: key.fingerprint)
                    switch key {
                    case .empty: keys.append(StoredKey(kind: .empty, caseless: false, span: none))
                    case .prefix(let p, let c): keys.append(StoredKey(kind: .prefix, caseless: c, span: store(p, key.fingerprint)))
                    case .suffix(let p, let c): keys.append(StoredKey(kind: .suffix, caseless: c, span: store(p, key.fingerprint)))
                    case .word: keys.append(StoredKey(kind: .word, caseless: false, span: none))
                    }
                }
                groups.append(Int32(keys.count))
            }
            ruleGroups.append(Int32(groups.count - 1))
        }

        func runs(of rule: Int) -> ArraySlice<Span> { runs[Int(ruleRuns[rule])..<Int(ruleRuns[rule + 1])] }
        func groups(of rule: Int) -> Range<Int> { Int(ruleGroups[rule])..<Int(ruleGroups[rule + 1]) }
        func keys(ofGroup g: Int) -> ArraySlice<StoredKey> { keys[Int(groups[g])..<Int(groups[g + 1])] }
        func bytes(_ span: Span) -> ArraySlice<UInt8> { bytes[Int(span.start)..<Int(span.start + span.count)] }
    }

    /// Reads every rule's facts once, counts how many rules share each, then keys every rule on
    /// its least shared one.
    init?(rules: [RewriteRule]) {
        guard rules.count >= RuleIndex.minimumRules else { return nil }
        // How many rules contain each literal run, and offer each key (the cost of keying a
        // rule on it).
        var allFacts = FactTable()
        // Fingerprints never take IntTable's one unusable key (their low three bits are not 7).
        var runCount = IntTable(), offered = IntTable()
        var inChain = false
        var counted: [UInt64] = []   // a rule's distinct fingerprints (a handful: no Set)
        for (i, rule) in rules.enumerated() {
            let chained = inChain || rule.flags.chain
            inChain = rule.flags.chain
            let (runs, options) = RuleIndex.facts(rule, chained: chained)
            allFacts.add(runs: runs, options: options)
            counted.removeAll(keepingCapacity: true)
            for run in allFacts.runs(of: i) where !counted.contains(run.fingerprint) {
                counted.append(run.fingerprint)
                runCount[run.fingerprint] = (runCount[run.fingerprint] ?? 0) + 1
            }
            counted.removeAll(keepingCapacity: true)
            for group in options {
                for key in group where !counted.contains(key.fingerprint) {
                    counted.append(key.fingerprint)
                    offered[key.fingerprint] = (offered[key.fingerprint] ?? 0) + 1
                }
            }
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
            // The pre-filter: of the rule's literal runs, the one the fewest rules share (then
            // the longest; the first of equals), so a shared prefix or extension does not let
            // every sibling through.
            var best: FactTable.Span? = nil
            for run in allFacts.runs(of: i) {
                guard let b = best else { best = run; continue }
                let cr = runCount[run.fingerprint]!, cb = runCount[b.fingerprint]!
                if cr != cb ? cr < cb : run.count > b.count { best = run }
            }
            let required = best.map { allFacts.bytes($0) } ?? []
            prefilters.append(Prefilter(start: Int32(requiredBytes.count), count: Int32(required.count), caseless: rule.flags.noCase))
            requiredBytes += required
            // The key: the group of keys fewest rules offer (the first of equals).
            let index = Int32(i)
            var chosen: Int? = nil, chosenCost = 0
            for g in allFacts.groups(of: i) {
                let cost = allFacts.keys(ofGroup: g).reduce(0) { $0 + Int(offered[$1.span.fingerprint]!) }
                if chosen == nil || cost < chosenCost { chosen = g; chosenCost = cost }
            }
            guard let chosen else {
                always.append(index)
                continue
            }
            for key in allFacts.keys(ofGroup: chosen) {
                switch key.kind {
                case .empty: emptyOnly.append(index)
                case .prefix:
                    if key.caseless { caselessPrefixes.insert(allFacts.bytes(key.span), rule: index) }
                    else { prefixes.insert(allFacts.bytes(key.span), rule: index) }
                case .suffix:
                    if key.caseless { caselessSuffixes.insert(allFacts.bytes(key.span).reversed(), rule: index) }
                    else { suffixes.insert(allFacts.bytes(key.span).reversed(), rule: index) }
                case .word:
                    words[key.span.fingerprint, default: []].append(index)
                    domains |= 1 << (key.span.fingerprint & 7)
                }
            }
        }
        self.always = always
        var leading = 0
        while leading < always.count, always[leading] == Int32(leading) { leading += 1 }
        self.leadingAlwaysTried = leading
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
    /// AND-ed (no `[OR]`), from a positive regex condition on exactly `%{QUERY_STRING}`, and
    /// only up to the first condition that runs a subrequest: Apache evaluates that one
    /// whenever the pattern matches, and its look-up logs (a denied -U is AH01630) even when
    /// a later query condition fails.
    private static func queryWords(_ rule: RewriteRule) -> [UInt64] {
        guard !rule.conditions.contains(where: { $0.orNext }) else { return [] }
        var out: [UInt64] = []
        for c in rule.conditions {
            if runsSubrequest(c) { break }
            guard !c.negated, case .regex(let regex) = c.test, c.testString.parts == [.variable("QUERY_STRING")] else { continue }
            let shape = PatternShape(pattern: c.rawPattern, caseless: c.noCase,
                                     dollarEndOnly: regex.options.contains(.dollarEndOnly))
            out += shape.words.map { wordKey($0, c.noCase ? .caselessQuery : .query) }
        }
        return out
    }

    /// `-U`, `-F`, an `expr` (its own `-U`/`-F`) or a `%{LA-U:…}`/`%{LA-F:…}` anywhere in
    /// the condition's strings.
    private static func runsSubrequest(_ c: RewriteCondition) -> Bool {
        func lookAhead(_ t: Template) -> Bool {
            t.refers { part in
                guard case .variable(let name) = part, case .lookAhead = VariableRef(name) else { return false }
                return true
            }
        }
        switch c.test {
        case .file(let letter): if letter == "U" || letter == "F" { return true }
        case .expression: return true
        case .integer(_, let operand), .string(_, let operand): if lookAhead(operand) { return true }
        case .regex: break
        }
        return lookAhead(c.testString)
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
        if !caseless, let h = hay.baseAddress, let nb = needle.baseAddress {
            // memchr to each candidate start, memcmp the rest: a third of the byte loop's cost.
            var i = 0
            let last = hay.count - n
            while i <= last, let found = memchr(h + i, Int32(first), last - i + 1) {
                let at = h.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(h + at, nb, n) == 0 { return true }
                i = at + 1
            }
            return false
        }
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
