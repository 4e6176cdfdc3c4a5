import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// A `.htaccess` that Apache never opens: `AllowOverride None` (and no `AllowOverrideList`)
/// applies to its directory, so none of its directives has any effect. The context lists such
/// files apart (`unreadAccessFiles`): no other rule reads them. Recorded on Apache
/// 2.4.71 (allowoverride-classes, allowoverride-inherited-by-subdir): the rules of such a file
/// never run, and even a syntax error in it goes unnoticed.
struct AccessFileNotRead: LintRule {
    let description = RuleDescription(
        id: "HT223", name: "htaccess-not-read", family: .semantics,
        summary: "Apache never reads this `.htaccess`: `AllowOverride None` applies to its directory",
        rationale: """
        Apache opens a directory's `.htaccess` only when the `<Directory>` sections of the server \
        configuration allow some override there (`AllowOverride` other than `None`, or an \
        `AllowOverrideList`). With `None` the file is not even read: its redirects and rewrites \
        never run, and a mistake in it never shows as a 500. Debian's stock `apache2.conf` sets \
        `AllowOverride None` for `/var/www/`, so a site whose virtual host does not allow \
        overrides ignores every `.htaccess`. Allow what the file needs in the virtual host \
        (`AllowOverride FileInfo` covers mod_rewrite and mod_alias, `All` everything), or move its \
        directives into the `<Directory>` block. htlint reads `--vhost` for this; without it the \
        document root allows every override, as on most shared hosts.
        """,
        severity: .warning,
        triggering: [Example("↓RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]", vhost: "<Directory ${DOCROOT}>\nAllowOverride None\n</Directory>")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]", vhost: "<Directory ${DOCROOT}>\nAllowOverride FileInfo\n</Directory>"),
                        Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]", vhost: "<Directory ${DOCROOT}>\nAllowOverride None\nAllowOverrideList RewriteEngine RewriteRule\n</Directory>")])

    func check(_ context: LintContext) -> [Diagnostic] {
        // Where the files are mounted, for `${DOCROOT}` and the sections' paths.
        let mountedRoot = context.site?.mountedRoot ?? "/var/www/html"
        return context.unreadAccessFiles.compactMap { file -> Diagnostic? in
            guard let directory = file.directory else { return nil }
            let path = SiteFileSystem.normalize(mountedRoot + directory)
            let setting = Self.allowOverrideLine(covering: path, in: context, mountedRoot: mountedRoot)
            let start = file.directives.first?.range ?? file.source.range(0, 0)
            return finding("Apache never reads this file: `AllowOverride None` applies to \(directory)"
                           + (setting.map { " (`<Directory \($0.section)>`)" } ?? "")
                           + ", so none of its directives has any effect; allow what it needs there (`AllowOverride FileInfo` for rewrites and redirects)",
                           at: SourceRange(file: start.file, start: start.start, end: start.start),
                           notes: setting.map { [Note(message: "overrides are turned off here", range: $0.range)] } ?? [])
        }
    }

    /// The `AllowOverride` line that decides for `path`: the last one in the deepest
    /// `<Directory>` section (by its plain path; wildcard sections are not named) from `/` down.
    static func allowOverrideLine(covering path: String, in context: LintContext, mountedRoot: String) -> (section: String, range: SourceRange)? {
        var found: (section: String, depth: Int, range: SourceRange)? = nil
        for file in context.files where file.context == .server {
            func visit(_ nodes: [ConfigNode]) {
                for case .section(let section) in nodes {
                    if section.key == "directory" {
                        let written = section.argumentText.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                        let dir = SiteFileSystem.normalize(written.replacingOccurrences(of: "${DOCROOT}", with: mountedRoot))
                        let covers = dir == "/" || path == dir || path.hasPrefix(dir + "/")
                        let depth = dir == "/" ? 0 : dir.split(separator: "/").count
                        if covers, depth >= (found?.depth ?? -1) {
                            for case .directive(let d) in section.children where d.key == "allowoverride" || d.key == "allowoverridelist" {
                                found = (written, depth, d.range)
                            }
                        }
                    }
                    visit(section.children)
                }
            }
            visit(file.tree.nodes)
        }
        return found.map { ($0.section, $0.range) }
    }
}
