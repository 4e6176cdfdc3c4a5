import HtlintDiagnostics

/// What htlint reads from a `wp-config.php` as text (spec §12.2, §12.4): the `WP_HOME` and
/// `WP_SITEURL` constants, whether the reverse-proxy fix sets `$_SERVER['HTTPS']`, and where
/// `wp-settings.php` is loaded (the fix must come before it). PHP comments are skipped, so a
/// commented-out `define` does not count.
struct WordPressConfig {
    /// A `define('WP_HOME', '…')` with the range of its value's text.
    struct Constant {
        var name: String
        var value: String
        var range: SourceRange
    }

    var file: SourceFile
    var constants: [Constant] = []
    /// `$_SERVER['HTTPS'] = 'on'` (or `1`, `true`) is assigned somewhere.
    var setsHTTPS = false
    /// Start of the line that loads `wp-settings.php`.
    var settingsLine: Int?

    init(_ file: SourceFile) {
        self.file = file
        let code = Self.codeOnly(file.bytes)
        var i = 0
        while i < code.count {
            if Self.word("define", at: i, in: code), let c = parseDefine(code, from: i + 6) { constants.append(c) }
            if Self.word("$_server", at: i, in: code), Self.assignsHTTPSOn(code, from: i + 8) { setsHTTPS = true }
            if settingsLine == nil, Self.word("wp-settings.php", at: i, in: code) {
                var start = i
                while start > 0, code[start - 1] != UInt8(ascii: "\n") { start -= 1 }
                while start < i, code[start] == UInt8(ascii: " ") || code[start] == UInt8(ascii: "\t") { start += 1 }
                settingsLine = start
            }
            i += 1
        }
    }

    /// Every `wp-config.php` at the document root or one directory down (WordPress in `/blog`).
    static func all(in context: LintContext) -> [WordPressConfig] {
        context.content.paths.filter {
            $0.hasSuffix("/wp-config.php") && $0.split(separator: "/").count <= 2
        }.compactMap { context.content.file($0).map(WordPressConfig.init) }
    }

    /// `define ( 'NAME' , 'value'`: the constants htlint cares about.
    private func parseDefine(_ b: [UInt8], from start: Int) -> Constant? {
        var i = Self.skipSpace(b, start)
        guard i < b.count, b[i] == UInt8(ascii: "(") else { return nil }
        guard let (name, _, afterName) = Self.string(b, Self.skipSpace(b, i + 1)),
              name == "WP_HOME" || name == "WP_SITEURL" else { return nil }
        i = Self.skipSpace(b, afterName)
        guard i < b.count, b[i] == UInt8(ascii: ",") else { return nil }
        guard let (value, valueStart, afterValue) = Self.string(b, Self.skipSpace(b, i + 1)) else { return nil }
        return Constant(name: name, value: value, range: file.range(valueStart, afterValue - 1))
    }

    /// After `$_SERVER`: `[ 'HTTPS' ] = 'on'` (not `==`).
    private static func assignsHTTPSOn(_ b: [UInt8], from start: Int) -> Bool {
        var i = skipSpace(b, start)
        guard i < b.count, b[i] == UInt8(ascii: "[") else { return false }
        guard let (key, _, after) = string(b, skipSpace(b, i + 1)), key.uppercased() == "HTTPS" else { return false }
        i = skipSpace(b, after)
        guard i < b.count, b[i] == UInt8(ascii: "]") else { return false }
        i = skipSpace(b, i + 1)
        guard i + 1 < b.count, b[i] == UInt8(ascii: "="), b[i + 1] != UInt8(ascii: "=") else { return false }
        i = skipSpace(b, i + 1)
        if let (value, _, _) = string(b, i) { return value.lowercased() == "on" || value == "1" }
        return word("1", at: i, in: b) || word("true", at: i, in: b)
    }

    /// A quoted PHP string at `i`: its text, the offset of its first character, and the offset
    /// after the closing quote.
    private static func string(_ b: [UInt8], _ i: Int) -> (String, Int, Int)? {
        guard i < b.count, b[i] == UInt8(ascii: "'") || b[i] == UInt8(ascii: "\"") else { return nil }
        let quote = b[i]
        var j = i + 1
        while j < b.count, b[j] != quote {
            if b[j] == UInt8(ascii: "\\") { j += 1 }
            j += 1
        }
        guard j < b.count else { return nil }
        return (String(decoding: b[(i + 1)..<j], as: UTF8.self), i + 1, j + 1)
    }

    private static func skipSpace(_ b: [UInt8], _ start: Int) -> Int {
        var i = start
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
        return i
    }

    /// `text` (ASCII, matched case-insensitively) at `i`.
    private static func word(_ text: String, at i: Int, in b: [UInt8]) -> Bool {
        let w = Array(text.utf8)
        guard i + w.count <= b.count else { return false }
        for k in 0..<w.count where b[i + k] | (w[k] >= 0x61 && w[k] <= 0x7A ? 0x20 : 0) != w[k] { return false }
        return true
    }

    /// The bytes with PHP comments (`//`, `#`, `/* */`) blanked to spaces, offsets kept; strings
    /// are left alone, so `'http://…'` is not taken for a comment.
    static func codeOnly(_ input: [UInt8]) -> [UInt8] {
        var b = input
        var i = 0
        func blank(_ from: Int, _ to: Int) {
            for k in from..<min(to, b.count) where b[k] != UInt8(ascii: "\n") { b[k] = 0x20 }
        }
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
                var j = i + 1
                while j < b.count, b[j] != c {
                    if b[j] == UInt8(ascii: "\\") { j += 1 }
                    j += 1
                }
                i = j + 1
            } else if c == UInt8(ascii: "#") || (c == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: "/")) {
                var j = i
                while j < b.count, b[j] != UInt8(ascii: "\n") { j += 1 }
                blank(i, j)
                i = j
            } else if c == UInt8(ascii: "/"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "*") {
                var j = i + 2
                while j + 1 < b.count, !(b[j] == UInt8(ascii: "*") && b[j + 1] == UInt8(ascii: "/")) { j += 1 }
                let end = min(j + 2, b.count)
                blank(i, end)
                i = end
            } else {
                i += 1
            }
        }
        return b
    }
}
