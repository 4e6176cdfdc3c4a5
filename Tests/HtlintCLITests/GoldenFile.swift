import Foundation
import Testing
@testable import HtlintCLI

/// Directory of this test target.
let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path
/// The package root (for fixtures/).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// Runs htlint from the package root with paths relative to it, as a user would. Every CLI test
/// sets the same directory, so tests running at the same time agree.
func runCLI(_ args: [String], environment: CLIEnvironment = .live) -> CommandOutput {
    _ = FileManager.default.changeCurrentDirectoryPath(packageRoot)
    return CLI.run(arguments: args, environment: environment)
}

/// Exit status, standard output and standard error in one text for golden files; the version
/// is masked so a release does not change every golden.
func snapshot(_ o: CommandOutput) -> String {
    "exit: \(o.status.rawValue)\n--- stdout\n\(o.stdout)--- stderr\n\(o.stderr)"
        .replacingOccurrences(of: CLI.version, with: "[VERSION]")
}
