/// Text from the user's input quoted back in a message: control bytes escaped (`\x0a`), so a
/// NUL or a line break in a log line or an argument cannot garble the terminal, and at most
/// `limit` characters.
enum TerminalText {
    static func escaped(_ text: String, limit: Int = 80) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(limit) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > limit ? out + "…" : out
    }
}
