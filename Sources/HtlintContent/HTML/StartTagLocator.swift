/// An attribute of a start tag as it is written in the source.
struct LocatedAttribute: Sendable {
    /// Lower-cased, as libxml2 stores it.
    var name: String
    /// The raw value between the quotes (or the unquoted value); `nil` without `=`.
    var value: Range<Int>?
}

/// A start tag found in the source bytes: where its `<` is and where each attribute value is.
struct StartTag: Sendable {
    var start: Int
    var end: Int
    var attributes: [LocatedAttribute]

    /// The first attribute of that name: libxml2 drops a repeated attribute ("Attribute x
    /// redefined"), so the first occurrence is the one in the tree.
    func attribute(_ name: String) -> LocatedAttribute? { attributes.first { $0.name == name } }

    /// Attribute names in order, repeats dropped: the list libxml2 builds.
    var distinctNames: [String] {
        var seen = Set<String>()
        return attributes.map(\.name).filter { seen.insert($0).inserted }
    }
}

/// Finds an element's start tag from the offset libxml2 recorded for it.
///
/// The lexer mirrors libxml2 2.9's `htmlParseStartTag`, `htmlParseHTMLName` and
/// `htmlParseAttValue` (names `[A-Za-z_:.][A-Za-z0-9:._-]*` lower-cased; values quoted with `"`
/// or `'`, or unquoted up to a blank or `>`; bogus text skipped up to a blank, `>` or `/>`;
/// an unterminated quote runs to the end of the input), so attribute boundaries are the ones
/// libxml2 used. It only reads one tag whose existence the parser has already established; it is
/// not an HTML parser.
enum StartTagLocator {
    /// The start tag of element `name` whose attributes end at `anchor` and whose attribute
    /// names are `attributeNames` (libxml2's, in order). Candidates are tried from the anchor
    /// backwards, never before `lowerBound`: a value can itself hold a look-alike tag
    /// (`<img src="a.png>\n<img src="` ends at the same `>` as the real one), which the attribute
    /// names tell apart. Without a full match, the nearest tag ending at the anchor is taken.
    static func locate(_ name: String, anchor: Int, lowerBound: Int, in bytes: [UInt8],
                       attributeNames: [String]) -> StartTag? {
        let name = Array(name.utf8)
        guard !name.isEmpty else { return nil }
        var nearest: StartTag?
        var p = min(anchor, bytes.count) - 1
        while p >= lowerBound {
            if bytes[p] == UInt8(ascii: "<"), matchesName(name, at: p + 1, in: bytes),
               let tag = lex(at: p, in: bytes), tag.end == anchor {
                if tag.distinctNames == attributeNames { return tag }
                if nearest == nil { nearest = tag }
            }
            p -= 1
        }
        return nearest
    }

    private static func matchesName(_ name: [UInt8], at i: Int, in bytes: [UInt8]) -> Bool {
        guard i + name.count <= bytes.count else { return false }
        for k in 0..<name.count where lower(bytes[i + k]) != name[k] { return false }
        return i + name.count == bytes.count || !isNameChar(bytes[i + name.count])
    }

    /// Lexes the start tag whose `<` is at `start`.
    static func lex(at start: Int, in b: [UInt8]) -> StartTag? {
        var i = start + 1
        guard readName(b, &i) != nil else { return nil }
        var attributes: [LocatedAttribute] = []
        func atEnd() -> Bool {
            i >= b.count || b[i] == UInt8(ascii: ">")
                || (b[i] == UInt8(ascii: "/") && i + 1 < b.count && b[i + 1] == UInt8(ascii: ">"))
        }
        skipBlanks(b, &i)
        while !atEnd() {
            if let attrName = readName(b, &i) {
                skipBlanks(b, &i)
                var value: Range<Int>?
                if i < b.count, b[i] == UInt8(ascii: "=") {
                    i += 1
                    skipBlanks(b, &i)
                    value = readValue(b, &i)
                }
                attributes.append(LocatedAttribute(name: attrName, value: value))
            } else {
                while i < b.count, !isBlank(b[i]), !atEnd() { i += 1 }
            }
            skipBlanks(b, &i)
        }
        return StartTag(start: start, end: min(i, b.count), attributes: attributes)
    }

    private static func readValue(_ b: [UInt8], _ i: inout Int) -> Range<Int> {
        if i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
            let quote = b[i]
            i += 1
            let start = i
            while i < b.count, b[i] != quote { i += 1 }
            let end = i
            if i < b.count { i += 1 }
            return start..<end
        }
        let start = i
        while i < b.count, !isBlank(b[i]), b[i] != UInt8(ascii: ">") { i += 1 }
        return start..<i
    }

    private static func readName(_ b: [UInt8], _ i: inout Int) -> String? {
        guard i < b.count, isNameStart(b[i]) else { return nil }
        var name: [UInt8] = []
        while i < b.count, isNameChar(b[i]) {
            name.append(lower(b[i]))
            i += 1
        }
        return String(decoding: name, as: UTF8.self)
    }

    private static func skipBlanks(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, isBlank(b[i]) { i += 1 }
    }

    static func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }
    private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    private static func isNameStart(_ c: UInt8) -> Bool {
        isLetter(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: ":") || c == UInt8(ascii: ".")
    }
    private static func isNameChar(_ c: UInt8) -> Bool {
        isNameStart(c) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")
    }
    private static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
}
