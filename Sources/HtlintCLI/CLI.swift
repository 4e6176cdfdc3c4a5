/// The htlint command line as a library function.
public enum CLI {
    public static let version = "0.1.0"

    public static func run(arguments: [String], environment: CLIEnvironment = .live) -> CommandOutput {
        var out = CommandOutput()
        var args = arguments
        guard let command = args.first else {
            out.err(usage)
            out.status = .failure
            return out
        }
        args.removeFirst()
        switch command {
        case "check", "parse": out.status = CheckCommand.run(args, io: environment, &out)
        case "simulate": out.status = SimulateCommand.run(args, explain: false, io: environment, &out)
        case "explain": out.status = SimulateCommand.run(args, explain: true, io: environment, &out)
        case "lint": out.status = LintCommand.run(args, io: environment, &out)
        case "mixed-content": out.status = MixedContentCommand.run(args, io: environment, &out)
        case "rules": out.status = RulesCommand.run(args, &out)
        case "replay": out.status = ReplayCommand.run(args, io: environment, &out)
        case "diff": out.status = DiffCommand.run(args, io: environment, &out)
        case "graph": out.status = GraphCommand.run(args, io: environment, &out)
        case "report": out.status = ReportCommand.run(args, io: environment, &out)
        case "conformance": out.status = ConformanceCommand.run(args, &out)
        case "probe": out.status = ProbeCommand.run(args, io: environment, &out)
        case "--version", "version": out.out("htlint \(version)")
        case "-h", "--help", "help": out.out(usage)
        default:
            out.err("htlint: unknown command '\(command)'\n\n" + usage)
            out.status = .failure
        }
        return out
    }

    static let usage = """
    htlint — finds out what an Apache host's redirect configuration really does.

    usage: htlint <command> [options]

    commands:
      lint [PATH...]       check files or a whole site against the rule catalog (CI-ready)
      mixed-content URL... https pages that still load http, with HSTS and WordPress checks
      check PATH...        read .htaccess/config files as Apache does; report every error
      simulate URL...      follow requests through the edge and Apache, hop by hop
      explain URL...       the same, with every rule that fired and why a loop loops
      replay --urls FILE   simulate a URL list or access log and summarise the answers
      diff --old --new     the same requests through two document roots: what changed, by rule
      rules [RULE]         list the rules, or print one rule's page
      graph                the compiled rule graph (dot, mermaid, json, svg), loops highlighted
      report --html FILE   one self-contained HTML page: findings, chains, rule graph
      conformance DIR...   compare the simulator with recorded real-Apache cases
      probe URL...         fetch the live chain hop by hop, compare it, infer the edge in front

    Run `htlint <command> --help` for a command's options.

    exit status: 0 clean, 1 findings (errors, loops), 2 usage error or unreadable input
    """
}
