import Foundation
import HtlintCLI

let result = CLI.run(arguments: Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(result.stdout.data(using: .utf8)!)
FileHandle.standardError.write(result.stderr.data(using: .utf8)!)
exit(result.status.rawValue)
