import HtlintApache
import HtlintDiagnostics

/// In `.htaccess` the pattern never sees a leading slash.
struct LeadingSlashPattern: LintRule {
    let description = RuleDescription(
        id: "HT209", name: "leading-slash-in-htaccess-pattern", family: .semantics,
        summary: "a `.htaccess` pattern anchored on `^/` never matches",
        rationale: """
        In per-directory context the directory prefix is stripped before matching: `/old` is \
        matched as `old` (apache-semantics §4.6). `^/old` never matches there. Write `^old`, or `^/?old` \
        for rules shared with the server configuration. Inside `<Files>`/`<FilesMatch>` it is the other \
        way round: the pattern sees the full filesystem path (`/var/www/html/b.bak`), so `^/var/www/…` \
        matches there and a pattern anchored on a relative name (`^b\\.bak$`) never does.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ↓^/old$ /new [R=301,L]"),
                     Example("RewriteEngine On\n<Files \"b.bak\">\nRewriteRule ↓^b\\.bak$ /one.html [R=302,L]\n</Files>")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^/?old$ /new [R=301,L]"),
                        // Inside <Files> the pattern is matched against the full filesystem path.
                        Example("RewriteEngine On\n<Files \"b.bak\">\nRewriteRule ^/var/www/html/(.*)$ /two.html?x=$1 [R=302,L]\n</Files>")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            let inFiles = Self.rulesInFilesSections(file.config.block)
            return file.rules.compactMap { rule -> Diagnostic? in
                if inFiles.contains(ObjectIdentifier(rule)) {
                    // The full filesystem path starts with `/`: `^` then a name character never matches.
                    guard !rule.negated, rule.pattern.hasPrefix("^"),
                          let c = rule.pattern.dropFirst().first, c.isLetter || c.isNumber || c == "_" else { return nil }
                    return finding("`\(rule.pattern)` never matches inside <Files>: there the pattern is matched against the full filesystem path, which starts with `/`",
                                   at: rule.patternRange)
                }
                guard rule.pattern.hasPrefix("^/"), !rule.pattern.hasPrefix("^/?"), !rule.pattern.hasPrefix("^/*"),
                      !rule.negated else { return nil }
                var fixes: [FixIt] = []
                let raw = Array(file.text(rule.patternRange).utf8)
                if let caret = raw.firstIndex(of: UInt8(ascii: "^")), caret + 1 < raw.count, raw[caret + 1] == UInt8(ascii: "/") {
                    let at = rule.patternRange.start + caret + 1
                    fixes.append(FixIt(title: "Remove the leading slash",
                                       edits: [TextEdit(range: SourceRange(file: rule.patternRange.file, start: at, end: at + 1),
                                                        replacement: "")],
                                       applicability: .safe))
                }
                return finding("`\(rule.pattern)` never matches in .htaccess: the path is matched without its leading slash",
                               at: rule.patternRange, fixes: fixes)
            }
        }
    }

    /// The rules that stand inside `<Files>`/`<FilesMatch>` sections (at any depth).
    static func rulesInFilesSections(_ block: ConfigBlock) -> Set<ObjectIdentifier> {
        var out = Set<ObjectIdentifier>()
        func all(_ b: ConfigBlock) {
            for r in b.rewrite?.rules ?? [] { out.insert(ObjectIdentifier(r)) }
            for f in b.files { all(f.block) }
            for chain in b.ifChains { for branch in chain.branches { all(branch.block) } }
        }
        func visit(_ b: ConfigBlock) {
            for f in b.files { all(f.block) }
            for chain in b.ifChains { for branch in chain.branches { visit(branch.block) } }
        }
        visit(block)
        return out
    }
}
