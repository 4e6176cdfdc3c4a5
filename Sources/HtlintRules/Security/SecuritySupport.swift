import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// Request headers a proxy or CDN uses to tell the origin the visitor's scheme. Apache takes
/// them from whoever connects: only a proxy in front that overwrites them makes them true.
enum ForwardedHeaders {
    static let names: Set<String> = ["x-forwarded-proto", "x-forwarded-scheme", "x-forwarded-protocol", "x-forwarded-ssl",
                                     "x-url-scheme", "front-end-https", "cf-visitor", "forwarded"]

    /// Whether a mod_rewrite variable (`HTTP:X-Forwarded-Proto`, any case) reads one of them.
    static func isForwarded(variable v: String) -> Bool {
        let upper = v.uppercased()
        guard upper.hasPrefix("HTTP:") else { return false }
        return names.contains(String(upper.dropFirst(5)).lowercased())
    }

    /// Variables that tell the connection's own scheme, or the proxy's address: a condition on
    /// them next to the header makes the header alone not decisive.
    static let connectionVariables: Set<String> = ["HTTPS", "SERVER_PORT", "REQUEST_SCHEME"]
    static let addressVariables: Set<String> = ["REMOTE_ADDR", "REMOTE_HOST", "CONN_REMOTE_ADDR"]
}

extension LintFile {
    /// Directive nodes by their whole range, which is what `RewriteRule.range`,
    /// `AliasRedirect.range` and `RewriteCondition.range` hold (built once: files may be large).
    var directivesByRange: [SourceRange: DirectiveNode] {
        Dictionary(directives.map { ($0.range, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The point at byte `offset` of a word's value: exact when the value is the word's raw text
    /// on one line (nothing unescaped); otherwise the start of the word.
    func position(in word: Word, offset: Int) -> SourceRange {
        let start = word.innerStart, end = word.innerStart + word.value.utf8.count
        if end <= source.bytes.count, source.text(start..<end) == word.value, offset >= 0, offset <= word.value.utf8.count {
            return source.range(start + offset, start + offset)
        }
        return source.range(word.range.start, word.range.start)
    }
}

/// The host of an absolute `http(s)://` URL, lower-cased (brackets kept for IPv6), or nil.
func urlHost(_ url: String) -> String? {
    // Every rule's target passes here (a 100,000-rule map's lint): read bytes, copy only the host.
    var url = url
    return url.withUTF8 { b -> String? in
        func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
        func hasScheme(_ scheme: StaticString) -> Bool {
            scheme.withUTF8Buffer { s in s.count <= b.count && s.indices.allSatisfy { lower(b[$0]) == s[$0] } }
        }
        guard let first = b.first, lower(first) == UInt8(ascii: "h") else { return nil }
        let start = hasScheme("http://") ? 7 : hasScheme("https://") ? 8 : -1
        guard start >= 0 else { return nil }
        var end = start
        while end < b.count, b[end] != UInt8(ascii: "/"), b[end] != UInt8(ascii: "?"), b[end] != UInt8(ascii: "#") { end += 1 }
        var hostStart = start
        if let at = b[start..<end].lastIndex(of: UInt8(ascii: "@")) { hostStart = at + 1 }
        var hostEnd = end
        if hostStart < end, b[hostStart] == UInt8(ascii: "[") {
            guard let close = b[hostStart..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostEnd = close + 1
        } else if let colon = b[hostStart..<end].firstIndex(of: UInt8(ascii: ":")) {
            hostEnd = colon
        }
        return String(decoding: UnsafeBufferPointer(rebasing: b[hostStart..<hostEnd]), as: UTF8.self).lowercased()
    }
}

/// Whether a host is an IPv4 literal (`203.0.113.5`) or a bracketed IPv6 literal.
func isIPLiteral(_ host: String) -> Bool {
    if host.hasPrefix("[") && host.hasSuffix("]") { return host.contains(":") }
    guard let first = host.utf8.first, first >= 0x30, first <= 0x39 else { return false }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts.allSatisfy { p in
        !p.isEmpty && p.count <= 3 && p.allSatisfy(\.isASCIIDigit) && Int(p).map { $0 <= 255 } == true
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

/// What an `ap_expr` (`<If>`, `SetEnvIfExpr`) reads, for the forwarded-scheme rules.
enum ExpressionReads {
    /// Request headers the expression reads (`%{HTTP:X}`, `req('X')`, `http('X')`), as written.
    static func headers(_ e: ApExpression) -> [String] {
        words(e).flatMap(headers(in:))
    }

    /// The forwarded-scheme headers it reads (`X-Forwarded-Proto`, `CF-Visitor`, …), as written.
    static func forwardedHeaders(_ e: ApExpression) -> [String] {
        headers(e).filter { ForwardedHeaders.names.contains($0.lowercased()) }
    }

    /// Whether it looks at the client's address (`-R`, `-ipmatch`, `%{REMOTE_ADDR}`): the
    /// header is then believed only from the proxy.
    static func testsAddress(_ e: ApExpression) -> Bool {
        switch e {
        case .constant: return false
        case .not(let a): return testsAddress(a)
        case .and(let a, let b), .or(let a, let b): return testsAddress(a) || testsAddress(b)
        case .unary(let op, let w): return op == "-R" || variables(in: w).contains { ForwardedHeaders.addressVariables.contains($0) }
        case .compare(let op, let l, let r):
            return op == "-ipmatch" || (variables(in: l) + variables(in: r)).contains { ForwardedHeaders.addressVariables.contains($0) }
        case .match(let w, _, _): return variables(in: w).contains { ForwardedHeaders.addressVariables.contains($0) }
        case .inList(let w, let list):
            return ([w] + list).flatMap(variables(in:)).contains { ForwardedHeaders.addressVariables.contains($0) }
        }
    }

    /// Whether an `||` puts the connection's own scheme (`%{HTTPS}`, `%{SERVER_PORT}`,
    /// `%{REQUEST_SCHEME}`) beside the header: a forged header alone then decides nothing.
    /// Under a `!` the operators swap (De Morgan): `!(a || b)` is `!a && !b`, an AND, and
    /// `!(a && b)` is `!a || !b`, an OR.
    static func connectionSchemeInOr(_ e: ApExpression, negated: Bool = false) -> Bool {
        let readsConnection = { (x: ApExpression) in
            words(x).flatMap(variables(in:)).contains { ForwardedHeaders.connectionVariables.contains($0) }
        }
        switch e {
        case .constant, .compare, .match, .inList, .unary: return false
        case .not(let a): return connectionSchemeInOr(a, negated: !negated)
        case .and(let a, let b):
            if negated { return readsConnection(a) || readsConnection(b) }
            return connectionSchemeInOr(a, negated: negated) || connectionSchemeInOr(b, negated: negated)
        case .or(let a, let b):
            if !negated { return readsConnection(a) || readsConnection(b) }
            return connectionSchemeInOr(a, negated: negated) || connectionSchemeInOr(b, negated: negated)
        }
    }

    static func words(_ e: ApExpression) -> [ExprWord] {
        switch e {
        case .constant: return []
        case .not(let a): return words(a)
        case .and(let a, let b), .or(let a, let b): return words(a) + words(b)
        case .compare(_, let l, let r): return [l, r]
        case .match(let w, _, _), .unary(_, let w): return [w]
        case .inList(let w, let list): return [w] + list
        }
    }

    static func headers(in w: ExprWord) -> [String] {
        switch w {
        case .header(let name): return [name]
        case .function(let fn, let arg):
            if ["req", "http", "req_novary"].contains(fn.lowercased()), case .literal(let name) = arg { return [name] }
            return headers(in: arg)
        case .concat(let parts): return parts.flatMap(headers(in:))
        case .joined(let a, let b): return headers(in: a) + headers(in: b)
        case .literal, .variable, .capture: return []
        }
    }

    static func variables(in w: ExprWord) -> [String] {
        switch w {
        case .variable(let v): return [v.uppercased()]
        case .function(_, let arg): return variables(in: arg)
        case .concat(let parts): return parts.flatMap(variables(in:))
        case .joined(let a, let b): return variables(in: a) + variables(in: b)
        case .literal, .header, .capture: return []
        }
    }
}

extension LintFile {
    /// The `<If>`/`<ElseIf>`/`<Else>` (or other) section whose whole range is `range`, as the
    /// configuration's `IfChain` branches record it.
    func section(at range: SourceRange) -> SectionNode? {
        func find(_ nodes: [ConfigNode]) -> SectionNode? {
            for node in nodes {
                guard case .section(let s) = node else { continue }
                if s.range == range { return s }
                if s.range.start <= range.start && range.end <= s.range.end, let inner = find(s.children) { return inner }
            }
            return nil
        }
        return find(tree.nodes)
    }
}

/// One `<If>` branch with what decides it: its own condition and those of the branches before it
/// (which must have been false), and whether an enclosing `<If>` tests the client's address.
struct IfBranchContext {
    var block: ConfigBlock
    var range: SourceRange
    /// Conditions of this branch and the earlier ones of its chain, with their branch's range;
    /// `holds` is false for an earlier branch's condition, which must have been false.
    var conditions: [(expression: ApExpression, range: SourceRange, holds: Bool)]
    var addressGuarded: Bool

    /// The first condition that reads a forwarded-scheme header, unless the client's address
    /// is tested or the connection's scheme is OR-ed beside it.
    var forwardedTest: (header: String, range: SourceRange)? {
        guard !addressGuarded, !conditions.contains(where: { ExpressionReads.testsAddress($0.expression) }) else { return nil }
        for c in conditions where !ExpressionReads.connectionSchemeInOr(c.expression, negated: !c.holds) {
            if let h = ExpressionReads.forwardedHeaders(c.expression).first { return (h, c.range) }
        }
        return nil
    }

    /// Every `<If>` branch of a block, nested ones included (`<Files>` and `<If>` inside `<If>`).
    static func all(in block: ConfigBlock, guarded: Bool = false) -> [IfBranchContext] {
        var out: [IfBranchContext] = []
        for f in block.files { out += all(in: f.block, guarded: guarded) }
        for chain in block.ifChains {
            var earlier: [(expression: ApExpression, range: SourceRange, holds: Bool)] = []
            for branch in chain.branches {
                let own = branch.condition.map { [(expression: $0, range: branch.range, holds: true)] } ?? []
                let context = IfBranchContext(block: branch.block, range: branch.range, conditions: earlier + own,
                                              addressGuarded: guarded)
                out.append(context)
                let byAddress = guarded || context.conditions.contains { ExpressionReads.testsAddress($0.expression) }
                out += all(in: branch.block, guarded: byAddress)
                earlier += own.map { (expression: $0.expression, range: $0.range, holds: false) }
            }
        }
        return out
    }
}
