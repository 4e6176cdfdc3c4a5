import HtlintApache
import HtlintDiagnostics

/// `%N` whose condition is a `RewriteCond expr` without a regex match: mod_rewrite takes the
/// back-references of the last matched condition, and an `expr` that ran no `=~` leaves them
/// unset, so Apache reads memory it never wrote. Recorded on Apache 2.4.71 (differential rounds
/// 8 and 18, and by hand): after `expr "%{HTTP_HOST} == 'example.com'"` `%1` expanded to an
/// empty or a garbage byte, after `expr "-n %{HTTP_HOST}"` the child crashed (no response).
struct CaptureAfterExpressionCondition: LintRule {
    let description = RuleDescription(
        id: "HT219", name: "capture-after-expr-condition", family: .semantics,
        summary: "`%N` refers to a `RewriteCond expr` that has no regex match (`=~`): Apache reads unset memory, giving garbage or a crashed child",
        rationale: """
        `%1`…`%9` are the groups of the last `RewriteCond` that matched. A regex condition sets \
        them; an `expr` condition only through a regex match inside it (`%{HTTP_HOST} =~ /^(.+)$/`). \
        After an `expr` with string comparisons, `-n`, `-f` or `in {…}` mod_rewrite still reads \
        back-references it never set: on Apache 2.4 `%1` then expands to stray bytes, or the child \
        process dies and the visitor gets no answer (a CDN in front shows its 502). Take the value \
        from a regex condition after the `expr` (`RewriteCond %{HTTP_HOST} ^(.+)$`), capture it \
        with `=~` inside the expression, or use the variable itself (`%{HTTP_HOST}`).
        """,
        severity: .error,
        triggering: [Example("RewriteCond expr \"-n %{HTTP:X-Lang}\"\nRewriteRule ^$ /↓%1/ [R=302,L]"),
                     Example("RewriteCond expr \"%{HTTP_HOST} == 'example.com'\"\nRewriteRule ^(.*)$ https://www.example.com/$1?from=↓%1 [R=301,L]")],
        nonTriggering: [Example("RewriteCond expr \"%{HTTP_HOST} =~ /^(?:www[.])?(.+)$/\"\nRewriteRule ^(.*)$ https://%1/$1 [R=301,L]"),
                        Example("RewriteCond expr \"-n %{HTTP:X-Lang}\"\nRewriteCond %{HTTP:X-Lang} ^([a-z]{2})\nRewriteRule ^$ /%1/ [R=302,L]"),
                        Example("RewriteCond %{HTTP_HOST} ^(.+)$ [OR]\nRewriteCond expr \"-n %{HTTP:X-Forwarded-Host}\"\nRewriteRule ^$ https://%1/ [R=302,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                // The last condition matched last, unless an `[OR]` before it may have let it be skipped.
                guard let last = rule.conditions.last, case .expression(let e) = last.test, !Self.matchesRegex(e),
                      !(rule.conditions.dropLast().last?.orNext ?? false),
                      let n = Self.firstConditionCapture(rule) else { return nil }
                return finding("`%\(n)` takes a group of the `RewriteCond expr` on line \(file.source.lines.position(of: last.range.start).line), "
                               + "which has no regex match: Apache reads back-references it never set (stray bytes, or a crashed child and no answer)",
                               at: rule.range(of: "%\(n)", in: file) ?? rule.substitutionRange)
            }
        }
    }

    /// The first `%N` the rule expands.
    static func firstConditionCapture(_ rule: RewriteRule) -> Int? {
        rule.backreferences.lazy.compactMap { if case .conditionCapture(let n) = $0 { n } else { nil } }.first
    }

    /// Whether a regex match (`=~`, `!~`) appears anywhere in the expression.
    static func matchesRegex(_ e: ApExpression) -> Bool {
        switch e {
        case .match: true
        case .not(let inner): matchesRegex(inner)
        case .and(let a, let b), .or(let a, let b): matchesRegex(a) || matchesRegex(b)
        default: false
        }
    }
}
