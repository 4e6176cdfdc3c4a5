import HtlintApache
import HtlintDiagnostics

/// `%N` whose group depends on which `[OR]` alternative held. Recorded on Apache 2.4.71
/// (fixtures/apache/rewrite-cond-or-skipped-group-empty): after `RewriteCond %{QUERY_STRING}
/// ^go$ [OR]` and `RewriteCond %{HTTP_HOST} ^www\.(.+)$`, `/got-%1` is `/got-shop.example` for
/// `www.shop.example/a` but `/got-` for `/a?go`, where the first alternative holds and the
/// second is never evaluated.
struct BackreferenceSkippedByOr: LintRule {
    let description = RuleDescription(
        id: "HT225", name: "backreference-skipped-by-or", family: .semantics,
        summary: "`%N` takes a group of a condition that an `[OR]` alternative can skip: when that alternative holds, `%N` is empty",
        rationale: """
        `%N` is group N of the last `RewriteCond` that matched a pattern. Conditions joined by \
        `[OR]` are tried in order and the first that holds ends the group: the alternatives after \
        it are never evaluated, so their groups are not set. The combined https-and-www redirect \
        `RewriteCond %{HTTPS} off [OR]` with `RewriteCond %{HTTP_HOST} ^www\\.(.+)$` and \
        `https://%1%{REQUEST_URI}` works for `http://www.example.com/` and sends \
        `http://example.com/page` to `https:///page`: `%{HTTPS} off` held, the host was never \
        matched, and `%1` is empty. Capture the value in a condition every request evaluates, \
        after the `[OR]` group (`RewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$`), or use the \
        variable itself (`%{HTTP_HOST}`).
        """,
        severity: .warning,
        triggering: [Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^ https://↓%1%{REQUEST_URI} [R=301,L]"),
                     Example("RewriteCond %{QUERY_STRING} ^id=(\\d+)$ [OR]\nRewriteCond %{QUERY_STRING} ^p=(\\d+)&c=(\\w+)$\nRewriteRule ^item$ /item/%1/↓%2? [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\. [NC]\nRewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$ [NC]\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC,OR]\nRewriteCond %{HTTP_HOST} ^(.+)\\.old$ [NC]\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\. [NC]\nRewriteRule ^ https://example.com%{REQUEST_URI} [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard let (n, alternative, lastCapturing) = Self.skippedReference(rule) else { return nil }
                let reference = "%\(n)"
                let written = rule.range(of: reference, in: file)
                let held = file.text(rule.conditions[alternative].range)
                func groups(_ c: Int) -> String {
                    let n = Self.captures(rule.conditions[c]) ?? 0
                    return n == 0 ? "none" : BackreferenceToMissingGroup.groups(n)
                }
                let source = switch lastCapturing {
                case alternative?: "the alternatives after it are skipped and `\(reference)` takes its groups, of which it has \(groups(alternative))"
                case let c?: "`\(reference)` takes the groups of `\(file.text(rule.conditions[c].range))`, which has \(groups(c))"
                case nil: "no condition has matched a pattern whose groups `\(reference)` could take"
                }
                return finding("`\(reference)` can be empty: when `\(held)` is the `[OR]` alternative that holds, \(source)",
                               at: written ?? rule.substitutionRange)
            }
        }
    }

    /// One way through the conditions: the `[OR]` alternative that held last (nil before any
    /// `[OR]` group) and the last condition that matched a pattern (whose groups `%N` take).
    struct Path {
        var alternative: Int?
        var lastCapturing: Int?
    }

    /// The first `%N` that some way through the `[OR]` groups leaves empty although another
    /// sets it (one that no way sets is HT221's), with the alternative that held on that way and
    /// the condition whose groups it left.
    static func skippedReference(_ rule: RewriteRule) -> (n: Int, alternative: Int, lastCapturing: Int?)? {
        let conditions = rule.conditions
        // An `expr` condition's captures depend on its `=~` (HT219); a rule without `[OR]` has one way.
        guard conditions.contains(where: \.orNext),
              !conditions.contains(where: { if case .expression = $0.test { true } else { false } }) else { return nil }
        // Groups set after the conditions so far (-1: none matched a pattern) → the first way
        // found to that count.
        var ways: [Int: Path] = [-1: Path()]
        var start = 0
        while start < conditions.count {
            var end = start
            while end < conditions.count - 1 && conditions[end].orNext { end += 1 }
            var next: [Int: Path] = [:]
            for k in start...end {
                let choice: Int? = end > start ? k : nil
                if let count = captures(conditions[k]) {
                    if next[count] == nil { next[count] = Path(alternative: choice, lastCapturing: k) }
                } else {
                    // A negated pattern, a file test or a comparison keeps the groups before it.
                    for (count, way) in ways.sorted(by: { $0.key < $1.key }) where next[count] == nil {
                        next[count] = Path(alternative: choice ?? way.alternative, lastCapturing: way.lastCapturing)
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
        guard let most = ways.keys.max() else { return nil }
        for part in rule.backreferences {
            guard case .conditionCapture(let n) = part, n >= 1, n <= most else { continue }
            // The way that leaves the fewest groups.
            if let fewest = ways.keys.filter({ $0 < n }).min(), let way = ways[fewest], let alternative = way.alternative {
                return (n, alternative, way.lastCapturing)
            }
        }
        return nil
    }

    /// The groups a condition sets when it holds: a pattern that is not negated.
    static func captures(_ c: RewriteCondition) -> Int? {
        if case .regex(let r) = c.test, !c.negated { r.captureCount } else { nil }
    }
}
