import HtlintRegex

/// What an `ap_expr` needs from the request being evaluated.
public protocol ExpressionEnvironment {
    /// A variable such as `REQUEST_URI`; nil when Apache does not know the name.
    func expressionVariable(_ name: String) -> String
    /// A request header (`%{HTTP:Name}`, `req('Name')`).
    func requestHeader(_ name: String) -> String
    /// A request header the expression read through `%{HTTP:…}`, `req()`, `http()` or an
    /// `HTTP_*` variable (ap_expr's add_vary): `<If>` adds it to `Vary`.
    func noteVary(_ header: String)
    /// Environment variable (`env('X')`, `reqenv`).
    func environment(_ name: String) -> String
    /// File tests: "f" regular file, "d" directory, "s" non-empty file, "e" exists, "L"/"h" symlink.
    func fileTest(_ op: Character, _ path: String) -> Bool
    /// `-U`/`-A` (URL look-up below 400) and `-F` (file look-up below 300, file exists).
    func subrequestTest(_ op: Character, _ argument: String) -> Bool
    /// The server process environment (`osenv()`, the fallback of `env()`).
    func processEnvironment(_ name: String) -> String?
    /// `reqenv()`: the request's environment only (no process fallback).
    func requestEnvironment(_ name: String) -> String?
    /// `file()`: a file's bytes; nil when it cannot be read.
    func fileContents(_ path: String) -> [UInt8]?
    /// `filesize()`: the size of a regular file, nil for anything else.
    func fileSize(_ path: String) -> Int?
}

extension ExpressionEnvironment {
    /// Only `<If>` collects the headers read (core's ap_if_walk passes vary_this).
    public func noteVary(_ header: String) {}
}

public extension ExpressionEnvironment {
    func subrequestTest(_ op: Character, _ argument: String) -> Bool { false }
    func processEnvironment(_ name: String) -> String? { nil }
    func requestEnvironment(_ name: String) -> String? { environment(name) }
    func fileContents(_ path: String) -> [UInt8]? { nil }
    func fileSize(_ path: String) -> Int? { nil }
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

    /// `restricted`: the expression comes from `.htaccess` (AP_EXPR_FLAG_RESTRICTED).
    public init(parsing text: String, restricted: Bool = false) throws(ParseError) {
        var p = ExprParser(Array(text.utf8), restricted: restricted)
        self = try p.parseExpression()
        p.skipSpace()
        if !p.atEnd { throw ParseError(message: "syntax error near '\(p.rest)'") }
    }

    /// A string-mode expression (`Header set X "expr=…"`): the whole text is a string with
    /// `%{…}` variables and functions, no quotes needed.
    public static func parsingString(_ text: String, restricted: Bool = false) throws(ParseError) -> ExprWord {
        var p = ExprParser(Array(text.utf8), restricted: restricted)
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
            // Both words are arguments of one C call (strcmp, the operator function): Apache's
            // build evaluates the right one first, which orders the Vary tokens they add.
            let b = r.evaluate(env, captures), a = l.evaluate(env, captures)
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
                let x = atoi64(a), y = atoi64(b)
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
            // $0…$9 are only set by a regex with capturing groups, and a failed match of one
            // clears them (util_expr_eval.c: re_source becomes NULL).
            guard regex.captureCount > 0 else { return (regex.firstMatch(in: s) != nil) != negated }
            if let m = regex.firstMatch(in: s) {
                captures = (0...9).map { m[$0] }
                return !negated
            }
            captures = []
            return negated
        case .inList(let w, let list):
            let s = w.evaluate(env, captures)
            // The parser links the list's words last first; the walk stops at a match.
            return list.reversed().contains { $0.evaluate(env, captures) == s }
        case .unary(let op, let w):
            let s = w.evaluate(env, captures)
            switch op {
            case "-z": return s.isEmpty
            case "-n": return !s.isEmpty
            // op_T: false for "", "0", and any case of "off", "no", "false"; true otherwise.
            case "-T": return !(s.isEmpty || s == "0" || ["off", "no", "false"].contains(s.lowercased()))
            case "-R": return ipMatches(s, env.expressionVariable("REMOTE_ADDR"))
            case "-f", "-d", "-s", "-e", "-L", "-h", "-x":
                return env.fileTest(op.last!, s)
            case "-F", "-U", "-A": return env.subrequestTest(op.last!, s)
            default: return false
            }
        }
    }
}

extension ApExpression {
    /// Whether `%{name}` occurs anywhere in the expression.
    func readsVariable(_ name: String) -> Bool {
        switch self {
        case .constant: return false
        case .not(let e): return e.readsVariable(name)
        case .and(let a, let b), .or(let a, let b): return a.readsVariable(name) || b.readsVariable(name)
        case .compare(_, let l, let r): return l.readsVariable(name) || r.readsVariable(name)
        case .match(let w, _, _), .unary(_, let w): return w.readsVariable(name)
        case .inList(let w, let list): return w.readsVariable(name) || list.contains { $0.readsVariable(name) }
        }
    }
}

extension ExprWord {
    func readsVariable(_ name: String) -> Bool {
        switch self {
        case .variable(let v): return v == name
        case .literal, .header, .capture: return false
        case .function(_, let arg): return arg.readsVariable(name)
        case .concat(let parts): return parts.contains { $0.readsVariable(name) }
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

/// apr_atoi64 (strtoll), what ap_expr's integer comparisons use: as `atoi`, but a value out
/// of range saturates at the 64-bit bounds.
func atoi64(_ s: String) -> Int {
    var it = s.utf8.drop { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    var negative = false
    if let f = it.first, f == UInt8(ascii: "-") || f == UInt8(ascii: "+") {
        negative = f == UInt8(ascii: "-")
        it = it.dropFirst()
    }
    var n = 0
    for c in it {
        guard c >= 0x30, c <= 0x39 else { break }
        let (m, o1) = n.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(Int(c - 0x30))
        if o1 || o2 { return negative ? Int.min : Int.max }
        n = a
    }
    return negative ? -n : n
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
        case .header(let name):
            env.noteVary(name)
            return env.requestHeader(name)
        case .capture(let i): return i < captures.count ? captures[i] : ""
        case .concat(let parts): return parts.map { $0.evaluate(env, captures) }.joined()
        case .function(let name, let arg):
            let v = arg.evaluate(env, captures)
            switch name {
            case "req", "http":
                env.noteVary(v)
                return env.requestHeader(v)
            case "req_novary": return env.requestHeader(v)
            case "env": return env.environment(v)
            case "reqenv": return env.requestEnvironment(v) ?? ""
            case "osenv": return env.processEnvironment(v) ?? ""
            case "tolower": return asciiLowercased(v)
            case "toupper": return asciiUppercased(v)
            case "escape": return percentEscape(v, keep: uriEscapeSafeBytes)
            case "unescape": return unescapeKeeping2F(v) ?? ""
            case "base64": return base64Encode(v.rawBytes)
            case "unbase64": return String(preservingBytes: base64Decode(v))
            case "md5": return Digest.md5(v)
            case "sha1": return Digest.sha1(v)
            case "ldap": return ldapEscape(v)
            case "file": return env.fileContents(v).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            case "filesize": return String(env.fileSize(v) ?? 0)
            default: return ""  // note(), resp(): nothing the simulator records
            }
        }
    }
}

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

/// Functions ap_expr knows (util_expr_eval.c's string_func_providers); names compare
/// case-insensitively. `file` and `filesize` are refused in restricted contexts (`.htaccess`).
let expressionFunctions: Set<String> = [
    "osenv", "env", "resp", "req", "http", "note", "reqenv", "req_novary", "tolower", "toupper", "escape",
    "unescape", "file", "filesize", "base64", "unbase64", "sha1", "md5", "ldap",
]
let restrictedExpressionFunctions: Set<String> = ["file", "filesize"]
/// Unary operators (case-sensitive, one letter) and binary operators (case-insensitive).
let expressionUnaryOperators: Set<UInt8> = Set("nzRTdefsLhxFUA".utf8)
let expressionBinaryOperators: Set<String> = ["ipmatch", "fnmatch", "strmatch", "strcmatch"]

/// Recursive-descent reading of Apache's ap_expr grammar (util_expr_scan.l / util_expr_parse.y
/// of 2.4): `||`/`or` below `&&`/`and` below `!`/`not`; comparisons, `-x word` unary and
/// `word -op word` binary operators; words are digits (`-?[0-9]+`), quoted strings, `%{…}`,
/// `$0`–`$9` and `name(word)` calls joined with `.`. Names are checked as Apache checks them
/// at configuration time (unknown variable, function or operator; `-R`/`-ipmatch` subnets).
struct ExprParser {
    let b: [UInt8]
    var i = 0
    /// `.htaccess` (AP_EXPR_FLAG_RESTRICTED): `file()` and `filesize()` are refused.
    var restricted = false
    /// Bounds on hostile expressions (issue 9): the parser and `evaluate` recurse per `!`, `(`
    /// and operand, so `((((…))))` or `!!!!…` by the thousand overflowed the stack. Apache's own
    /// expression parser also gives up on deep nesting (its parser stack is bounded); real
    /// conditions use a few levels and a few dozen operands.
    static let nestingLimit = 64
    static let operandLimit = 1024
    var depth = 0
    var operands = 0
    init(_ b: [UInt8], restricted: Bool = false) { self.b = b; self.restricted = restricted }

    var atEnd: Bool { i >= b.count }
    var rest: String { String(decoding: b[min(i, b.count)...], as: UTF8.self) }

    mutating func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A { i += 1 } }

    mutating func peek(_ s: String) -> Bool {
        skipSpace()
        let u = Array(s.utf8)
        return i + u.count <= b.count && Array(b[i..<(i + u.count)]) == u
    }

    mutating func eat(_ s: String) -> Bool {
        if peek(s) { i += s.utf8.count; return true }
        return false
    }

    static func isIdentByte(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }

    func isAlnum(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// The identifier at `i` (the scanner's `[a-zA-Z][a-zA-Z0-9_]*`), without consuming it.
    mutating func peekIdentifier() -> String? {
        skipSpace()
        guard i < b.count, (b[i] >= 0x41 && b[i] <= 0x5A) || (b[i] >= 0x61 && b[i] <= 0x7A) else { return nil }
        var j = i + 1
        while j < b.count, Self.isIdentByte(b[j]) { j += 1 }
        return String(decoding: b[i..<j], as: UTF8.self)
    }

    /// A keyword token (`and`, `eq`, `true`…): flex takes the longest match, so `andx` is an
    /// identifier, not `and` followed by `x`. Keywords are lower case only.
    mutating func peekKeyword(_ k: String) -> Bool { peekIdentifier() == k }

    /// `-name` at `i`: the operator name and where it ends (`-[a-zA-Z_][a-zA-Z_0-9]*`).
    mutating func peekDashOperator() -> (name: String, end: Int)? {
        skipSpace()
        guard i + 1 < b.count, b[i] == UInt8(ascii: "-"),
              (b[i + 1] >= 0x41 && b[i + 1] <= 0x5A) || (b[i + 1] >= 0x61 && b[i + 1] <= 0x7A) || b[i + 1] == UInt8(ascii: "_")
        else { return nil }
        var j = i + 2
        while j < b.count, Self.isIdentByte(b[j]) { j += 1 }
        return (String(decoding: b[(i + 1)..<j], as: UTF8.self), j)
    }

    mutating func parseExpression() throws(ApExpression.ParseError) -> ApExpression {
        let lhs = try parseAnd()
        // `%right T_OP_OR`: a || b || c groups to the right; the value is the same.
        if eat("||") || eatKeyword("or") { return .or(lhs, try parseExpression()) }
        return lhs
    }

    mutating func parseAnd() throws(ApExpression.ParseError) -> ApExpression {
        let lhs = try parseUnary()
        if eat("&&") || eatKeyword("and") { return .and(lhs, try parseAnd()) }
        return lhs
    }

    mutating func eatKeyword(_ k: String) -> Bool {
        guard peekKeyword(k) else { return false }
        i += k.utf8.count
        return true
    }

    mutating func parseUnary() throws(ApExpression.ParseError) -> ApExpression {
        operands += 1
        guard operands <= ExprParser.operandLimit else {
            throw .init(message: "expression has more than \(ExprParser.operandLimit) operands (htlint's limit)")
        }
        skipSpace()
        let negation = (peek("!") && !peek("!=") && !peek("!~")) || peekKeyword("not")
        if negation || peek("(") {
            guard depth < ExprParser.nestingLimit else {
                throw .init(message: "expression nested deeper than \(ExprParser.nestingLimit) levels (htlint's limit)")
            }
            depth += 1
            defer { depth -= 1 }
            if negation {
                if !eat("!") { i += 3 }
                return .not(try parseUnary())
            }
            _ = eat("(")
            let e = try parseExpression()
            guard eat(")") else { throw .init(message: "syntax error, missing ')'") }
            return e
        }
        if eatKeyword("true") { return .constant(true) }
        if eatKeyword("false") { return .constant(false) }
        if let (name, end) = peekDashOperator() {
            // `-eq`, `-in`… are binary (a word must come first); a one-letter name is unary.
            guard name.utf8.count == 1 else { throw .init(message: "syntax error, unexpected T_OP_BINARY near '-\(name)'") }
            guard expressionUnaryOperators.contains(name.utf8.first!) else {
                throw .init(message: "Unary operator '-\(name)' does not exist")
            }
            i = end
            let arg = try parseWord()
            if name == "R" { try checkSubnet(arg, "R") }
            return .unary("-" + name, arg)
        }
        let lhs = try parseWord()
        skipSpace()
        for op in ["==", "!=", "<=", ">=", "=~", "!~", "<", ">", "="] where eat(op) {
            if op == "=~" || op == "!~" { return .match(lhs, try parseRegex(), negated: op == "!~") }
            return .compare(op == "=" ? "==" : op, lhs, try parseWord())
        }
        for op in ["eq", "ne", "lt", "le", "gt", "ge"] where eatKeyword(op) {
            return .compare("-" + op, lhs, try parseWord())
        }
        if eatKeyword("in") { return try parseList(lhs) }
        if let (name, end) = peekDashOperator() {
            i = end
            switch name {
            case "eq", "ne", "lt", "le", "gt", "ge": return .compare("-" + name, lhs, try parseWord())
            case "in": return try parseList(lhs)
            default:
                let op = name.lowercased()
                guard name.utf8.count > 1, expressionBinaryOperators.contains(op) else {
                    if name.utf8.count == 1 { throw .init(message: "syntax error, unexpected T_OP_UNARY near '-\(name)'") }
                    throw .init(message: "Binary operator '-\(name)' does not exist")
                }
                let rhs = try parseWord()
                if op == "ipmatch" { try checkSubnet(rhs, "ipmatch") }
                return .compare("-" + op, lhs, rhs)
            }
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    /// `-in {word, …}`. (A list function would be `name(word)`; 2.4 registers none.)
    mutating func parseList(_ lhs: ExprWord) throws(ApExpression.ParseError) -> ApExpression {
        if let name = peekIdentifier() {
            throw .init(message: "List-returning function '\(name)' does not exist")
        }
        guard eat("{") else { throw .init(message: "syntax error, expected '{' after -in") }
        var list: [ExprWord] = []
        repeat { list.append(try parseWord()) } while eat(",")
        guard eat("}") else { throw .init(message: "syntax error, expected '}'") }
        return .inList(lhs, list)
    }

    /// `-R` and `-ipmatch` parse their subnet at configuration time (subnet_parse_arg): it must
    /// be a constant string apr_ipsubnet_create accepts.
    func checkSubnet(_ w: ExprWord, _ op: String) throws(ApExpression.ParseError) {
        guard case .literal(let text) = w else {
            throw .init(message: "-\(op) requires subnet/netmask as constant argument")
        }
        guard validSubnet(text) else { throw .init(message: "parsing of subnet/netmask failed") }
    }

    /// A regular expression after `=~`/`!~`: `/re/` or `m` plus one of `#$%^,;:_?|-!.'"` (or
    /// `/`) as delimiter. The scanner ends it at the first delimiter byte: a backslash does not
    /// escape it. One optional `i` flag follows.
    mutating func parseRegex() throws(ApExpression.ParseError) -> Regex {
        skipSpace()
        guard i < b.count else { throw .init(message: "syntax error, unexpected end of expression, expecting regex") }
        var delim = b[i]
        if delim == UInt8(ascii: "m"), i + 1 < b.count, Array("/#$%^,;:_?|-!.'\"".utf8).contains(b[i + 1]) {
            i += 1; delim = b[i]
        } else if delim != UInt8(ascii: "/") {
            throw .init(message: "syntax error, expecting regex near '\(rest)'")
        }
        i += 1
        let start = i
        while i < b.count, b[i] != delim { i += 1 }
        guard i < b.count else { throw .init(message: "Unterminated regexp") }
        let pattern = String(decoding: b[start..<i], as: UTF8.self)
        i += 1
        var options = RegexOptions.apacheDefault
        if i < b.count, b[i] == UInt8(ascii: "i") { options.insert(.caseless); i += 1 }
        do { return try Regex(pattern, options: options) } catch {
            throw .init(message: "Failed to compile regular expression '\(pattern)': \(error.message)")
        }
    }

    mutating func parseWord() throws(ApExpression.ParseError) -> ExprWord {
        var parts = [try parsePrimaryWord()]
        while eat(".") { parts.append(try parsePrimaryWord()) }
        return parts.count == 1 ? parts[0] : .concat(parts)
    }

    mutating func parsePrimaryWord() throws(ApExpression.ParseError) -> ExprWord {
        skipSpace()
        guard i < b.count else { throw .init(message: "syntax error, unexpected end of expression") }
        let c = b[i]
        if c == UInt8(ascii: "'") || c == UInt8(ascii: "\"") {
            i += 1
            let word = try parseStringBody(until: c)
            guard i < b.count else { throw .init(message: "Unterminated string") }
            i += 1
            return word
        }
        if c == UInt8(ascii: "%"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "{") { return try parseVariable() }
        if c == UInt8(ascii: "$"), i + 1 < b.count, b[i + 1] >= 0x30, b[i + 1] <= 0x39 {
            i += 2
            return .capture(Int(b[i - 1] - 0x30))
        }
        let digitsFrom = c == UInt8(ascii: "-") ? i + 1 : i
        if digitsFrom < b.count, b[digitsFrom] >= 0x30, b[digitsFrom] <= 0x39 {
            let start = i
            i = digitsFrom
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
            return .literal(String(decoding: b[start..<i], as: UTF8.self))
        }
        if let name = peekIdentifier() {
            if ["true", "false", "and", "or", "not", "eq", "ne", "lt", "le", "gt", "ge", "in"].contains(name) {
                throw .init(message: "syntax error, unexpected keyword '\(name)'")
            }
            i += name.utf8.count
            guard eat("(") else { throw .init(message: "syntax error, unexpected T_ID near '\(name)'") }
            try checkFunction(name)
            let arg = try parseWord()
            guard eat(")") else { throw .init(message: "syntax error, missing ')' after function argument") }
            return .function(name.lowercased(), arg)
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    func checkFunction(_ name: String) throws(ApExpression.ParseError) {
        let fn = name.lowercased()
        guard expressionFunctions.contains(fn) else { throw .init(message: "Function '\(name)' does not exist") }
        if restricted, restrictedExpressionFunctions.contains(fn) {
            throw .init(message: "\(fn) not available in restricted context")
        }
    }

    /// Literal text with `%{…}` variables, `$0`–`$9` and backslash escapes, up to `terminator`
    /// (a quote), `}` (a `%{func:arg}` argument) or the end of the text (string-mode
    /// expressions). Escapes as the scanner reads them: `\n \r \t \b \f`, octal `\ooo` (at most
    /// 255), any other digit run is a bad escape, `\c` is `c`. A newline ends nothing: it is an error.
    mutating func parseStringBody(until terminator: UInt8?) throws(ApExpression.ParseError) -> ExprWord {
        var parts: [ExprWord] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { parts.append(.literal(String(decoding: literal, as: UTF8.self))); literal = [] }
        }
        while i < b.count, b[i] != terminator {
            if b[i] == 0x0A, terminator != nil { throw .init(message: "Unterminated string or variable") }
            if b[i] == UInt8(ascii: "\\"), i + 1 < b.count {
                let n = b[i + 1]
                if n >= 0x30, n <= 0x39 {
                    var digits = i + 1
                    while digits < b.count, b[digits] >= 0x30, b[digits] <= 0x39 { digits += 1 }
                    var octal = i + 1
                    while octal < b.count, octal < i + 4, b[octal] >= 0x30, b[octal] <= 0x37 { octal += 1 }
                    guard digits == octal else { throw .init(message: "Bad escape sequence") }
                    var value = 0
                    for d in b[(i + 1)..<octal] { value = value * 8 + Int(d - 0x30) }
                    guard value <= 0xFF else { throw .init(message: "Escape sequence out of bound") }
                    literal.append(UInt8(value))
                    i = octal
                    continue
                }
                switch n {
                case UInt8(ascii: "n"): literal.append(0x0A)
                case UInt8(ascii: "r"): literal.append(0x0D)
                case UInt8(ascii: "t"): literal.append(0x09)
                case UInt8(ascii: "b"): literal.append(0x08)
                case UInt8(ascii: "f"): literal.append(0x0C)
                default: literal.append(n)
                }
                i += 2
                continue
            }
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

    /// `%{NAME}` (a variable, names compare case-insensitively) or `%{func:argument}` (a string
    /// function called with the argument, itself a string with variables).
    mutating func parseVariable() throws(ApExpression.ParseError) -> ExprWord {
        i += 2
        let start = i
        if i < b.count, (b[i] >= 0x41 && b[i] <= 0x5A) || (b[i] >= 0x61 && b[i] <= 0x7A) {
            i += 1
            while i < b.count, Self.isIdentByte(b[i]) { i += 1 }
        }
        let name = String(decoding: b[start..<i], as: UTF8.self)
        guard i < b.count else { throw .init(message: "Unterminated variable") }
        if b[i] == UInt8(ascii: ":"), !name.isEmpty {
            i += 1
            // `%{func:}`: the grammar wants a string after the colon.
            guard i < b.count, b[i] != UInt8(ascii: "}") else { throw .init(message: "syntax error, unexpected T_VAR_END") }
            let arg = try parseStringBody(until: UInt8(ascii: "}"))
            guard i < b.count else { throw .init(message: "Unterminated variable") }
            i += 1
            let fn = name.lowercased()
            if fn == "http" || fn == "req" {
                if case .literal(let header) = arg { return .header(header) }
            }
            try checkFunction(name)
            return .function(fn, arg)
        }
        guard b[i] == UInt8(ascii: "}"), !name.isEmpty else {
            throw .init(message: "Unexpected variable character '\(Character(Unicode.Scalar(b[i])))'")
        }
        i += 1
        guard expressionVariables.contains(name.uppercased()) || name.uppercased().hasPrefix("SSL_") else {
            throw .init(message: "Variable '\(name)' does not exist")
        }
        return .variable(name.uppercased())
    }
}

/// apr_ipsubnet_create's acceptance: an IPv4 address or a prefix of one (`10.1`), an IPv6
/// address, optionally `/bits` (1…32 or 1…128) or, for IPv4, `/netmask`.
func validSubnet(_ spec: String) -> Bool {
    let parts = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
    let address = parts[0]
    let mask = parts.count == 2 ? parts[1] : nil
    func octets(_ s: Substring, full: Bool) -> Bool {
        var s = s
        if !full, s.hasSuffix(".") { s = s.dropLast() }
        let o = s.split(separator: ".", omittingEmptySubsequences: false)
        guard (full ? 4...4 : 1...4).contains(o.count) else { return false }
        return o.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) && Int($0)! <= 255 }
    }
    if address.contains(":") {
        // apr_ipsubnet_create refuses IPv4-mapped IPv6 addresses (::ffff:a.b.c.d).
        guard validIPv6(address), !(address.lowercased().hasPrefix("::ffff:") && address.contains(".")) else { return false }
        guard let m = mask else { return true }
        guard let bits = Int(m), m.allSatisfy(\.isNumber) else { return false }
        return bits > 0 && bits <= 128
    }
    guard octets(address, full: false) else { return false }
    guard let m = mask else { return true }
    if let bits = Int(m), m.allSatisfy(\.isNumber) { return bits > 0 && bits <= 32 }
    return octets(m, full: true)
}

private func validIPv6(_ s: Substring) -> Bool {
    guard !s.isEmpty, s.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return false }
    let bytes = Array(s.utf8)
    var halves: [ArraySlice<UInt8>] = []
    var from = 0, k = 0
    while k + 1 < bytes.count {
        if bytes[k] == 0x3A, bytes[k + 1] == 0x3A { halves.append(bytes[from..<k]); from = k + 2; k += 2; continue }
        k += 1
    }
    halves.append(bytes[from...])
    guard halves.count <= 2 else { return false }
    var groups = 0
    for h in halves where !h.isEmpty {
        let gs = h.split(separator: 0x3A, omittingEmptySubsequences: false)
        for (n, g) in gs.enumerated() {
            guard !g.isEmpty else { return false }
            if g.contains(0x2E) {
                guard n == gs.count - 1, octetsOnly(g) else { return false }
                groups += 2; continue
            }
            guard g.count <= 4 else { return false }
            groups += 1
        }
    }
    return halves.count == 2 ? groups < 8 : groups == 8
}

private func octetsOnly(_ g: ArraySlice<UInt8>) -> Bool {
    let o = g.split(separator: 0x2E, omittingEmptySubsequences: false)
    return o.count == 4 && o.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        && Int(String(decoding: $0, as: UTF8.self))! <= 255 }
}

// MARK: - ap_expr string functions

/// ap_str_tolower / ap_str_toupper: ASCII letters only.
func asciiLowercased(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
}

func asciiUppercased(_ s: String) -> String {
    String(decoding: s.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 32 : $0 }, as: UTF8.self)
}

/// ap_escape_uri (ap_os_escape_path): letters, digits and `$-_.+!*'(),:@&=/~` stay.
let uriEscapeSafeBytes: Set<UInt8> = pathSafeBytes.subtracting([UInt8(ascii: ";")])

/// ap_unescape_url_keep2f: `%xx` decoded except `%2F`/`%2f`, which stay; a bad escape or a
/// decoded NUL makes it fail (unescape() then gives "").
func unescapeKeeping2F(_ s: String) -> String? {
    let b = s.rawBytes
    var out: [UInt8] = []
    out.reserveCapacity(b.count)
    var i = 0
    var bad = false
    while i < b.count {
        if b[i] == UInt8(ascii: "%") {
            guard i + 2 < b.count, let h = hexValue(b[i + 1]), let l = hexValue(b[i + 2]) else {
                bad = true; out.append(b[i]); i += 1; continue
            }
            let v = h << 4 | l
            if v == UInt8(ascii: "/") { out += b[i...(i + 2)]; i += 3; continue }
            if v == 0 { bad = true }
            out.append(v); i += 3; continue
        }
        out.append(b[i]); i += 1
    }
    return bad ? nil : String(preservingBytes: out)
}

private let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

func base64Encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        let n = min(3, bytes.count - i)
        let b0 = bytes[i], b1 = n > 1 ? bytes[i + 1] : 0, b2 = n > 2 ? bytes[i + 2] : 0
        out.append(base64Alphabet[Int(b0 >> 2)])
        out.append(base64Alphabet[Int((b0 & 3) << 4 | b1 >> 4)])
        out.append(n > 1 ? base64Alphabet[Int((b1 & 15) << 2 | b2 >> 6)] : UInt8(ascii: "="))
        out.append(n > 2 ? base64Alphabet[Int(b2 & 63)] : UInt8(ascii: "="))
        i += 3
    }
    return String(decoding: out, as: UTF8.self)
}

/// apr_base64_decode: decodes the leading run of base64 characters; anything after the first
/// other byte (padding included) is ignored.
func base64Decode(_ s: String) -> [UInt8] {
    var values: [UInt8] = []
    for c in s.utf8 {
        guard let v = base64Alphabet.firstIndex(of: c) else { break }
        values.append(UInt8(v))
    }
    var out: [UInt8] = []
    var i = 0
    while i + 1 < values.count {
        out.append(values[i] << 2 | values[i + 1] >> 4)
        if i + 2 < values.count { out.append((values[i + 1] & 15) << 4 | values[i + 2] >> 2) }
        if i + 3 < values.count { out.append((values[i + 2] & 3) << 6 | values[i + 3]) }
        i += 4
    }
    return out.prefix { $0 != 0 }.map { $0 }
}

/// apr_pescape_ldap(…, APR_ESCAPE_LDAP_ALL): DN and filter specials, control bytes and every
/// byte from 0x7F up (UTF-8 included; recorded: rewrite-escape-non-utf8-b-list) as `\xx`.
func ldapEscape(_ s: String) -> String {
    let special = Set("\\,=+<>#;\"*()".utf8)
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for c in s.rawBytes {
        if special.contains(c) || c < 0x20 || c >= 0x7F { out += [UInt8(ascii: "\\"), digits[Int(c >> 4)], digits[Int(c & 15)]] } else { out.append(c) }
    }
    return String(preservingBytes: out)
}
