import Foundation
import HtlintDiagnostics
import HtlintReporting

/// Options every command that reports findings shares (`lint`, `mixed-content`): the level that
/// fails the run and the output format, with the same messages for the same mistakes.
enum FindingsOptions {
    /// `--fail-on error|warning|note` (default error).
    static func failOn(_ a: Arguments) throws(CLIError) -> Severity {
        switch (a.value("--fail-on") ?? "error").lowercased() {
        case "error": return .error
        case "warning": return .warning
        case "note", "info": return .note
        case let other: throw .usage("unknown level '\(other)' for --fail-on; expected error, warning or note")
        }
    }

    /// `--format NAME` (or `fallback`), coloured on a terminal unless `--no-color`/`NO_COLOR`.
    static func format(_ a: Arguments, fallback: String, terminal: Bool) throws(CLIError) -> any ReportFormatter {
        let name = a.value("--format") ?? fallback
        guard let format = formatter(named: name, colour: colour(a, terminal: terminal)) else {
            throw .usage(unknownFormat(name))
        }
        return format
    }

    static func unknownFormat(_ name: String) -> String {
        "unknown format '\(name)'; expected one of: \(allFormatters.map(\.id).joined(separator: ", "))"
    }

    /// `--color`/`--no-color`, else colour on a terminal unless `NO_COLOR` is set (no-color.org).
    static func colour(_ a: Arguments, terminal: Bool) -> Bool {
        if a.has("--no-color") { return false }
        if a.has("--color") { return true }
        return terminal && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }
}
