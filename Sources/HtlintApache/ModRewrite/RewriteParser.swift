import HtlintDiagnostics
import HtlintRegex
import HtlintSyntax

/// Reads `RewriteRule` and `RewriteCond` lines as mod_rewrite does at configuration time,
/// reporting Apache's own error messages at the offending column.
struct RewriteParser {
    var diagnostics: [Diagnostic] = []
    /// `.htaccess`: `expr` conditions are parsed restricted (no `file()`/`filesize()`).
    var restricted = false

    private mutating func fail(_ code: String, _ message: String, _ range: SourceRange) {
        diagnostics.append(Diagnostic(code: code, severity: .error, message: message, range: range))
    }

    mutating func parseRule(_ d: DirectiveNode, conditions: [RewriteCondition]) -> RewriteRule? {
        let (words, _) = d.rewriteWords
        guard words.count >= 2 else {
            fail(ConfigCode.badArguments, "RewriteRule: bad argument line '\(d.rawArguments)'", d.argumentsRange)
            return nil
        }
        var flags = RewriteFlags()
        if words.count == 3 {
            guard parseFlags(words[2], directive: "RewriteRule", into: &flags) else { return nil }
        }
        var pattern = words[0].value
        var negated = false
        if pattern.hasBytePrefix("!") { negated = true; pattern = dropLeadingBytes(pattern, 1) }
        var options = RegexOptions.apacheDefault
        if flags.noCase { options.insert(.caseless) }
        let regex: Regex
        do {
            regex = try Regex(pattern, options: options)
        } catch {
            let at = words[0].innerStart + (negated ? 1 : 0) + error.offset
            let range = SourceRange(file: words[0].range.file, start: min(at, words[0].range.end), end: words[0].range.end)
            diagnostics.append(Diagnostic(code: ConfigCode.badRegex, severity: .error,
                                          message: "RewriteRule: cannot compile regular expression '\(pattern)'", range: range,
                                          notes: [Note(message: "PCRE2: \(error.message)", range: range)]))
            return nil
        }
        var raw = words[1].value
        let isDash = raw == "-"
        var noQuery = false
        // Configuration-time query handling (apache-semantics §6.5).
        if !isDash {
            if raw.hasByteSuffix("?") && !raw.hasByteSuffix("\\?") {
                if flags.qsAppend { flags.qsLast = true } else { raw.removeLast(); noQuery = true }
            } else if flags.qsDiscard && !raw.containsByte(UInt8(ascii: "?")) {
                noQuery = true
            }
        }
        return RewriteRule(pattern: pattern, negated: negated, regex: regex, rawSubstitution: words[1].value,
                           substitution: Template(parsing: raw), isDash: isDash, noQuery: noQuery, flags: flags,
                           conditions: conditions, range: d.range, patternRange: words[0].range,
                           substitutionRange: words[1].range, flagsRange: words.count == 3 ? words[2].range : nil,
                           line: d.line.line)
    }

    mutating func parseCondition(_ d: DirectiveNode) -> RewriteCondition? {
        let (words, _) = d.rewriteWords
        guard words.count >= 2 else {
            fail(ConfigCode.badArguments, "RewriteCond: bad argument line '\(d.rawArguments)'", d.argumentsRange)
            return nil
        }
        var noCase = false, orNext = false, noVary = false
        if words.count == 3 {
            guard let items = flagItems(words[2], directive: "RewriteCond") else { return nil }
            for (key, _, range) in items {
                switch key.asciiLowercased() {
                case "nc", "nocase": noCase = true
                case "or", "ornext": orNext = true
                case "nv", "novary": noVary = true
                default:
                    fail(ConfigCode.badFlag, "RewriteCond: unknown flag '\(key)'", range)
                    return nil
                }
            }
        }
        var pattern = words[1].value
        var negated = false
        if pattern.hasBytePrefix("!") { negated = true; pattern = dropLeadingBytes(pattern, 1) }
        let testString = words[0].value
        let test: ConditionTest
        if testString.asciiLowercased() == "expr" {
            do {
                test = .expression(try ApExpression(parsing: pattern, restricted: restricted))
            } catch {
                fail(ConfigCode.badExpression, "RewriteCond: cannot compile expression \"\(pattern)\": \(error)", words[1].range)
                return nil
            }
        } else if pattern.utf8.count == 2, pattern.hasBytePrefix("-"), "dfslLhxFU".contains(pattern.last!) {
            test = .file(pattern.last!)
        } else if let op = ["-lt", "-le", "-gt", "-ge", "-eq", "-ne"].first(where: { pattern.hasBytePrefix($0) }),
                  pattern.utf8.count > 3 {
            var operand = Substring(dropLeadingBytes(pattern, 3))
            while let f = operand.first, f == " " || f == "\t" { operand.removeFirst() }
            // A CondPattern is never expanded (apply_rewrite_cond compares with p->pattern):
            // `-eq%{X}` and `=%{SERVER_NAME}` compare with that text itself.
            test = .integer(op, Template(parts: [.literal(String(operand))]))
        } else if let op = ["<=", ">=", "<", ">", "="].first(where: { pattern.hasBytePrefix($0) }), pattern.utf8.count > 1 {
            var operand = dropLeadingBytes(pattern, op.utf8.count)
            if op == "=", operand == "\"\"" { operand = "" }
            test = .string(op, Template(parts: operand.isEmpty ? [] : [.literal(operand)]))
        } else {
            var options = RegexOptions.apacheDefault
            if noCase { options.insert(.caseless) }
            do {
                test = .regex(try Regex(pattern, options: options))
            } catch {
                let at = words[1].innerStart + (negated ? 1 : 0) + error.offset
                let range = SourceRange(file: words[1].range.file, start: min(at, words[1].range.end), end: words[1].range.end)
                diagnostics.append(Diagnostic(code: ConfigCode.badRegex, severity: .error,
                                              message: "RewriteCond: cannot compile regular expression '\(pattern)'", range: range,
                                              notes: [Note(message: "PCRE2: \(error.message)", range: range)]))
                return nil
            }
        }
        return RewriteCondition(testString: Template(parsing: testString), rawTestString: testString,
                                rawPattern: words[1].value, test: test, negated: negated, noCase: noCase,
                                orNext: orNext, noVary: noVary, range: d.range)
    }

    /// Splits `[a,b=c]` into (name, value, range) items, or reports Apache's delimiter errors.
    private mutating func flagItems(_ word: Word, directive: String) -> [(String, String?, SourceRange)]? {
        let bytes = Array(word.value.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else {
            // Not a flag list at all: most often a space left in the pattern or substitution.
            let what = directive == "RewriteRule" ? "substitution" : "pattern"
            let notes = bytes.first == UInt8(ascii: "[") ? [] : [Note(
                message: "Apache reads `\(word.value)` as the flags: an unescaped space ends the \(what) before it; escape the space (`\\ `) or quote the \(what)",
                range: word.range)]
            diagnostics.append(Diagnostic(code: ConfigCode.badFlag, severity: .error,
                                          message: "\(directive): bad flag delimiters", range: word.range, notes: notes))
            return nil
        }
        var items: [(String, String?, SourceRange)] = []
        items.reserveCapacity(bytes.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 })
        var start = 1
        let base = word.innerStart
        for i in 1..<bytes.count where bytes[i] == UInt8(ascii: ",") || i == bytes.count - 1 {
            var lo = start, hi = i
            while lo < hi, isConfigSpace(bytes[lo]) { lo += 1 }
            while hi > lo, isConfigSpace(bytes[hi - 1]) { hi -= 1 }
            let item = bytes[lo..<hi]
            let range = SourceRange(file: word.range.file, start: base + lo, end: base + hi)
            if let eq = item.firstIndex(of: UInt8(ascii: "=")) {
                items.append((String(decoding: item[..<eq], as: UTF8.self),
                              String(decoding: item[(eq + 1)...], as: UTF8.self), range))
            } else {
                items.append((String(decoding: item, as: UTF8.self), nil, range))
            }
            start = i + 1
        }
        return items
    }

    /// The flags of `RewriteRule` by every name Apache accepts (lower case): one hash lookup per
    /// flag instead of comparing the name with each in turn (W3 reads 100,000 rules at start).
    /// `BNP`'s long name is mod_rewrite's own spelling, `backrefernoplus` (the documented
    /// `backrefnoplus` is an unknown flag).
    enum FlagName {
        case backrefEscaping, backrefNoPlus, bctls, bne, chain, cookie, discardPath, env, end, forbidden, gone, handler, last, next
        case noCase, noEscape, noSubrequest, proxy, passThrough, qsAppend, qsDiscard, qsLast, redirect, skip, type, unsafeAllow3F, unsafePrefixStat, unc
    }
    static let flagNames: [String: FlagName] = [
        "b": .backrefEscaping, "backrefescaping": .backrefEscaping, "bnp": .backrefNoPlus,
        "backrefernoplus": .backrefNoPlus, "bctls": .bctls, "bne": .bne, "c": .chain, "chain": .chain,
        "co": .cookie, "cookie": .cookie, "d": .discardPath, "dpi": .discardPath, "discardpath": .discardPath,
        "e": .env, "env": .env, "end": .end, "f": .forbidden, "forbidden": .forbidden, "g": .gone,
        "gone": .gone, "h": .handler, "handler": .handler, "l": .last, "last": .last, "n": .next,
        "next": .next, "nc": .noCase, "nocase": .noCase, "ne": .noEscape, "noescape": .noEscape,
        "ns": .noSubrequest, "nosubreq": .noSubrequest, "p": .proxy, "proxy": .proxy, "pt": .passThrough,
        "passthrough": .passThrough, "qsa": .qsAppend, "qsappend": .qsAppend, "qsd": .qsDiscard,
        "qsdiscard": .qsDiscard, "qsl": .qsLast, "qslast": .qsLast, "r": .redirect, "redirect": .redirect,
        "s": .skip, "skip": .skip, "t": .type, "type": .type, "unsafeallow3f": .unsafeAllow3F,
        "unsafeprefixstat": .unsafePrefixStat, "unc": .unc
    ]

    /// `flagNames[k]`, with the one-letter names most rules use (`L`, `R`) looked up by byte
    /// without hashing: hashing the flag names was a fifth of reading a 100,000-rule map.
    static func flagName(_ k: String) -> FlagName? {
        let u = k.utf8
        guard u.count == 1, let c = u.first, c < 0x80 else { return flagNames[k] }
        return oneLetterFlags[Int(c)]
    }

    /// `flagNames`' one-letter entries by ASCII byte (derived, so the two cannot disagree).
    private static let oneLetterFlags: [FlagName?] = (0..<128).map { flagNames[String(UnicodeScalar(UInt8($0)))] }

    /// Applies `[flags]` to `flags` (apache-semantics §4.3, §5). Returns false after an error.
    private mutating func parseFlags(_ word: Word, directive: String, into flags: inout RewriteFlags) -> Bool {
        guard let items = flagItems(word, directive: directive) else { return false }
        // F, G and R=value each overwrite one forced_responsecode; R without a value keeps it.
        // R=non-3xx sets the status flag like F and G, and a later R=3xx only changes the code
        // ([R=410,R=302] answers 302 without Location).
        var lastCode: Int? = nil, statusR = false
        defer {
            if let c = lastCode, flags.forbidden || flags.gone || statusR, c != flags.statusOverride { flags.forcedStatus = c }
        }
        for (key, value, range) in items {
            let k = key.asciiLowercased()
            switch RewriteParser.flagName(k) {
            case .backrefEscaping:
                // Each `B=` list replaces the one before (cfg->escapes), as `BNE=` does.
                if let value, !value.isEmpty { flags.escaping.only = Array(value.utf8) } else { flags.escaping.all = true }
            case .backrefNoPlus: flags.escaping.noPlus = true
            case .bctls: flags.escaping.controls = true
            case .bne:
                guard let value, !value.isEmpty else {
                    fail(ConfigCode.badFlag, "\(directive): flag 'BNE' wants a list of characters (i.e. [BNE=...])", range)
                    return false
                }
                flags.escaping.never = Array(value.utf8)
            case .chain: flags.chain = true
            case .cookie: flags.cookies.append(Template(parsing: value ?? ""))
            case .discardPath: flags.discardPathInfo = true
            case .env: flags.env.append(Template(parsing: value ?? ""))
            case .end: flags.end = true
            case .forbidden: flags.forbidden = true; lastCode = 403
            case .gone: flags.gone = true; lastCode = 410
            case .handler: flags.handler = Template(parsing: value ?? "")
            case .last: flags.last = true
            case .next:
                // A value is read with atoi, whatever it holds: `N=0`, `N=-1` or `N=x` ends the
                // pass with AH02596 at the first match, `N=2x` is 2. Only a missing or empty
                // value keeps the default.
                if let value, !value.isEmpty { flags.next = atoi(value) } else { flags.next = 32000 }
            case .noCase: flags.noCase = true
            case .noEscape: flags.noEscape = true
            case .noSubrequest: flags.noSubrequest = true
            case .proxy: flags.proxy = true
            case .passThrough: flags.passThrough = true
            case .qsAppend: flags.qsAppend = true
            case .qsDiscard: flags.qsDiscard = true
            case .qsLast: flags.qsLast = true
            case .redirect:
                guard let value, !value.isEmpty else { if flags.redirect == nil { flags.redirect = 302 }; continue }
                switch value.asciiLowercased() {
                case "permanent": flags.redirect = 301
                case "temp": flags.redirect = 302
                case "seeother": flags.redirect = 303
                default:
                    if let first = value.utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
                        // atoi: the leading ASCII digits (capped, so a long run cannot overflow).
                        var code = 0
                        for c in value.utf8 {
                            guard c >= 0x30 && c <= 0x39 else { break }
                            code = min(code * 10 + Int(c - 0x30), 1_000_000)
                        }
                        guard StatusLines.known(code) else {
                            fail(ConfigCode.badFlag, "\(directive): invalid HTTP response code '\(value)' for flag 'R'", range)
                            return false
                        }
                        flags.redirect = code
                        if !StatusLines.isRedirect(code) { statusR = true }
                    } else {
                        flags.redirect = 302   // Apache accepts any other word as 302 (§5).
                    }
                }
                lastCode = flags.redirect
            case .skip: flags.skip = atoi(value ?? "0")
            case .type: flags.type = Template(parsing: value ?? "")
            case .unsafeAllow3F: flags.unsafeAllow3F = true
            case .unsafePrefixStat: flags.unsafePrefixStat = true
            case .unc: flags.unc = true
            case nil:
                // Apache silently ignores unknown flags starting with `d` (§4.3).
                if k.hasBytePrefix("d") { continue }
                fail(ConfigCode.badFlag, "\(directive): unknown flag '\(key)'", range)
                return false
            }
        }
        return true
    }
}
