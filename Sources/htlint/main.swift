import Foundation
import HtlintCLI

var environment = CLIEnvironment.live
environment.isTerminal = isatty(STDOUT_FILENO) != 0
environment.streamStdout = { FileHandle.standardOutput.write(Data($0.utf8)) }
/// What commands leave to the exit below (`CLIEnvironment.keepUntilExit`); never freed.
final class KeptUntilExit: @unchecked Sendable {
    let lock = NSLock()
    var values: [Any] = []
}
let keptUntilExit = KeptUntilExit()
environment.keepUntilExit = { value in keptUntilExit.lock.withLock { keptUntilExit.values.append(value) } }
if isatty(STDERR_FILENO) != 0 {
    // One line, rewritten in place; cleared by the final "\r\e[K".
    environment.progress = { FileHandle.standardError.write(Data(("\r\u{1B}[K" + $0).utf8)) }
}
let result = CLI.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
FileHandle.standardOutput.write(result.stdout.data(using: .utf8)!)
FileHandle.standardError.write(result.stderr.data(using: .utf8)!)
exit(result.status.rawValue)
