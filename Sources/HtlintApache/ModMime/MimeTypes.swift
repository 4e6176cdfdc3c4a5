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
        "mp3": "audio/mpeg",
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
