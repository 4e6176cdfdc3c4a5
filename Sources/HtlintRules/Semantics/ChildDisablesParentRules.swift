import HtlintDiagnostics

/// A child `.htaccess` with a mod_rewrite directive but no rules switches the parent's rules off
/// for its directory.
struct ChildDisablesParentRules: LintRule {
    let description = RuleDescription(
        id: "HT213", name: "child-replaces-parent-rules", family: .semantics,
        summary: "a subdirectory `.htaccess` with `RewriteEngine On` but no rules disables the parent's rules there",
        rationale: """
        A `.htaccess` that contains any mod_rewrite directive gets its own rule list, which replaces \
        the parent's: the parent's rules stop running for this directory (apache-semantics §4.4, \
        CT-RW-INH-02). Remove the stray directive, or add `RewriteOptions Inherit`.
        """,
        severity: .warning,
        triggering: [Example("↓RewriteEngine On", parent: "RewriteEngine On\nRewriteRule ^(.*)\\.htm$ /$1.html [R=301,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteOptions Inherit", parent: "RewriteEngine On\nRewriteRule ^a$ /b [L]"),
                        Example("Options -Indexes", parent: "RewriteEngine On\nRewriteRule ^a$ /b [L]"),
                        Example("RewriteEngine On")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.compactMap { file -> Diagnostic? in
            guard file.context == .htaccess, let dir = file.directory, let rw = file.config.block.rewrite,
                  rw.rules.isEmpty, rw.engine != false, !(rw.options ?? []).contains("inherit"),
                  !(rw.options ?? []).contains("inheritbefore") else { return nil }
            // Only meaningful when a parent directory has rules.
            let parentHasRules = context.files.contains { p in
                guard let pd = p.directory, pd != dir, dir.hasPrefix(pd) else { return false }
                return !p.rules.isEmpty
            }
            guard parentHasRules else { return nil }
            let at = rw.engineRange ?? rw.baseRange ?? file.source.range(0, 0)
            return finding("this file's mod_rewrite directives replace the parent's rules for \(dir) without adding any",
                           at: at)
        }
    }
}
