import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// Errors Apache finds when it reads a file; each makes every request through that `.htaccess`
/// answer 500. The engine reports them (`ConfigReader`); these rules give them a catalog entry.
struct ReadErrorRule: LintRule {
    let description: RuleDescription

    func check(_ context: LintContext) -> [Diagnostic] {
        // The catalog's severity caps the reader's: an unterminated quote is an error to the
        // reader (almost always a typo) but Apache answers normally, so HT103 is a warning.
        context.files.flatMap { file in
            file.config.diagnostics.filter { $0.code == description.id }.map { d in
                var d = d
                if description.severity < d.severity { d.severity = description.severity }
                if d.code == ConfigCode.unknownDirective { explainByteOrderMark(&d, file.source) }
                return d
            }
        }
    }

    /// An editor's invisible UTF-8 byte-order mark glued to the first directive's name: the
    /// message alone shows `\xef\xbb\xbf` before a name that looks right in the editor.
    private func explainByteOrderMark(_ d: inout Diagnostic, _ source: SourceFile) {
        let b = source.bytes, at = d.range.start
        guard at + 3 <= b.count, b[at] == 0xEF, b[at + 1] == 0xBB, b[at + 2] == 0xBF else { return }
        d.notes.append(Note(message: "the line starts with an invisible UTF-8 byte-order mark (BOM), which Apache reads as part of "
                            + "the directive's name; save the file as UTF-8 without BOM"))
        d.fixIts.append(FixIt(title: "Remove the byte-order mark",
                              edits: [TextEdit(range: SourceRange(file: d.range.file, start: at, end: at + 3), replacement: "")],
                              applicability: .safe))
    }
}

private let fiveHundred = "Apache stops reading the file at the first such error and answers **500 Internal Server Error** for every request whose directory walk reads this `.htaccess`; the error log names the file and the message."

let readErrorRules: [any LintRule] = [
    ReadErrorRule(description: RuleDescription(
        id: "HT101", name: "malformed-section", family: .syntax,
        summary: "a section is not closed, closed by the wrong tag, closed without being opened, or lacks its `>`",
        rationale: "Sections must nest: `</IfModule>` closes the innermost open `<IfModule>`. \(fiveHundred)",
        severity: .error,
        triggering: [Example("<IfModule mod_rewrite.c>\nRewriteEngine On\n↓</IfDefine>\n</IfModule>"),
                     Example("RewriteEngine On\n↓</IfModule>")],
        nonTriggering: [Example("<IfModule mod_rewrite.c>\nRewriteEngine On\n</IfModule>")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT102", name: "line-too-long", family: .syntax,
        summary: "a logical line longer than the 8192 bytes (its line end included) Apache reads in `.htaccess`",
        rationale: "Apache reads `.htaccess` lines into an 8 KiB buffer: a longer line (after joining `\\` continuations) is a read error. \(fiveHundred)",
        severity: .error,
        triggering: [Example("↓RewriteRule ^(" + String(repeating: "a|", count: 4200) + "b)$ /x [L]")],
        nonTriggering: [Example("RewriteRule ^(a|b)$ /x [L]")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT103", name: "unterminated-quote", family: .syntax,
        summary: "a quoted argument without its closing quote",
        rationale: "Apache does not complain: the argument silently runs to the end of the line, swallowing what follows (flags, further arguments), and requests are answered normally. It is almost always a typo.",
        severity: .warning,
        triggering: [Example("Header set X-Test ↓\"value\nRewriteEngine On"), Example("ErrorDocument 404 ↓\"custom text")],
        nonTriggering: [Example("Header set X-Test \"value\""), Example("ErrorDocument 404 \"custom text\"")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT104", name: "binary-content", family: .syntax,
        summary: "the file contains NUL bytes or invalid UTF-8",
        rationale: "A configuration file is text. NUL bytes mean a wrong upload or a UTF-16 file, and Apache reads each line only up to its first NUL (a UTF-16 file keeps one character of its first line); invalid UTF-8 makes patterns and messages unreliable.",
        severity: .error,
        triggering: [Example("RewriteEngine On\n↓\u{0}\u{0}")],
        nonTriggering: [Example("RewriteEngine On")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT110", name: "unknown-directive", family: .syntax,
        summary: "a directive Apache does not know, or whose module is not loaded",
        rationale: "`Invalid command 'X', perhaps misspelled or defined by a module not included in the server configuration`. \(fiveHundred) Wrap directives of optional modules in `<IfModule>`. A file saved with a UTF-8 byte-order mark fails the same way: Apache reads the invisible mark as part of the first directive's name (`Invalid command '\\xef\\xbb\\xbfRewriteEngine'`).",
        severity: .error,
        triggering: [Example("↓RewriteEngien On"), Example("↓php_value upload_max_filesize 10M"),
                     // A byte-order mark (U+FEFF, saved by some Windows editors) before the first directive.
                     Example("↓\u{FEFF}RewriteEngine On")],
        nonTriggering: [Example("RewriteEngine On"), Example("<IfModule mod_php.c>\nphp_value upload_max_filesize 10M\n</IfModule>")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT111", name: "directive-not-allowed-here", family: .syntax,
        summary: "a server-configuration directive or section inside `.htaccess`",
        rationale: "`RewriteMap`, `ServerName`, `Alias`, `<Directory>`, `<VirtualHost>` and the like belong in the server configuration: `… not allowed here`. \(fiveHundred)",
        severity: .error,
        triggering: [Example("↓RewriteMap m txt:/etc/map.txt"), Example("↓<Directory /var/www>\n</Directory>")],
        nonTriggering: [Example("RewriteEngine On")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT112", name: "invalid-arguments", family: .syntax,
        summary: "wrong number or form of arguments (`RewriteEngine yes`, `Redirect /a b`, a trailing comment, an empty `<RequireAll>`)",
        rationale: "Apache checks every directive's arguments when it reads the file. There are no trailing comments: `Redirect 301 /a /b # note` has four arguments. \(fiveHundred)",
        severity: .error,
        triggering: [Example("RewriteEngine ↓yes"), Example("Redirect ↓301 /a /b # note"), Example("RewriteRule ↓^a$"),
                     Example("↓<RequireAll>\n</RequireAll>")],
        nonTriggering: [Example("RewriteEngine On"), Example("Redirect 301 /a /b")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT113", name: "invalid-rewrite-flag", family: .syntax,
        summary: "an unknown or malformed `RewriteRule`/`RewriteCond` flag, or flags not in `[...]`",
        rationale: "`RewriteRule: unknown flag 'X'`, `bad flag delimiters`, `invalid HTTP response code`. A space inside the brackets splits the flags into a fourth argument. \(fiveHundred)",
        severity: .error,
        triggering: [Example("RewriteRule ^a$ /b [L,↓X]"), Example("RewriteRule ^a$ /b ↓L"), Example("RewriteRule ^a$ /b [↓R=999]")],
        nonTriggering: [Example("RewriteRule ^a$ /b [R=301,L]")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT114", name: "invalid-regex", family: .syntax,
        summary: "a regular expression PCRE2 cannot compile",
        rationale: "`cannot compile regular expression`. The finding points at the character where PCRE2 gave up. \(fiveHundred)",
        severity: .error,
        triggering: [Example("RewriteRule ^(old$↓ /new [L]")],
        nonTriggering: [Example("RewriteRule ^(old)$ /new [L]")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT115", name: "invalid-expression", family: .syntax,
        summary: "an `<If>`, `RewriteCond expr` or `Header ... expr=` condition Apache cannot parse, e.g. an unknown variable",
        rationale: "`%{HTTP_X_FORWARDED_PROTO}` is not an ap_expr variable (use `%{HTTP:X-Forwarded-Proto}`): `Cannot parse condition clause` (`Can't parse envclause/expression` for `Header`). \(fiveHundred)",
        severity: .error,
        triggering: [Example("<If ↓\"%{HTTP_X_FORWARDED_PROTO} == 'https'\">\n</If>")],
        nonTriggering: [Example("<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\n</If>")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT116", name: "unclosed-section", family: .syntax,
        summary: "a `<Files>`, `<If>` or false `<IfModule>` section still open at the end of the file",
        rationale: "`<Files> was not closed.` — a true `<IfModule>` may silently run to the end of the file, but every other section must be closed. \(fiveHundred)",
        severity: .error,
        triggering: [Example("↓<Files \"wp-config.php\">\nRequire all denied")],
        nonTriggering: [Example("<Files \"wp-config.php\">\nRequire all denied\n</Files>")])),
    ReadErrorRule(description: RuleDescription(
        id: "HT118", name: "error-directive", family: .syntax,
        summary: "an `Error` directive outside a section that skips it",
        rationale: "`Error \"message\"` makes Apache stop reading with that message: the server does not start, or the `.htaccess` answers 500. It belongs inside a section that is false on a correct server, such as `<IfModule !mod_rewrite.c>`. \(fiveHundred)",
        severity: .error,
        triggering: [Example("↓Error \"mod_rewrite is required\"")],
        nonTriggering: [Example("<IfModule !mod_rewrite.c>\nError \"mod_rewrite is required\"\n</IfModule>")])),
]
