import HtlintSyntax

/// mod_mime's type and charset tables (`AddType`, `AddCharset`, `RemoveType`, `RemoveCharset`).
extension ConfigReader {
    mutating func mimeDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words, info = line.info
        switch info.name {
        case "AddType", "AddCharset":
            let type = info.name == "AddType"
            guard words.count >= 2, !words[0].value.isEmpty else {
                error(ConfigCode.badArguments, type
                      ? "AddType requires at least two arguments, a mime type followed by one or more file extensions"
                      : "AddCharset requires at least two arguments, a charset (e.g., iso-2022-jp), followed by one or more file extensions",
                      d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            let value = words[0].value.lowercased()
            for w in words.dropFirst() {
                let ext = Self.mimeExtension(w.value)
                if type {
                    // RemoveType lines of this object apply after its AddType lines.
                    m.types.insert((ext, value), at: m.types.firstIndex { $0.type == nil } ?? m.types.count)
                } else {
                    m.charsets.insert((ext, value), at: m.charsets.firstIndex { $0.charset == nil } ?? m.charsets.count)
                }
            }
            block.mime = m
        case "RemoveType", "RemoveCharset":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "\(info.name) requires at least one argument, one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            for w in words {
                if info.name == "RemoveType" { m.types.append((Self.mimeExtension(w.value), nil)) }
                else { m.charsets.append((Self.mimeExtension(w.value), nil)) }
            }
            block.mime = m
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// A mod_mime extension argument: without its leading dot, lower-cased.
    static func mimeExtension(_ word: String) -> String {
        (word.hasPrefix(".") ? String(word.dropFirst()) : word).lowercased()
    }
}
