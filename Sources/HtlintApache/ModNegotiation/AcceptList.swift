/// An `Accept` header as mod_negotiation reads it (get_entry, atoq, mime_match,
/// set_accept_quality); absent, every type has quality 1.
struct AcceptList {
    private struct Range {
        var type: String
        var quality: Double
        /// `level=`; `text/html` is level 2 unless it says otherwise.
        var level: Double
    }

    private var ranges: [Range] = []
    private let present: Bool
    /// Some range has q below 1: qualities then count as written (accept_q); otherwise a
    /// wildcard match is made nearly worthless.
    private var explicitQuality = false

    init(_ header: String?) {
        present = header != nil
        guard let header else { return }
        var reader = TokenReader(Array(header.utf8))
        while !reader.atEnd {
            let start = reader.position
            ranges.append(AcceptList.entry(&reader))
            if reader.position == start { reader.position += 1 }
        }
        explicitQuality = ranges.contains { $0.quality < 1 }
    }

    /// One media range (get_entry): the type up to a blank, `;` or `,`, lower-cased; then
    /// `;name=value` parameters, of which `q` (or `qs`) and `level` count.
    private static func entry(_ reader: inout TokenReader) -> Range {
        let type = String(decoding: reader.token(acceptingBlanks: false), as: UTF8.self).asciiLowercased()
        var range = Range(type: type, quality: 1, level: type == "text/html" ? 2 : 0)
        while reader.peek == UInt8(ascii: ";") {
            reader.position += 1
            let parameter = reader.token(acceptingBlanks: true)
            guard let (name, value) = AcceptList.split(parameter) else { continue }
            if name == "q" || name == "qs" { range.quality = AcceptList.qvalue(value) }
            if name == "level" { range.level = Double(Int(value.prefix { $0.isNumber }) ?? 0) }
        }
        if reader.peek == UInt8(ascii: ",") { reader.position += 1 }
        return range
    }

    /// `name=value` with the name lower-cased and the value unquoted; nil without `=`.
    private static func split(_ parameter: [UInt8]) -> (String, String)? {
        guard let end = parameter.firstIndex(where: { $0 == UInt8(ascii: "=") || isBlank($0) }),
              parameter[end...].contains(UInt8(ascii: "=")) else { return nil }
        let name = String(decoding: parameter[..<end], as: UTF8.self).asciiLowercased()
        var rest = parameter[end...].drop { $0 == UInt8(ascii: "=") || isBlank($0) }
        if rest.first == UInt8(ascii: "\"") {
            rest = rest.dropFirst().prefix { $0 != UInt8(ascii: "\"") && $0 != 10 && $0 != 13 }
        } else {
            rest = rest.prefix { !isBlank($0) }
        }
        return (name, String(decoding: rest, as: UTF8.self).asciiLowercased())
    }

    /// atoq: only `0…` or `.…` is below 1, read to three decimals (`0.99999` is 0.999,
    /// `.5` is 0.5); anything else (`1.0`, `2`, `-1`, `abc`) is 1.
    static func qvalue(_ text: String) -> Double {
        var b = Array(text.utf8).drop(while: isBlank)
        guard let first = b.first else { return 1 }
        if first != UInt8(ascii: ".") {
            guard first == UInt8(ascii: "0") else { return 1 }
            b = b.dropFirst()
        }
        guard b.first == UInt8(ascii: ".") else { return 0 }
        var thousandths = 0
        for (weight, digit) in zip([100, 10, 1], b.dropFirst()) {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { break }
            thousandths += Int(digit - UInt8(ascii: "0")) * weight
        }
        return Double(thousandths) / 1000
    }

    private static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }

    /// A variant's type read as get_entry reads it: its `q`/`qs` parameter is the variant's
    /// source quality, `level` its level (text/html 2 unless it says otherwise).
    static func variantParameters(_ type: String) -> (sourceQuality: Double, level: Double) {
        var reader = TokenReader(Array(type.utf8))
        let range = entry(&reader)
        return (range.quality, range.level)
    }

    /// The ranges as written (lower case) with their qualities: `Accept-Language` is read the same way.
    var entries: [(String, Double)] { ranges.map { ($0.type, $0.quality) } }

    /// The quality `type` gets: from the first range of the most specific kind that matches
    /// (`*/*`, `major/*`, the type itself — which must also have a level at least the
    /// variant's, so `text/html;level=1` does not take an HTML file), 0 if none. Without any q
    /// below 1 a `major/*` match is worth 0.02 and a `*/*` match 0.01.
    /// `preferScripts`: handle_multi's request has a query, path info or a method other than
    /// GET/HEAD, so the appended CGI magic range is worth 2 (recorded:
    /// negotiation-script-variant-preferred-with-args-post-or-path-info).
    /// `level`: the variant's (`level=`), by default text/html's 2.
    func quality(of type: String, level variantLevel: Double? = nil, preferScripts: Bool = false) -> Double {
        let t = type.asciiLowercased()
        // maybe_add_default_accepts appends the CGI magic type at q 0.001 after the header's
        // ranges: a script variant matches it exactly, unless the header names the type first.
        if t == MimeTypes.cgiMagicType { return ranges.first { $0.type == t }?.quality ?? (preferScripts ? 2 : 0.001) }
        guard present else { return 1 }
        let level: Double = variantLevel ?? (t == "text/html" ? 2 : 0)
        var stars = 0
        var q = 0.0
        for range in ranges {
            let kind = AcceptList.match(range, t, level: level)
            guard kind > stars else { continue }
            stars = kind
            q = range.quality
        }
        if !explicitQuality && stars == 1 { return 0.01 }
        if !explicitQuality && stars == 2 { return 0.02 }
        return q
    }

    /// mime_match: 1 for `*` or `*/*`, 2 for `major/*`, 3 for the type itself, 0 for no match.
    private static func match(_ range: Range, _ type: String, level: Double) -> Int {
        if range.type == "*" || range.type == "*/*" { return 1 }
        if range.type.hasByteSuffix("/*"), range.type.count > 2, type.hasBytePrefix(String(range.type.dropLast())) { return 2 }
        return range.type == type && range.level >= level ? 3 : 0
    }
}

/// A cursor over header bytes with ap_get_token's rules.
private struct TokenReader {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }
    var peek: UInt8? { atEnd ? nil : bytes[position] }

    /// ap_get_token: skips blanks, reads to a `;` or `,` (or a blank unless `acceptingBlanks`),
    /// passing over quoted strings whole, then skips the blanks after it.
    mutating func token(acceptingBlanks: Bool) -> [UInt8] {
        skipBlanks()
        let start = position
        while let c = peek, acceptingBlanks || !TokenReader.isBlank(c), c != UInt8(ascii: ";"), c != UInt8(ascii: ",") {
            position += 1
            if c == UInt8(ascii: "\"") {
                while let d = peek {
                    position += 1
                    if d == UInt8(ascii: "\"") { break }
                }
            }
        }
        let token = Array(bytes[start..<position])
        skipBlanks()
        return token
    }

    private mutating func skipBlanks() {
        while let c = peek, TokenReader.isBlank(c) { position += 1 }
    }

    private static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
}
