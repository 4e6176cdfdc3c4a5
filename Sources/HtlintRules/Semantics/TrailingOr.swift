import Foundation
import HtlintDiagnostics

/// `[OR]` on the last condition makes a failing last group harmless: the rule always matches.
struct TrailingOr: LintRule {
    let description = RuleDescription(
        id: "HT206", name: "trailing-or", family: .semantics,
        summary: "`[OR]` on the last `RewriteCond` of a rule",
        rationale: """
        Conditions form OR groups; a group ends at the first condition without `[OR]`. When the \
        last condition carries `[OR]`, its group never closes and a failing last group counts as \
        true: the rule applies even when no condition matches (apache-semantics §7.5, CT-RC-OR-01).
        """,
        severity: .error,
        triggering: [Example("RewriteCond %{HTTP_HOST} ^old\\.example\\.com$ ↓[OR]\nRewriteRule ^ https://example.com/ [R=301,L]")],
        nonTriggering: [Example("RewriteCond %{HTTP_HOST} ^old\\.example\\.com$ [OR]\nRewriteCond %{HTTP_HOST} ^older\\.example\\.com$\nRewriteRule ^ https://example.com/ [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard let last = rule.conditions.last, last.orNext else { return nil }
                let text = file.text(last.range)
                let at = text.range(of: "[", options: .backwards).map {
                    last.range.start + text.utf8.distance(from: text.startIndex, to: $0.lowerBound)
                } ?? last.range.start
                return finding("`[OR]` on the last condition: the rule applies even when no condition matches",
                               at: SourceRange(file: last.range.file, start: at, end: last.range.end))
            }
        }
    }
}
