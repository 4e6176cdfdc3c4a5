import HtlintApache
import HtlintDiagnostics

/// In `.htaccess` the pattern never sees a leading slash.
struct LeadingSlashPattern: LintRule {
    let description = RuleDescription(
        id: "HT209", name: "leading-slash-in-htaccess-pattern", family: .semantics,
        summary: "a `.htaccess` pattern anchored on `^/` never matches (or, for `RedirectMatch` in a subdirectory, lacks the directory)",
        rationale: """
        In per-directory context the directory prefix is stripped before matching: `/old` is \
        matched as `old` (apache-semantics §4.6). `^/old` never matches there. Write `^old`, or `^/?old` \
        for rules shared with the server configuration. Inside `<Files>`/`<FilesMatch>` it is the other \
        way round: the pattern sees the full filesystem path (`/var/www/html/b.bak`), so `^/var/www/…` \
        matches there and a pattern anchored on a relative name (`^b\\.bak$`) never does. mod_alias \
        is the reverse: `RedirectMatch` and `Redirect` in `/charts/.htaccess` compare the full URL-path \
        (`/charts/react/`), so `^/react/?$` or `/react` written relative to the directory never match; \
        write `^/charts/react/?$`.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ↓^/old$ /new [R=301,L]"),
                     // In /sub/.htaccess mod_alias sees /sub/react/, never /react/.
                     Example("RedirectMatch 301 ↓\"^/react/?$\" \"/sub/react/quick-start/\"", parent: "RewriteEngine On"),
                     Example("RewriteEngine On\n<Files \"b.bak\">\nRewriteRule ↓^b\\.bak$ /one.html [R=302,L]\n</Files>")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^/?old$ /new [R=301,L]"),
                        Example("RedirectMatch 301 \"^/sub/react/?$\" \"/sub/react/quick-start/\"", parent: "RewriteEngine On"),
                        // Inside <Files> the pattern is matched against the full filesystem path.
                        Example("RewriteEngine On\n<Files \"b.bak\">\nRewriteRule ^/var/www/html/(.*)$ /two.html?x=$1 [R=302,L]\n</Files>")])

    func check(_ context: LintContext) -> [Diagnostic] {
        rewriteFindings(context) + aliasFindings(context)
    }

    /// `RedirectMatch`/`Redirect` in a subdirectory's `.htaccess` written relative to that
    /// directory: mod_alias compares the full URL-path (`/charts/react/`), so `^/react/?$` or
    /// `/react` there never matches (the reverse of the RewriteRule mistake).
    func aliasFindings(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file -> [Diagnostic] in
            guard let dir = file.directory, dir != "/", dir.hasPrefix("/") else { return [] }
            let base = dir.hasSuffix("/") ? String(dir.dropLast()) : dir
            let directives = file.directives.filter { $0.key == "redirectmatch" || $0.key == "redirect" }
            return file.redirects.compactMap { r -> Diagnostic? in
                let literal: String, written: String, name: String
                switch r.matcher {
                case .regex(let re):
                    guard re.pattern.hasPrefix("^/"), let lit = Self.literalPrefix(re.pattern.dropFirst()) else { return nil }
                    literal = lit; written = re.pattern; name = "RedirectMatch"
                case .prefix(let p):
                    literal = p; written = p; name = "Redirect"
                case .everything:
                    return nil
                }
                // Some URL of the directory can match: one path is a prefix of the other.
                guard !(literal + "/").hasPrefix(dir), !dir.hasPrefix(literal) else { return nil }
                guard let d = directives.first(where: { $0.range == r.range }),
                      let word = d.words.first(where: { $0.value == written }) else { return nil }
                let at = word.innerStart + (name == "RedirectMatch" ? 1 : 0)
                let fix = FixIt(title: "Write the full URL-path, starting with `\(base)/`",
                                edits: [TextEdit(range: SourceRange(file: word.range.file, start: at, end: at), replacement: base)],
                                applicability: .unsafe)
                return finding("`\(written)` never matches in \(dir).htaccess: `\(name)` compares the full URL-path, which starts with `\(dir)` there (unlike `RewriteRule`, mod_alias does not strip the directory)",
                               at: word.range, fixes: [fix])
            }
        }
    }

    /// The literal text a pattern (after `^`) requires at its start, up to the first regex
    /// construct; a character a quantifier makes optional is left out. Nil for an inline option.
    static func literalPrefix(_ pattern: Substring) -> String? {
        let chars = Array(pattern)
        var out = "", i = 0
        while i < chars.count {
            var c = chars[i], next = i + 1
            if c == "\\" {
                guard next < chars.count, !chars[next].isLetter, !chars[next].isNumber else { break }
                c = chars[next]; next += 1
            } else if "()[]{}.*+?|^$".contains(c) {
                if c == "(" && next < chars.count && chars[next] == "?" && out.isEmpty { return nil }
                break
            }
            if next < chars.count, "?*{".contains(chars[next]) { break }
            out.append(c)
            i = next
        }
        return out
    }

    func rewriteFindings(_ context: LintContext) -> [Diagnostic] {
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
