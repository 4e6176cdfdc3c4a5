import Foundation
import HtlintDiagnostics

/// A page to check for mixed content, and the URL the browser shows for it.
public struct ServedPage: Hashable, Sendable {
    /// The URL the page is served at (after redirects), normally `https://…`: references resolve
    /// against it, and only a potentially trustworthy URL makes mixed content (spec §14.1).
    public var url: String
    /// Its file, as a URL-path under the document root (`/blog/index.html`), the way
    /// `Hop.served` names it.
    public var path: String

    /// A page served at `url` from the document-root file `path`.
    public init(url: String, path: String) {
        self.url = url
        self.path = path
    }
}

/// The document root's files that content rules read — HTML pages, style sheets and
/// `wp-config.php` — loaded on first use and kept, so a report can show every file a finding
/// points into.
///
/// `lint --docroot` fills it from the directory, `mixed-content` adds the pages its crawl
/// reached, rule examples give it in memory (`Example.pages`).
public struct SiteContent: Sendable {
    /// URL-paths of the document root's files (`/index.html`, `/css/site.css`), sorted.
    public var paths: [String]
    /// The pages to check, in order; `nil` means every HTML file of `paths`, served at
    /// `https://<the site's first host><path>`.
    public var pages: [ServedPage]?
    private let loader: @Sendable (String) -> SourceFile?
    private let store = FileStore()

    /// Files read through `load`, which gets a URL-path and returns the file (its `path` is what
    /// reports show) or `nil` when it cannot be read.
    public init(paths: [String], pages: [ServedPage]? = nil, load: @escaping @Sendable (String) -> SourceFile?) {
        self.paths = paths.sorted()
        self.pages = pages
        self.loader = load
    }

    /// In-memory files by URL-path; each is shown as its path without the leading `/`
    /// (`index.html`), next to the root `.htaccess`.
    public init(files: [String: String], pages: [ServedPage]? = nil) {
        var sources: [String: SourceFile] = [:]
        for (path, text) in files {
            let key = path.hasPrefix("/") ? path : "/" + path
            sources[key] = SourceFile(path: String(key.dropFirst()), text: text)
        }
        let fixed = sources
        self.init(paths: Array(fixed.keys), pages: pages, load: { fixed[$0] })
    }

    /// No files: content rules find nothing.
    public static var empty: SiteContent { SiteContent(paths: [], load: { _ in nil }) }

    /// Whether there is nothing to read.
    public var isEmpty: Bool { paths.isEmpty && (pages ?? []).isEmpty }

    /// The file at a URL-path (`/css/site.css`), read once.
    public func file(_ path: String) -> SourceFile? {
        let key = path.hasPrefix("/") ? path : "/" + path
        return store.file(key, loader)
    }

    /// Every file read so far, in the order it was first read (for `Report.sources`).
    public var loadedFiles: [SourceFile] { store.loaded }

    /// HTML files by extension: what `pages == nil` checks. PHP and other server-side sources are
    /// not what the browser receives, so they are not scanned.
    public static func isPage(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm") || lower.hasSuffix(".xhtml")
    }
}

/// Loaded files shared by the copies of one `SiteContent` (rules run concurrently in tests).
private final class FileStore: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: SourceFile?] = [:]
    private var order: [SourceFile] = []

    func file(_ key: String, _ load: (String) -> SourceFile?) -> SourceFile? {
        lock.lock()
        defer { lock.unlock() }
        if let known = files[key] { return known }
        let loaded = load(key)
        files[key] = .some(loaded)
        if let loaded { order.append(loaded) }
        return loaded
    }

    var loaded: [SourceFile] {
        lock.lock()
        defer { lock.unlock() }
        return order
    }
}
