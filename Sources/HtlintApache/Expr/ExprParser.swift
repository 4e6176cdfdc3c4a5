import HtlintRegex

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
            let arg = name == "R" ? try parseSubnetWord("R") : try parseWord()
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
                let op = name.asciiLowercased()
                guard name.utf8.count > 1, expressionBinaryOperators.contains(op) else {
                    if name.utf8.count == 1 { throw .init(message: "syntax error, unexpected T_OP_UNARY near '-\(name)'") }
                    throw .init(message: "Binary operator '-\(name)' does not exist")
                }
                let rhs = op == "ipmatch" ? try parseSubnetWord("ipmatch") : try parseWord()
                return .compare("-" + op, lhs, rhs)
            }
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    /// `-in {word, …}`, or `-in name(word)` with the one list function 2.4 has: mod_ssl's
    /// `PeerExtList` (strcasecmp), the client certificate's extension values. The simulated
    /// browser sends no certificate: its list is NULL, and `-in` is false.
    mutating func parseList(_ lhs: ExprWord) throws(ApExpression.ParseError) -> ApExpression {
        if let name = peekIdentifier() {
            guard equalsIgnoringASCIICase(name, "PeerExtList") else {
                throw .init(message: "List-returning function '\(name)' does not exist")
            }
            i += name.utf8.count
            guard eat("(") else { throw .init(message: "syntax error, unexpected T_ID near '\(name)'") }
            _ = try parseWord()
            guard eat(")") else { throw .init(message: "syntax error, missing ')' after function argument") }
            return .inList(lhs, [])
        }
        guard eat("{") else { throw .init(message: "syntax error, expected '{' after -in") }
        var list: [ExprWord] = []
        repeat { list.append(try parseWord()) } while eat(",")
        guard eat("}") else { throw .init(message: "syntax error, expected '}'") }
        return .inList(lhs, list)
    }

    /// The subnet operand of `-R`/`-ipmatch`. An unquoted number is an op_Digit node, not the
    /// op_String ap_expr_info_make passes on, so `-R 127` is refused like a variable (recorded:
    /// conditional-expr-ipmatch-unquoted-number-refused).
    mutating func parseSubnetWord(_ op: String) throws(ApExpression.ParseError) -> ExprWord {
        skipSpace()
        let digitsFrom = i < b.count && b[i] == UInt8(ascii: "-") ? i + 1 : i
        let startsWithDigit = digitsFrom < b.count && b[digitsFrom] >= 0x30 && b[digitsFrom] <= 0x39
        let word = try parseWord()
        if startsWithDigit, case .literal = word {
            throw .init(message: "-\(op) requires subnet/netmask as constant argument")
        }
        try checkSubnet(word, op)
        return word
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

    /// Whether the text at `i` opens a regex (`/` or `m` plus a delimiter) that is never closed.
    /// Apache's scanner starts a regex at any such opener and, reaching the end inside it, just
    /// ends the token stream: after a complete expression the tail is ignored, so
    /// `-f %{DOCUMENT_ROOT}/a.html` tests the document root itself (recorded:
    /// conditional-expr-unquoted-slash-tail-ignored).
    var restIsUnterminatedRegex: Bool {
        guard i < b.count else { return false }
        var delimiterAt = i
        if b[i] == UInt8(ascii: "m"), i + 1 < b.count, Array("/#$%^,;:_?|-!.'\"".utf8).contains(b[i + 1]) {
            delimiterAt = i + 1
        } else if b[i] != UInt8(ascii: "/") {
            return false
        }
        return !b[(delimiterAt + 1)...].contains(b[delimiterAt])
    }

    /// `word . word`, nested to the right as Apache's grammar does (`%right T_OP_CONCAT`). Read
    /// in a loop, each `.` an operand towards `operandLimit`, so a long chain cannot exhaust
    /// the stack here.
    mutating func parseWord() throws(ApExpression.ParseError) -> ExprWord {
        var words = [try parsePrimaryWord()]
        while eat(".") {
            operands += 1
            guard operands <= ExprParser.operandLimit else {
                throw .init(message: "expression has more than \(ExprParser.operandLimit) operands (htlint's limit)")
            }
            words.append(try parsePrimaryWord())
        }
        var word = words.removeLast()
        while let left = words.popLast() { word = .joined(left, word) }
        return word
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
            return .function(name.asciiLowercased(), arg)
        }
        throw .init(message: "syntax error near '\(rest)'")
    }

    func checkFunction(_ name: String) throws(ApExpression.ParseError) {
        let fn = name.asciiLowercased()
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
            // In a `%{func:…}` argument a quote that no backslash escapes crashes Apache's
            // scanner while it reads the `.htaccess`, whether or not the expression is ever
            // evaluated (recorded: conditional-expr-quote-in-function-argument-crashes-child).
            if restricted, terminator == UInt8(ascii: "}"), b[i] == 0x27 || b[i] == 0x22 {
                throw .quoteInFunctionArgument(b[i])
            }
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
            let fn = name.asciiLowercased()
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
        guard expressionVariables.contains(name.asciiUppercased()) || name.asciiUppercased().hasBytePrefix("SSL_") else {
            throw .init(message: "Variable '\(name)' does not exist")
        }
        return .variable(name.asciiUppercased())
    }
}
