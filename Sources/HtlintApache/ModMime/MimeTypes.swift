import HtlintRegex

/// mod_mime's extension table: Debian's /etc/mime.types, which Apache's `TypesConfig` reads
/// (`debianTable`, generated). Extensions are matched case-insensitively and a later line
/// naming the same extension wins, as mod_mime builds its hash (`.sh` is `text/x-sh`). Apache
/// sends no Content-Type for an unknown extension — and there is no `php` in the table, so a
/// static `.php` goes out without one.
enum MimeTypes {
    static let byExtension: [String: String] = {
        // One pass over the bytes: splitting the 1,200 lines as strings cost ~30 M instructions.
        var table: [String: String] = [:]
        table.reserveCapacity(1_600)
        var text = debianTable
        text.withUTF8 { b in
            var type: String? = nil
            var start = 0
            for i in 0...b.count where i == b.count || b[i] == UInt8(ascii: " ") || b[i] == UInt8(ascii: "\n") {
                if i > start {
                    let word = UnsafeBufferPointer(rebasing: b[start..<i])
                    if let type {
                        table[String(decoding: word.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)] = type
                    } else {
                        type = String(decoding: word, as: UTF8.self)
                    }
                }
                if i < b.count, b[i] == UInt8(ascii: "\n") { type = nil }
                start = i + 1
            }
        }
        return table
    }()

    /// Content type for a file name; mod_mime looks at every extension, the last known one wins.
    static func type(forPath path: String) -> String? {
        // Byte splits: this runs for every served file.
        let name = lastPathComponent(path)
        var result: String? = nil
        for ext in name.utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            if let t = byExtension[Substring(ext).asciiLowercased()] { result = t }
        }
        return result
    }
}

/// The merged mod_mime / ForceType / AddDefaultCharset configuration of a directory. The
/// extension tables are keyed by bytes (`PathKey`), as mod_mime's hashes are: `.é` written
/// precomposed is not `.é` written with e and a combining accent (recorded:
/// header-mime-extension-normal-form).
struct MimeConfig {
    /// Extension → type; nil: `RemoveType` (mime.types is not consulted for it either).
    var types: [PathKey: String?] = [:]
    /// Extension → charset (a `RemoveCharset` takes the entry out; so for the others).
    var charsets: [PathKey: String?] = [:]
    /// Extension → language.
    var languages: [PathKey: String?] = [:]
    /// Extension → content coding.
    var encodings: [PathKey: String?] = [:]
    var defaultLanguage: String? = nil
    /// core_override_type's type (never `none`).
    var forceType: String? = nil
    /// ap_make_content_type's charset for bare text/plain and text/html (nil: Off).
    var defaultCharset: String? = nil
    /// Extension → handler (`AddHandler`).
    var handlers: [PathKey: String?] = [:]
    /// core_override_type's handler (`SetHandler`, never `none`).
    var setHandler: String? = nil
    /// `LanguagePriority`, most preferred first.
    var languagePriority: [String] = []
    /// `ForceLanguagePriority` (Prefer when unset).
    var preferLanguagePriority = true
    var fallbackLanguagePriority = false
    var usePathInfo = false
    /// `MultiviewsMatch` (lower-cased options); empty: NegotiatedOnly.
    var multiviewsMatch: Set<String> = []
    /// Extension → `AddOutputFilter`'s filters.
    var outputFilters: [PathKey: [String]] = [:]

    /// The settings outside the extension tables: the child's where it sets them.
    mutating func mergeSettings(_ m: MimeDirectives) {
        if let l = m.defaultLanguage { defaultLanguage = l }
        if let p = m.languagePriority { languagePriority = p }
        if let o = m.multiviewsMatch { multiviewsMatch = o }
        if let u = m.usePathInfo { usePathInfo = u }
        if let f = m.forceLanguagePriority { (preferLanguagePriority, fallbackLanguagePriority) = f }
        if let f = m.forceType { forceType = f == "none" ? nil : f }
        if let h = m.setHandler { setHandler = h == "none" ? nil : h }
        if let c = m.defaultCharset { defaultCharset = c == "off" ? nil : c }
    }

    /// The extension tables of `other`, the rest of this configuration kept.
    mutating func setTables(_ other: MimeConfig) {
        types = other.types
        charsets = other.charsets
        languages = other.languages
        encodings = other.encodings
        handlers = other.handlers
        outputFilters = other.outputFilters
    }

    /// overlay_extension_mappings: `other`'s entries over these, field by field.
    mutating func overlay(_ other: MimeConfig) {
        types.merge(other.types) { _, new in new }
        charsets.merge(other.charsets) { _, new in new }
        languages.merge(other.languages) { _, new in new }
        encodings.merge(other.encodings) { _, new in new }
        handlers.merge(other.handlers) { _, new in new }
        outputFilters.merge(other.outputFilters) { _, new in new }
    }

    /// remove_items: each Remove line's field of its extension's entry is cleared.
    mutating func apply(_ removals: [MimeRemoval]) {
        for r in removals {
            switch r.table {
            case .charset: charsets.removeValue(forKey: r.ext)
            case .language: languages.removeValue(forKey: r.ext)
            case .encoding: encodings.removeValue(forKey: r.ext)
            case .handler: handlers.removeValue(forKey: r.ext)
            case .outputFilter: outputFilters.removeValue(forKey: r.ext)
            }
        }
    }

    /// One object's tables as its lines build them (AddType and RemoveType in order, the empty
    /// type of RemoveType kept), and its other Remove lines, which wait for a merge.
    static func object(_ m: MimeDirectives) -> (tables: MimeConfig, removals: [MimeRemoval]) {
        var t = MimeConfig()
        var removals: [MimeRemoval] = []
        for (ext, type) in m.types { t.types[PathKey(ext)] = .some(type) }
        func fill(_ list: [(String, String?)], _ table: inout [PathKey: String?], _ kind: MimeRemoval.Table) {
            for (ext, value) in list {
                if let value { table[PathKey(ext)] = .some(value) } else { removals.append(MimeRemoval(table: kind, ext: PathKey(ext))) }
            }
        }
        fill(m.charsets, &t.charsets, .charset)
        fill(m.languages, &t.languages, .language)
        fill(m.encodings, &t.encodings, .encoding)
        fill(m.handlers, &t.handlers, .handler)
        for (ext, filters) in m.outputFilters {
            if let filters { t.outputFilters[PathKey(ext)] = filters } else { removals.append(MimeRemoval(table: .outputFilter, ext: PathKey(ext))) }
        }
        return (t, removals)
    }

    /// find_ct's handler: every extension of the name is looked at, the last one with an
    /// `AddHandler` wins. It runs whether or not the file exists (a missing `x.html` gets one too).
    func handler(forPath path: String) -> String? {
        guard !handlers.isEmpty else { return nil }
        var result: String? = nil
        for part in lastPathComponent(path).utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            if let mapped = handlers[PathKey(Substring(part).asciiLowercased())], let h = mapped { result = h }
        }
        return result
    }

    /// mod_mime's find_ct with these mappings, then ForceType over it.
    func type(forPath path: String) -> String? {
        if let forceType { return forceType }
        let name = lastPathComponent(path)
        var result: String? = nil
        var charset: String? = nil
        for part in name.utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            let ext = Substring(part).asciiLowercased()
            if let mapped = types[PathKey(ext)] {
                if let t = mapped { result = t }
            } else if let t = MimeTypes.byExtension[ext] {
                result = t
            }
            if let c = charsets[PathKey(ext)], let c { charset = c }
        }
        guard let type = result else { return nil }
        return MimeConfig.rewrittenType(type, charset: charset)
    }

    /// find_ct's last step: analyze_ct reads the type's parameters and mod_mime writes it again
    /// as `type/subtype; name=value…` (an AddType `text/html;qs=0.5` is sent as
    /// `text/html; qs=0.5`), AddCharset's charset replacing a charset parameter in place or
    /// appended (recorded: negotiation-addtype-source-quality).
    static func rewrittenType(_ type: String, charset: String?) -> String {
        let parts = byteSplit(type[...], UInt8(ascii: ";"))
        guard parts.count > 1 || charset != nil else { return type }
        var out = parts[0].trimmingCharacters(in: .whitespaces)
        var replaced = false
        for part in parts.dropFirst() {
            let pair = byteSplit(part, UInt8(ascii: "="))
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            let value = pair.count == 2 ? pair[1].trimmingCharacters(in: .whitespaces) : ""
            // analyze_ct refuses a name or value that is not an HTTP token (a combining mark
            // after the `;`: recorded negotiation-type-and-language-split-at-bytes); the type stays.
            guard pair.count == 2, isToken(name), isToken(value) else {
                return charset.map { String(parts[0]) + "; charset=" + $0 } ?? type
            }
            if let charset, name == "charset" {
                if !replaced { out += "; charset=" + charset }
                replaced = true
            } else {
                out += "; " + name + "=" + value
            }
        }
        if let charset, !replaced { out += "; charset=" + charset }
        return out
    }

    /// An RFC 7230 token: visible ASCII other than the separators.
    private static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { c in
            c > 0x20 && c < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(c)
        }
    }
}

extension MimeConfig {
    /// Whether a file sent here may get a Content-Language or Content-Encoding at all.
    var namesLanguagesOrCodings: Bool { !languages.isEmpty || !encodings.isEmpty || defaultLanguage != nil }

    /// find_ct's r->content_languages: one entry per extension with a language, in the order of
    /// the name; `DefaultLanguage` when none has one.
    func languages(forPath path: String) -> [String] {
        var found: [String] = []
        if !languages.isEmpty {
            for part in lastPathComponent(path).utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
                if let mapped = languages[PathKey(Substring(part).asciiLowercased())], let l = mapped { found.append(l) }
            }
        }
        if found.isEmpty, let defaultLanguage { found.append(defaultLanguage) }
        return found
    }

    /// find_ct's r->content_encoding: every extension's coding in the order of the name.
    func encoding(forPath path: String) -> String? {
        guard !encodings.isEmpty else { return nil }
        var found: [String] = []
        for part in lastPathComponent(path).utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            if let mapped = encodings[PathKey(Substring(part).asciiLowercased())], let e = mapped { found.append(e) }
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }
}

extension MimeTypes {
    /// The type mod_negotiation gives a variant that has a handler but no type.
    static let cgiMagicType = "application/x-httpd-cgi"

    /// Whether mod_mime recognises `ext` (lower case) in a directory with `config`: an `AddLanguage`
    /// language, an `AddCharset` charset, an `AddEncoding` coding, or a type (an `AddType` there
    /// adds one, a `RemoveType` takes the table's away).
    static func knows(_ ext: String, config: MimeConfig?) -> Bool {
        let key = PathKey(ext)
        if let mapped = config?.languages[key], mapped != nil { return true }
        if let mapped = config?.charsets[key], mapped != nil { return true }
        if let mapped = config?.encodings[key], mapped != nil { return true }
        if let mapped = config?.types[key] { return mapped != nil }
        return byExtension[ext] != nil
    }

    /// What mod_mime / ForceType give a file in a directory with `config`.
    static func type(forPath path: String, config: MimeConfig?) -> String? {
        guard let config else { return type(forPath: path) }
        return config.type(forPath: path)
    }

    /// ap_make_content_type: AddDefaultCharset's charset added to a type that names no charset
    /// and mentions text/plain or text/html anywhere (ap_strcasestr: `-etext/html` after a
    /// `Header edit` too).
    static func withDefaultCharset(_ type: String, _ charset: String?) -> String {
        guard let charset else { return type }
        let lower = type.asciiLowercased()
        guard !lower.containsBytes("charset="), lower.containsBytes("text/plain") || lower.containsBytes("text/html") else { return type }
        return type + "; charset=" + charset
    }

    /// The type of the page Apache writes itself (ap_send_error_response).
    static let errorPageType = "text/html; charset=iso-8859-1"

    /// The type of mod_autoindex's listing (no space before the parameter, as it writes it;
    /// `IndexOptions Charset=` names another charset).
    static func listingType(charset: String?) -> String { "text/html;charset=" + (charset ?? "ISO-8859-1") }
}

/// One `Remove…` line other than RemoveType: the field of an extension's entry it clears.
struct MimeRemoval {
    enum Table { case charset, language, encoding, handler, outputFilter }
    let table: Table
    let ext: PathKey
}

/// mod_mime's part of one walk (ap_directory_walk, file_walk, location_walk, one level of
/// if_walk): the walk merges its objects among themselves and only then onto the request's
/// configuration (`before`), and the first object is taken as it is, unmerged. Its `Remove…`
/// lines (other than RemoveType) are applied only when an object is merged as the child
/// (merge_mime_dir_configs applies the child's list): so they count when that object is the
/// walk's only one — clearing its own `Add…` and the inherited entries — and are dropped when
/// a later object of the walk merges over it (a `.htaccess` below with mod_mime lines of its
/// own brings the handler back). A later object's Remove lines clear the walk's entries only:
/// the request's configuration keeps its own (recorded: header-mime-own-removal-undone-below).
struct MimeWalk {
    let before: MimeConfig
    private var now: MimeConfig? = nil
    private var pending: [MimeRemoval] = []

    init(before: MimeConfig) { self.before = before }

    mutating func merge(_ m: MimeDirectives) {
        let (tables, removals) = MimeConfig.object(m)
        if var n = now {
            n.overlay(tables)
            n.apply(removals)
            now = n
            pending = []
        } else {
            now = tables
            pending = removals
        }
    }

    /// The request's configuration with this walk's objects merged onto it.
    var result: MimeConfig {
        var t = before
        if let now { t.overlay(now) }
        t.apply(pending)
        return t
    }
}
