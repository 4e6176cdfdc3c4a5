import Foundation
import HtlintApache
import HtlintSimulation

/// `htlint simulate URL...` and `htlint explain URL...`: follow each request from the browser
/// through the layers to Apache (and WordPress) and back, hop by hop, and say how the chain ends.
struct SimulateCommand {
    static func help(_ name: String) -> String {
        """
        usage: htlint \(name) [site options] [--method M] [--header "Name: value"]... URL...

        \(name == "explain"
          ? "Follows each URL like a browser and explains every hop: the path through the layers, the\nvariables Apache saw and why, each directive that fired, where a loop closes and why it loops,\nand fixes that were checked by re-simulating with each one applied."
          : "Follows each URL like a browser through the layers in front of Apache and prints every hop.")
        The URLs are visitors one after another: a layer that caches (Cloudflare, CloudFront, Fastly,
        Varnish with `cache` on) serves the next one what it stored for the previous one. A load
        balancer's health check is shown with Apache's answer to it.

        \(SiteOptions.help)
          --method M             request method (default GET)
          --header "N: v"        extra request header (repeatable; Host only on the first hop)
          --format FORMAT        text (default) or json
          --color / --no-color   force colour on or off (default: on for a terminal, off with NO_COLOR)

        verdicts: ok, loop, internal-recursion, too-many-redirects, offsite, error

        exit status: 0 every chain ends well (ok or offsite), 1 a loop, too many redirects, internal
        recursion or an error, 2 usage error or unreadable input
        """
    }

    static func run(_ args: [String], explain: Bool, io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let name = explain ? "explain" : "simulate"
        let a: Arguments
        let options: SiteOptions
        var urls: [String]
        do {
            a = try Arguments(args, valued: SiteOptions.valued.union(["--method", "--header", "--format"]),
                              booleans: SiteOptions.booleans.union(["-h", "--help", "--color", "--no-color"]))
            if a.has("-h") || a.has("--help") { out.out(help(name)); return .clean }
            try a.rejectConflict("--color", "--no-color")
            try a.rejectConflict("--modules", "--only-modules")
            options = try SiteOptions(a)
            urls = a.positionals
            if urls.isEmpty { urls = try options.defaultURLs(io: io) }
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        guard !urls.isEmpty else {
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
            let name = String(h[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(h[h.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            // One header line each: a line break would be a second header (or a body) in disguise.
            guard !name.isEmpty, name.utf8.allSatisfy(Origin.isTokenByte) else {
                out.err("htlint: header '\(TerminalText.escaped(h))' has no valid name (letters, digits and !#$%&'*+-.^_`|~)")
                return .failure
            }
            guard !value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D || $0 == 0 }) else {
                out.err("htlint: header '\(TerminalText.escaped(h))' holds a line break or NUL; give each header its own --header")
                return .failure
            }
            headers.append(HTTPHeader(name, value))
        }
        let method = (a.value("--method") ?? "GET").uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy(Origin.isTokenByte) else {
            out.err("htlint: --method '\(TerminalText.escaped(method))' is not an HTTP method (a token such as GET, POST or PROPFIND)")
            return .failure
        }
        if let problem = urls.lazy.compactMap(StartURL.problem).first {
            out.err("htlint: " + problem)
            return .failure
        }
        let simulator: ChainSimulator
        do {
            simulator = try options.simulator(defaultHost: URLParts(urls[0])?.host, io: io)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let style = TextStyle.decide(color: a.has("--color"), noColor: a.has("--no-color"), isTerminal: io.isTerminal,
                                     environment: ProcessInfo.processInfo.environment)
        var status = ExitStatus.clean
        var results: [ChainResult] = []
        // The URLs are visitors one after another: what a caching layer stored for one is served
        // to the next (a redirect cached for http and replayed to https loops).
        var caches = CacheState()
        for url in urls {
            let result = simulator.run(url, method: method, headers: headers, caches: &caches)
            results.append(result)
            if ![.ok, .offsite].contains(result.verdict) { status = .findings }
        }
        func request(_ i: Int) -> FixFinder.Request {
            .init(url: results[i].request, method: method, headers: headers, earlierVisitors: Array(urls[..<i]))
        }
        if format == "json" {
            let fixes = explain ? results.indices.map { i in
                FixFinder.fixes(for: results[i], request: request(i), simulator: simulator)
            } : nil
            out.stdout += ChainRenderer.json(results, simulator: simulator, fixes: fixes)
        } else if explain {
            for (i, r) in results.enumerated() {
                if i > 0 { out.out("") }
                out.stdout += ExplainRenderer.explanation(r, request: request(i), simulator: simulator, style: style)
            }
        } else {
            out.out("topology: \(ChainRenderer.topology(simulator))")
            for line in ChainRenderer.healthChecks(simulator) { out.out(line) }
            for r in results { out.stdout += ChainRenderer.text(r, simulator: simulator, style: style) }
        }
        let diagnostics = simulator.origin.site.diagnostics.filter { $0.severity == .error }
        if !diagnostics.isEmpty && format == "text" {
            out.err("htlint: note: the site's configuration has \(diagnostics.count) error(s); run `htlint check` for details")
        }
        return status
    }
}
