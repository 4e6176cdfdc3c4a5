import HtlintApache
import HtlintDiagnostics

/// A child `.htaccess` with mod_rewrite directives gets its own rule list, which replaces the
/// parent's for its directory: without rules it switches them off outright; with rules of its
/// own it silently drops the parent's https/host redirects and blocking rules there.
struct ChildDisablesParentRules: LintRule {
    let description = RuleDescription(
        id: "HT213", name: "child-replaces-parent-rules", family: .semantics,
        summary: "a subdirectory `.htaccess` with mod_rewrite directives replaces the parent's rules there: without rules of its own, or dropping the parent's https/host redirect or blocking rule",
        rationale: """
        A `.htaccess` that contains any mod_rewrite directive gets its own rule list, which replaces \
        the parent's: the parent's rules stop running for this directory (apache-semantics §4.4, \
        CT-RW-INH-02). A stray `RewriteEngine On` switches them off outright. A subdirectory \
        application with its own rules (a CMS in `/shop/`) quietly loses the site's "force https", \
        canonical-host and `[F]` security rules for every URL below it. Add `RewriteOptions Inherit` \
        (the parent's rules then run after this file's), or repeat the rules here.
        """,
        severity: .warning,
        triggering: [Example("↓RewriteEngine On", parent: "RewriteEngine On\nRewriteRule ^(.*)\\.htm$ /$1.html [R=301,L]"),
                     Example("↓RewriteEngine On\nRewriteRule ^x$ index.php [L]",
                             parent: "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
                     Example("↓RewriteEngine On\nRewriteRule ^x$ index.php [L]", parent: "RewriteEngine On\nRewriteRule (^|/)\\.git - [F]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteOptions Inherit", parent: "RewriteEngine On\nRewriteRule ^a$ /b [L]"),
                        Example("Options -Indexes", parent: "RewriteEngine On\nRewriteRule ^a$ /b [L]"),
                        Example("RewriteEngine On"),
                        // The parent's rules are ordinary rewrites: replacing them is the point.
                        Example("RewriteEngine On\nRewriteRule ^x$ index.php [L]", parent: "RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteOptions Inherit\nRewriteRule ^x$ index.php [L]",
                                parent: "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]"),
                        // The parent's https redirect never covered this directory.
                        Example("RewriteEngine On\nRewriteRule ^x$ index.php [L]",
                                parent: "RewriteEngine On\nRewriteCond %{HTTPS} off\nRewriteRule ^admin/ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.compactMap { file -> Diagnostic? in
            guard file.context == .htaccess, let dir = file.directory, let rw = file.config.block.rewrite,
                  rw.engine != false, !(rw.options ?? []).contains("inherit"),
                  !(rw.options ?? []).contains("inheritbefore") else { return nil }
            let parents = context.files.filter { p in
                guard let pd = p.directory, pd != dir, dir.hasPrefix(pd) else { return false }
                // A parent with `InheritDown`/`InheritDownBefore` hands its rules down itself.
                let options = p.config.block.rewrite?.options ?? []
                return !p.rules.isEmpty && !options.contains("inheritdown") && !options.contains("inheritdownbefore")
            }
            guard !parents.isEmpty else { return nil }
            let at = rw.engineRange ?? rw.baseRange ?? file.rules.first?.range ?? file.source.range(0, 0)
            if rw.rules.isEmpty {
                return finding("this file's mod_rewrite directives replace the parent's rules for \(dir) without adding any",
                               at: at)
            }
            // With rules of its own, only the parent's rules that guard the whole site matter.
            let dropped = parents.flatMap { p in p.rules.filter { kind(of: $0) != nil && covers($0, p.directory!, dir) } }
            guard let first = dropped.first else { return nil }
            let names = dropped.prefix(3).map { "\(kind(of: $0) ?? "rule") (line \($0.line))" }.joined(separator: ", ")
            return finding("this file's rules replace the parent's for \(dir): the parent's \(names) no longer \(dropped.count == 1 ? "runs" : "run") for any URL "
                           + "below \(dir); add `RewriteOptions Inherit` or repeat \(dropped.count == 1 ? "it" : "them") here",
                           at: at, notes: [Note(message: "dropped for \(dir)", range: first.range)])
        }
    }

    /// What guards the whole site, if the rule does: a redirect to https or to the canonical
    /// host, or a rule that refuses requests; nil for an ordinary rule.
    private func kind(of rule: RewriteRule) -> String? {
        if rule.flags.statusOverride == 403 || rule.flags.statusOverride == 410 { return "blocking rule" }
        guard let code = rule.flags.redirect, (300...399).contains(code) else { return nil }
        let variables = rule.conditions.flatMap(\.variables)
        if variables.contains(where: { ForwardedHeaders.connectionVariables.contains($0) || $0 == "ENV:HTTPS"
            || ForwardedHeaders.isForwarded(variable: $0) }) { return "https redirect" }
        if variables.contains("HTTP_HOST") { return "canonical-host redirect" }
        return nil
    }

    /// Whether the parent's rule can see URLs of the child directory. Its per-directory input
    /// there starts with the child's path relative to the parent; a pattern anchored on another
    /// literal start (`^admin/`) never does, any other pattern may.
    private func covers(_ rule: RewriteRule, _ parentDirectory: String, _ child: String) -> Bool {
        guard !rule.negated, rule.pattern.hasPrefix("^"),
              var start = LeadingSlashPattern.literalPrefix(rule.pattern.dropFirst()) else { return true }
        var relative = String(child.dropFirst(parentDirectory.count))
        if rule.flags.noCase { start = start.lowercased(); relative = relative.lowercased() }
        return relative.hasPrefix(start) || start.hasPrefix(relative)
    }
}
