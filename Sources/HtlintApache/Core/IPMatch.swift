/// Address matching as `Require ip`, `Allow from` and ap_expr `-ipmatch`/`-R` use it (all
/// go through apr_ipsubnet): full address, partial prefix (`10.1`), or IPv4 CIDR.
func ipMatches(_ spec: String, _ addr: String) -> Bool {
    if spec == addr { return true }
    let parts = spec.split(separator: "/")
    func v4(_ s: Substring) -> UInt32? {
        let o = s.split(separator: ".").compactMap { UInt32($0) }
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
    if spec.hasSuffix(".") || spec.split(separator: ".").count < 4 {
        return (addr + ".").hasPrefix(spec.hasSuffix(".") ? spec : spec + ".")
    }
    return false
}
