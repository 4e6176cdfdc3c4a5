import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintReporting
import HtlintSyntax

/// `htlint check PATH...`: reads files the way Apache does and reports every error Apache
/// would fail on (500 for `.htaccess`), with its location.
struct CheckCommand {
    static let help = """
    usage: htlint check [options] PATH...

    Reads each file as Apache httpd 2.4 reads it and reports syntax errors and the errors
    Apache finds when it reads the file (an .htaccess with any of them answers 500).
    PATH may be a file, a directory (every .htaccess below it) or - for standard input.
    Files ending in .conf are read as server configuration, others as .htaccess.

    options:
      --format FORMAT     concise (default), text, json, sarif, github, checkstyle, gitlab
      --context CONTEXT   htaccess or server: how to read every PATH
      --modules LIST      comma-separated modules loaded besides the standard set
                          (e.g. env,access_compat,expires)
      --only-modules LIST use exactly these modules

    exit status: 0 no errors, 1 errors found, 2 usage error or unreadable input
    """

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let a: Arguments
        do {
            a = try Arguments(args, valued: ["--format", "--context", "--modules", "--only-modules"], booleans: ["-h", "--help"])
            try a.rejectConflict("--modules", "--only-modules")
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        if a.has("-h") || a.has("--help") { out.out(help); return .clean }
        guard let format = formatter(named: a.value("--format") ?? "concise") else {
            out.err("htlint: " + FindingsOptions.unknownFormat(a.value("--format")!))
            return .failure
        }
        var forced: ConfigContext? = nil
        if let c = a.value("--context") {
            guard let ctx = ConfigContext(rawValue: c) else {
                out.err("htlint: unknown context '\(c)'; expected htaccess or server")
                return .failure
            }
            forced = ctx
        }
        let modules = SiteOptions.modules(extra: a.value("--modules"), only: a.value("--only-modules"))
        guard !a.positionals.isEmpty else {
            out.err("htlint: check needs at least one PATH\n\n" + help)
            return .failure
        }
        var sources: [SourceFile] = []
        var diagnostics: [Diagnostic] = []
        var status = ExitStatus.clean
        for path in a.positionals {
            let files: [String]
            do { files = try io.expand(path) } catch {
                out.err("htlint: \(error)")
                status = max(status, .failure)
                continue
            }
            // A directory without access files is not an error (nothing to check), but say so.
            if files.isEmpty { out.err("htlint: note: no .htaccess file under '\(path)'") }
            for file in files {
                do {
                    let bytes = try io.read(file)
                    let source = SourceFile(path: file == "-" ? "<stdin>" : file, bytes: bytes)
                    let context = forced ?? (file.hasSuffix(".conf") ? .server : .htaccess)
                    let read = ConfigReader.read(source, context: context, modules: modules)
                    sources.append(source)
                    diagnostics += read.diagnostics
                } catch {
                    out.err("htlint: \(error)")
                    status = max(status, .failure)
                }
            }
        }
        let report = Report(diagnostics: diagnostics, sources: sources)
        out.stdout += format.format(report)
        if report.errorCount > 0 { status = max(status, .findings) }
        return status
    }
}
