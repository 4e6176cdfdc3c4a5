import HtlintApache
import HtlintDiagnostics

extension Site {
    /// The source of a configuration file by its display path (the `.htaccess` files and the
    /// virtual host's).
    func sourceFile(_ path: String) -> SourceFile? {
        if path == vhostSource.path { return vhostSource }
        return files.accessFileEntries.first { $0.value.path == path }?.value
    }

    /// `file:line` for a directive's range; the file alone when its text is not at hand.
    public func location(of range: SourceRange) -> String {
        guard let file = sourceFile(range.file) else { return range.file }
        return "\(range.file):\(file.lines.position(of: range.start).line)"
    }

    /// The 1-based line of a range, when the file is known.
    public func line(of range: SourceRange) -> Int? {
        sourceFile(range.file).map { $0.lines.position(of: range.start).line }
    }

    /// The directive's text as written (first physical line of it).
    public func text(of range: SourceRange) -> String? {
        guard let file = sourceFile(range.file), range.end <= file.bytes.count else { return nil }
        return file.text(range.start..<range.end).split(separator: "\n").first.map(String.init)
    }
}
