import HtlintDiagnostics

/// `[R]` with a relative target in `.htaccess` and no RewriteBase: the Location carries the
/// filesystem path (`http://example.com/var/www/html/new`).
struct RelativeRedirectLeaksPath: LintRule {
    let description = RuleDescription(
        id: "HT203", name: "relative-redirect-leaks-path", family: .semantics,
        summary: "a relative `[R]` target in `.htaccess` without `RewriteBase` exposes the server's directory",
        rationale: """
        In per-directory context a relative substitution gets the directory's filesystem path prepended. \
        For an internal rewrite Apache maps it back, but for `[R]` without `RewriteBase` the path goes \
        into the `Location` as is: `http://example.com/var/www/html/new` (apache-semantics §4.9, CT-RW-R-01). \
        Write the target with a leading `/` or add `RewriteBase /`.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ^old$ ↓new [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteBase /\nRewriteRule ^old$ new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^old$ https://example.com/new [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            file.rewriteBlocks.filter { $0.base == nil }.flatMap(\.rules).compactMap { rule -> Diagnostic? in
                let s = rule.rawSubstitution
                guard rule.redirects, !rule.isDash, !s.hasPrefix("/"), !s.contains("://"), !s.hasPrefix("%{"),
                      !s.hasPrefix("$") else { return nil }
                let fix = FixIt(title: "Make the target absolute (`/\(s)`)",
                                edits: [TextEdit(range: SourceRange(file: rule.substitutionRange.file, start: rule.substitutionRange.start,
                                                                    end: rule.substitutionRange.start), replacement: "/")],
                                applicability: .unsafe)
                return finding("relative redirect target `\(s)` without `RewriteBase`: the Location will contain the server's directory path",
                               at: rule.substitutionRange, fixes: [fix])
            }
        }
    }
}
