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
    // Most targets are paths: decide on the first byte before copying anything.
    guard let first = url.utf8.first, first == UInt8(ascii: "h") || first == UInt8(ascii: "H") else { return nil }
    let lower = url.lowercased()
    guard let scheme = ["http://", "https://"].first(where: lower.hasPrefix) else { return nil }
    var rest = Substring(lower.dropFirst(scheme.count))
    if let at = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<at] }
    if let user = rest.lastIndex(of: "@") { rest = rest[rest.index(after: user)...] }
    if rest.hasPrefix("[") { return rest.firstIndex(of: "]").map { String(rest[...$0]) } }
    if let colon = rest.firstIndex(of: ":") { rest = rest[..<colon] }
    return String(rest)
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
