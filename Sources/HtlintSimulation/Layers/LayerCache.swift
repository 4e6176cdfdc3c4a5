import HtlintApache
import HtlintBytes

/// Answers stored by the layers' caches during a simulation (layers-and-mixed-content §2.8,
/// §3.2): part of the chain's state, so a loop that exists only through a cached redirect is
/// found once the state really repeats (§1.3).
public struct CacheState: Sendable {
    struct Entry: Sendable {
        var status: Int
        var location: String?
        var headers: [HTTPHeader]
        /// How long the layer keeps it ("120 min").
        var lifetime: String
        /// The URL whose answer was stored.
        var storedFor: String
    }

    /// By the layer's cache key's bytes: URLs Swift holds equal (`é` precomposed or not) are
    /// two cache entries, as for the CDN.
    var entries: [ByteKey: Entry] = [:]

    /// Empty caches.
    public init() {}

    /// Nothing stored yet.
    public var isEmpty: Bool { entries.isEmpty }

    /// A stable text for the chain state.
    public var digest: String {
        if entries.isEmpty { return "" }
        return entries.sorted { $0.key.string.utf8.lexicographicallyPrecedes($1.key.string.utf8) }
            .map { "\($0.key.string)=\($0.value.status)\($0.value.location ?? "")" }.joined(separator: ";")
    }
}

/// Cacheable file extensions of Cloudflare's default cache behaviour (§2.8: by extension, not
/// by MIME type; HTML is not cached).
let cloudflareCachedExtensions: Set<String> = [
    "7z", "avi", "avif", "apk", "bin", "bmp", "bz2", "class", "css", "csv", "doc", "docx", "dmg", "ejs", "eot", "eps", "exe",
    "flac", "gif", "gz", "ico", "iso", "jar", "jpg", "jpeg", "js", "mid", "midi", "mkv", "mp3", "mp4", "ogg", "otf", "pdf",
    "pict", "pls", "png", "ppt", "pptx", "ps", "rar", "svg", "svgz", "swf", "tar", "tif", "tiff", "ttf", "webm", "webp",
    "woff", "woff2", "xls", "xlsx", "zip", "zst",
]

/// Whether `Cache-Control` forbids storing (`private`, `no-store`, `no-cache`, `max-age=0`) or a
/// cookie is set (§2.8, §8).
func forbidsCaching(_ headers: [HTTPHeader]) -> Bool {
    if headers.contains(where: { $0.name.lowercased() == "set-cookie" }) { return true }
    let cc = headers.filter { $0.name.lowercased() == "cache-control" }.map { $0.value.lowercased() }.joined(separator: ",")
    return ["private", "no-store", "no-cache", "max-age=0"].contains { cc.contains($0) }
}
