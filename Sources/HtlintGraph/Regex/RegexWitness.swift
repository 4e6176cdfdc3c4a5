import HtlintApache
import HtlintBytes
import HtlintRegex

/// Builds strings that a regular expression matches — request paths, hosts and query strings
/// for probes and for loop witnesses.
///
/// The pattern is parsed into an automaton for the subset of PCRE2 that rewrite rules use in
/// practice: literals and escapes, `.`, classes (ranges, negation, `\d\w\s`, POSIX names), groups
/// (capturing, `(?:…)`, named, `(?i)`), alternation, `? * + {n,m}` (lazy forms too), `^ $ \A \z`.
/// Within it the answer is exact: a witness is a member of the pattern's language (as mod_rewrite
/// searches it) and of the requested shape, preferring the "natural" string (one pass through
/// each loop, first alternative: `^old/page-([0-9]+)$` → `old/page-0`) and else the shortest one,
/// with readable characters first.
///
/// **Fallback.** Lookarounds, backreferences, `\b`, atomic groups, possessive quantifiers,
/// conditionals and recursion are outside the subset. For them the automaton is built for a
/// larger language (a lookaround becomes nothing, a backreference a copy of its group's
/// pattern, recursion any string), its natural and shortest members are generated as
/// candidates, and each candidate is checked with PCRE2 itself; only verified candidates are
/// returned, marked `.fallback`. When none verifies, there is no witness (never a guess).
public struct RegexWitness: Sendable, Hashable {
    /// How a witness was found.
    public enum Method: String, Sendable, Hashable {
        /// From the exact automaton of the pattern.
        case exact
        /// From the over-approximating automaton, verified by PCRE2.
        case fallback
    }

    /// The shape a witness must have besides matching the pattern.
    public enum Shape: String, Sendable, Hashable, CaseIterable {
        /// Any string.
        case any
        /// A per-directory rule's subject: a normalised URL-path without its leading `/`
        /// (no `//`, no `.`/`..` segments).
        case relativePath
        /// A normalised URL-path with its leading `/` (server-context subjects, `%{REQUEST_URI}`).
        case absolutePath
        /// A lower-case host name, as browsers send it.
        case host
        /// A query string as sent (already percent-encoded).
        case query
    }

    /// The string the pattern matches.
    public var text: String
    /// Whether it came from the exact automaton or the verified fallback.
    public var method: Method
    /// What the fallback approximated (empty for exact witnesses).
    public var approximations: [String]

    public init(text: String, method: Method, approximations: [String] = []) {
        self.text = text
        self.method = method
        self.approximations = approximations
    }

    /// A string `pattern` matches, from the exact subset only: nil for patterns that need the
    /// fallback (see `witnesses(for:caseInsensitive:shape:limit:)`) or match nothing.
    public static func witness(for pattern: String, caseInsensitive: Bool = false) -> String? {
        let language = PatternLanguage.of(pattern, caseInsensitive: caseInsensitive)
        guard language.isExact else { return nil }
        return witnesses(for: pattern, caseInsensitive: caseInsensitive, limit: 1).first?.text
    }

    /// Up to `limit` distinct strings of the given shape that `pattern` matches, natural
    /// witness first. Uses the fallback for constructs outside the subset.
    public static func witnesses(for pattern: String, caseInsensitive: Bool = false, shape: Shape = .any,
                                 limit: Int = 1) -> [RegexWitness] {
        var options = RegexOptions.apacheDefault
        if caseInsensitive { options.insert(.caseless) }
        let pcre = try? Regex(pattern, options: options)
        return witnesses(language: PatternLanguage.of(pattern, caseInsensitive: caseInsensitive), within: shape.language,
                         verifier: pcre, limit: limit, shape: shape)
    }

    /// Witnesses for a compiled rule or condition pattern (`regex` carries the case option).
    public static func witnesses(for regex: Regex, shape: Shape = .any, limit: Int = 1) -> [RegexWitness] {
        let language = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
        return witnesses(language: language, within: shape.language, verifier: regex, limit: limit, shape: shape)
    }

    static func witnesses(language: PatternLanguage, within domain: DFA, verifier: Regex?, limit: Int,
                          shape: Shape? = nil) -> [RegexWitness] {
        guard let parsed = language.parsed else { return [] }
        let natural = naturalString(parsed.root)
        // The common case needs no automaton: the natural string, checked by PCRE2 and the shape.
        if limit == 1, language.isParsedExactly, let verifier, verifier.matches(natural), shape?.accepts(natural) ?? domain.accepts(natural) {
            return [RegexWitness(text: natural, method: .exact)]
        }
        let inDomain = language.overApproximation.intersection(domain)
        var candidates: [String] = []
        if inDomain?.accepts(natural) ?? domain.accepts(natural) { candidates.append(natural) }
        if language.isExact {
            candidates += inDomain?.enumerate(limit: limit) ?? []
        } else {
            // The fallback casts a wider net: several strings, with letters, digits and others.
            candidates += inDomain?.enumerate(limit: max(64, limit * 8), maxLength: 40, variety: 3) ?? []
        }
        var out: [RegexWitness] = []
        var seen = Set<String>()
        for c in candidates where seen.insert(c).inserted {
            // Even an exact answer is checked when PCRE2 is at hand: the parser is a model.
            if let verifier, !verifier.matches(c) { continue }
            out.append(RegexWitness(text: c, method: language.isExact ? .exact : .fallback,
                                    approximations: parsed.approximations))
            if out.count >= limit { break }
        }
        return out
    }

    /// One pass through each loop, the first alternative, a typical byte for each class.
    static func naturalString(_ node: PatternNode) -> String {
        var out: [UInt8] = []
        func visit(_ n: PatternNode) {
            switch n {
            case .empty, .start, .end: break
            case .bytes(let set): out.append(typicalByte(set))
            case .sequence(let items): items.forEach(visit)
            case .alternation(let branches): if let f = branches.first { visit(f) }
            case .group(let inner, _): visit(inner)
            case .repetition(let inner, let min, let max):
                let times = max == 0 ? 0 : Swift.max(1, min)
                for _ in 0..<times { visit(inner) }
            }
        }
        visit(node)
        return String(decoding: out, as: UTF8.self)
    }

    /// `x` for broad sets (`.`, `[^/]`), else the most readable member (`0` for `[0-9]`).
    private static func typicalByte(_ set: ByteSet) -> UInt8 {
        if set.count > 128, set.contains(UInt8(ascii: "x")) { return UInt8(ascii: "x") }
        return BytePreference.order.first { set.contains($0) } ?? 0
    }
}

extension RegexWitness.Shape {
    /// The shape as an automaton.
    var language: DFA { URLShapes.language(self) }

    /// The same test on one string, without the automaton.
    func accepts(_ s: String) -> Bool {
        switch self {
        case .any: return true
        case .relativePath, .absolutePath:
            let absolute = s.hasPrefix("/")
            guard absolute == (self == .absolutePath), !s.utf8.contains(0) else { return false }
            let body = absolute ? s.dropFirst() : Substring(s)
            if body.isEmpty { return true }
            let segments = body.split(separator: "/", omittingEmptySubsequences: false)
            // `a/` is fine (a trailing slash); `a//b`, `/.`, `..` segments are not.
            for (i, seg) in segments.enumerated() where !(seg.isEmpty && i == segments.count - 1) {
                if seg.isEmpty || seg == "." || seg == ".." { return false }
            }
            return true
        case .host, .query: return language.accepts(s)
        }
    }
}

/// Automata for the shapes of request components.
enum URLShapes {
    /// A path segment other than `.` and `..`, without NUL (Apache answers 404 for `%00`).
    static let segment = "(?:[^/.\\x00][^/\\x00]*|\\.[^/.\\x00][^/\\x00]*|\\.\\.[^/\\x00]+)"
    static let relativePath = "^(?:\(segment)(?:/\(segment))*/?)?$"
    static let absolutePath = "^/(?:\(segment)(?:/\(segment))*/?)?$"
    static let host = "^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$"
    static let query = "^[A-Za-z0-9._~!$&'()*+,;=:@/?%-]*$"

    private static let compiled: [RegexWitness.Shape: DFA] = {
        var out: [RegexWitness.Shape: DFA] = [.any: DFA.all()]
        for (shape, pattern) in [(RegexWitness.Shape.relativePath, relativePath), (.absolutePath, absolutePath),
                                 (.host, host), (.query, query)] {
            out[shape] = PatternLanguage.of(pattern, caseInsensitive: false).matches ?? DFA.all()
        }
        return out
    }()

    static func language(_ shape: RegexWitness.Shape) -> DFA { compiled[shape] ?? DFA.all() }

    /// Strings that start with `/`, and those that do not (substitutions are one or the other).
    static let slashFirst = DFA.literal("/").concatenating(.all()) ?? .all()
    static let noSlashFirst = DFA.all().subtracting(slashFirst) ?? .all()
}
