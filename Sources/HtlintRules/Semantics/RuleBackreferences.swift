import HtlintApache
import HtlintDiagnostics

/// The back-references a rule expands, for the rules about them (HT219, HT221).
extension RewriteRule {
    /// `$N` and `%N` parts of the substitution, `[E=]` and `[CO=]` values, in the order they are
    /// written, map keys and defaults included.
    var backreferences: [Template.Part] {
        ([substitution] + flags.env + flags.cookies).flatMap(\.backreferences)
    }

    /// Where `reference` (`$2`, `%1`) is first written: in the substitution, else in the flags.
    func range(of reference: String, in file: LintFile) -> SourceRange? {
        [substitutionRange, flagsRange].lazy.compactMap { $0 }.compactMap { file.range(of: reference, within: $0) }.first
    }
}

/// One way through a rule's conditions, as `%N` sees it: the `[OR]` alternative that decided it
/// (nil where no `[OR]` group had a choice to make) and the last condition that matched a pattern,
/// whose groups `%N` takes (nil: none did).
struct ConditionCaptureWay {
    var alternative: Int?
    var lastCapturing: Int?
}

extension RewriteRule {
    /// The groups `%N` can take after the conditions: for each count the last condition that
    /// matched a pattern can have (-1: none matched), the first way found to it. Conditions form
    /// `[OR]` groups, the first member that holds ends its group, and only a pattern that is not
    /// negated sets the groups, replacing those of any condition before it (recorded:
    /// rewrite-cond-or-skipped-group-empty, rewrite-cond-last-match-groups-replace-earlier).
    /// Nil with an `expr` condition, whose `=~` captures are HT219's.
    var conditionCaptureWays: [Int: ConditionCaptureWay]? { conditionCaptureWays(before: nil) }

    /// The same for the groups condition `k`'s test string can take (`RewriteCond %1 ^$`,
    /// `RewriteCond %{DOCUMENT_ROOT}/%1 -d`): those the `[OR]` groups before its own leave. The
    /// members of its own group before it failed, and a pattern that fails sets no groups
    /// (recorded: rewrite-cond-or-skipped-group-empty-in-later-condition). Nil with an `expr`
    /// condition before it.
    func conditionCaptureWays(before k: Int?) -> [Int: ConditionCaptureWay]? {
        guard !conditions[..<(k ?? conditions.count)].contains(where: { if case .expression = $0.test { true } else { false } }) else { return nil }
        var ways: [Int: ConditionCaptureWay] = [-1: ConditionCaptureWay()]
        var start = 0
        while start < conditions.count {
            var end = start
            while end < conditions.count - 1 && conditions[end].orNext { end += 1 }
            if let k, end >= k { break }
            var next: [Int: ConditionCaptureWay] = [:]
            for k in start...end {
                let choice: Int? = end > start ? k : nil
                if let count = conditions[k].capturedGroups {
                    if next[count] == nil { next[count] = ConditionCaptureWay(alternative: choice, lastCapturing: k) }
                } else {
                    // A negated pattern, a file test or a comparison keeps the groups before it,
                    // and the alternative that decided them.
                    for (count, way) in ways.sorted(by: { $0.key < $1.key }) where next[count] == nil {
                        next[count] = ConditionCaptureWay(alternative: way.alternative ?? choice, lastCapturing: way.lastCapturing)
                    }
                }
            }
            // A trailing `[OR]`: the last group holds even when every alternative fails.
            if end == conditions.count - 1 && conditions[end].orNext {
                for (count, way) in ways where next[count] == nil { next[count] = way }
            }
            ways = next
            start = end + 1
        }
        return ways
    }

    /// Whether condition `k` is the last of its `[OR]` group.
    func endsOrGroup(_ k: Int) -> Bool { !conditions[k].orNext || k == conditions.count - 1 }
}

extension RewriteCondition {
    /// `%N` (and `$N`) parts of the test string, map keys and defaults included, in order.
    var backreferences: [Template.Part] { testString.backreferences }

    /// The groups the condition sets when it holds: a pattern that is not negated; nil otherwise.
    var capturedGroups: Int? {
        if case .regex(let r) = test, !negated { r.captureCount } else { nil }
    }

    /// The condition as written, without its flags: `RewriteCond %{HTTPS} off`.
    var written: String { "RewriteCond \(rawTestString) \(rawPattern)" }
}

extension Template {
    /// `$N` and `%N` parts, map keys and defaults included, in the order they are written.
    var backreferences: [Template.Part] {
        var out: [Template.Part] = []
        func visit(_ t: Template) {
            for p in t.parts {
                switch p {
                case .ruleCapture, .conditionCapture: out.append(p)
                case .map(_, let key, let fallback):
                    visit(key)
                    if let fallback { visit(fallback) }
                default: break
                }
            }
        }
        visit(self)
        return out
    }
}
