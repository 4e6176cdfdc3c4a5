import HtlintApache
import HtlintDiagnostics
import HtlintRegex
import HtlintSyntax

/// A regular expression that backtracks catastrophically on a crafted subject.
struct ReDoSPronePattern: LintRule {
    let description = RuleDescription(
        id: "HT413", name: "redos-prone-pattern", family: .security,
        summary: "a pattern with a repeated group that can match the same text in many ways (`(a+)+`, `(.*)*`, `(a|a)*`)",
        rationale: """
        Apache matches with PCRE2, a backtracking engine. When a repeated group can itself repeat, \
        or its alternatives or parts can match the same characters (`(\\w+\\s?)*`, `(.*/)+`, \
        `(a|a)*`, `(.*a){20}`), a subject that almost matches is tried in exponentially many ways. \
        The subject is the URL-path, a header or the query — chosen by the client — so a crafted \
        request makes every request that reaches the pattern burn PCRE2's whole match limit \
        (millions of steps) before Apache gives up and treats the pattern as not matching: CPU \
        per request, and a `[F]` rule or a `RedirectMatch` that silently does not apply. The check \
        is structural and narrow: a repeated group whose body is an unbounded repetition plus \
        parts that may be empty or that the repetition also matches. Make the parts exclusive \
        (`([^/]+/)*` instead of `(.*/)*`), drop the outer repetition (`[\\w\\s]*` when the exact shape does not matter), or make it \
        possessive or atomic (`(?>…)`, `++`).
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteRule ^↓(.*/)+index\\.php$ / [R=301,L]"),
            Example("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^↓(\\w+\\s?)*$\nRewriteRule ^search$ - [F]"),
            Example("RedirectMatch 301 ^/↓(a|a)*b$ /b"),
            Example("SetEnvIfNoCase User-Agent ^↓(.*bot){12} BLOCK=1"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule ^([^/]+/)*index\\.php$ / [R=301,L]"),
            Example("RewriteEngine On\nRewriteRule ^(.*)/(.*)$ /$2 [L]"),
            Example("RedirectMatch 301 ^/(\\w+\\.)+html$ /"),
            Example("RewriteEngine On\nRewriteRule ^(?>(.*/)+)x$ - [F]"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in patterns(of: file).flatMap { word, offset, caseless in
            let text = String(word.value.dropFirst(offset))
            // Only a repeated group can be ambiguous: skip the parse for patterns without one
            // (W3's 100,000 rules lint in a tenth of the time).
            guard Self.repeatsAGroup(text) else { return [Diagnostic]() }
            let hazards = BacktrackingAnalysis.hazards(in: text, caseInsensitive: caseless)
            // Only patterns PCRE2 compiles: the others are HT114 and never run.
            let options: RegexOptions = caseless ? RegexOptions.apacheDefault.union(.caseless) : .apacheDefault
            guard !hazards.isEmpty, (try? Regex(text, options: options)) != nil else { return [Diagnostic]() }
            return hazards.map { h in
                finding("`\(h.text)`: \(h.reason); a crafted request makes PCRE2 backtrack up to its match limit "
                        + "on every request that reaches it, and Apache then treats the pattern as not matching",
                        at: file.position(in: word, offset: offset + h.offset))
            }
        } }
    }

    /// Whether a `)` is followed by `*`, `+` or `{`: a necessary condition for a hazard (a `?`
    /// repeats at most once).
    static func repeatsAGroup(_ pattern: String) -> Bool {
        var previous: UInt8 = 0
        for c in pattern.utf8 {
            if previous == UInt8(ascii: ")"), c == UInt8(ascii: "*") || c == UInt8(ascii: "+") || c == UInt8(ascii: "{") {
                return true
            }
            previous = c
        }
        return false
    }

    /// Every regex argument of the file: the word, where the regex starts in it (after `!`), and
    /// whether it matches case-insensitively.
    private func patterns(of file: LintFile) -> [(Word, Int, Bool)] {
        var out: [(Word, Int, Bool)] = []
        func regex(_ w: Word, _ caseless: Bool) {
            out.append((w, w.value.hasPrefix("!") ? 1 : 0, caseless))
        }
        // `[NC]` of the parsed rules and regex conditions, by directive — only those whose pattern
        // repeats a group, so the others are never tokenised again.
        let rules = file.rules
        let noCase = Dictionary(rules.filter { Self.repeatsAGroup($0.pattern) }.map { ($0.range, $0.flags.noCase) },
                                uniquingKeysWith: { a, _ in a })
        var regexConditions: [SourceRange: Bool] = [:]
        for c in rules.flatMap(\.conditions) where Self.repeatsAGroup(c.rawPattern) {
            if case .regex = c.test { regexConditions[c.range] = c.noCase }
        }
        func visit(_ nodes: [ConfigNode]) {
            for node in nodes {
                switch node {
                case .comment: break
                case .section(let s):
                    let args = s.arguments
                    if ["filesmatch", "directorymatch", "locationmatch"].contains(s.key), let w = args.first { regex(w, false) }
                    if ["files", "directory", "location"].contains(s.key), args.first?.value == "~", args.count > 1 { regex(args[1], false) }
                    visit(s.children)
                case .directive(let d):
                    switch d.key {
                    case "rewriterule":
                        if let caseless = noCase[d.range], let w = d.rewriteWords.words.first { regex(w, caseless) }
                    case "rewritecond":
                        // File tests, comparisons and `expr` are not regular expressions.
                        let words = d.rewriteWords.words
                        if words.count > 1, let caseless = regexConditions[d.range] { regex(words[1], caseless) }
                    case "redirectmatch":
                        let words = d.words
                        if words.count >= 2 { regex(words[words.count == 3 ? 1 : 0], false) }
                    case "setenvif", "setenvifnocase":
                        let words = d.words
                        if words.count >= 2 { regex(words[1], d.key.hasSuffix("nocase")) }
                    case "browsermatch", "browsermatchnocase":
                        if let w = d.words.first { regex(w, d.key.hasSuffix("nocase")) }
                    default: break
                    }
                }
            }
        }
        visit(file.tree.nodes)
        return out
    }
}
