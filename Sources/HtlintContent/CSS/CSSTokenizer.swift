/// One URL found by `CSSTokenizer`: its range in the scanned bytes and its decoded text.
struct CSSURL: Sendable {
    var range: Range<Int>
    var url: String
    var kind: ResourceKind
    var detail: String?
}

/// The tokenizer behind `CSSScanner`.
struct CSSTokenizer {
    private let b: [UInt8]
    private var i = 0
    private var found: [CSSURL] = []
    /// Lower-cased property of the declaration being read.
    private var property: String?
    /// Whether the next identifier may be a property name (after `{`, `;` or at the start).
    private var declarationStart = true
    /// The at-rule whose prelude is being read (`import`, `namespace`, `font-face`, `media`…).
    private var atRule: String?
    /// `@import` not yet given its URL.
    private var importPending = false
    /// Open blocks: `true` for an `@font-face` block.
    private var blocks: [Bool] = []
    /// Open functions, lower-cased names ("" for a bare parenthesis).
    private var functions: [String] = []

    static func urls(in bytes: [UInt8]) -> [CSSURL] {
        var tokenizer = CSSTokenizer(b: bytes)
        tokenizer.run()
        return tokenizer.found
    }

    private init(b: [UInt8]) { self.b = b }

    private mutating func run() {
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "/") where peek(1) == UInt8(ascii: "*"):
                skipComment()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let string = readString()
                if let string, importPending {
                    emit(string.range, string.text, .style, "@import")
                    importPending = false
                } else if let string, let f = functions.last, ["image-set", "-webkit-image-set", "src"].contains(f) {
                    emit(string.range, string.text, kindForDeclaration(), property)
                }
                declarationStart = false
            case UInt8(ascii: "@"):
                i += 1
                let name = readWord().lowercased()
                atRule = name
                importPending = name == "import"
                declarationStart = false
            case UInt8(ascii: "{"):
                blocks.append(atRule == "font-face")
                atRule = nil
                importPending = false
                property = nil
                declarationStart = true
                functions = []
                i += 1
            case UInt8(ascii: "}"):
                _ = blocks.popLast()
                atRule = nil
                property = nil
                declarationStart = true
                functions = []
                i += 1
            case UInt8(ascii: ";"):
                atRule = nil
                importPending = false
                property = nil
                declarationStart = true
                functions = []
                i += 1
            case UInt8(ascii: "("):
                functions.append("")
                i += 1
            case UInt8(ascii: ")"):
                _ = functions.popLast()
                i += 1
            case UInt8(ascii: "\\"):
                i = min(b.count, i + 2)
                declarationStart = false
            default:
                if isNameChar(c) {
                    readIdentifierOrFunction()
                } else {
                    if !isWhitespace(c) && c != UInt8(ascii: ":") { declarationStart = false }
                    i += 1
                }
            }
        }
    }

    private mutating func readIdentifierOrFunction() {
        let startsWithDigit = b[i] >= 0x30 && b[i] <= 0x39
        let word = readWord()
        let name = word.lowercased()
        if i < b.count, b[i] == UInt8(ascii: "("), !startsWithDigit {
            i += 1
            if name == "url" { readURL() } else { functions.append(name) }
            declarationStart = false
            return
        }
        if declarationStart, !startsWithDigit {
            var k = i
            while k < b.count, isWhitespace(b[k]) { k += 1 }
            if k < b.count, b[k] == UInt8(ascii: ":") {
                property = name
                i = k + 1
            }
        }
        declarationStart = false
    }

    /// After `url(`: a quoted string, or an unquoted URL token (CSS Syntax §4.3.6).
    private mutating func readURL() {
        while i < b.count, isWhitespace(b[i]) { i += 1 }
        if i < b.count, b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
            let string = readString()
            skipTo(UInt8(ascii: ")"))
            if let string { emitURL(string.range, string.text) }
            return
        }
        let start = i
        var text: [UInt8] = []
        var end = i
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: ")") { i += 1; break }
            if isWhitespace(c) {
                while i < b.count, isWhitespace(b[i]) { i += 1 }
                if i >= b.count || b[i] == UInt8(ascii: ")") { i = min(b.count, i + 1); break }
                return skipTo(UInt8(ascii: ")"))   // bad URL: nothing is fetched
            }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "(") || c < 0x20 || c == 0x7F {
                return skipTo(UInt8(ascii: ")"))
            }
            if c == UInt8(ascii: "\\") {
                if i + 1 >= b.count || b[i + 1] == 0x0A || b[i + 1] == 0x0C || b[i + 1] == 0x0D {
                    return skipTo(UInt8(ascii: ")"))
                }
                text += readEscape()
            } else {
                text.append(c)
                i += 1
            }
            end = i
        }
        emitURL(start..<end, String(decoding: text, as: UTF8.self))
    }

    private mutating func emitURL(_ range: Range<Int>, _ url: String) {
        if atRule == "namespace" { return }
        if importPending {
            emit(range, url, .style, "@import")
            importPending = false
            return
        }
        if atRule != nil { return }   // e.g. `@document url(…)` conditions fetch nothing
        emit(range, url, kindForDeclaration(), property)
    }

    private func kindForDeclaration() -> ResourceKind {
        if blocks.last == true, property == "src" { return .font }
        if property == "cursor" { return .cursor }
        return .image
    }

    private mutating func emit(_ range: Range<Int>, _ url: String, _ kind: ResourceKind, _ detail: String?) {
        // Leading and trailing spaces are not part of the URL (URL Standard: trimmed), and
        // the reported position is the URL's first character.
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, b[lower] <= 0x20 { lower += 1 }
        while upper > lower, b[upper - 1] <= 0x20 { upper -= 1 }
        let trimmed = url.trimmingASCIISpaces
        guard !trimmed.isEmpty else { return }
        let label = kind == .font && detail == "src" ? "@font-face src" : detail
        found.append(CSSURL(range: lower..<upper, url: trimmed, kind: kind, detail: label))
    }

    /// A quoted string; `nil` for a bad string (an unescaped newline ends it, §4.3.5).
    private mutating func readString() -> (range: Range<Int>, text: String)? {
        let quote = b[i]
        i += 1
        let start = i
        var text: [UInt8] = []
        while i < b.count {
            let c = b[i]
            if c == quote {
                let range = start..<i
                i += 1
                return (range, String(decoding: text, as: UTF8.self))
            }
            if c == 0x0A || c == 0x0C || c == 0x0D { return nil }
            if c == UInt8(ascii: "\\") {
                if i + 1 < b.count, b[i + 1] == 0x0D, i + 2 < b.count, b[i + 2] == 0x0A { i += 3; continue }
                if i + 1 < b.count, b[i + 1] == 0x0A || b[i + 1] == 0x0C || b[i + 1] == 0x0D { i += 2; continue }
                if i + 1 >= b.count { i += 1; continue }
                text += readEscape()
            } else {
                text.append(c)
                i += 1
            }
        }
        return (start..<i, String(decoding: text, as: UTF8.self))   // EOF ends the string
    }

    /// `\` followed by up to six hex digits and one optional whitespace, or by any other
    /// character, which stands for itself (§4.3.7).
    private mutating func readEscape() -> [UInt8] {
        i += 1
        var value: UInt32 = 0
        var digits = 0
        while digits < 6, i < b.count, let d = hexValue(b[i]) {
            value = value * 16 + d
            digits += 1
            i += 1
        }
        if digits > 0 {
            if i + 1 < b.count, b[i] == 0x0D, b[i + 1] == 0x0A { i += 2 }
            else if i < b.count, isWhitespace(b[i]) { i += 1 }
            let scalar = value == 0 || value > 0x10FFFF ? nil : Unicode.Scalar(value)
            return Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
        }
        let start = i
        i += 1
        while i < b.count, b[i] & 0xC0 == 0x80 { i += 1 }
        return Array(b[start..<i])
    }

    private mutating func readWord() -> String {
        var word: [UInt8] = []
        while i < b.count {
            if isNameChar(b[i]) {
                word.append(b[i])
                i += 1
            } else if b[i] == UInt8(ascii: "\\"), i + 1 < b.count, b[i + 1] != 0x0A {
                word += readEscape()
            } else {
                break
            }
        }
        return String(decoding: word, as: UTF8.self)
    }

    private mutating func skipComment() {
        i += 2
        while i < b.count, !(b[i] == UInt8(ascii: "*") && peek(1) == UInt8(ascii: "/")) { i += 1 }
        i = min(b.count, i + 2)
    }

    /// Skips to just after `terminator`, stepping over strings, comments and escapes.
    private mutating func skipTo(_ terminator: UInt8) {
        while i < b.count {
            let c = b[i]
            if c == terminator { i += 1; return }
            if c == UInt8(ascii: "\\") { i += 2; continue }
            i += 1
        }
        i = min(i, b.count)
    }

    private func peek(_ k: Int) -> UInt8? { i + k < b.count ? b[i + k] : nil }
    private func isWhitespace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0C || c == 0x0D }
    private func isNameChar(_ c: UInt8) -> Bool {
        ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == UInt8(ascii: "-")
            || c == UInt8(ascii: "_") || c >= 0x80
    }
    private func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }
}
