import HtlintApache
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
        Write the target with a leading `/` or add `RewriteBase /`. A target with one of mod_rewrite's \
        schemes (`https://`, `mailto:`, …) is absolute, and a `%N` whose `RewriteCond` group starts at the \
        `/` of `%{REQUEST_URI}` or of the path in `%{THE_REQUEST}` already begins with `/`.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ^old$ ↓new [R=301,L]"),
                     // The group starts after the slash: `%1` is `page`, a relative target.
                     Example("""
                             RewriteEngine On
                             RewriteCond %{THE_REQUEST} ^[A-Z]{3,}\\s/([^.]+)\\.php [NC]
                             RewriteRule ^ ↓%1 [R=301,L]
                             """)],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteBase /\nRewriteRule ^old$ new [R=301,L]"),
                        Example("RewriteEngine On\nRewriteRule ^old$ https://example.com/new [R=301,L]"),
                        // mod_rewrite's absolute schemes include `mailto:`.
                        Example("RewriteEngine On\nRewriteRule ^mail$ mailto:me@shop.example [R=302,L]"),
                        // Laravel's stock trailing-slash redirect: `%1` is a prefix of REQUEST_URI.
                        Example("""
                                RewriteEngine On
                                RewriteCond %{REQUEST_FILENAME} !-d
                                RewriteCond %{REQUEST_URI} (.+)/$
                                RewriteRule ^ %1 [L,R=301]
                                """),
                        // The `.php` remover: `%1` starts at the path after the method in THE_REQUEST.
                        Example("""
                                RewriteEngine On
                                RewriteCond %{THE_REQUEST} ^[A-Z]{3,}\\s([^.]+)\\.php [NC]
                                RewriteRule ^ %1 [R=301,L]
                                """)])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            file.rewriteBlocks.filter { $0.base == nil }.flatMap(\.rules).compactMap { rule -> Diagnostic? in
                let s = rule.rawSubstitution
                guard rule.redirects, !rule.isDash, !s.hasPrefix("/"), !s.contains("://"), !s.hasPrefix("%{"),
                      !s.hasPrefix("$"), RewriteRule.absoluteScheme(of: s) == nil,
                      !Self.conditionCaptureStartsWithSlash(rule) else { return nil }
                let fix = FixIt(title: "Make the target absolute (`/\(s)`)",
                                edits: [TextEdit(range: SourceRange(file: rule.substitutionRange.file, start: rule.substitutionRange.start,
                                                                    end: rule.substitutionRange.start), replacement: "/")],
                                applicability: .unsafe)
                return finding("relative redirect target `\(s)` without `RewriteBase`: the Location will contain the server's directory path",
                               at: rule.substitutionRange, fixes: [fix])
            }
        }
    }

    /// The target starts with `%N` and the last matching condition's group N starts at a `/`:
    /// at the start of `%{REQUEST_URI}` or of the path after the method in `%{THE_REQUEST}`.
    static func conditionCaptureStartsWithSlash(_ rule: RewriteRule) -> Bool {
        guard case .conditionCapture(let n)? = rule.substitution.parts.first, n > 0,
              // %N reads the last condition that matched; a negated one leaves no groups.
              let cond = rule.conditions.last, !cond.negated, case .regex = cond.test,
              case .variable(let name)? = cond.testString.parts.first, cond.testString.parts.count == 1,
              let (prefix, body) = groupStart(cond.rawPattern, n) else { return false }
        if body.hasPrefix("/") || body.hasPrefix("\\/") { return true }
        // The group's first atom must be able to match the `/` it starts at.
        let firstAtomTakesSlash = body.hasPrefix(".") || body.hasPrefix("\\S")
            || (body.hasPrefix("[^") && !(body.dropFirst(2).prefix { $0 != "]" }.contains("/")))
        guard firstAtomTakesSlash else { return false }
        switch name.uppercased() {
        case "REQUEST_URI":
            // Anchored at the start, or a leading `.*`/`.+` group that the leftmost match starts at 0.
            return prefix == "^" || (prefix.isEmpty && (body.hasPrefix(".*") || body.hasPrefix(".+")))
        case "THE_REQUEST":
            // `^METHOD\s(` — the group starts right after the first blank, where the path begins.
            var p = Substring(prefix)
            if p.hasPrefix("^") { p = p.dropFirst() }
            for blank in ["\\s+", "\\s", "\\ +", "\\ ", " +", " ", "\\x20"] where p.hasSuffix(blank) {
                let method = p.dropLast(blank.count)
                return !method.contains("\\s") && !method.contains(" ") && !method.contains("/") && !method.contains("(")
            }
            return false
        default:
            return false
        }
    }

    /// The pattern text before capture group `n` (without its `(`) and the group's text after it.
    static func groupStart(_ pattern: String, _ n: Int) -> (String, String)? {
        let chars = Array(pattern)
        var i = 0, count = 0, inClass = false
        while i < chars.count {
            let c = chars[i]
            if c == "\\" { i += 2; continue }
            if inClass { if c == "]" { inClass = false }; i += 1; continue }
            if c == "[" { inClass = true; if i + 1 < chars.count, chars[i + 1] == "]" || chars[i + 1] == "^" { i += 1 } }
            else if c == "(", i + 1 >= chars.count || chars[i + 1] != "?" {
                count += 1
                if count == n { return (String(chars[..<i]), String(chars[(i + 1)...])) }
            }
            i += 1
        }
        return nil
    }
}
