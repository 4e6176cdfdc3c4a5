/// The htlint command line as a library function.
public enum CLI {
    public static let version = "0.1.0"

    public static func run(arguments: [String]) -> CommandOutput {
        var out = CommandOutput()
        var args = arguments
        guard let command = args.first else {
            out.err(usage)
            out.status = .failure
            return out
        }
        args.removeFirst()
        switch command {
        case "conformance": out.status = ConformanceCommand.run(args, &out)
        case "--version", "version": out.out("htlint \(version)")
        case "-h", "--help", "help": out.out(usage)
        default:
            out.err("htlint: unknown command '\(command)'\n\n" + usage)
            out.status = .failure
        }
        return out
    }

    static let usage = """
    usage: htlint <command> [options]

    commands:
      conformance DIR...  compare the simulator with recorded real-Apache cases
    """
}
