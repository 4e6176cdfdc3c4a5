import Foundation
import HtlintDiagnostics
import HtlintReporting
import Testing

/// The package root, for ../shared.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The byte range of the first occurrence of `needle` in `file` (after `after`, when given).
func range(of needle: String, in file: SourceFile, after: String? = nil) -> SourceRange {
    func find(_ n: String, from start: Int) -> Int? {
        let n = Array(n.utf8), bytes = file.bytes
        guard n.count <= bytes.count, start <= bytes.count - n.count else { return nil }
        return (start...(bytes.count - n.count)).first { Array(bytes[$0..<($0 + n.count)]) == n }
    }
    let from = after.flatMap { a in find(a, from: 0).map { $0 + a.utf8.count } } ?? 0
    guard let start = find(needle, from: from) else {
        Issue.record("`\(needle)` not in \(file.path)")
        return file.range(0, 0)
    }
    return file.range(start, start + needle.utf8.count)
}

/// One fixed report that every format's golden is made from. It has what formats get wrong:
/// multi-byte text before and inside a range, a tab, a range over two lines (ending with its
/// newline), a note with and without a range (one into another file), replacement, insertion
/// and deletion fix-its (one display-only), a code without rule metadata, a clean file, and
/// `%`, `,`, `:`, `&`, `<` and quotes in messages.
enum Fixture {
    static let root = SourceFile(path: "public/.htaccess", text: """
        RewriteEngine On
        # Café, naïve visitors: see the redirect below
        RewriteCond %{HTTPS} off
        RewriteRule ^(.*)$ https://example.org/$1 [R]
        \tRewriteRule ^日本/(.*)$ /ja/$1 [R=302,L]
        Redirect 301 /old \\
            /new

        """)
    static let blog = SourceFile(path: "public/blog/.htaccess", text: """
        RewriteEngine On
        RewriteRule ^(.*)$ /blog/$1 [R=301]

        """)
    static let assets = SourceFile(path: "public/assets/.htaccess", text: "Options -Indexes\n")

    static let rules: [String: RuleMetadata] = [
        "HT203": RuleMetadata(id: "HT203", name: "redirect-without-last", summary: "`[R]` without `[L]` lets later rules rewrite the redirect target.",
                              description: "# HT203 redirect-without-last\n\nmod_rewrite keeps going after `[R]` until a rule ends the pass.\n",
                              defaultSeverity: .warning),
        "HT207": RuleMetadata(id: "HT207", name: "mixed-alias-and-rewrite", summary: "`Redirect` and `RewriteRule` in one file run in a surprising order.",
                              description: "# HT207 mixed-alias-and-rewrite\n\nmod_rewrite's fixups run before mod_alias's.\n",
                              defaultSeverity: .warning, helpURI: "docs/rules/HT207.md"),
        "HT301": RuleMetadata(id: "HT301", name: "redirect-loop-through-cdn", summary: "An HTTPS redirect loops behind a TLS-terminating edge.",
                              description: "# HT301 redirect-loop-through-cdn\n\nBehind `cloudflare-flexible` the origin only sees `http`.\n",
                              defaultSeverity: .error),
        "HT302": RuleMetadata(id: "HT302", name: "rewrite-reentry-loop", summary: "A rewrite into a subdirectory re-enters its `.htaccess`.",
                              description: "# HT302 rewrite-reentry-loop\n\nPer-directory rewrites start over after an internal redirect.\n",
                              defaultSeverity: .error),
        "HT304": RuleMetadata(id: "HT304", name: "temporary-redirect-for-permanent-move", summary: "A permanent move answers with a temporary status.",
                              description: "# HT304 temporary-redirect-for-permanent-move\n\nUse 301 or 308 so that clients and caches remember it.\n",
                              defaultSeverity: .warning),
    ]

    static var report: Report {
        let r = root, b = blog
        let cond = range(of: "%{HTTPS} off", in: r)
        let redirect = range(of: "Redirect 301 /old \\\n    /new\n", in: r)
        let diagnostics = [
            Diagnostic(code: "HT301", severity: .error,
                       message: "`https://example.org/$1` redirects HTTPS visitors to the URL they asked for, 100% of the time behind `cloudflare-flexible`",
                       range: range(of: "https://example.org/$1", in: r),
                       notes: [Note(message: "`%{HTTPS}` is `off` for every request the edge forwards", range: cond),
                               Note(message: "witness: `GET https://example.org/` answers `302 <same URL>` & loops")],
                       fixIts: [FixIt(title: "Test `%{HTTP:X-Forwarded-Proto}` instead of `%{HTTPS}`",
                                      edits: [TextEdit(range: cond, replacement: "%{HTTP:X-Forwarded-Proto} !=https")],
                                      applicability: .unsafe)]),
            Diagnostic(code: "HT602", severity: .note,
                       message: "non-ASCII pattern `日本` matches the decoded path, not `%E6%97%A5%E6%9C%AC`",
                       range: range(of: "日本", in: r)),
            Diagnostic(code: "HT304", severity: .warning, message: "`[R=302]` used for a permanent move",
                       range: range(of: "R=302", in: r),
                       fixIts: [FixIt(title: "Use `[R=301]`", edits: [TextEdit(range: range(of: "R=302", in: r), replacement: "R=301")],
                                      applicability: .unsafe)]),
            Diagnostic(code: "HT207", severity: .warning,
                       message: "`Redirect` in a file that also uses `RewriteRule`: mod_rewrite runs first",
                       range: redirect,
                       notes: [Note(message: "mod_alias sees the URL after mod_rewrite's fixups, \"/old\" included")],
                       fixIts: [FixIt(title: "Remove the `Redirect`", edits: [TextEdit(range: redirect, replacement: "")],
                                      applicability: .unsafe)]),
            Diagnostic(code: "HT302", severity: .error, message: "rewrite to `/blog/` re-enters this file and loops",
                       range: range(of: "^(.*)$", in: b),
                       notes: [Note(message: "the root file sends `/` here", range: range(of: "RewriteRule", in: r))]),
            Diagnostic(code: "HT203", severity: .warning, message: "`[R]` without `[L]`: later rules still run",
                       range: range(of: "[R=301]", in: b),
                       fixIts: [FixIt(title: "Add `L`", edits: [TextEdit(range: .point(b.path, range(of: "]", in: b, after: "[R=301").start), replacement: ",L")],
                                      applicability: .safe),
                                FixIt(title: "Use `[END]` to stop re-entry as well", edits: [TextEdit(range: range(of: "[R=301]", in: b), replacement: "[R=301,END]")],
                                      applicability: .displayOnly)]),
        ]
        return Report(diagnostics: diagnostics, sources: [root, blog, assets],
                      checkedPaths: [root.path, assets.path, blog.path], rules: rules, toolVersion: "1.2.3")
    }

    /// The same findings without sources, metadata or version: what a minimal caller passes.
    static var bareReport: Report {
        Report(diagnostics: report.diagnostics, sources: [], checkedPaths: [])
    }
}
