import HtlintBytes
import HtlintRegex

/// A `RewriteMap` definition (server or virtual-host context only) and its lookups
/// (mod_rewrite's cmd_rewritemap / lookup_map; apache-semantics §6.1).
public struct RewriteMapDefinition: Sendable {
    public enum Kind: Sendable, Equatable {
        /// `int:tolower`, `int:toupper`, `int:escape`, `int:unescape`.
        case internalFunction(String)
        /// `txt:path` (also a source without a type): the file's path, ServerRoot-relative.
        case text(path: String)
        /// `rnd:path`: a `txt:` file whose values list alternatives separated by `|`.
        case random(path: String)
        /// `dbm:`, `prg:`, `dbd:`, `fastdbd:`: not simulated, lookups give the default.
        case unsupported(String)
    }

    public var kind: Kind

    public struct Failure: Error { public var text: String }

    static let internalFunctions: Set<String> = ["tolower", "toupper", "escape", "unescape"]

    /// `type:source` as cmd_rewritemap reads it (types case-insensitively, function names not).
    public static func parse(_ source: String) -> Result<RewriteMapDefinition, Failure> {
        let lower = source.asciiLowercased()
        func rest(_ prefix: String) -> String { String(source.dropFirst(prefix.count)) }
        if lower.hasBytePrefix("int:") {
            let name = rest("int:")
            guard internalFunctions.contains(name) else { return .failure(Failure(text: "RewriteMap: internal map not found:\(name)")) }
            return .success(RewriteMapDefinition(kind: .internalFunction(name)))
        }
        if lower.hasBytePrefix("txt:") { return .success(RewriteMapDefinition(kind: .text(path: rest("txt:")))) }
        if lower.hasBytePrefix("rnd:") { return .success(RewriteMapDefinition(kind: .random(path: rest("rnd:")))) }
        for type in ["dbm", "prg", "dbd", "fastdbd"] where lower.hasBytePrefix(type + ":") || lower.hasBytePrefix(type + "=") {
            return .success(RewriteMapDefinition(kind: .unsupported(type)))
        }
        return .success(RewriteMapDefinition(kind: .text(path: source)))
    }
}

/// A map ready for lookups: the text map's entries are read once, when the site is loaded.
public enum RewriteMapTable: Sendable {
    case internalFunction(String)
    case text([String: String])
    /// `rnd:`: Apache picks one of the `|` alternatives at random (select_random_value_part);
    /// htlint takes the first, so an answer may differ from one Apache gives.
    case random([String: String])
    case unsupported

    /// The value for `key`; nil means "not found" (the `|default` is used).
    public func lookup(_ key: String) -> String? {
        switch self {
        case .internalFunction(let name):
            switch name {
            // apr_tolower/apr_toupper in the C locale: ASCII letters only, other bytes kept.
            case "tolower": return String(preservingBytes: key.rawBytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 })
            case "toupper": return String(preservingBytes: key.rawBytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 })
            case "escape": return escapePath(key)
            default: return unescapeForMap(key)
            }
        case .text(let entries):
            // An empty value counts as not found (lookup_map's cache stores "" for misses).
            guard let v = entries[byteDistinctKey(key)], !v.isEmpty else { return nil }
            return v
        case .random(let entries):
            // The alternatives end at `|` bytes (select_random_value_part counts them by strchr).
            guard let v = entries[byteDistinctKey(key)], let first = byteSplit(v[...], UInt8(ascii: "|")).first,
                  !first.isEmpty else { return nil }
            return String(first)
        case .unsupported: return nil
        }
    }

    /// `txt:` file contents as lookup_map_txtfile reads them: lines end at LF, and apr_file_gets
    /// into its 1,025-byte buffer cuts a longer line (LF included) into pieces of 1,024 bytes,
    /// each read as a line of its own (recorded: rewrite-map-txt-long-lines-read-in-pieces); a
    /// line starting with `#` or a blank is skipped; the key is the first word, the value the
    /// next (CR, like any isspace byte, is a blank, so CRLF files read as LF ones); a key
    /// without value is no entry; the first entry for a key wins. Keys are compared by bytes,
    /// so a non-ASCII key is stored as its `byteDistinctKey` (café precomposed and with a
    /// combining accent are two keys; recorded: rewrite-map-txt-keys-by-bytes). The scan of a
    /// piece stops at a NUL byte, so the rest of that piece is not read (recorded:
    /// rewrite-map-txt-nul-ends-the-line).
    public static func parseText(_ text: String) -> [String: String] {
        func blank(_ c: UInt8) -> Bool { c == 0x20 || (c >= 0x09 && c <= 0x0D) }
        var entries: [String: String] = [:]
        let bytes = text.rawBytes
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var end = start
            while end < bytes.endIndex, end - start < 1024 {
                end += 1
                if bytes[end - 1] == 0x0A { break }
            }
            let piece = bytes[start..<end]
            let line = piece.firstIndex(of: 0).map { piece[..<$0] } ?? piece
            start = end
            guard let first = line.first, first != UInt8(ascii: "#"), !blank(first) else { continue }
            let words = line.split(whereSeparator: blank)
            guard words.count >= 2 else { continue }
            let key = byteDistinctKey(String(preservingBytes: Array(words[0])))
            if entries[key] == nil { entries[key] = String(preservingBytes: Array(words[1])) }
        }
        return entries
    }
}

/// `int:unescape` (ap_unescape_url): `%xx` decoded, a malformed escape kept as `%`, and the
/// value ends at a decoded NUL byte.
func unescapeForMap(_ s: String) -> String {
    func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: c - 0x30
        case 0x41...0x46: c - 0x37
        case 0x61...0x66: c - 0x57
        default: nil
        }
    }
    let b = s.rawBytes
    var out: [UInt8] = []
    var i = 0
    while i < b.count {
        if b[i] == UInt8(ascii: "%"), i + 2 < b.count, let h = hex(b[i + 1]), let l = hex(b[i + 2]) {
            let v = h << 4 | l
            if v == 0 { break }
            out.append(v)
            i += 3
        } else {
            out.append(b[i])
            i += 1
        }
    }
    return String(preservingBytes: out)
}
