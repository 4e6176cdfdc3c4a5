import Foundation
import HtlintCLI

var environment = CLIEnvironment.live
environment.isTerminal = isatty(STDOUT_FILENO) != 0
let result = CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
FileHandle.standardOutput.write(result.stdout.data(using: .utf8)!)
FileHandle.standardError.write(result.stderr.data(using: .utf8)!)
exit(result.status.rawValue)
