import HtlintDiagnostics
import HtlintBytes
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
    /// A regex with groups matched: the offsets ap_regexec wrote into the caller's regmatch
    /// array (only mod_setenvif reads them again, after its source is gone).
    func noteMatch(_ ranges: [Range<Int>?])
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
    /// mod_ssl's `SSL()` function (`%{SSL:NAME}`): ssl_var_lookup of the name.
    func sslLookup(_ name: String) -> String
}

extension ExpressionEnvironment {
    /// Only `<If>` collects the headers read (core's ap_if_walk passes vary_this).
    public func noteVary(_ header: String) {}
    public func noteMatch(_ ranges: [Range<Int>?]) {}
}

public extension ExpressionEnvironment {
    func subrequestTest(_ op: Character, _ argument: String) -> Bool { false }
    func processEnvironment(_ name: String) -> String? { nil }
    func requestEnvironment(_ name: String) -> String? { environment(name) }
    func fileContents(_ path: String) -> [UInt8]? { nil }
    func fileSize(_ path: String) -> Int? { nil }
    func sslLookup(_ name: String) -> String { "" }
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

        /// How the scanner's crash on a quote inside a `%{func:…}` argument ends its message:
        /// the error the reader reports ends with it, so the walk can tell the crash (no response)
        /// from an expression Apache refuses (500).
        static let crashNote = "(Apache's child crashes reading it: no response)"

        static func quoteInFunctionArgument(_ quote: UInt8) -> ParseError {
            ParseError(message: "a \(quote == 0x27 ? "'" : "\"") inside a %{func:…} argument \(crashNote)")
        }

        /// Whether a reader's error is that crash.
        public static func crashesChild(_ d: Diagnostic) -> Bool {
            d.code == ConfigCode.badExpression && d.message.hasByteSuffix(crashNote)
        }
    }

    /// `restricted`: the expression comes from `.htaccess` (AP_EXPR_FLAG_RESTRICTED).
    public init(parsing text: String, restricted: Bool = false) throws(ParseError) {
        var p = ExprParser(Array(text.utf8), restricted: restricted)
        self = try p.parseExpression()
        p.skipSpace()
        if !p.atEnd, !p.restIsUnterminatedRegex { throw ParseError(message: "syntax error near '\(p.rest)'") }
    }

    /// mod_ssl's `SSLRequire` (AP_EXPR_FLAG_SSL_EXPR_COMPAT): every string and integer comparison
    /// is ssl_expr_eval_comp's strcmplex (the shorter string is the smaller, then byte by byte),
    /// so `%{SSL_CIPHER_USEKEYSIZE} >= 128` compares numbers and `-eq` compares strings.
    public init(parsing text: String, restricted: Bool = false, sslCompat: Bool) throws(ParseError) {
        let e = try ApExpression(parsing: text, restricted: restricted)
        self = sslCompat ? e.sslCompatible : e
    }

    private var sslCompatible: ApExpression {
        switch self {
        case .constant, .match, .unary, .inList: return self
        case .not(let e): return .not(e.sslCompatible)
        case .and(let a, let b): return .and(a.sslCompatible, b.sslCompatible)
        case .or(let a, let b): return .or(a.sslCompatible, b.sslCompatible)
        case .compare(let op, let l, let r):
            let compat = ["==": "ssl==", "=": "ssl==", "!=": "ssl!=", "<": "ssl<", "<=": "ssl<=", ">": "ssl>", ">=": "ssl>=",
                          "-eq": "ssl==", "-ne": "ssl!=", "-lt": "ssl<", "-le": "ssl<=", "-gt": "ssl>", "-ge": "ssl>="]
            return .compare(compat[op] ?? op, l, r)
        }
    }

    /// strcmplex: length first, then the bytes as (signed) chars.
    static func strcmplex(_ a: String, _ b: String) -> Int {
        let x = a.rawBytes, y = b.rawBytes
        if x.count != y.count { return x.count > y.count ? 1 : -1 }
        for (p, q) in zip(x, y) where p != q { return Int8(bitPattern: p) > Int8(bitPattern: q) ? 1 : -1 }
        return 0
    }

    /// A string-mode expression (`Header set X "expr=…"`): the whole text is a string with
    /// `%{…}` variables and functions, no quotes needed.
    public static func parsingString(_ text: String, restricted: Bool = false) throws(ParseError) -> ExprWord {
        var p = ExprParser(Array(text.utf8), restricted: restricted)
        return try p.parseStringBody(until: nil)
    }

    /// Whether a string-mode expression can read differently from its text: it holds a
    /// variable or function (`%{`), a backslash escape or a back-reference (`$0`…`$9`, empty
    /// where nothing matched, as ap_expr_str_exec evaluates without match data).
    public static func stringHasSyntax(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for c in text.utf8 {
            if c == UInt8(ascii: "\\") || c == UInt8(ascii: "$") || (previous == UInt8(ascii: "%") && c == UInt8(ascii: "{")) { return true }
            previous = c
        }
        return false
    }

    /// Whether it reads a group `$1`…`$9` without a regex match of its own to set one: in a
    /// `RewriteCond expr` Apache's child then reads match data mod_rewrite never filled in and
    /// crashes (recorded: rewrite-cond-expr-group-without-match-crashes-child; `$0` does not).
    public var readsGroupWithoutMatch: Bool { !hasRegexMatch && readsGroup }

    private var hasRegexMatch: Bool {
        switch self {
        case .match: true
        case .not(let e): e.hasRegexMatch
        case .and(let a, let b), .or(let a, let b): a.hasRegexMatch || b.hasRegexMatch
        case .constant, .compare, .inList, .unary: false
        }
    }

    private var readsGroup: Bool {
        switch self {
        case .constant: false
        case .not(let e): e.readsGroup
        case .and(let a, let b), .or(let a, let b): a.readsGroup || b.readsGroup
        case .compare(_, let l, let r): l.readsGroup || r.readsGroup
        case .match(let w, _, _), .unary(_, let w): w.readsGroup
        case .inList(let w, let list): w.readsGroup || list.contains { $0.readsGroup }
        }
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
            // strcmp: bytes (Swift's `==` holds a precomposed é equal to e and a combining accent).
            case "==", "=": return a.utf8.elementsEqual(b.utf8)
            case "!=": return !a.utf8.elementsEqual(b.utf8)
            case "<": return a.rawBytes.lexicographicallyPrecedes(b.rawBytes)
            case "<=": return !b.rawBytes.lexicographicallyPrecedes(a.rawBytes)
            case ">": return b.rawBytes.lexicographicallyPrecedes(a.rawBytes)
            case ">=": return !a.rawBytes.lexicographicallyPrecedes(b.rawBytes)
            // apr_fnmatch(pattern: right, string: left) and apr_ipsubnet_test.
            case "-strmatch": return wildcardMatch(b, a)
            case "-strcmatch": return wildcardMatch(b, a, caseless: true)
            case "-fnmatch": return wildcardMatch(b, a, pathname: true)
            case "-ipmatch": return ipMatches(b, a)
            case "ssl==": return ApExpression.strcmplex(a, b) == 0
            case "ssl!=": return ApExpression.strcmplex(a, b) != 0
            case "ssl<": return ApExpression.strcmplex(a, b) < 0
            case "ssl<=": return ApExpression.strcmplex(a, b) <= 0
            case "ssl>": return ApExpression.strcmplex(a, b) > 0
            case "ssl>=": return ApExpression.strcmplex(a, b) >= 0
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
                env.noteMatch(m.ranges)
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
            case "-T": return !(s.isEmpty || s == "0" || ["off", "no", "false"].contains(s.asciiLowercased()))
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
        case .joined(let a, let b): return a.readsVariable(name) || b.readsVariable(name)
        }
    }
}


/// A value inside an expression.
public indirect enum ExprWord: Sendable {
    case literal(String)
    case variable(String)
    case header(String)
    case capture(Int)
    case function(String, ExprWord)
    /// A string's pieces (`'a%{X}b'`), which Apache's grammar nests to the left.
    case concat([ExprWord])
    /// The `.` operator, which nests to the right (`%right T_OP_CONCAT`).
    case joined(ExprWord, ExprWord)

    /// Reads `$1`…`$9` somewhere in it.
    var readsGroup: Bool {
        switch self {
        case .capture(let i): i >= 1
        case .function(_, let w): w.readsGroup
        case .concat(let parts): parts.contains { $0.readsGroup }
        case .joined(let a, let b): a.readsGroup || b.readsGroup
        case .literal, .variable, .header: false
        }
    }

    func evaluate(_ env: ExpressionEnvironment, _ captures: [String]) -> String {
        switch self {
        case .literal(let s): return s
        case .variable(let name): return env.expressionVariable(name)
        case .header(let name):
            env.noteVary(name)
            return env.requestHeader(name)
        case .capture(let i): return i < captures.count ? captures[i] : ""
        case .concat, .joined: return evaluateConcatenation(env, captures)
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
            case "tolower": return v.asciiLowercased()
            case "toupper": return v.asciiUppercased()
            case "escape": return percentEscape(v, keep: uriEscapeSafeBytes)
            case "unescape": return unescapeKeeping2F(v) ?? ""
            case "base64": return base64Encode(v.rawBytes)
            case "unbase64": return String(preservingBytes: base64Decode(v))
            case "md5": return Digest.md5(v)
            case "sha1": return Digest.sha1(v)
            case "ldap": return ldapEscape(v)
            case "file": return env.fileContents(v).map { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } ?? ""
            case "filesize": return String(env.fileSize(v) ?? 0)
            case "ssl": return env.sslLookup(v)
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

/// Functions ap_expr knows (util_expr_eval.c's string_func_providers, then mod_ssl's
/// expression hook, which takes `SSL` with its strcasecmp strcEQ); names compare
/// case-insensitively. `file` and `filesize` are refused in restricted contexts (`.htaccess`).
let expressionFunctions: Set<String> = [
    "osenv", "env", "resp", "req", "http", "note", "reqenv", "req_novary", "tolower", "toupper", "escape",
    "unescape", "file", "filesize", "base64", "unbase64", "sha1", "md5", "ldap", "ssl",
]
let restrictedExpressionFunctions: Set<String> = ["file", "filesize"]
/// Unary operators (case-sensitive, one letter) and binary operators (case-insensitive).
let expressionUnaryOperators: Set<UInt8> = Set("nzRTdefsLhxFUA".utf8)
let expressionBinaryOperators: Set<String> = ["ipmatch", "fnmatch", "strmatch", "strcmatch"]

extension ExprWord {
    /// The two operands of Apache's op_Concat node this is: a string's pieces nest to the left
    /// (`string substr`), the `.` operator to the right; nil for any other word.
    private var concatOperands: (ExprWord, ExprWord)? {
        switch self {
        case .joined(let a, let b): return (a, b)
        case .concat(let parts) where parts.count >= 2:
            return (parts.count == 2 ? parts[0] : .concat(Array(parts.dropLast())), parts[parts.count - 1])
        default: return nil
        }
    }

    /// ap_expr_eval_word's op_Concat, in its order of evaluation, which is the order the request
    /// headers read join `Vary`: two plain operands left first; a chain nested to the left (a
    /// string of three pieces or more) from its last piece back; a chain nested to the right
    /// (`.`) from its first (recorded: header-expression-vary-concatenation-order).
    fileprivate func evaluateConcatenation(_ env: ExpressionEnvironment, _ captures: [String]) -> String {
        guard let (a, b) = concatOperands else {
            // A string of fewer than two pieces (the parser builds none; `evaluate` would come
            // back here): its pieces in order.
            if case .concat(let parts) = self { return parts.map { $0.evaluate(env, captures) }.joined() }
            return evaluate(env, captures)
        }
        if a.concatOperands == nil, b.concatOperands == nil {
            let first = a.evaluate(env, captures)
            return first + b.evaluate(env, captures)
        }
        var values: [String] = []
        if a.concatOperands != nil {
            var node = self
            while let (left, right) = node.concatOperands {
                values.append(right.evaluate(env, captures))
                node = left
            }
            values.append(node.evaluate(env, captures))
            return values.reversed().joined()
        }
        values.append(a.evaluate(env, captures))
        var node = b
        while let (left, right) = node.concatOperands {
            values.append(left.evaluate(env, captures))
            node = right
        }
        values.append(node.evaluate(env, captures))
        return values.joined()
    }
}
