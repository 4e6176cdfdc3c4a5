import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// `Options +MultiViews` next to rewrites that expect a missing file: mod_negotiation answers
/// `/name` first (fixtures/apache/negotiation-multiviews-variants).
struct MultiViewsBeforeRewrites: LintRule {
    let description = RuleDescription(
        id: "HT217", name: "multiviews-before-rewrites", family: .semantics,
        summary: "`Options +MultiViews` where rewrites test for missing files or add an extension: negotiation answers `/name` before they run",
        rationale: """
        With MultiViews, a request for a file that does not exist is negotiated in Apache's type \
        checker, before the directory's `RewriteRule`s run: `/about` is served `about.html` (so a \
        front controller's `RewriteCond %{REQUEST_FILENAME} !-f` never sees it missing), and when \
        the only match has no type mod_mime knows — `contact.php` on a server without PHP's \
        handler — Apache answers **404** at once (AH00687) and no rule runs. This is why Laravel \
        and Symfony ship `Options -MultiViews`. Turn it off where rewrites route extensionless URLs.
        """,
        severity: .warning,
        triggering: [Example("Options ↓+MultiViews\nRewriteEngine On\nRewriteCond %{REQUEST_FILENAME}.php -f\nRewriteRule ^([^.]+)$ $1.php [L]"),
                     Example("Options ↓MultiViews FollowSymLinks\nRewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . index.php [L]")],
        nonTriggering: [Example("Options -MultiViews\nRewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . index.php [L]"),
                        Example("Options +MultiViews\nRewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("Options +MultiViews\nOptions None FollowSymLinks\nRewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . index.php [L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.compactMap { file -> Diagnostic? in
            // The Options words first: a 100,000-rule file without MultiViews has no rule to look at.
            guard let rewrite = file.config.block.rewrite, rewrite.engine == true,
                  let word = enablingWord(file.tree.nodes, modules: file.modules),
                  rewrite.rules.contains(where: expectsMissingFile) else { return nil }
            return finding("MultiViews answers `/name` with `name.html` (or a 404 when only `name.php` exists) before these rewrites see the missing file; use `Options -MultiViews`",
                           at: file.source.range(word.range.start, word.range.end))
        }
    }

    /// The `Options` word that leaves MultiViews on at the end of the file's own lines (a plain
    /// list replaces what was set, `-MultiViews` removes it; skipped conditional sections too).
    private func enablingWord(_ nodes: [ConfigNode], modules: ModuleSet) -> Word? {
        var current: Word? = nil
        func visit(_ nodes: [ConfigNode]) {
            for node in nodes {
                switch node {
                case .section(let s):
                    if ConfigReader.conditionHolds(s, modules: modules) == true { visit(s.children) }
                case .directive(let d) where d.key == "options":
                    if !d.words.contains(where: { $0.value.hasPrefix("+") || $0.value.hasPrefix("-") }) { current = nil }
                    for w in d.words {
                        switch w.value.lowercased() {
                        case "multiviews", "+multiviews": current = w
                        case "-multiviews": current = nil
                        default: break
                        }
                    }
                default: break
                }
            }
        }
        visit(nodes)
        return current
    }

    /// A rule that routes missing files: a `-f`/`-d` test, or a substitution that adds an
    /// extension to what the request named (`$1.php`, `%{REQUEST_FILENAME}.html`).
    private func expectsMissingFile(_ rule: RewriteRule) -> Bool {
        if rule.conditions.contains(where: { c in
            if case .file(let kind) = c.test { return kind == "f" || kind == "d" }
            return false
        }) { return true }
        let target = rule.rawSubstitution.split(separator: "?", maxSplits: 1).first ?? ""
        return (target.contains("$") || target.contains("%{")) && (target.hasSuffix(".php") || target.hasSuffix(".html"))
    }
}
