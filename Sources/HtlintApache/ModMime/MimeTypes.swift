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
