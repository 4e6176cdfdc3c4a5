import Foundation
import HtlintApache
import HtlintSimulation

/// `htlint simulate URL...` and `htlint explain URL...`: follow each request through the edge
/// and Apache, hop by hop, and say how the chain ends.
struct SimulateCommand {
    static func help(_ name: String) -> String {
        """
        usage: htlint \(name) [site options] [--method M] [--header "Name: value"]... URL...

        \(name == "explain"
          ? "Follows each URL like a browser and explains every hop: which rules matched, what\nApache did, and for a loop, why it loops and how to fix it."
          : "Follows each URL like a browser through the edge and Apache and prints every hop.")

        \(SiteOptions.help)
          --method M             request method (default GET)
          --header "N: v"        extra request header (repeatable)
          --format FORMAT        text (default) or json

        exit status: 0 every chain ends in a final answer, 1 a loop, too many redirects or an
        error status (5xx), 2 usage error or unreadable input
        """
    }

    static func run(_ args: [String], explain: Bool, io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let name = explain ? "explain" : "simulate"
        let a: Arguments
        let options: SiteOptions
        do {
            a = try Arguments(args, valued: SiteOptions.valued.union(["--method", "--header", "--format"]),
                              booleans: SiteOptions.booleans.union(["-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help(name)); return .clean }
            options = try SiteOptions(a)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard !a.positionals.isEmpty else {
            out.err("htlint: \(name) needs at least one URL\n\n" + help(name))
            return .failure
        }
        let format = a.value("--format") ?? "text"
        guard ["text", "json"].contains(format) else {
            out.err("htlint: unknown format '\(format)'; expected one of: text, json")
            return .failure
        }
        var headers: [HTTPHeader] = []
        for h in a.all("--header") {
            guard let colon = h.firstIndex(of: ":") else {
                out.err("htlint: header '\(h)' is not of the form 'Name: value'")
                return .failure
            }
            headers.append(HTTPHeader(String(h[..<colon]).trimmingCharacters(in: .whitespaces),
                                      String(h[h.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        for u in a.positionals where URLParts(u) == nil {
            out.err("htlint: '\(u)' is not an absolute URL (expected http://host/path)")
            return .failure
        }
        let simulator: ChainSimulator
        do {
            simulator = try options.simulator(defaultHost: URLParts(a.positionals[0])?.host, io: io)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let method = (a.value("--method") ?? "GET").uppercased()
        var status = ExitStatus.clean
        var results: [ChainResult] = []
        for url in a.positionals {
            let result = simulator.run(url, method: method, headers: headers)
            results.append(result)
            if result.outcome != .final && result.outcome != .offsite || result.finalStatus >= 500 { status = .findings }
        }
        if format == "json" {
            out.stdout += ChainRenderer.json(results)
        } else {
            for (i, r) in results.enumerated() {
                if i > 0 { out.out("") }
                out.stdout += explain ? ChainRenderer.explanation(r, simulator: simulator) : ChainRenderer.text(r)
            }
        }
        let diagnostics = simulator.origin.site.diagnostics.filter { $0.severity == .error }
        if !diagnostics.isEmpty && format == "text" {
            out.err("htlint: note: the site's configuration has \(diagnostics.count) error(s); run `htlint check` for details")
        }
        return status
    }
}
