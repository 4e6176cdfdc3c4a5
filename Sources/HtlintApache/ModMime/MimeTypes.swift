/// mod_mime's extension table for the types sites commonly serve (Debian's /etc/mime.types).
/// Apache sends no Content-Type for an unknown extension.
enum MimeTypes {
    static let byExtension: [String: String] = [
        "html": "text/html", "htm": "text/html", "shtml": "text/html", "txt": "text/plain", "text": "text/plain",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "json": "application/json",
        "xml": "application/xml", "pdf": "application/pdf", "zip": "application/zip",
        "webmanifest": "application/manifest+json", "gif": "image/gif", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "webp": "image/webp",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf", "mp4": "video/mp4",
        "mp3": "audio/mpeg", "bak": "application/x-trash", "old": "application/x-trash", "gz": "application/gzip",
        "tar": "application/x-tar", "csv": "text/csv", "md": "text/markdown", "avif": "image/avif",
        "mov": "video/quicktime", "webm": "video/webm", "wasm": "application/wasm", "rss": "application/x-rss+xml",
        "atom": "application/atom+xml", "sql": "application/sql", "sh": "application/x-sh", "py": "text/x-python",
        "svgz": "image/svg+xml", "eot": "application/vnd.ms-fontobject", "xz": "application/x-xz",
        "7z": "application/x-7z-compressed", "rar": "application/vnd.rar", "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "odt": "application/vnd.oasis.opendocument.text", "epub": "application/epub+zip", "ogg": "audio/ogg",
        "oga": "audio/ogg", "ogv": "video/ogg", "wav": "audio/x-wav", "flac": "audio/flac", "m4a": "audio/mp4",
        "aac": "audio/aac", "mpg": "video/mpeg", "mpeg": "video/mpeg",
        // No `php`: Debian's mime.types has none, so a static .php goes out without Content-Type.
    ]

    /// Content type for a file name; mod_mime looks at every extension, the last known one wins.
    static func type(forPath path: String) -> String? {
        // Byte splits: this runs for every served file.
        let name = lastPathComponent(path)
        var result: String? = nil
        for ext in name.utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            if let t = byExtension[String(Substring(ext)).lowercased()] { result = t }
        }
        return result
    }
}

/// The merged mod_mime / ForceType / AddDefaultCharset configuration of a directory.
struct MimeConfig {
    /// Extension → type; nil: `RemoveType` (mime.types is not consulted for it either).
    var types: [String: String?] = [:]
    /// Extension → charset; nil: `RemoveCharset`.
    var charsets: [String: String?] = [:]
    /// core_override_type's type (never `none`).
    var forceType: String? = nil
    /// ap_make_content_type's charset for bare text/plain and text/html (nil: Off).
    var defaultCharset: String? = nil

    mutating func merge(_ m: MimeDirectives) {
        for (ext, type) in m.types { types[ext] = .some(type) }
        for (ext, charset) in m.charsets { charsets[ext] = .some(charset) }
        if let f = m.forceType { forceType = f == "none" ? nil : f }
        if let c = m.defaultCharset { defaultCharset = c == "off" ? nil : c }
    }

    /// mod_mime's find_ct with these mappings, then ForceType over it.
    func type(forPath path: String) -> String? {
        if let forceType { return forceType }
        let name = lastPathComponent(path)
        var result: String? = nil
        var charset: String? = nil
        for part in name.utf8.split(separator: UInt8(ascii: ".")).dropFirst() {
            let ext = String(Substring(part)).lowercased()
            if let mapped = types[ext] {
                if let t = mapped { result = t }
            } else if let t = MimeTypes.byExtension[ext] {
                result = t
            }
            if let c = charsets[ext], let c { charset = c }
        }
        guard var type = result else { return nil }
        if let charset {
            // The charset parameter is replaced or added.
            if let r = type.range(of: ";") { type = String(type[..<r.lowerBound]) }
            type += "; charset=" + charset
        }
        return type
    }
}

extension MimeTypes {
    /// What mod_mime / ForceType give a file in a directory with `config`.
    static func type(forPath path: String, config: MimeConfig?) -> String? {
        guard let config else { return type(forPath: path) }
        return config.type(forPath: path)
    }

    /// ap_make_content_type: AddDefaultCharset's charset added to a bare text/plain or text/html.
    static func withDefaultCharset(_ type: String, _ charset: String?) -> String {
        guard let charset, equalsIgnoringASCIICase(type, "text/plain") || equalsIgnoringASCIICase(type, "text/html") else { return type }
        return type + "; charset=" + charset
    }

    /// The type of the page Apache writes itself (ap_send_error_response).
    static let errorPageType = "text/html; charset=iso-8859-1"
}
