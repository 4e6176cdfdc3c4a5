import Foundation

/// A document root (files by relative path, with their text) and a virtual-host file, written
/// to a temporary directory of their own for one test.
struct ScratchSite {
    let directory: URL
    var site: URL { directory.appendingPathComponent("site") }
    var vhost: URL { directory.appendingPathComponent("vhost.conf") }

    init(files: [String: String], vhost: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("htlint-site-\(UUID().uuidString)")
        for (path, text) in files {
            let file = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        try vhost.write(to: self.vhost, atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
