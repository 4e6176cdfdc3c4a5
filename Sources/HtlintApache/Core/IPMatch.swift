#if canImport(Glibc)
import HtlintRegex
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Address matching as `Require ip`, `Allow from` and ap_expr `-ipmatch`/`-R` use it (all
/// go through apr_ipsubnet): full address, partial prefix (`10.1`), IPv4 CIDR or netmask,
/// IPv6 address or prefix (`2001:db8::/32`).
func ipMatches(_ spec: String, _ addr: String) -> Bool {
    if spec == addr { return true }
    if spec.utf8.contains(UInt8(ascii: ":")) { return ipv6Matches(spec, addr) }
    // Split at bytes, as APR reads the text.
    let parts = byteSplit(spec[...], UInt8(ascii: "/"), omittingEmpty: true)
    func v4(_ s: Substring) -> UInt32? {
        let o = byteSplit(s, UInt8(ascii: "."), omittingEmpty: true).compactMap { UInt32($0) }
        guard o.count == 4, o.allSatisfy({ $0 < 256 }) else { return nil }
        return o[0] << 24 | o[1] << 16 | o[2] << 8 | o[3]
    }
    if parts.count == 2, let net = v4(parts[0]), let bits = UInt32(parts[1]), bits <= 32, let a = v4(Substring(addr)) {
        let mask: UInt32 = bits == 0 ? 0 : ~UInt32(0) << (32 - bits)
        return net & mask == a & mask
    }
    // A dotted netmask (`127.0.0.1/255.0.0.0`).
    if parts.count == 2, let net = v4(parts[0]), let mask = v4(parts[1]), let a = v4(Substring(addr)) {
        return net & mask == a & mask
    }
    // A whole address compares by value: `127.0.0.01` is 127.0.0.1.
    if let s = v4(Substring(spec)), let a = v4(Substring(addr)) { return s == a }
    if spec.hasByteSuffix(".") || byteSplit(spec[...], UInt8(ascii: "."), omittingEmpty: true).count < 4 {
        return (addr + ".").hasBytePrefix(spec.hasByteSuffix(".") ? spec : spec + ".")
    }
    return false
}

/// An IPv6 subnet as apr_ipsubnet_create reads it (an address, `/bits` up to 128) against an
/// IPv6 address, compared as bytes so `2001:0db8::1` is `2001:db8::1`.
private func ipv6Matches(_ spec: String, _ addr: String) -> Bool {
    let parts = byteSplit(spec[...], UInt8(ascii: "/"))
    guard parts.count <= 2, let net = ipv6Bytes(String(parts[0])), let a = ipv6Bytes(addr) else { return false }
    var bits = 128
    if parts.count == 2 {
        guard let b = Int(parts[1]), (1...128).contains(b) else { return false }
        bits = b
    }
    for i in 0..<16 {
        let take = max(0, min(8, bits - i * 8))
        let mask: UInt8 = take == 0 ? 0 : ~UInt8(0) << (8 - take)
        if net[i] & mask != a[i] & mask { return false }
    }
    return true
}

private func ipv6Bytes(_ text: String) -> [UInt8]? {
    var v6 = in6_addr()
    guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
    return withUnsafeBytes(of: v6) { Array($0) }
}

/// The name a reverse lookup gives the simulated client (127.0.0.1 in the oracle's /etc/hosts),
/// which `Require host` and `Allow from`/`Deny from` host names are matched against.
let clientHostName = "localhost"

/// mod_authz_host's and mod_access_compat's in_domain: the name ends with `domain` (ASCII case
/// folded) on a label boundary, so `ost` does not match `localhost` but `localhost` does.
func inDomain(_ domain: String, _ host: String) -> Bool {
    let d = Array(domain.asciiLowercased().utf8), h = Array(host.asciiLowercased().utf8)
    guard h.count >= d.count, h.suffix(d.count).elementsEqual(d) else { return false }
    return h.count == d.count || d.first == UInt8(ascii: ".") || h[h.count - d.count - 1] == UInt8(ascii: ".")
}
