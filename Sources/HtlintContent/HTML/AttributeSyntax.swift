/// The small grammars inside HTML attribute values. Each works on the decoded bytes of one
/// value and returns byte ranges in it, which `MappedText` maps back to the file.
enum AttributeSyntax {
    /// ASCII whitespace as HTML defines it (tab, LF, FF, CR, space).
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }

    /// A URL attribute's value without leading and trailing whitespace, which browsers strip
    /// before parsing (HTML "valid URL potentially surrounded by spaces").
    static func trimmed(_ b: [UInt8]) -> Range<Int> {
        var lower = 0, upper = b.count
        while lower < upper, isSpace(b[lower]) { lower += 1 }
        while upper > lower, isSpace(b[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// The URL of each image candidate (HTML "parse a srcset attribute"). Every
    /// candidate's URL is returned, including ones whose descriptors a browser would reject.
    static func srcsetURLs(_ b: [UInt8]) -> [Range<Int>] {
        var urls: [Range<Int>] = []
        var i = 0
        while true {
            while i < b.count, isSpace(b[i]) || b[i] == UInt8(ascii: ",") { i += 1 }
            guard i < b.count else { return urls }
            let start = i
            while i < b.count, !isSpace(b[i]) { i += 1 }
            var end = i
            if b[end - 1] == UInt8(ascii: ",") {
                // "a.png," ends the candidate: trailing commas are not part of the URL.
                while end > start, b[end - 1] == UInt8(ascii: ",") { end -= 1 }
            } else {
                // Descriptors run to a comma outside parentheses (the descriptor tokenizer).
                var depth = 0
                while i < b.count {
                    let c = b[i]
                    i += 1
                    if c == UInt8(ascii: "(") { depth += 1 }
                    else if c == UInt8(ascii: ")"), depth > 0 { depth -= 1 }
                    else if c == UInt8(ascii: ","), depth == 0 { break }
                }
            }
            if end > start { urls.append(start..<end) }
        }
    }

    /// The URL in a refresh value such as `0; url='https://…'` (HTML "shared
    /// declarative refresh steps"); `nil` when the value only reloads or is invalid.
    static func refreshURL(_ b: [UInt8]) -> Range<Int>? {
        var i = 0
        func skipSpaces() { while i < b.count, isSpace(b[i]) { i += 1 } }
        func isDigit(_ k: Int) -> Bool { k < b.count && b[k] >= 0x30 && b[k] <= 0x39 }
        skipSpaces()
        let timeStart = i
        while isDigit(i) { i += 1 }
        if i == timeStart, !(i < b.count && b[i] == UInt8(ascii: ".")) { return nil }
        while isDigit(i) || (i < b.count && b[i] == UInt8(ascii: ".")) { i += 1 }
        guard i < b.count else { return nil }
        guard b[i] == UInt8(ascii: ";") || b[i] == UInt8(ascii: ",") || isSpace(b[i]) else { return nil }
        skipSpaces()
        if i < b.count, b[i] == UInt8(ascii: ";") || b[i] == UInt8(ascii: ",") { i += 1 }
        skipSpaces()
        guard i < b.count else { return nil }
        var urlStart = i
        var quote: UInt8?
        func letter(_ c: Character) -> Bool { i < b.count && (b[i] | 0x20) == UInt8(ascii: c.unicodeScalars.first!) }
        parse: do {
            if letter("u") { i += 1 } else { break parse }   // "skip quotes" below
            guard letter("r") else { return finish(urlStart, nil, b) }
            i += 1
            guard letter("l") else { return finish(urlStart, nil, b) }
            i += 1
            skipSpaces()
            guard i < b.count, b[i] == UInt8(ascii: "=") else { return finish(urlStart, nil, b) }
            i += 1
            skipSpaces()
        }
        if i < b.count, b[i] == UInt8(ascii: "'") || b[i] == UInt8(ascii: "\"") {
            quote = b[i]
            i += 1
        }
        urlStart = i
        return finish(urlStart, quote, b)
    }

    private static func finish(_ start: Int, _ quote: UInt8?, _ b: [UInt8]) -> Range<Int>? {
        var end = b.count
        if let quote, let close = b[start...].firstIndex(of: quote) { end = close }
        var lower = start
        while lower < end, b[lower] <= 0x20 { lower += 1 }
        while end > lower, b[end - 1] <= 0x20 { end -= 1 }
        return end > lower ? lower..<end : nil
    }

    /// The tokens of a `rel` value, lower-cased (link types are ASCII case-insensitive).
    static func tokens(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.lowercased().split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
            .map(String.init)
    }

    /// Whether a Content-Security-Policy value contains the `upgrade-insecure-requests`
    /// directive (CSP3 "parse a serialized policy": directives split on `;`, names case-insensitive).
    static func hasUpgradeInsecureRequests(_ policy: String) -> Bool {
        policy.split(separator: ";").contains {
            $0.split { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }.first?.lowercased()
                == "upgrade-insecure-requests"
        }
    }
}
