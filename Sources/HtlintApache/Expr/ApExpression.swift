import Foundation
import HtlintRegex

/// What an `ap_expr` needs from the request being evaluated.
public protocol ExpressionEnvironment {
    /// A variable such as `REQUEST_URI`; nil when Apache does not know the name.
    func expressionVariable(_ name: String) -> String
    /// A request header (`%{HTTP:Name}`, `req('Name')`).
    func requestHeader(_ name: String) -> String
    /// Environment variable (`env('X')`, `reqenv`).
    func environment(_ name: String) -> String
    /// File tests: "f" regular file, "d" directory, "s" non-empty file, "e" exists, "L"/"h" symlink.
    func fileTest(_ op: Character, _ path: String) -> Bool
    /// The httpd process's environment (`osenv`).
    func processEnvironment(_ name: String) -> String
}

extension ExpressionEnvironment {
    public func processEnvironment(_ name: String) -> String { "" }
}

/// A parsed Apache expression (`<If>`, `RewriteCond expr`), the subset sites use
/// (apache-semantics §7.7): booleans, string/integer comparisons, regex matches with captures,
/// `-in` lists, wildcard and address matches, unary tests, and the common functions.
public indirect enum ApExpression: Sendable {
    case constant(Bool)
    case not(ApExpression)
    case and(ApExpression, ApExpression)
    case or(ApExpression, ApExpression)
    case compare(String, ExprWord, ExprWord)
    case match(ExprWord, Regex, negated: Bool)
    case inList(ExprWord, [ExprWord])
    case unary(String, ExprWord)

    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
    }

    public init(parsing text: String) throws(ParseError) {
        try self.init(parsing: text, restricted: false)
    }

    /// `restricted`: read from an `.htaccess` (AP_EXPR_FLAG_RESTRICTED: no `file`/`filesize`).
    public init(parsing text: String, restricted: Bool) throws(ParseError) {
        var p = ExprParser(Array(text.utf8))
        p.restricted = restricted
        self = try p.parseExpression()
        p.skipSpace()
        if !p.atEnd { throw ParseError(message: "syntax error near '\(p.rest)'") }
    }

    /// A string-mode expression (`Header set X "expr=…"`): the whole text is a string with
    /// `%{…}` variables and functions, no quotes needed.
    public static func parsingString(_ text: String) throws(ParseError) -> ExprWord {
        try parsingString(text, restricted: false)
    }

    public static func parsingString(_ text: String, restricted: Bool) throws(ParseError) -> ExprWord {
        var p = ExprParser(Array(text.utf8))
        p.restricted = restricted
        return try p.parseStringBody(until: nil)
    }

    /// Evaluates; `captures` receives `$0…$9` of the last successful regex match.
    public func evaluate(_ env: ExpressionEnvironment, captures: inout [String]) -> Bool {
        switch self {
        case .constant(let b): return b
        case .not(let e): return !e.evaluate(env, captures: &captures)
        case .and(let a, let b): return a.evaluate(env, captures: &captures) && b.evaluate(env, captures: &captures)
        case .or(let a, let b): return a.evaluate(env, captures: &captures) || b.evaluate(env, captures: &captures)
        case .compare(let op, let l, let r):
            let a = l.evaluate(env, captures), b = r.evaluate(env, captures)
            switch op {
            case "==", "=": return a == b
            case "!=": return a != b
            case "<": return a.utf8.lexicographicallyPrecedes(b.utf8)
            case "<=": return !b.utf8.lexicographicallyPrecedes(a.utf8)
            case ">": return b.utf8.lexicographicallyPrecedes(a.utf8)
            case ">=": return !a.utf8.lexicographicallyPrecedes(b.utf8)
            // apr_fnmatch(pattern: right, string: left) and apr_ipsubnet_test.
            case "-strmatch": return wildcardMatch(b, a)
            case "-strcmatch": return wildcardMatch(b, a, caseless: true)
            case "-fnmatch": return wildcardMatch(b, a, pathname: true)
            case "-ipmatch": return ipMatches(b, a)
            default:
                let x = atoi(a), y = atoi(b)
                switch op.trimmingPrefix("-") {
                case "eq": return x == y
                case "ne": return x != y
                case "lt": return x < y
                case "le": return x <= y
                case "gt": return x > y
                case "ge": return x >= y
                default: return false
                }
            }
        case .match(let w, let regex, let negated):
            let s = w.evaluate(env, captures)
            if let m = regex.firstMatch(in: s) {
                captures = (0...9).map { m[$0] }
                return !negated
            }
            return negated
        case .inList(let w, let list):
            let s = w.evaluate(env, captures)
            return list.contains { $0.evaluate(env, captures) == s }
        case .unary(let op, let w):
            let s = w.evaluate(env, captures)
            switch op {
            case "-z": return s.isEmpty
            case "-n": return !s.isEmpty
            case "-T": return ["on", "yes", "true", "1"].contains(s.lowercased())
            case "-R": return ipMatches(s, env.expressionVariable("REMOTE_ADDR"))
            case "-f", "-d", "-s", "-e", "-L", "-h", "-x", "-F", "-U", "-A":
                return env.fileTest(op.last!, s)
            default: return false
            }
        }
    }
}

/// C `atoi`: leading blanks, sign, digits; anything else stops; no digits is 0.
func atoi(_ s: String) -> Int {
    var it = s.utf8.drop { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    var sign = 1
    if let f = it.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
        if f == UInt8(ascii: "-") { sign = -1 }
        it = it.dropFirst()
    }
    var n = 0
    for c in it {
        guard c >= 0x30, c <= 0x39 else { break }
        n = n &* 10 &+ Int(c - 0x30)
    }
    return sign * n
}

/// A value inside an expression.
public indirect enum ExprWord: Sendable {
    case literal(String)
    case variable(String)
    case header(String)
    case capture(Int)
    case function(String, ExprWord)
    case concat([ExprWord])

    func evaluate(_ env: ExpressionEnvironment, _ captures: [String]) -> String {
        switch self {
        case .literal(let s): return s
        case .variable(let name): return env.expressionVariable(name)
        case .header(let name): return env.requestHeader(name)
        case .capture(let i): return i < captures.count ? captures[i] : ""
        case .concat(let parts): return parts.map { $0.evaluate(env, captures) }.joined()
        case .function(let name, let arg):
            let v = arg.evaluate(env, captures)
            switch name {
            case "req", "http", "req_novary": return env.requestHeader(v)
            case "env", "reqenv", "v", "note": return env.environment(v)
            case "osenv": return env.processEnvironment(v)
            // apr_tolower/apr_toupper per byte in the C locale: ASCII letters only.
            case "tolower": return asciiMapped(v, upper: false)
            case "toupper": return asciiMapped(v, upper: true)
            case "escape": return percentEscape(v, keep: pathSafeBytes)
            // ap_unescape_url_keep2f: `%2F` stays; a bad escape or a NUL fails, and then "".
            case "unescape":
                guard let d = percentDecode(v.replacingOccurrences(of: "%2F", with: "%252F").replacingOccurrences(of: "%2f", with: "%252f")),
                      !d.utf8.contains(0) else { return "" }
                return d
            case "base64": return Data(v.utf8).base64EncodedString()
            case "unbase64": return Data(base64Encoded: v).map { String(decoding: $0, as: UTF8.self) } ?? ""
            case "ldap": return ldapEscape(v)
            case "md5": return Digest.md5(v)
            case "sha1": return Digest.sha1(v)
            default: return ""
            }
        }
    }
}

/// ASCII letters upper- or lower-cased, every other byte kept.
func asciiMapped(_ v: String, upper: Bool) -> String {
    String(decoding: v.utf8.map { c in
        if upper, c >= 0x61, c <= 0x7A { return c - 0x20 }
        if !upper, c >= 0x41, c <= 0x5A { return c + 0x20 }
        return c
    }, as: UTF8.self)
}

/// ap_expr's `ldap` function (apr_ldap_escape_filter): `*`, `(`, `)`, `\` and NUL as `\XX`.
func ldapEscape(_ v: String) -> String {
    var out = ""
    for c in v.unicodeScalars {
        switch c {
        case "*": out += "\\2a"
        case "(": out += "\\28"
        case ")": out += "\\29"
        case "\\": out += "\\5c"
        case "\u{0}": out += "\\00"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}

/// ap_expr's string functions (`name(arg)` or `%{name:arg}`); any other name is a parse error.
/// `file` and `filesize` are refused in `.htaccess` (restricted).
let expressionFunctions: Set<String> = [
    "osenv", "env", "resp", "req", "http", "note", "reqenv", "req_novary", "tolower", "toupper", "escape", "unescape",
    "file", "filesize", "base64", "unbase64", "sha1", "md5", "ldap",
]

/// Variables ap_expr knows (apache-semantics §7.7); any other `%{NAME}` is a parse error.
let expressionVariables: Set<String> = [
    "HTTP_ACCEPT", "HTTP_COOKIE", "HTTP_FORWARDED", "HTTP_HOST", "HTTP_PROXY_CONNECTION", "HTTP_REFERER",
    "HTTP_USER_AGENT", "REQUEST_METHOD", "REQUEST_SCHEME", "REQUEST_URI", "DOCUMENT_URI", "REQUEST_FILENAME",
    "SCRIPT_FILENAME", "LAST_MODIFIED", "SCRIPT_USER", "SCRIPT_GROUP", "PATH_INFO", "QUERY_STRING", "IS_SUBREQ",
    "THE_REQUEST", "REMOTE_ADDR", "REMOTE_PORT", "REMOTE_HOST", "REMOTE_USER", "REMOTE_IDENT", "SERVER_NAME",
    "SERVER_PORT", "SERVER_ADMIN", "SERVER_PROTOCOL", "DOCUMENT_ROOT", "AUTH_TYPE", "CONTENT_TYPE", "HANDLER",
    "HTTP2", "HTTPS", "IPV6", "REQUEST_STATUS", "REQUEST_LOG_ID", "CONN_LOG_ID", "CONN_REMOTE_ADDR",
    "CONTEXT_PREFIX", "CONTEXT_DOCUMENT_ROOT", "TIME", "TIME_YEAR", "TIME_MON", "TIME_DAY", "TIME_HOUR",
    "TIME_MIN", "TIME_SEC", "TIME_WDAY", "SERVER_SOFTWARE", "API_VERSION",
]

struct ExprParser {
    let b: [UInt8]
    var i = 0
    /// Bounds on hostile expressions (issue 9): the parser and `evaluate` recurse per `!`, `(`
    /// and operand, so `((((…))))` or `!!!!…` by the thousand overflowed the stack. Apache's own
    /// expression parser also gives up on deep nesting (its parser stack is bounded); real
    /// conditions use a few levels and a few dozen operands.
    static let nestingLimit = 64
    static let operandLimit = 1024
    var depth = 0
    var operands = 0
    /// Parsed for an `.htaccess`: the restricted functions are refused.
    var restricted = false
    init(_ b: [UInt8]) { self.b = b }

    /// Refuses a function name ap_expr does not know, or a restricted one in `.htaccess`.
    func checkFunction(_ name: String) throws(ApExpression.ParseError) {
        guard expressionFunctions.contains(name) else { throw .init(message: "Function '\(name)' does not exist") }
        if restricted, name == "file" || name == "filesize" {
            throw .init(message: "\(name) not available in restricted context")
        }
    }

    var atEnd: Bool { i >= b.count }
    var rest: String { String(decoding: b[min(i, b.count)...], as: UTF8.self) }

    mutating func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 { i += 1 } }

    mutating func peek(_ s: String) -> Bool {
        skipSpace()
        let u = Array(s.utf8)
        return i + u.count <= b.count && Array(b[i..<(i + u.count)]) == u
    }

    mutating func eat(_ s: String) -> Bool {
        if peek(s) { i += s.utf8.count; return true }
        return false
    }

    mutating func parseExpression() throws(ApExpression.ParseError) -> ApExpression {
        var lhs = try parseAnd()
        while eat("||") { lhs = .or(lhs, try parseAnd()) }
        return lhs
    }

    mutating func parseAnd() throws(ApExpression.ParseError) -> ApExpression {
        var lhs = try parseUnary()
        while eat("&&") { lhs = .and(lhs, try parseUnary()) }
        return lhs
    }

    mutating func parseUnary() throws(ApExpression.ParseError) -> ApExpression {
        operands += 1
        guard operands <= ExprParser.operandLimit else {
            throw .init(message: "expression has more than \(ExprParser.operandLimit) operands (htlint's limit)")
        }
        if peek("!") || peek("(") {
            guard depth < ExprParser.nestingLimit else {
                throw .init(message: "expression nested deeper than \(ExprParser.nestingLimit) levels (htlint's limit)")
            }
            depth += 1
            defer { depth -= 1 }
            if eat("!") { return .not(try parseUnary()) }
            _ = eat("(")
            let e = try parseExpression()
            guard eat(")") else { throw .init(message: "missing ')'") }
            return e
        }
        if peekKeyword("true") { i += 4; return .constant(true) }
        if peekKeyword("false") { i += 5; return .constant(false) }
        skipSpace()
        if i < b.count, b[i] == UInt8(ascii: "-"), i + 1 < b.count, (b[i + 1] >= 0x41 && b[i + 1] <= 0x5A) || (b[i + 1] >= 0x61 && b[i + 1] <= 0x7A) {
            var j = i + 1
            while j < b.count, b[j] != 0x20 { j += 1 }
            let op = String(decoding: b[i..<j], as: UTF8.self)
            i = j
            return .unary(op, try parseWord())
        }
        let lhs = try parseWord()
        skipSpace()
        for op in ["==", "!=", "<=", ">=", "=~", "!~", "<", ">", "="] where eat(op) {
            if op == "=~" || op == "!~" { return .match(lhs, try parseRegex(), negated: op == "!~") }
            return .compare(op, lhs, try parseWord())
        }
        for op in ["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "eq", "ne", "lt", "le", "gt", "ge"] where peekKeyword(op) {
            i += op.utf8.count
            return .compare(op, lhs, try parseWord())
        }
        if peekKeyword("-in") || peekKeyword("in") {
            i += peek("-in") ? 3 : 2
            guard eat("{") else { throw .init(message: "expected '{' after -in") }
            var list: [ExprWord] = []
            repeat { list.append(try parseWord()) } while eat(",")
            guard eat("}") else { throw .init(message: "expected '}'") }
            return .inList(lhs, list)
        }
        for op in ["-strmatch", "-strcmatch", "-fnmatch", "-ipmatch"] where peekKeyword(op) {
            i += op.utf8.count
            return .compare(op, lhs, try parseWord())
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    mutating func peekKeyword(_ k: String) -> Bool {
        guard peek(k) else { return false }
        let end = i + k.utf8.count
        return end >= b.count || !(isAlnum(b[end]) || b[end] == UInt8(ascii: "_"))
    }

    func isAlnum(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    mutating func parseRegex() throws(ApExpression.ParseError) -> Regex {
        skipSpace()
        guard i < b.count else { throw .init(message: "missing regular expression") }
        var delim = b[i]
        if delim == UInt8(ascii: "m"), i + 1 < b.count { i += 1; delim = b[i] }
        i += 1
        let start = i
        // The lexer ends the regex at the first delimiter: a backslash does not escape it
        // (`/a\/b/` is the regex `a\`, which does not compile).
        while i < b.count, b[i] != delim { i += 1 }
        guard i < b.count else { throw .init(message: "unterminated regular expression") }
        let pattern = String(decoding: b[start..<i], as: UTF8.self)
        i += 1
        var options = RegexOptions.apacheDefault
        if i < b.count, b[i] == UInt8(ascii: "i") { options.insert(.caseless); i += 1 }
        do { return try Regex(pattern, options: options) } catch {
            throw .init(message: "cannot compile regular expression '\(pattern)': \(error.message)")
        }
    }

    mutating func parseWord() throws(ApExpression.ParseError) -> ExprWord {
        var parts = [try parsePrimaryWord()]
        while eat(".") { parts.append(try parsePrimaryWord()) }
        return parts.count == 1 ? parts[0] : .concat(parts)
    }

    mutating func parsePrimaryWord() throws(ApExpression.ParseError) -> ExprWord {
        skipSpace()
        guard i < b.count else { throw .init(message: "unexpected end of expression") }
        let c = b[i]
        if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
            i += 1
            let word = try parseStringBody(until: c)
            guard i < b.count else { throw .init(message: "unterminated string") }
            i += 1
            return word
        }
        if c == UInt8(ascii: "%"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "{") { return try parseVariable() }
        if c == UInt8(ascii: "$"), i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 {
            i += 2
            return .capture(Int(b[i - 1] - 0x30))
        }
        if c >= 0x30, c <= 0x39 {
            let start = i
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return .literal(String(decoding: b[start..<i], as: UTF8.self))
        }
        if isAlnum(c) {
            let start = i
            while i < b.count, isAlnum(b[i]) || b[i] == UInt8(ascii: "_") { i += 1 }
            let name = String(decoding: b[start..<i], as: UTF8.self).lowercased()
            guard eat("(") else { throw .init(message: "syntax error near '\(name)'") }
            try checkFunction(name)
            let arg = try parseWord()
            guard eat(")") else { throw .init(message: "missing ')' after function argument") }
            return .function(name, arg)
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    /// Literal text with `%{…}` variables, `$0`–`$9` and backslash escapes, up to `terminator`
    /// (a quote) or the end of the text (string-mode expressions).
    mutating func parseStringBody(until terminator: UInt8?) throws(ApExpression.ParseError) -> ExprWord {
        var parts: [ExprWord] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))); literal = [] }
        }
        while i < b.count, b[i] != terminator {
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count { literal.append(b[i + 1]); i += 2; continue }
            if b[i] == UInt8(ascii: "%"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "{") {
                flush()
                parts.append(try parseVariable())
                continue
            }
            if b[i] == UInt8(ascii: "$"), i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 {
                flush()
                parts.append(.capture(Int(b[i + 1] - 0x30)))
                i += 2
                continue
            }
            literal.append(b[i]); i += 1
        }
        if !literal.isEmpty || parts.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))) }
        return parts.count == 1 ? parts[0] : .concat(parts)
    }

    mutating func parseVariable() throws(ApExpression.ParseError) -> ExprWord {
        i += 2
        let start = i
        while i < b.count, b[i] != UInt8(ascii: "}"), b[i] != UInt8(ascii: ":") { i += 1 }
        guard i < b.count else { throw .init(message: "missing '}'") }
        if b[i] == UInt8(ascii: ":") {
            // `%{func:string}`: the argument is a string, `%{…}` inside it included.
            let fn = String(decoding: b[start..<i], as: UTF8.self).lowercased()
            i += 1
            // The grammar wants a string after the colon: `%{md5:}` is a syntax error.
            guard i < b.count, b[i] != UInt8(ascii: "}") else {
                throw .init(message: "syntax error, unexpected T_VAR_END, expecting T_ERROR or T_STRING or T_REGEX_BACKREF or T_VAR_BEGIN")
            }
            try checkFunction(fn)
            let arg = try parseStringBody(until: UInt8(ascii: "}"))
            guard i < b.count else { throw .init(message: "missing '}'") }
            i += 1
            if fn == "http" || fn == "req", case .literal(let name) = arg { return .header(name) }
            return .function(fn, arg)
        }
        let name = String(decoding: b[start..<i], as: UTF8.self)
        i += 1
        guard expressionVariables.contains(name.uppercased()) || name.uppercased().hasPrefix("SSL_") else {
            throw .init(message: "Variable '\(name)' does not exist")
        }
        return .variable(name.uppercased())
    }
}
