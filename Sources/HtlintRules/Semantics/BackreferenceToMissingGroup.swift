import HtlintApache
import HtlintDiagnostics

/// `$N` or `%N` that can only expand to nothing: the group does not exist, or the pattern that
/// would set it must not match. Recorded on Apache 2.4.71
/// (fixtures/apache/rewrite-backref-missing-groups-expand-empty): `^old/(.*)$ /new/$2x` sends
/// /old/a/b to `/new/x`; after only `RewriteCond %{HTTP_HOST} !^www\.`, `http://www.%1/three`
/// is `http://www./three`; `!^(old|…) /n/$1` is `/n/`; and
/// (rewrite-escape-percent-hex-in-substitution-read-as-backref) `/new%20page.html` is `/new0page.html`;
/// (rewrite-cond-last-match-groups-replace-earlier) `^(.+)$` then `%{HTTPS} off` makes `http://%1/` `http:///`.
struct BackreferenceToMissingGroup: LintRule {
    let description = RuleDescription(
        id: "HT221", name: "backreference-to-missing-group", family: .semantics,
        summary: "`$N` or `%N` refers to a group no pattern of the rule can set: it always expands to nothing",
        rationale: """
        `$N` is group N of the `RewriteRule` pattern, `%N` group N of the last `RewriteCond` that \
        matched. A negated pattern (`!…`) holds when it does not match, so it captures nothing: \
        `$1` after `RewriteRule !^keep/` is empty, and a negated condition sets no `%N` (it keeps \
        the groups of a condition before it). File tests (`-f`) and comparisons (`=`, `-eq`) \
        capture nothing either, while a later condition that is a pattern replaces the groups \
        with its own: after `RewriteCond %{HTTP_HOST} ^(.+)$` and `RewriteCond %{HTTPS} off` \
        (a pattern without groups), `https://%1/` has an empty host; test `!=on` (a comparison) \
        or put the capturing condition last. The classic case is the www redirect \
        `RewriteCond %{HTTP_HOST} !^www\\.` followed by `https://www.%1%{REQUEST_URI}`: the \
        host part is empty and visitors are sent to `https://www./…`. Capture the value in a \
        positive pattern (`RewriteCond %{HTTP_HOST} ^(?!www\\.)(.+)$`) or use the variable itself \
        (`https://www.%{HTTP_HOST}%{REQUEST_URI}`). A percent-escape written in a substitution \
        is read the same way: `/new%20page.html` is `%2` (empty) and `0page.html`, recorded as \
        `/new0page.html`; write `\\%20` with `[NE]` (without it `[R]` sends `%2520`), or the \
        space itself.
        """,
        severity: .warning,
        triggering: [Example("RewriteCond %{HTTP_HOST} !^www\\. [NC]\nRewriteRule ^ https://www.↓%1%{REQUEST_URI} [R=301,L]"),
                     Example("RewriteRule ^old/(.*)$ /new/↓$2 [R=301,L]"),
                     Example("RewriteRule !^keep/ /archive/↓$1 [R=302,L]"),
                     Example("RewriteCond %{REQUEST_FILENAME} -f\nRewriteRule ^(.*)$ /static/$1?v=↓%1 [L]"),
                     Example("RewriteRule ^old\\ page$ /new↓%20page.html [R=302,L]"),
                     Example("RewriteCond %{HTTP_HOST} ^(.+)$\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://↓%1%{REQUEST_URI} [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^(?!www\\.)(.+)$ [NC]\nRewriteRule ^ https://www.%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^(www\\.)?(.+)$\nRewriteCond %{HTTPS} !on\nRewriteRule ^ https://%2%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTPS} off\nRewriteCond %{HTTP_HOST} ^(.+)$\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteRule ^old/(.*)/(.*)$ /new/$2 [R=301,L]"),
                        Example("RewriteRule ^old\\ page$ /new\\%20page.html [R=302,NE,L]"),
                        // An expression may capture with `=~` (HT219 covers one that does not).
                        Example("RewriteCond expr \"%{HTTP_HOST} =~ /^(.+)$/\"\nRewriteRule ^ https://%1/ [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard let (reference, missing) = Self.emptyReference(rule) else { return nil }
                let range = rule.range(of: reference, in: file)
                // `%20` written as a percent-escape: `%2` is the back-reference, `0` is kept.
                let bytes = file.source.bytes
                if let range, reference.hasPrefix("%"), range.end < bytes.count,
                   case let next = Character(UnicodeScalar(bytes[range.end])), next.isHexDigit {
                    return finding("`\(reference)\(next)` is not a percent-escape here: mod_rewrite reads `\(reference)` as a condition's group, "
                                   + "and \(missing.briefly), so it expands to nothing and only `\(next)` is kept; "
                                   + (rule.flags.redirect != nil
                                      ? "write `\\\(reference)\(next)` with `[NE]`, or the character itself (`[R]` escapes a space as `%20`)"
                                      : "write the character itself (a space as `\\ ` or in a quoted substitution)"),
                                   at: SourceRange(file: range.file, start: range.start, end: range.end + 1))
                }
                return finding("`\(reference)` \(missing.sentence): it always expands to nothing", at: range ?? rule.substitutionRange)
            }
        }
    }

    /// Why a back-reference has no group to take.
    enum Missing {
        case negatedPattern(String)
        case ruleGroups(wanted: Int, pattern: String, has: Int)
        case noConditions
        case noCapturingCondition
        case conditionGroups(wanted: Int, has: Int)
        /// A condition with the group matched, then a later pattern with fewer groups replaced them.
        case replacedByLaterPattern(wanted: Int, condition: String, has: Int)

        var sentence: String {
            switch self {
            case .negatedPattern(let p): "takes a group of the negated pattern `!\(p)`, which captures nothing"
            case .ruleGroups(let n, let p, let has): "refers to group \(n), but `\(p)` has \(groups(has))"
            case .noConditions: "refers to a condition's group, but the rule has no `RewriteCond`"
            case .noCapturingCondition: "refers to a condition's group, but no condition of the rule matches a pattern (a negated one, a file test or a comparison captures nothing)"
            case .conditionGroups(let n, let has): "refers to group \(n), but the rule's conditions have at most \(groups(has))"
            case .replacedByLaterPattern(let n, let c, let has):
                "refers to group \(n), but `%N` takes the groups of the last condition that matched a pattern, `\(c)`, "
                    + "which has \(groupsOrNone(has)) (a comparison such as `!=on` or a negated pattern would keep the earlier groups)"
            }
        }

        /// The reason as a clause, for a `%N` that was meant as a percent-escape.
        var briefly: String {
            switch self {
            case .noConditions: "the rule has no `RewriteCond`"
            case .noCapturingCondition: "no condition of the rule captures a group"
            case .conditionGroups(_, let has): "the rule's conditions have at most \(groups(has))"
            case .replacedByLaterPattern(_, let c, let has): "the last condition that matched, `\(c)`, has \(has == 0 ? "no groups" : groups(has))"
            case .negatedPattern, .ruleGroups: sentence
            }
        }
    }

    /// The first back-reference of the rule's substitution, `[E=]` or `[CO=]` values that
    /// cannot be set, with why.
    static func emptyReference(_ rule: RewriteRule) -> (String, Missing)? {
        let conditionGroups = rule.conditions.reduce(into: -1) { most, c in
            if case .regex(let r) = c.test, !c.negated { most = max(most, r.captureCount) }
        }
        // An `expr` condition captures with `=~`; HT219 reports one that cannot.
        let expressionCaptures = rule.conditions.contains { if case .expression = $0.test { true } else { false } }
        // The groups every way through the conditions can leave (`%N` takes the last match's).
        let ways = rule.conditionCaptureWays
        for part in rule.backreferences {
            switch part {
            case .ruleCapture(let n) where rule.negated:
                return ("$\(n)", .negatedPattern(rule.pattern))
            case .ruleCapture(let n) where n > rule.regex.captureCount:
                return ("$\(n)", .ruleGroups(wanted: n, pattern: rule.pattern, has: rule.regex.captureCount))
            case .conditionCapture(let n) where !expressionCaptures && conditionGroups < 0:
                return ("%\(n)", rule.conditions.isEmpty ? .noConditions : .noCapturingCondition)
            case .conditionCapture(let n) where !expressionCaptures && n > conditionGroups:
                return ("%\(n)", .conditionGroups(wanted: n, has: conditionGroups))
            case .conditionCapture(let n):
                // Some condition has the group, but on no way is it the last that matched.
                guard let ways, let most = ways.keys.max(), n > most, let last = ways[most]?.lastCapturing else { continue }
                return ("%\(n)", .replacedByLaterPattern(wanted: n, condition: rule.conditions[last].written, has: max(most, 0)))
            default: continue
            }
        }
        return nil
    }

    static func groups(_ n: Int) -> String { n == 1 ? "1 group" : "\(n) groups" }
    /// `none`, `1 group`, `2 groups`: what a condition has.
    static func groupsOrNone(_ n: Int) -> String { n == 0 ? "none" : groups(n) }
}
