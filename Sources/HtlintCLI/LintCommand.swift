import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintReporting
import HtlintRules
import HtlintSimulation
import HtlintSyntax
import HtlintYAML

/// `htlint lint`: the rule catalog over files or a whole site, for people and CI.
struct LintCommand {
    static let help = """
    usage: htlint lint [options] [site options] [PATH...]

    Checks .htaccess files (and .conf server configuration) against htlint's rule catalog
    (`htlint rules`). A directory PATH with its own .htaccess (or --docroot DIR without PATH) is
    a document root: every .htaccess under it is linted as one site, each read where Apache
    reads it, and simulation-backed rules (loops, internal recursion, downgrades) run through the
    configured edge. In any other directory each .htaccess found is linted alone, as a lone file
    is: simulated as the root .htaccess of an otherwise empty site.

    options:
      --format FORMAT     text (default), concise, json, sarif, github, checkstyle, gitlab
      --fail-on LEVEL     error (default), warning or note: exit 1 when a finding is at or above it
      --config FILE       settings file (default: .htlint.yml in the current directory, if any)
      --disable RULE      switch a rule off (id or name; repeatable)
      --enable RULE       switch on an opt-in rule (`htlint rules` marks them; repeatable)
      --only RULE         run only these rules (repeatable)
      --severity RULE=LEVEL  change a rule's severity (error, warning, note)
      --no-simulation     static rules only
      --fix               apply the safe fixes to the files
      --diff              print the safe fixes as a unified diff instead of applying them
      --color / --no-color  force colour on or off (default: on for a terminal, off with NO_COLOR)

    \(SiteOptions.help)

    Suppress a finding with a comment line before the directive: `# htlint disable=HT202`
    (ids or names, comma-separated), or for the whole file: `# htlint disable-file=HT202`.

    exit status: 0 no finding at or above --fail-on, 1 findings, 2 usage error or unreadable input
    """

    static let lintValued = SiteOptions.valued.union(["--format", "--fail-on", "--config", "--disable", "--enable", "--only", "--severity"])

    static func run(_ args: [String], io: CLIEnvironment, _ out: inout CommandOutput) -> ExitStatus {
        let terminal = io.isTerminal
        var a: Arguments
        do {
            a = try Arguments(args, valued: lintValued,
                              booleans: SiteOptions.booleans.union(["--fix", "--diff", "--no-simulation", "--color", "--no-color", "-h", "--help"]))
            if a.has("-h") || a.has("--help") { out.out(help); return .clean }
            // Checked on the command line itself: .htlint.yml cannot set these flags.
            try a.rejectConflict("--fix", "--diff")
            try a.rejectConflict("--color", "--no-color")
            try a.rejectConflict("--modules", "--only-modules")
            if a.has("--fix"), a.positionals.contains("-") {
                throw CLIError.usage("--fix cannot write to standard input; use --diff")
            }
            if let extra = try configArguments(a.value("--config"), io: io) {
                a = try Arguments(extra + args, valued: lintValued,
                                  booleans: SiteOptions.booleans.union(["--fix", "--diff", "--no-simulation", "--color", "--no-color"]))
            }
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        let failOn: Severity
        let format: any ReportFormatter
        do {
            failOn = try FindingsOptions.failOn(a)
            format = try FindingsOptions.format(a, fallback: formatter(named: "text") != nil ? "text" : "concise", terminal: terminal)
        } catch {
            out.err("htlint: \(error)")
            return .failure
        }
        var configuration = LintConfiguration()
        configuration.disabled = Set(a.all("--disable"))
        configuration.enabled = Set(a.all("--enable"))
        configuration.only = Set(a.all("--only"))
        for item in a.all("--severity") {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let level = Severity(rawValue: parts[1].lowercased() == "info" ? "note" : parts[1].lowercased()) else {
                out.err("htlint: --severity expects RULE=error|warning|note, got '\(item)'")
                return .failure
            }
            guard let r = rule(named: parts[0]) else {
                out.err("htlint: unknown rule '\(parts[0])'; `htlint rules` lists them")
                return .failure
            }
            configuration.severities[r.description.id] = level
        }
        for key in configuration.disabled.union(configuration.only).union(configuration.enabled) where rule(named: key) == nil {
            out.err("htlint: unknown rule '\(key)'; `htlint rules` lists them")
            return .failure
        }
        let options: SiteOptions
        do { options = try SiteOptions(a) } catch {
            out.err("htlint: \(error)")
            return .failure
        }

        // Build the contexts: one site for --docroot or a document root named as PATH, otherwise
        // one per file. `judgesPages`: the context holds the site's pages, so the rules that judge
        // them (a redirect or rewrite to a missing page, a failing ErrorDocument or home page) run;
        // for a lone file, or a directory of configuration without pages, they would be guesses.
        var contexts: [(context: LintContext, judgesPages: Bool)] = []
        var status = ExitStatus.clean
        let useSimulation = !a.has("--no-simulation")
        if a.positionals.isEmpty {
            guard a.value("--docroot") != nil || a.value("--site") != nil else {
                out.err("htlint: lint needs PATH..., --docroot DIR or --site FILE\n\n" + help)
                return .failure
            }
            do { contexts.append((try siteContext(options, io: io, simulate: useSimulation), true)) } catch {
                out.err("htlint: \(error)")
                return .failure
            }
        } else {
            for path in a.positionals {
                // A directory with its own `.htaccess` is a document root: its access files are
                // linted as one site, each read where Apache reads it (a subdirectory's under its
                // parent's), as --docroot does. Any other directory (a repository whose site is in
                // `public/`) is searched for access files, each linted alone.
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                if path != "-", io.isDirectory(path), (try? io.read(base + "/.htaccess")) != nil {
                    do {
                        let context = try siteContext(options.rooted(at: path), io: io, simulate: useSimulation)
                        contexts.append((context, context.simulator.map { Self.hasPages($0.origin.site) } ?? false))
                    } catch {
                        out.err("htlint: \(error)")
                        status = .failure
                    }
                    continue
                }
                let files: [String]
                do { files = try io.expand(path) } catch {
                    out.err("htlint: \(error)")
                    status = .failure
                    continue
                }
                // A directory without access files is not an error (nothing to check), but say so.
                if files.isEmpty { out.err("htlint: note: no .htaccess file under '\(path)'") }
                for file in files {
                    do {
                        let bytes = try io.read(file)
                        let shown = file == "-" ? "<stdin>" : file
                        contexts.append((fileContext(shown, bytes: bytes, options: options, simulate: useSimulation), false))
                    } catch {
                        out.err("htlint: \(error)")
                        status = .failure
                    }
                }
            }
        }

        var withoutPages = configuration
        withoutPages.disabled.formUnion(Self.pageJudgingRules)
        let linters = (pages: Linter(configuration: configuration), none: Linter(configuration: withoutPages))
        var diagnostics: [Diagnostic] = []
        var sources: [SourceFile] = []
        for (context, judgesPages) in contexts {
            diagnostics += (judgesPages ? linters.pages : linters.none).run(context)
            sources += (context.files + context.unreadAccessFiles).map(\.source) + context.content.loadedFiles + (context.anchor.map { [$0] } ?? [])
        }
        // Freeing a 100,000-rule context takes a tenth of a second: do it beside the reporting,
        // on another core (the process may exit first, which only skips the work).
        let retired = contexts
        contexts = []
        DispatchQueue.global(qos: .utility).async { withExtendedLifetime(retired) {} }
        if a.has("--fix") || a.has("--diff") {
            let (applied, diff) = FixApplier.apply(diagnostics, sources: sources)
            if a.has("--diff") {
                out.stdout += diff
                return status
            }
            for (path, text) in applied where path != "<stdin>" {
                do { try io.writeFile(path, text) } catch {
                    out.err("htlint: \(error)")
                    status = .failure
                }
            }
            if !applied.isEmpty { out.err("htlint: applied fixes to \(applied.count) file(s)") }
            // Report what is left.
            diagnostics = diagnostics.filter { !$0.fixIts.contains { $0.applicability == .safe } }
        }
        var report = Report(diagnostics: diagnostics, sources: sources)
        report.rules = ruleMetadata()
        report.toolVersion = CLI.version
        // Nothing could be read: "no problems found in 0 files" would read as a pass. Machine
        // formats still get their (empty) document, which CI uploads expect.
        if sources.isEmpty, status == .failure, format is TextFormatter { return status }
        out.stdout += format.format(report)
        if diagnostics.contains(where: { $0.severity >= failOn }) { status = max(status, .findings) }
        return status
    }

    /// Rules that judge the site's pages: off where the context has none.
    static let pageJudgingRules: Set<String> = ["HT307", "HT312", "HT320", "HT321", "HT322"]

    /// The document root holds something besides access files (a page, a script, an image).
    static func hasPages(_ site: Site) -> Bool {
        site.files.nodes.contains { path, node in
            guard case .file = node else { return false }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            return !name.hasPrefix(".ht")
        }
    }

    /// Rule pages for formats that describe rules (SARIF).
    static func ruleMetadata() -> [String: RuleMetadata] {
        var m: [String: RuleMetadata] = [:]
        for r in builtInRules {
            let d = r.description
            m[d.id] = RuleMetadata(id: d.id, name: d.name, summary: d.summary, description: d.rationale,
                                   defaultSeverity: d.severity, helpURI: "https://htlint.dev/rules/\(d.id)")
        }
        return m
    }

    /// A context for one file: `.conf` as server configuration (static rules), `.htaccess` as the
    /// root `.htaccess` of a site made of the document root when given, else an empty site.
    static func fileContext(_ path: String, bytes: [UInt8], options: SiteOptions, simulate: Bool) -> LintContext {
        let source = SourceFile(path: path, bytes: bytes)
        if path.hasSuffix(".conf") {
            return LintContext(files: [LintFile(source: source, context: .server, modules: options.modules)])
        }
        guard simulate else { return LintContext(files: [LintFile(source: source, modules: options.modules)], edge: options.edge) }
        var fs = SiteFileSystem(root: options.serverDocroot)
        fs.addFile("/index.html")
        fs.addAccessFile("/", file: source)
        let host = options.host ?? "example.com"
        let site = Site(serverName: host, aliases: options.aliases, documentRoot: options.serverDocroot, files: fs,
                        modules: options.modules)
        // The site's only .htaccess is this file: lint reads the site's reading of it.
        let file = LintFile(source: source, modules: options.modules, config: site.accessConfigs.values.first)
        // The source lets a rule re-simulate a changed copy of the file (HT301's %{ENV:HTTPS}).
        let rebuild = SiteSource(serverName: host, aliases: options.aliases, documentRoot: options.serverDocroot, files: fs,
                                 modules: options.modules)
        // `--edge alb|nginx|…` names a layer of its own kind (health checks, proxy headers).
        let layers = options.layers ?? (options.edge.mode == .none ? [] : [options.edge])
        let simulator = ChainSimulator(origin: Origin(site: site), layers: layers, source: rebuild)
        return LintContext(files: [file], simulator: simulator, edge: simulator.edge, hosts: [host] + options.aliases)
    }

    /// The whole document root as one site; `defaultHost` names it when neither `--host` nor the
    /// site file does (default `example.com`).
    static func siteContext(_ options: SiteOptions, io: CLIEnvironment, simulate: Bool,
                            defaultHost: String? = nil) throws -> LintContext {
        let simulator = try options.simulator(defaultHost: options.host ?? defaultHost ?? "example.com", io: io)
        let site = simulator.origin.site
        let root = site.documentRoot
        var files: [LintFile] = []
        var unread: [LintFile] = []
        // The files Apache opens (the vhost's AccessFileName), paired with the site's reading of
        // each; one the site did not read (`AllowOverride None`) has no effect and is not linted
        // (HT223 says so).
        let names = site.vhost.block.server?.accessFileNames
        var listed = Set<String>()
        for (dir, source) in Site.accessFiles(site.files, names: names).sorted(by: { $0.0 < $1.0 }) {
            // The file system can name the document root twice (`root` and `root/`); a file is linted once.
            guard listed.insert(source.path).inserted else { continue }
            let url = dir == root + "/" ? "/" : String(dir.dropFirst(root.count))
            if let config = site.accessConfig(dir) {
                files.append(LintFile(source: source, directory: url, modules: site.modules, config: config))
            } else if !site.allowedOverrides(forDirectory: dir).readsFiles {
                unread.append(LintFile(source: source, directory: url, modules: site.modules))
            }
        }
        if let vhost = options.vhost, let source = site.vhost.path == vhost ? try? SourceFile(path: vhost, bytes: io.read(vhost)) : nil {
            // The site read one `<VirtualHost>` of the file (for port 80): lint reads all of it.
            let whole = site.vhost.virtualHosts.isEmpty ? site.vhost : nil
            files.append(LintFile(source: source, context: .server, modules: site.modules, config: whole))
        }
        // The edge comes from the simulator, which knows layers given in a --site file too.
        // The site's names first, then those only other virtual hosts of the file answer to.
        var hosts: [String] = []
        var seen = Set<String>()
        for s in [site] + (simulator.virtualHosts?.all.map(\.site) ?? []) {
            for name in [s.serverName.contains("://") ? s.canonicalHost : s.serverName] + s.serverAliases
            where seen.insert(name.lowercased()).inserted {
                hosts.append(name)
            }
        }
        var context = LintContext(files: files, simulator: simulate ? simulator : nil, edge: simulator.edge, hosts: hosts)
        // Static rules read the site's files and virtual host without simulation too (HT224, HT201).
        if !simulate { context.site = site }
        context.unreadAccessFiles = unread
        // Without a configuration file, findings the layers or mod_dir make alone (a loop with the
        // browser's HSTS, a DirectorySlash downgrade behind a TLS-terminating edge) point at the
        // site file, or at the document root.
        if files.isEmpty {
            if let path = options.siteFile, let bytes = try? io.read(path) {
                context.anchor = SourceFile(path: path, bytes: bytes)
            } else {
                context.anchor = SourceFile(path: options.docroot.hasSuffix("/") ? options.docroot : options.docroot + "/", text: "")
            }
        }
        // Pages, style sheets and wp-config.php for the content rules (HT5xx, HT310, HT311).
        context.content = SiteContent.documentRoot(SiteContent.documentRootPath(of: context) ?? options.docroot, io: io)
        return context
    }

    /// Settings from `.htlint.yml` turned into arguments that explicit flags override.
    static func configArguments(_ explicit: String?, io: CLIEnvironment) throws -> [String]? {
        let path = explicit ?? ".htlint.yml"
        let bytes: [UInt8]
        do { bytes = try io.read(path) } catch {
            if explicit != nil { throw error }
            return nil
        }
        let yaml: YAMLValue
        do { yaml = try parseYAML(String(decoding: bytes, as: UTF8.self)) } catch {
            throw CLIError.usage("\(path):\(error.line):\(error.column): \(error.message)")
        }
        var args: [String] = []
        let rules = yaml["rules"]
        for r in rules?["disable"]?.strings ?? [] { args += ["--disable", r] }
        for r in rules?["enable"]?.strings ?? [] { args += ["--enable", r] }
        for r in rules?["only"]?.strings ?? [] { args += ["--only", r] }
        if let f = yaml["fail-on"]?.string { args += ["--fail-on", f] }
        if case .mapping(let pairs, _)? = yaml["severity"] {
            for (k, v) in pairs { args += ["--severity", "\(k)=\(v.string ?? "")"] }
        }
        if let f = yaml["format"]?.string { args += ["--format", f] }
        if let site = yaml["site"] {
            for key in ["docroot", "host", "edge", "vhost", "modules", "server-docroot"] {
                if let v = site[key]?.strings { args += ["--\(key)", v.joined(separator: ",")] }
            }
            for alias in site["aliases"]?.strings ?? [] { args += ["--alias", alias] }
            if site["always-https"]?.bool == true { args.append("--always-https") }
        }
        for key in yaml.keys where !["rules", "fail-on", "format", "site", "severity"].contains(key) {
            throw CLIError.usage("\(path): unknown setting '\(key)' (expected rules, severity, fail-on, format, site)")
        }
        return args
    }
}
