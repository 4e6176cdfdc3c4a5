import Foundation
import HtlintApache

/// A line-based change to one `.htaccess`, shown to the user and applied to a copy of the
/// site to verify it.
public struct ConfigEdit: Sendable, Hashable {
    /// What the edit does.
    public enum Action: Sendable, Hashable {
        /// Insert lines before the 1-based line.
        case insert(before: Int, lines: [String])
        /// Remove the 1-based lines.
        case remove([Int])
        /// Replace one line.
        case replace(Int, with: String)
    }

    /// Display path of the file.
    public var file: String
    /// The change.
    public var action: Action

    /// An edit of the `.htaccess` shown as `file`.
    public init(file: String, action: Action) {
        self.file = file
        self.action = action
    }

    /// The file's text after the edit.
    public func apply(to text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        switch action {
        case .insert(let before, let new):
            let i = min(max(before - 1, 0), lines.count)
            lines.insert(contentsOf: new, at: i)
        case .remove(let numbers):
            for n in numbers.sorted(by: >) where n >= 1 && n <= lines.count { lines.remove(at: n - 1) }
        case .replace(let n, let new):
            if n >= 1 && n <= lines.count { lines[n - 1] = new }
        }
        return lines.joined(separator: "\n")
    }

    /// What to do, in words, quoting the lines involved.
    public func describe(original text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func line(_ n: Int) -> String { n >= 1 && n <= lines.count ? lines[n - 1].trimmingCharacters(in: .whitespaces) : "" }
        switch action {
        case .insert(let before, let new):
            return ["in \(file), before line \(before) (`\(line(before))`), add:"] + new.map { "    " + $0 }
        case .remove(let numbers):
            return ["in \(file), remove line\(numbers.count > 1 ? "s" : "") \(numbers.map(String.init).joined(separator: ", ")):"]
                + numbers.map { "    " + line($0) }
        case .replace(let n, let new):
            return ["in \(file), change line \(n):", "    " + line(n), "  to:", "    " + new]
        }
    }

    /// The site source with this edit applied, nil when the file is not part of it.
    func applied(to source: SiteSource) -> SiteSource? {
        guard let (_, file) = source.accessFile(self.file) else { return nil }
        let text = String(decoding: file.bytes, as: UTF8.self)
        return source.replacingAccessFile(self.file, text: apply(to: text))
    }
}
