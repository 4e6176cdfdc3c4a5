import HtlintDiagnostics

/// Applies the safe fix-its of findings to the source text, and renders the change as a
/// unified diff. Edits that overlap an earlier one are skipped (ruff's rule: one pass, no conflicts).
enum FixApplier {
    static func apply(_ diagnostics: [Diagnostic], sources: [SourceFile]) -> (files: [String: String], diff: String) {
        var byFile: [String: [TextEdit]] = [:]
        for d in diagnostics {
            for fix in d.fixIts where fix.applicability == .safe {
                for e in fix.edits { byFile[e.range.file, default: []].append(e) }
            }
        }
        var files: [String: String] = [:]
        var diff = ""
        for source in sources {
            guard var edits = byFile[source.path], !edits.isEmpty else { continue }
            edits.sort { $0.range.start < $1.range.start }
            var bytes: [UInt8] = []
            var cursor = 0
            for e in edits where e.range.start >= cursor && e.range.end <= source.bytes.count {
                bytes += source.bytes[cursor..<e.range.start]
                bytes += Array(e.replacement.utf8)
                cursor = e.range.end
            }
            bytes += source.bytes[cursor...]
            let text = String(decoding: bytes, as: UTF8.self)
            files[source.path] = text
            diff += unifiedDiff(path: source.path, old: String(decoding: source.bytes, as: UTF8.self), new: text)
        }
        return (files, diff)
    }

    /// A minimal unified diff: one hunk per run of changed lines, three lines of context.
    static func unifiedDiff(path: String, old: String, new: String) -> String {
        let a = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let b = new.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Longest common subsequence table (files are small; fine for .htaccess sizes).
        let n = a.count, m = b.count
        guard n * m <= 4_000_000 else { return "--- a/\(path)\n+++ b/\(path)\n(file too large to diff)\n" }
        var lcs = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : max(lcs[i + 1][j], lcs[i][j + 1])
            }
        }
        enum Op { case same(String), del(String), add(String) }
        var ops: [Op] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, a[i] == b[j] { ops.append(.same(a[i])); i += 1; j += 1 }
            else if j < m, i == n || lcs[i][j + 1] >= lcs[i + 1][j] { ops.append(.add(b[j])); j += 1 }
            else { ops.append(.del(a[i])); i += 1 }
        }
        var out = "--- a/\(path)\n+++ b/\(path)\n"
        var k = 0
        var oldLine = 1, newLine = 1
        while k < ops.count {
            if case .same = ops[k] { oldLine += 1; newLine += 1; k += 1; continue }
            var start = k
            var ctx = 0
            while start > 0, ctx < 3, case .same = ops[start - 1] { start -= 1; ctx += 1 }
            var end = k
            var quiet = 0
            while end < ops.count {
                if case .same = ops[end] { quiet += 1; if quiet > 6 { break } } else { quiet = 0 }
                end += 1
            }
            end = min(ops.count, end - max(0, quiet - 3))
            let hunk = ops[start..<end]
            let oldCount = hunk.filter { if case .add = $0 { false } else { true } }.count
            let newCount = hunk.filter { if case .del = $0 { false } else { true } }.count
            out += "@@ -\(oldLine - ctx),\(oldCount) +\(newLine - ctx),\(newCount) @@\n"
            for op in hunk {
                switch op {
                case .same(let s): out += " \(s)\n"
                case .del(let s): out += "-\(s)\n"
                case .add(let s): out += "+\(s)\n"
                }
            }
            for op in ops[k..<end] {
                switch op {
                case .same: oldLine += 1; newLine += 1
                case .del: oldLine += 1
                case .add: newLine += 1
                }
            }
            k = end
        }
        return out
    }
}
