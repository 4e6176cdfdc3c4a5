import HtlintBytes
import HtlintDiagnostics

/// The two ways Apache splits a directive's arguments.
public enum Tokenizer {
    /// `ap_getword_conf` (apache-semantics §2.4), used by most directives: quotes group words and
    /// unescape `\<quote>` and `\\`; outside quotes only `\\` is unescaped. A closing quote ends
    /// the word even when text follows it; an unterminated quote runs to the end of the line.
    public static func generic(_ line: LogicalLine, from start: Int) -> [Word] {
        generic(line, from: start, limit: Int.max)
    }

    /// The first `limit` words only (a directive's name needs one, not the whole line).
    public static func generic(_ line: LogicalLine, from start: Int, limit: Int) -> [Word] {
        let b = line.bytes
        var words: [Word] = []
        var i = start
        while words.count < limit {
            while i < b.count, isConfigSpace(b[i]) { i += 1 }
            guard i < b.count else { break }
            let wordStart = i
            var quote: Character? = nil
            var unterminated = false
            let text: String
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                let q = b[i]
                quote = q == UInt8(ascii: "\"") ? "\"" : "'"
                i += 1
                var value: [UInt8] = []
                var closed = false
                while i < b.count {
                    if b[i] == UInt8(ascii: "\\"), i + 1 < b.count, b[i + 1] == q || b[i + 1] == UInt8(ascii: "\\") {
                        value.append(b[i + 1]); i += 2; continue
                    }
                    if b[i] == q { closed = true; i += 1; break }
                    value.append(b[i]); i += 1
                }
                unterminated = !closed
                text = String(preservingBytes: value)
            } else {
                // Most words have no `\\` pair: take the bytes as they are, unescape only if needed.
                var escaped = false
                while i < b.count, !isConfigSpace(b[i]) {
                    if b[i] == UInt8(ascii: "\\"), i + 1 < b.count, b[i + 1] == UInt8(ascii: "\\") { escaped = true; i += 2; continue }
                    i += 1
                }
                if escaped {
                    var value: [UInt8] = []
                    var k = wordStart
                    while k < i {
                        if b[k] == UInt8(ascii: "\\"), k + 1 < i, b[k + 1] == UInt8(ascii: "\\") { value.append(b[k]); k += 2; continue }
                        value.append(b[k]); k += 1
                    }
                    text = String(preservingBytes: value)
                } else {
                    text = String(preservingBytes: b[wordStart..<i])
                }
            }
            words.append(Word(value: text, range: line.range(wordStart..<i),
                              lineRange: wordStart..<i, quote: quote, unterminated: unterminated))
        }
        return words
    }

    /// mod_rewrite's `parseargline` (apache-semantics §4.2), used by `RewriteRule` and
    /// `RewriteCond`: a quote runs to the next same quote (backslash does not escape it);
    /// unquoted words end at whitespace unless it is preceded by a backslash, and no
    /// unescaping happens at all. Returns at most three words; `rest` is what Apache ignores.
    /// A quoted first word closed at the end of the line is followed by an empty second word.
    public static func rewrite(_ line: LogicalLine, from start: Int) -> (words: [Word], rest: Range<Int>?) {
        let b = line.bytes
        var words: [Word] = []
        words.reserveCapacity(3)
        var i = start
        while words.count < 3 {
            while i < b.count, isConfigSpace(b[i]) { i += 1 }
            guard i < b.count else { break }
            let wordStart = i
            var quote: Character? = nil
            var unterminated = false
            let valueRange: Range<Int>
            if b[i] == UInt8(ascii: "\"") || b[i] == UInt8(ascii: "'") {
                let q = b[i]
                quote = Character(Unicode.Scalar(q))
                i += 1
                let inner = i
                while i < b.count, b[i] != q { i += 1 }
                valueRange = inner..<i
                if i < b.count { i += 1 } else { unterminated = true }
            } else {
                while i < b.count {
                    if isConfigSpace(b[i]) {
                        if i > wordStart, b[i - 1] == UInt8(ascii: "\\") { i += 1; continue }
                        break
                    }
                    i += 1
                }
                valueRange = wordStart..<i
            }
            words.append(Word(value: line.text(valueRange), range: line.range(wordStart..<i),
                              lineRange: wordStart..<i, quote: quote, unterminated: unterminated))
            if words.count == 1, quote != nil, !unterminated {
                // A closing quote ends the first argument even at the end of the line, and then
                // parseargline takes the empty rest as the second: `RewriteRule "^a$"` is read
                // with an empty substitution, not rejected.
                var next = i
                while next < b.count, isConfigSpace(b[next]) { next += 1 }
                if next >= b.count {
                    words.append(Word(value: "", range: line.range(next..<next), lineRange: next..<next))
                    i = next
                }
            }
        }
        while i < b.count, isConfigSpace(b[i]) { i += 1 }
        return (words, i < b.count ? i..<b.count : nil)
    }
}
