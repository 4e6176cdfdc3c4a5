import HtlintRegex
import HtlintBytes
// The C library, APR and httpd string helpers that ap_expr, mod_rewrite and the rest of the
// engine share, with the exact acceptance and edge cases of the originals.

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
func atoi64(_ s: String) -> Int { strtol64(s.utf8).value }

/// C `strtol(s, &end, 10)` on 64 bits: leading blanks, a sign, digits, saturating at the
/// bounds. `complete`: nothing follows the digits (with no digits at all `end` is the start, so
/// only empty text is complete).
func strtol64<C: Collection>(_ bytes: C) -> (value: Int, complete: Bool) where C.Element == UInt8 {
    var i = bytes.startIndex
    while i < bytes.endIndex, bytes[i] == 0x20 || (bytes[i] >= 0x09 && bytes[i] <= 0x0D) { i = bytes.index(after: i) }
    var negative = false
    if i < bytes.endIndex, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        negative = bytes[i] == UInt8(ascii: "-")
        i = bytes.index(after: i)
    }
    var n = 0, read = false, saturated = false
    while i < bytes.endIndex, bytes[i] >= 0x30, bytes[i] <= 0x39 {
        let (m, o1) = n.multipliedReportingOverflow(by: 10)
        let (a, o2) = m.addingReportingOverflow(Int(bytes[i] - 0x30))
        if o1 || o2 { saturated = true } else { n = a }
        read = true
        i = bytes.index(after: i)
    }
    let value = saturated ? (negative ? Int.min : Int.max) : (negative ? -n : n)
    return (value, read ? i == bytes.endIndex : bytes.isEmpty)
}

/// apr_ipsubnet_create's acceptance: an IPv4 address or a prefix of one (`10.1`), an IPv6
/// address, optionally `/bits` (1…32 or 1…128) or, for IPv4, `/netmask`.
func validSubnet(_ spec: String) -> Bool {
    // Cut at the first `/` byte and split at `.` bytes, as APR reads the text.
    let slash = spec.firstIndex(ofByte: UInt8(ascii: "/"))
    let address = slash.map { spec[..<$0] } ?? spec[...]
    let mask = slash.map { bytesAfter(spec, $0) }
    if address.utf8.contains(UInt8(ascii: ":")) {
        // apr_ipsubnet_create refuses IPv4-mapped IPv6 addresses (::ffff:a.b.c.d).
        guard validIPv6(address), !(address.asciiLowercased().hasBytePrefix("::ffff:") && address.contains(".")) else { return false }
        guard let m = mask else { return true }
        guard let bits = Int(m), m.allSatisfy(\.isNumber) else { return false }
        return bits > 0 && bits <= 128
    }
    // IPv4 as `Require ip` reads it (recorded: section-if-ipmatch-octets).
    return ConfigReader.subnetProblem(spec) == nil
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

/// ap_escape_uri (ap_os_escape_path): letters, digits and `$-_.+!*'(),:;@&=/~` stay, the
/// set redirects are escaped with (recorded: header-expr-escape-keeps-semicolon).
let uriEscapeSafeBytes = pathSafeBytes

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
/// APR's character table leaves `=` and `#` out of its DN set, though RFC 4514 lists them
/// (recorded: header-expression-ldap-escape-set).
func ldapEscape(_ s: String) -> String {
    let special = Set("\\,+<>;\"*()".utf8)
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for c in s.rawBytes {
        if special.contains(c) || c < 0x20 || c >= 0x7F { out += [UInt8(ascii: "\\"), digits[Int(c >> 4)], digits[Int(c & 15)]] } else { out.append(c) }
    }
    return String(preservingBytes: out)
}
