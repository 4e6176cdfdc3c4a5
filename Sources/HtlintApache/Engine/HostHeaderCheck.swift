/// Whether httpd's fix_hostname refuses a `Host` value with 400. Under `HttpProtocolOptions
/// Strict` (the default): an empty or out-of-range port (`host:`), a digits-only name,
/// characters other than letters, digits, `-`, `_` and `.` (`host:80.`), `..`, a dotted-decimal
/// address that is not four plain numbers, a top-level label starting with a digit, or an IPv6
/// literal with other than hex digits, `:` and `.`. An empty value is accepted.
/// Under `Unsafe` only apr_parse_addr_port's and fix_hostname_non_v6's own refusals remain: a
/// port out of 1–65535 or without a name (`:80`), a bad IPv6 literal, `..`, `/` or `\\`
/// (`host:`, `a b`, `1234`, `a:80:80` pass; recorded: vhost-http-protocol-options-unsafe-host).
/// Run on every request: it reads the value's bytes in place rather than copying them.
public func hostHeaderIsMalformed(_ value: String, strict: Bool = true) -> Bool {
    var value = value
    return value.withUTF8 { strict ? hostIsMalformed($0) : hostIsMalformedUnsafe($0) }
}

/// fix_hostname without strict_hostname_check: apr_parse_addr_port, then the IPv6 literal or
/// fix_hostname_non_v6 check.
private func hostIsMalformedUnsafe(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    // Empty, or a bare number (taken as the name as it is).
    if b.allSatisfy(isDigit) { return false }
    guard let h = nameBeforePort(b, strict: false) else { return true }
    if let malformed = ipv6LiteralIsMalformed(h) { return malformed }
    for k in 0..<h.count {
        let c = h[k]
        if c == UInt8(ascii: "/") || c == UInt8(ascii: "\\") { return true }
        if c == UInt8(ascii: "."), k + 1 < h.count, h[k + 1] == UInt8(ascii: ".") { return true }
    }
    return false
}

private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

/// apr_parse_addr_port: digits after the last `:` are the port, 1–65535. The name before it,
/// or nil when the value is refused. Under Unsafe (`strict` false) a `:` is a port's only with
/// digits after it (`host:` keeps its `:` in the name), and a port needs a name (`:80`).
private func nameBeforePort(_ b: UnsafeBufferPointer<UInt8>, strict: Bool) -> UnsafeBufferPointer<UInt8>? {
    var i = b.count
    while i > 0, isDigit(b[i - 1]) { i -= 1 }
    guard i > 0, b[i - 1] == UInt8(ascii: ":"), strict || i < b.count else { return b }
    if !strict && i == 1 { return nil }
    var port = 0
    for d in b[i...] { port = min(port * 10 + Int(d - 0x30), 1_000_000) }
    guard (1...65535).contains(port) else { return nil }
    return UnsafeBufferPointer(rebasing: b[..<(i - 1)])
}

/// Whether a bracketed IPv6 literal holds other than hex digits, `:` and `.`; nil when `h` is
/// not bracketed.
private func ipv6LiteralIsMalformed(_ h: UnsafeBufferPointer<UInt8>) -> Bool? {
    guard h.first == UInt8(ascii: "[") else { return nil }
    guard h.last == UInt8(ascii: "]"), h.count > 2 else { return true }
    return !h.dropFirst().dropLast().allSatisfy { isDigit($0) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
}

private func hostIsMalformed(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
    if b.isEmpty { return false }
    func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    // A bare number would be read as a port: refused as a host name (RFC 3986 7.4).
    if b.allSatisfy(isDigit) { return true }
    guard let h = nameBeforePort(b, strict: true) else { return true }
    if let malformed = ipv6LiteralIsMalformed(h) { return malformed }
    // strict_hostname_check
    var dottedDecimal = true, leadingZeroes = false, dots = 0
    for (k, c) in h.enumerated() {
        if isAlpha(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: "_") {
            dottedDecimal = false
        } else if c == UInt8(ascii: ".") {
            dots += 1
            if k + 2 < h.count, h[k + 1] == UInt8(ascii: "0"), isDigit(h[k + 2]) { leadingZeroes = true }
        } else if !isDigit(c) {
            return true
        }
    }
    if dottedDecimal {
        if h.first == UInt8(ascii: ".") || (h.count > 1 && h[0] == UInt8(ascii: "0") && isDigit(h[1])) { leadingZeroes = true }
        return leadingZeroes || dots != 3
    }
    // The top-level label must start with a letter (RFC 1123 2.1).
    if let lastDot = h.lastIndex(of: UInt8(ascii: ".")), lastDot + 1 < h.count, !isAlpha(h[lastDot + 1]) { return true }
    // fix_hostname_non_v6: `..` is refused.
    for k in 0..<max(0, h.count - 1) where h[k] == UInt8(ascii: ".") && h[k + 1] == UInt8(ascii: ".") { return true }
    return false
}
