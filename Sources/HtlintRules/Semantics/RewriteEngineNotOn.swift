import HtlintApache
import HtlintDiagnostics

/// Rules in a file where the engine is never switched on do nothing.
struct RewriteEngineNotOn: LintRule {
    let description = RuleDescription(
        id: "HT201", name: "rewrite-engine-off", family: .semantics,
        summary: "`RewriteRule` in a file that never says `RewriteEngine On`",
        rationale: """
        mod_rewrite is off by default. Unless the virtual host or a parent `.htaccess` switches it on, \
        the rules of this file never run — silently. Add `RewriteEngine On` before the first rule.
        """,
        severity: .warning,
        triggering: [Example("↓RewriteRule ^old$ /new [R=301,L]"), Example("RewriteEngine Off\n↓RewriteRule ^a$ /b [L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        // The virtual host switches the engine on for the whole host.
                        Example("RewriteRule ^a$ /c.html [R=302,L]", vhost: "RewriteEngine On"),
                        // …or in the `<Directory>` block of the document root.
                        Example("RewriteRule ^a$ /c.html [R=302,L]",
                                vhost: "<Directory ${DOCROOT}>\nRewriteEngine On\n</Directory>")])

    func check(_ context: LintContext) -> [Diagnostic] {
        // A parent .htaccess that switches the engine on covers child files that do not set it.
        let parentsOn = context.files.filter { f in f.rewriteBlocks.contains { $0.engine == true } }.compactMap(\.directory)
        return context.files.compactMap { file in
            guard let first = file.rules.first else { return nil }
            let engine = file.config.block.rewrite?.engine
            if engine == true { return nil }
            if engine == nil, let dir = file.directory, parentsOn.contains(where: { dir != $0 && dir.hasPrefix($0) }) { return nil }
            if engine == nil, let dir = file.directory, let site = context.site,
               Self.vhostEngine(site, directory: dir) == true { return nil }
            return finding("`RewriteRule` without `RewriteEngine On`: the rules of this file never run", at: first.range,
                           fixes: [FixIt(title: "Add `RewriteEngine On`",
                                         edits: [TextEdit(range: SourceRange(file: first.range.file, start: first.range.start, end: first.range.start),
                                                          replacement: "RewriteEngine On\n")],
                                         applicability: .unsafe)])
        }
    }

    /// The engine state the virtual host leaves for a directory (URL-path): its own
    /// `RewriteEngine` (mod_rewrite copies it into the host's per-directory defaults), then the
    /// `<Directory>` blocks from the shortest path down.
    static func trimSlashes(_ path: String) -> String {
        var p = path
        while p.count > 1, p.hasSuffix("/") { p.removeLast() }
        return p
    }

    static func vhostEngine(_ site: Site, directory: String) -> Bool? {
        let block = site.vhost.block
        var state = block.rewrite?.engine
        let target = trimSlashes(site.documentRoot + directory)
        let dirs = (block.server?.directories ?? []).map {
            (path: trimSlashes($0.path.replacingOccurrences(of: "${DOCROOT}", with: site.documentRoot)), block: $0.block)
        }.sorted { $0.path.count < $1.path.count }
        for d in dirs where d.path == "/" || target == d.path || target.hasPrefix(d.path + "/") {
            if let e = d.block.rewrite?.engine { state = e }
        }
        return state
    }
}
