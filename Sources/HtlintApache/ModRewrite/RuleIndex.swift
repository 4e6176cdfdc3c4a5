/// Which rules of a large rule set can possibly match an input, from the literal text each
/// pattern requires at its start (`^old/products/boot-0/?$` needs the input to begin with
/// `old/products/boot-0`). The answer is a superset of the matching rules, in file order, so the
/// rule loop keeps Apache's first-match semantics while skipping the regexes that cannot match.
/// Rules without such a prefix, negated rules and rules inside `[C]` chains are always candidates.
struct RuleIndex: Sendable {
    /// Rules that must always be tried (sorted).
    private let always: [Int32]
    private let exact: PrefixTrie
    private let caseless: PrefixTrie
    /// Rules keyed by a whole word the input must contain (`^(.*)/print-9/?$` needs `print-9`).
    private let tokens: [String: [Int32]]
    private let caselessTokens: [String: [Int32]]
    /// `^$`: only the empty input.
    private let emptyOnly: [Int32]

    /// Below this size a linear scan is as fast as the lookup.
    static let minimumRules = 24

    init?(rules: [RewriteRule]) {
        guard rules.count >= RuleIndex.minimumRules else { return nil }
        var always: [Int32] = []
        var exact = PrefixTrie()
        var caseless = PrefixTrie()
        var tokens: [String: [Int32]] = [:]
        var caselessTokens: [String: [Int32]] = [:]
        var emptyOnly: [Int32] = []
        var inChain = false
        for (i, rule) in rules.enumerated() {
            let chained = inChain || rule.flags.chain
            inChain = rule.flags.chain
            if !chained, !rule.negated, rule.pattern == "^$" {
                emptyOnly.append(Int32(i))
                continue
            }
            guard !chained, !rule.negated, let prefix = RuleIndex.literalPrefix(rule.pattern), !prefix.isEmpty else {
                if !chained, !rule.negated, let token = RuleIndex.requiredToken(rule.pattern) {
                    if rule.flags.noCase { caselessTokens[token.lowercased(), default: []].append(Int32(i)) }
                    else { tokens[token, default: []].append(Int32(i)) }
                } else {
                    always.append(Int32(i))
                }
                continue
            }
            if rule.flags.noCase {
                caseless.insert(prefix.map(RuleIndex.lower), rule: Int32(i))
            } else {
                exact.insert(prefix, rule: Int32(i))
            }
        }
        self.always = always
        self.exact = exact
        self.caseless = caseless
        self.tokens = tokens
        self.caselessTokens = caselessTokens
        self.emptyOnly = emptyOnly
    }

    /// Candidate rule indices for `input`, ascending.
    func candidates(for input: String) -> [Int32] {
        var found: [Int32] = []
        let bytes = Array(input.utf8)
        exact.collect(bytes, lowercase: false, into: &found)
        caseless.collect(bytes, lowercase: true, into: &found)
        if bytes.isEmpty { found += emptyOnly }
        if !tokens.isEmpty || !caselessTokens.isEmpty {
            var start = 0
            for i in 0...bytes.count where i == bytes.count || !RuleIndex.isWordByte(bytes[i]) {
                if i > start {
                    let word = String(decoding: bytes[start..<i], as: UTF8.self)
                    if let t = tokens[word] { found += t }
                    if !caselessTokens.isEmpty, let t = caselessTokens[word.lowercased()] { found += t }
                }
                start = i + 1
            }
        }
        if found.isEmpty { return always }
        found.sort()
        // Merge with the always-candidates, both sorted.
        var out: [Int32] = []
        out.reserveCapacity(found.count + always.count)
        var a = 0, b = 0
        while a < always.count || b < found.count {
            if b == found.count || (a < always.count && always[a] < found[b]) { out.append(always[a]); a += 1 }
            else { out.append(found[b]); b += 1 }
        }
        return out
    }

    static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }

    /// Bytes that make up words for the token index.
    static func isWordByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
            || c == UInt8(ascii: "-")
    }

    /// The longest whole word every match must contain: a run of word bytes inside a literal
    /// part of the pattern's top-level sequence, bounded on both sides by a literal non-word
    /// byte or an anchor, so that it is a complete word of any matching input. Nil when the
    /// pattern has no such word (then the rule is always a candidate).
    static func requiredToken(_ pattern: String) -> String? {
        let p = Array(pattern.utf8)
        guard !hasTopLevelAlternation(p) else { return nil }
        // Literal segments: (bytes, starts at ^, ends at $).
        var segments: [([UInt8], Bool, Bool)] = []
        var current: [UInt8] = []
        var currentAnchoredStart = false
        var i = 0
        var depth = 0
        func close(atEnd: Bool) {
            if !current.isEmpty { segments.append((current, currentAnchoredStart, atEnd)) }
            current = []
            currentAnchoredStart = false
        }
        while i < p.count {
            let c = p[i]
            if depth > 0 {
                // Inside a group: skip to its end (contents may be optional or alternated).
                if c == UInt8(ascii: "\\") { i += 2; continue }
                if c == UInt8(ascii: "(") { depth += 1 }
                if c == UInt8(ascii: ")") { depth -= 1 }
                i += 1
                if depth == 0, i < p.count, "?*{".utf8.contains(p[i]) { return nil }
                continue
            }
            switch c {
            case UInt8(ascii: "^"):
                close(atEnd: false)
                currentAnchoredStart = i == 0
                i += 1
            case UInt8(ascii: "$"):
                close(atEnd: i == p.count - 1)
                i += 1
            case UInt8(ascii: "("):
                close(atEnd: false)
                depth = 1
                i += 1
            case UInt8(ascii: "["):
                close(atEnd: false)
                i += 1
                while i < p.count, p[i] != UInt8(ascii: "]") { if p[i] == UInt8(ascii: "\\") { i += 1 }; i += 1 }
                i += 1
                if i < p.count, "?*{+".utf8.contains(p[i]) { i += 1 }
            case UInt8(ascii: "."), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "?"), UInt8(ascii: "{"),
                 UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "|"):
                close(atEnd: false)
                i += 1
            default:
                var lit = c
                var width = 1
                if c == UInt8(ascii: "\\") {
                    guard i + 1 < p.count else { return nil }
                    let e = p[i + 1]
                    if isWordByte(e) && e != UInt8(ascii: "-") && e != UInt8(ascii: "_") { close(atEnd: false); i += 2; continue }
                    lit = e
                    width = 2
                }
                let next = i + width < p.count ? p[i + width] : 0
                if next == UInt8(ascii: "?") || next == UInt8(ascii: "*") || next == UInt8(ascii: "{") {
                    close(atEnd: false)
                    i += width
                    continue
                }
                current.append(lit)
                i += width
                if next == UInt8(ascii: "+") { close(atEnd: false) }
            }
        }
        close(atEnd: true)
        var best: [UInt8]? = nil
        for (bytes, anchoredStart, anchoredEnd) in segments {
            var start = 0
            for j in 0...bytes.count where j == bytes.count || !isWordByte(bytes[j]) {
                if j > start {
                    let boundedLeft = start > 0 || anchoredStart
                    let boundedRight = j < bytes.count || anchoredEnd
                    if boundedLeft && boundedRight, (best?.count ?? 0) < j - start { best = Array(bytes[start..<j]) }
                }
                start = j + 1
            }
        }
        return best.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The literal bytes every match must start with, or nil when the pattern is not anchored
    /// or has a top-level alternation. A literal followed by `?`, `*` or `{` is optional and ends
    /// the prefix before it; one followed by `+` ends it after.
    static func literalPrefix(_ pattern: String) -> [UInt8]? {
        let p = Array(pattern.utf8)
        guard p.first == UInt8(ascii: "^"), !hasTopLevelAlternation(p) else { return nil }
        var out: [UInt8] = []
        var i = 1
        while i < p.count {
            var c = p[i]
            var width = 1
            if c == UInt8(ascii: "\\") {
                guard i + 1 < p.count else { break }
                let e = p[i + 1]
                let isAlnum = (e >= 0x30 && e <= 0x39) || (e >= 0x41 && e <= 0x5A) || (e >= 0x61 && e <= 0x7A)
                if isAlnum { break }   // \d, \w, \b, back-references: not literal
                c = e
                width = 2
            } else if ".[]()*+?{}|$^".utf8.contains(c) {
                break
            }
            let next = i + width < p.count ? p[i + width] : 0
            if next == UInt8(ascii: "?") || next == UInt8(ascii: "*") || next == UInt8(ascii: "{") { break }
            out.append(c)
            if next == UInt8(ascii: "+") { break }
            i += width
        }
        return out
    }

    private static func hasTopLevelAlternation(_ p: [UInt8]) -> Bool {
        var depth = 0
        var i = 0
        var inClass = false
        while i < p.count {
            let c = p[i]
            if c == UInt8(ascii: "\\") { i += 2; continue }
            if inClass {
                if c == UInt8(ascii: "]") { inClass = false }
            } else if c == UInt8(ascii: "[") {
                inClass = true
            } else if c == UInt8(ascii: "(") {
                depth += 1
            } else if c == UInt8(ascii: ")") {
                depth -= 1
            } else if c == UInt8(ascii: "|"), depth == 0 {
                return true
            }
            i += 1
        }
        return false
    }
}

/// A byte trie with one hash table for all edges; each node lists the rules whose prefix ends there.
struct PrefixTrie: Sendable {
    private var edges: [UInt64: Int32] = [:]
    private var terminals: [[Int32]] = [[]]

    mutating func insert(_ bytes: [UInt8], rule: Int32) {
        var node: Int32 = 0
        for b in bytes {
            let key = UInt64(node) << 8 | UInt64(b)
            if let next = edges[key] {
                node = next
            } else {
                let next = Int32(terminals.count)
                terminals.append([])
                edges[key] = next
                node = next
            }
        }
        terminals[Int(node)].append(rule)
    }

    /// Appends the rules of every node along `input`'s path (every indexed prefix of it).
    func collect(_ input: [UInt8], lowercase: Bool, into out: inout [Int32]) {
        guard terminals.count > 1 else { return }
        var node: Int32 = 0
        for b in input {
            let c = lowercase ? RuleIndex.lower(b) : b
            guard let next = edges[UInt64(node) << 8 | UInt64(c)] else { return }
            node = next
            let t = terminals[Int(node)]
            if !t.isEmpty { out.append(contentsOf: t) }
        }
    }
}
