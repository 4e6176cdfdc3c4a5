/// A mod_headers value format (`Header set X "…"`), split the way parse_format_string does.
public enum HeaderFormatPiece: Equatable, Sendable {
    case literal(String)
    /// `%{arg}c` or `%c`: one of the tags mod_headers registers (D t e s l i b).
    case tag(Character, arg: String)
}

/// The pieces of a header value format, or Apache's error text for an unknown tag (which
/// fails the configuration: `Unrecognized header format %q`). Read by scalars, as Apache reads
/// bytes: a combining mark after `%`, `\`, `}` or a tag letter is its own byte there, not part
/// of one character with it (`%{v}e\u{301}` is the variable v and then the mark).
public func parseHeaderFormat(_ format: String) -> Result<[HeaderFormatPiece], HeaderFormatError> {
    var pieces: [HeaderFormatPiece] = []
    var text = String.UnicodeScalarView()
    var s = format.unicodeScalars[...]
    func flush() { if !text.isEmpty { pieces.append(.literal(String(text))); text = String.UnicodeScalarView() } }
    while let c = s.first {
        s.removeFirst()
        if c == "\\" {
            // parse_misc_string: `\\`, `\r`, `\n` and `\t` are escapes; any other backslash stays
            // (recorded: header-format-backslash-escapes).
            switch s.first {
            case "\\": text.append("\\"); s.removeFirst()
            case "r": text.append("\r"); s.removeFirst()
            case "n": text.append("\n"); s.removeFirst()
            case "t": text.append("\t"); s.removeFirst()
            default: text.append("\\")
            }
            continue
        }
        guard c == "%" else { text.append(c); continue }
        // `%%`, and a `%` at the end, are a literal `%`.
        if s.isEmpty { text.append("%"); break }
        if s.first == "%" { text.append("%"); s.removeFirst(); continue }
        var arg = ""
        if s.first == "{" {
            s.removeFirst()
            // ap_getword: up to the `}` (or the rest when there is none).
            if let close = s.firstIndex(of: "}") {
                arg = String(s[..<close]); s = s[s.index(after: close)...]
            } else {
                arg = String(s); s = s[s.endIndex...]
            }
        }
        let tag = s.popFirst()
        guard let tag, "Dteslib".unicodeScalars.contains(tag) else {
            return .failure(HeaderFormatError(message: "Unrecognized header format %" + (tag.map { String(Character($0)) } ?? "")))
        }
        flush()
        pieces.append(.tag(Character(tag), arg: arg))
    }
    flush()
    return .success(pieces)
}

public struct HeaderFormatError: Error, Equatable {
    public let message: String
}
