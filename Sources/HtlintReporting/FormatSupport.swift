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

/// `text` with control characters shown as Unicode control pictures (U+2400…, U+2421 for DEL,
/// U+FFFD for C1), as the source frames already show them. Messages and paths quote bytes from
/// the user's files and directory names; printed raw, an ESC sequence in a hostile `.htaccess`
/// would drive the reader's terminal (issue 9). Tabs and line breaks are kept.
func terminalSafe(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { isUnsafeControl($0) }) else { return text }
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x09, 0x0A: out.append(scalar)
        case 0x00..<0x20: out.append(Unicode.Scalar(0x2400 + scalar.value)!)
        case 0x7F: out.append(Unicode.Scalar(0x2421)!)
        case 0x80..<0xA0: out.append(Unicode.Scalar(0xFFFD)!)
        default: out.append(scalar)
        }
    }
    return String(out)
}

private func isUnsafeControl(_ s: Unicode.Scalar) -> Bool {
    (s.value < 0x20 && s.value != 0x09 && s.value != 0x0A) || (0x7F..<0xA0).contains(s.value)
}
