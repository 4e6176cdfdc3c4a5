import HtlintApache
import HtlintDiagnostics

/// `%N` whose group depends on which `[OR]` alternative held. Recorded on Apache 2.4.71
/// (fixtures/apache/rewrite-cond-or-skipped-group-empty): after `RewriteCond %{QUERY_STRING}
/// ^go$ [OR]` and `RewriteCond %{HTTP_HOST} ^www\.(.+)$`, `/got-%1` is `/got-shop.example` for
/// `www.shop.example/a` but `/got-` for `/a?go`, where the first alternative holds and the
/// second is never evaluated; (rewrite-cond-or-skipped-group-empty-in-later-condition) a later
/// condition's test string reads the same empty `%1`: `RewriteCond %1 ^$` holds for `/a?go`, and
/// `RewriteCond %{DOCUMENT_ROOT}/hosts/%1 -d` holds on `hosts/` itself for http.
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
        matched, and `%1` is empty. A later condition's test string reads `%N` the same way: \
        `RewriteCond %{DOCUMENT_ROOT}/sites/%1 -d` after that group tests the directory \
        `sites/` itself, which exists. Capture the value in a condition every request evaluates, \
        after the `[OR]` group (`RewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$`), or use the \
        variable itself (`%{HTTP_HOST}`).
        """,
        severity: .warning,
        triggering: [Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteRule ^ https://↓%1%{REQUEST_URI} [R=301,L]"),
                     Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteCond %{DOCUMENT_ROOT}/sites/↓%1 -d\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
                     Example("RewriteCond %{QUERY_STRING} ^id=(\\d+)$ [OR]\nRewriteCond %{QUERY_STRING} ^p=(\\d+)&c=(\\w+)$\nRewriteRule ^item$ /item/%1/↓%2? [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\. [NC]\nRewriteCond %{HTTP_HOST} ^(?:www\\.)?(.+)$ [NC]\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC,OR]\nRewriteCond %{HTTP_HOST} ^(.+)\\.old$ [NC]\nRewriteRule ^ https://%1%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTPS} off [OR]\nRewriteCond %{HTTP_HOST} ^www\\. [NC]\nRewriteRule ^ https://example.com%{REQUEST_URI} [R=301,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^www\\.(.+)$ [NC]\nRewriteCond %{DOCUMENT_ROOT}/sites/%1 -d [OR]\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard let (n, way, condition) = Self.skippedReference(rule), let alternative = way.alternative else { return nil }
                let reference = "%\(n)"
                let held = rule.conditions[alternative]
                func groups(_ c: RewriteCondition) -> String { BackreferenceToMissingGroup.groupsOrNone(c.capturedGroups ?? 0) }
                let source = switch way.lastCapturing {
                case alternative? where rule.endsOrGroup(alternative):
                    "`\(reference)` takes its groups, of which it has \(groups(held))"
                case alternative?:
                    "the alternatives after it are skipped and `\(reference)` takes its groups, of which it has \(groups(held))"
                case let c?:
                    "`\(reference)` takes the groups of `\(rule.conditions[c].written)`, which has \(groups(rule.conditions[c]))"
                case nil:
                    "no condition has matched a pattern whose groups `\(reference)` could take"
                }
                // The directive's name comes first, and holds no `%`.
                let at = condition.flatMap { file.range(of: reference, within: rule.conditions[$0].range) }
                    ?? rule.range(of: reference, in: file) ?? rule.substitutionRange
                return finding("`\(reference)` can be empty: when `\(held.written)` is the `[OR]` alternative that holds, \(source)"
                               + (condition.map { "; `\(rule.conditions[$0].written)` is then tested with `\(reference)` empty" } ?? ""), at: at)
            }
        }
    }

    /// The first `%N` that some way through the `[OR]` groups leaves empty although another
    /// sets it (one that no way sets is HT221's), with the way that leaves the fewest groups:
    /// in a condition's test string (`condition`, its index), which takes the groups of the
    /// conditions before it, else in the substitution or flags.
    static func skippedReference(_ rule: RewriteRule) -> (n: Int, way: ConditionCaptureWay, condition: Int?)? {
        // A rule without `[OR]` has one way.
        guard rule.conditions.contains(where: \.orNext) else { return nil }
        for k in rule.conditions.indices.dropFirst() {
            let parts = rule.conditions[k].backreferences
            guard !parts.isEmpty, let ways = rule.conditionCaptureWays(before: k),
                  let (n, way) = skipped(parts, ways) else { continue }
            return (n, way, k)
        }
        guard let ways = rule.conditionCaptureWays, let (n, way) = skipped(rule.backreferences, ways) else { return nil }
        return (n, way, nil)
    }

    /// The first `%N` of `parts` that `ways` leave empty on some way with an `[OR]` choice and
    /// set on another.
    static func skipped(_ parts: [Template.Part], _ ways: [Int: ConditionCaptureWay]) -> (n: Int, way: ConditionCaptureWay)? {
        guard let most = ways.keys.max() else { return nil }
        for part in parts {
            guard case .conditionCapture(let n) = part, n >= 1, n <= most else { continue }
            if let fewest = ways.keys.filter({ $0 < n }).min(), let way = ways[fewest], way.alternative != nil {
                return (n, way)
            }
        }
        return nil
    }
}
