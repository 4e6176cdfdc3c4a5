import HtlintDiagnostics

// Helpers shared by the CI formats (SARIF, GitHub, Checkstyle, GitLab).

extension Report {
    /// End of a range for line-oriented consumers: a non-empty range that ends just after a line
    /// break (a whole directive with its newline) ends on the line it covers, not at column 1 of
    /// the next, so annotations do not spill onto the following line.
    func lastPosition(_ range: SourceRange) -> SourcePosition {
        guard let source = sources[range.file] else { return position(range) }
        var end = min(range.end, source.bytes.count)
        if end > range.start, source.bytes[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            if end > range.start, source.bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        }
        return source.lines.position(of: end)
    }

    /// Every file the output mentions, once: the checked paths in order, then files that only
    /// diagnostics, notes or fix-its point into, in order of appearance.
    var mentionedFiles: [String] {
        var seen = Set<String>()
        var files: [String] = []
        func add(_ path: String) {
            if seen.insert(path).inserted { files.append(path) }
        }
        checkedPaths.forEach(add)
        for d in diagnostics {
            add(d.range.file)
            for note in d.notes { if let r = note.range { add(r.file) } }
            for fix in d.fixIts { for edit in fix.edits { add(edit.range.file) } }
        }
        return files
    }
}

/// A path as CI systems match it against the repository: a leading `./` is dropped because
/// GitHub and GitLab compare annotation paths with repository paths literally.
func repositoryPath(_ path: String) -> String {
    var p = Substring(path)
    while p.hasPrefix("./") { p = p.dropFirst(2) }
    return p.isEmpty ? path : String(p)
}
