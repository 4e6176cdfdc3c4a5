/// The order in which witnesses pick bytes: readable URL characters first, so a generated
/// request looks like one a person would type (`shop/0`, not `shop/\u{1}`).
enum BytePreference {
    static let order: [UInt8] = {
        var out: [UInt8] = []
        out += Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        out += Array(UInt8(ascii: "0")...UInt8(ascii: "9"))
        out += Array("-_./~".utf8)
        out += Array(UInt8(ascii: "A")...UInt8(ascii: "Z"))
        out += Array("=&+,;:@!$'()*".utf8)
        var seen = Set(out)
        // Other printable ASCII, then everything else; `%`, `?`, `#` and controls come late
        // because they need escaping in a request target.
        for b in UInt8(0x21)...UInt8(0x7E) where !"%?#".utf8.contains(b) && seen.insert(b).inserted { out.append(b) }
        for b in [UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"), 0x20] where seen.insert(b).inserted { out.append(b) }
        for b in 0...255 where seen.insert(UInt8(b)).inserted { out.append(UInt8(b)) }
        return out
    }()

    /// Rank of each byte in `order` (lower is preferred).
    static let rank: [Int] = {
        var r = [Int](repeating: 0, count: 256)
        for (i, b) in order.enumerated() { r[Int(b)] = i }
        return r
    }()
}
