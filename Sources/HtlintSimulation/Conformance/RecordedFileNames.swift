import Foundation
import HtlintApache

/// How the recorder names a served file: by the body that came back, the first site file (in
/// the order Python sorts the tree's paths, part by part) whose bytes it is. Two files with the
/// same non-empty content are one name to it, so a simulated `/rr/page.html` is recorded as
/// `/ff/page.html` when both hold `p` (tools/apache-oracle's prepare_site; empty files get a
/// body of their own, `oracle-file:/path`).
struct RecordedFileNames {
    /// Site path → the earlier path with the same bytes; paths with unique content are absent.
    private var firstWithSameBytes: [String: String] = [:]
    private let siteDirectory: String

    init(siteDirectory: String) {
        self.siteDirectory = siteDirectory
        let root = URL(fileURLWithPath: siteDirectory)
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .isSymbolicLinkKey]) else { return }
        var files: [(parts: [String], path: String, url: URL)] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .isSymbolicLinkKey])
            guard values?.isSymbolicLink != true, values?.isRegularFile == true else { continue }
            let name = url.lastPathComponent
            guard name != ".htaccess", name != ".oracle-keep" else { continue }
            let relative = String(url.path.dropFirst(root.path.count))
            files.append((relative.split(separator: "/").map(String.init), relative, url))
        }
        // PurePath ordering: the lists of parts compared element by element.
        files.sort { $0.parts.lexicographicallyPrecedes($1.parts) { $0.utf8.lexicographicallyPrecedes($1.utf8) } }
        var firstPath: [Data: String] = [:]
        for f in files {
            guard let data = try? Data(contentsOf: f.url), !data.isEmpty else { continue }
            if let first = firstPath[data] { firstWithSameBytes[f.path] = first } else { firstPath[data] = f.path }
        }
    }

    /// The name the recorder gives a response that served `path`: none for a system file a
    /// link out of the site led to (its bytes are no site file's; recorded:
    /// access-symlink-to-system-path).
    func recorded(_ path: String) -> String? {
        if Site.systemNode(path) != nil, !FileManager.default.fileExists(atPath: siteDirectory + path) { return nil }
        return firstWithSameBytes[path] ?? path
    }
}
