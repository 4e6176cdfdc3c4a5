import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// `Options Indexes` (or `All`, which includes it in Apache 2.4): mod_autoindex lists every
/// directory that has no index file.
struct DirectoryListing: LintRule {
    let description = RuleDescription(
        id: "HT412", name: "directory-listing-enabled", family: .security,
        summary: "`Options Indexes` (or `All`) lets Apache list the files of any directory without an index file",
        rationale: """
        With `Indexes`, a request for a directory that has no `DirectoryIndex` file answers with a \
        generated list of its files: backups, uploads, exports and includes that were never linked \
        become one click away (OWASP WSTG-CONF-04, CWE-548). In Apache 2.4 `Options All` means every \
        option except `MultiViews`, so it enables listings too. Write `Options -Indexes` (keep the \
        other options with `+`/`-` forms), or list only what the site needs \
        (`Options FollowSymLinks`). An `Options -Indexes` later in the same section cancels an \
        earlier one and is not reported, nor is an `Options` inside an `<IfModule>` (or other \
        conditional section) that Apache skips.
        """,
        severity: .warning,
        triggering: [
            Example("Options ↓+Indexes"),
            Example("Options FollowSymLinks ↓Indexes"),
            Example("Options ↓All"),
        ],
        nonTriggering: [
            Example("Options -Indexes +FollowSymLinks"),
            Example("Options +Indexes\nOptions -Indexes"),
            Example("Options FollowSymLinks MultiViews"),
            Example("<IfModule mod_php_not_loaded.c>\nOptions +Indexes\n</IfModule>"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in
            scope(file.tree.nodes, modules: file.modules).map { word in
                finding("`Options \(word.value)` enables directory listings: a directory without an index file "
                        + "shows all its files", at: file.source.range(word.range.start, word.range.end))
            }
        }
    }

    /// The words that enable listings in one section's directives, after later `Options` in the
    /// same section had their say. Conditional sections (`<IfModule>`…) belong to their parent's
    /// scope when Apache reads them and are skipped when it does not; `<Directory>`, `<Files>`,
    /// `<If>` and friends are scopes of their own.
    private func scope(_ nodes: [ConfigNode], modules: ModuleSet) -> [Word] {
        var pending: [Word] = []
        var nested: [Word] = []
        func visit(_ nodes: [ConfigNode]) {
            for node in nodes {
                switch node {
                case .comment: break
                case .section(let s):
                    if let holds = ConfigReader.conditionHolds(s, modules: modules) {
                        if holds { visit(s.children) }
                    } else {
                        nested += scope(s.children, modules: modules)
                    }
                case .directive(let d) where d.key == "options":
                    let words = d.words
                    let signed = words.contains { $0.value.hasPrefix("+") || $0.value.hasPrefix("-") }
                    // A plain list replaces what was set before; `-Indexes` removes it.
                    if !signed { pending = [] }
                    for w in words {
                        let v = w.value.lowercased()
                        if v == "-indexes" || v == "-all" { pending = [] }
                        if ["indexes", "+indexes", "all", "+all"].contains(v) { pending.append(w) }
                    }
                case .directive: break
                }
            }
        }
        visit(nodes)
        return pending + nested
    }
}
