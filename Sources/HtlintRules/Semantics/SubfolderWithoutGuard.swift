import HtlintDiagnostics

/// `RewriteRule ^(.*)$ blog/$1 [L]` without a guard: after the internal redirect the same rule
/// matches `blog/…` again, and again, until Apache gives up with 500.
struct SubfolderWithoutGuard: LintRule {
    let description = RuleDescription(
        id: "HT212", name: "subfolder-rewrite-without-guard", family: .semantics,
        summary: "a catch-all rewrite into a subfolder that also matches its own result",
        rationale: """
        In `.htaccess`, `[L]` ends only the current pass: the rewritten URL is redirected internally \
        and the rules run again on `blog/…`, producing `blog/blog/…` until `LimitInternalRecursion` \
        answers **500** (apache-semantics §4.10, §15.4) — unless the subfolder has its own \
        `.htaccess` with rewrite rules. Guard the rule with `RewriteCond %{REQUEST_URI} !^/blog/`, \
        or use `[END]`.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ ↓blog/$1 [L]"),
                     Example("RewriteEngine On\nRewriteRule (.*) ↓/public/$1")],
        nonTriggering: [Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/blog/\nRewriteRule ^(.*)$ blog/$1 [L]"),
                        Example("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [END]"),
                        Example("RewriteEngine On\nRewriteCond %{ENV:REDIRECT_STATUS} ^$\nRewriteRule ^(.*)$ blog/$1 [L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard isCatchAll(rule.pattern), !rule.negated, !rule.flags.end, !rule.redirects, !rule.targetsURL,
                      rule.flags.statusOverride == nil else { return nil }
                var sub = rule.rawSubstitution
                if sub.hasPrefix("/") { sub.removeFirst() }
                guard let slash = sub.firstIndex(of: "/"), sub[sub.index(after: slash)...].hasPrefix("$"),
                      !sub[..<slash].contains("$"), !sub[..<slash].contains("%") else { return nil }
                let folder = String(sub[..<slash])
                // A condition that looks at the URL, the mapped file or the redirect state counts as a guard.
                let guards = ["REQUEST_URI", "REQUEST_FILENAME", "SCRIPT_FILENAME", "THE_REQUEST", "ENV:REDIRECT_STATUS", "IS_SUBREQ"]
                if rule.conditions.contains(where: { c in c.variables.contains { guards.contains($0) } }) { return nil }
                // A subfolder .htaccess with its own rewrite rules replaces these rules there (§4.4).
                if context.files.contains(where: { $0.directory == (file.directory ?? "/") + folder + "/" && $0.config.block.rewrite != nil }) {
                    return nil
                }
                return finding("`\(rule.rawSubstitution)` is matched again by `\(rule.pattern)` after the internal redirect: \(folder)/\(folder)/… until Apache answers 500",
                               at: rule.substitutionRange)
            }
        }
    }
}
