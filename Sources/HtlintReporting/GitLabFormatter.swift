import Foundation
import HtlintDiagnostics

/// GitLab Code Quality JSON (a subset of the Code Climate issue format), which merge requests
/// show in their Code Quality widget and diff:
///
/// ```
/// [{"check_name": "HT301", "description": "…", "fingerprint": "9f0c…", "severity": "major",
///   "location": {"path": "public/.htaccess", "lines": {"begin": 4, "end": 4}}}]
/// ```
///
/// - Severity: `note` → `info`, `warning` → `minor`, `error` → `major`, the mapping most linters'
///   GitLab reports use; `critical` and `blocker` are left for a future severity above error.
/// - Paths lose a leading `./` so that they match repository paths.
/// - The fingerprint is what GitLab uses to tell new findings from old ones between pipelines,
///   so it must not change between runs: FNV-1a 64 over the code, path, line and message. Two
///   findings with the same four get an occurrence number in the hash, because GitLab shows only
///   one issue per fingerprint.
public struct GitLabFormatter: ReportFormatter {
    public let id = "gitlab"
    public init() {}

    public func format(_ report: Report) -> String {
        var seen: [String: Int] = [:]
        let issues = report.diagnostics.map { d -> Issue in
            let path = repositoryPath(d.range.file)
            let begin = report.position(d.range).line, end = report.lastPosition(d.range).line
            let key = [d.code, path, String(begin), d.message].joined(separator: "\0")
            let occurrence = seen[key, default: 0]
            seen[key] = occurrence + 1
            return Issue(description: d.message, checkName: d.code,
                         fingerprint: Self.fingerprint(code: d.code, path: path, line: begin, message: d.message,
                                                       occurrence: occurrence),
                         severity: Self.severity(d.severity),
                         location: Location(path: path, lines: Lines(begin: begin, end: end)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(issues)) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .note: "info"
        case .warning: "minor"
        case .error: "major"
        }
    }

    /// 16 lower-case hex digits of FNV-1a 64 over the fields separated by NUL (which none of
    /// them contains, so different splits cannot collide); `occurrence` is added only when
    /// non-zero, so the first of identical findings keeps the plain hash.
    static func fingerprint(code: String, path: String, line: Int, message: String, occurrence: Int = 0) -> String {
        var fields = [code, path, String(line), message]
        if occurrence > 0 { fields.append(String(occurrence)) }
        let hash = fnv1a64(Array(fields.joined(separator: "\0").utf8))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// FNV-1a, 64-bit (Fowler–Noll–Vo): small, deterministic across platforms and runs, unlike
    /// `Hasher`, which is seeded per process. Not cryptographic; it only has to be stable.
    static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    struct Issue: Encodable {
        var description: String
        var checkName: String
        var fingerprint: String
        var severity: String
        var location: Location
        enum CodingKeys: String, CodingKey {
            case description, checkName = "check_name", fingerprint, severity, location
        }
    }
    struct Location: Encodable {
        var path: String
        var lines: Lines
    }
    struct Lines: Encodable {
        var begin: Int
        var end: Int
    }
}
