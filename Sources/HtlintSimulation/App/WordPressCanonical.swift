extension WordPress {
    /// `redirect_canonical($requested_url, false)` for pretty-permalink pages (§12.3, canonical.php):
    /// the canonical URL, or nil when the request already is canonical. Modelled: trailing
    /// `/index.php`, trailing slashes, repeated slashes, the www/apex swap towards `home`, and
    /// `home`'s port. Every path under `home` is taken to be an existing page; a path that looks
    /// like a file, or lies outside `home`, is a 404 (no slash changes). The redirect keeps the
    /// request's scheme: WordPress never compares schemes.
    public func canonical(_ requested: String, isSSL: Bool) -> String? {
        guard let original = URLParts(requested), let homeURL = URLParts(home) else { return nil }
        var homePath = homeURL.path
        if !homePath.hasSuffix("/") { homePath += "/" }
        var path = original.path
        // Trailing /index.php, and /index.php/ inside the path (no PATHINFO permalinks).
        for suffix in ["/index.php/", "/index.php"] where path.hasSuffix(suffix) {
            path = String(path.dropLast(suffix.count)) + "/"
        }
        path = path.replacingOccurrences(of: "/index.php/", with: "/")
        while path.contains("//") { path = path.replacingOccurrences(of: "//", with: "/") }
        let isFront = WordPress.trailingSlashed(path) == homePath
        let lastSegment = path.split(separator: "/").last.map(String.init) ?? ""
        let isPage = !isFront && path.hasPrefix(homePath) && !lastSegment.contains(".")
        if isFront {
            path = WordPress.trailingSlashed(path)
        } else if isPage {
            path = trailingSlashPermalinks ? WordPress.trailingSlashed(path)
                : (path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path)
        }
        // Only an apex ↔ www difference to home's host is corrected; any other host stays.
        var host = homeURL.host
        let o = original.host.lowercased(), h = host.lowercased()
        if o == h || ("www." + o != h && "www." + h != o) { host = original.host }
        let port = homeURL.port
        let query = original.query.flatMap { $0.isEmpty ? nil : $0 }
        let same = host == original.host && path == original.path && port == original.port
        guard !same else { return nil }
        let url = "\(original.scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path)\(query.map { "?" + $0 } ?? "")"
        return url == requested ? nil : url
    }

    static func trailingSlashed(_ s: String) -> String { s.hasSuffix("/") ? s : s + "/" }
}
