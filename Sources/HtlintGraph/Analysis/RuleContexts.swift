import HtlintApache
import HtlintDiagnostics

/// One effective rule set of the site: the server context, or the merged rules of a directory
/// (after `.htaccess` inheritance), with the URL-paths whose requests run it.
final class RuleContext: @unchecked Sendable {
    /// `server`, or the URL-path of the directory (`/`, `/blog/`).
    let id: String
    let isServer: Bool
    /// D, the prefix stripped from per-directory subjects (filesystem path with `/`).
    let directory: String
    /// URL-path of D when it lies under the document root (`/blog/`).
    let urlPrefix: String
    let base: String?
    let options: Set<String>
    let ruleSet: CompiledRuleSet
    /// Absolute URL-paths whose requests run these rules.
    var applies: DFA = .nothing

    init(id: String, isServer: Bool, directory: String, urlPrefix: String, base: String?, options: Set<String>,
         ruleSet: CompiledRuleSet) {
        self.id = id
        self.isServer = isServer
        self.directory = directory
        self.urlPrefix = urlPrefix
        self.base = base
        self.options = options
        self.ruleSet = ruleSet
    }

    /// The files the rules come from (for labels).
    var files: [String] {
        var seen = Set<String>()
        return ruleSet.rules.map(\.range.file).filter { seen.insert($0).inserted }
    }
}

/// A rule as it occurs in one context (inherited rules occur in several).
struct RuleOccurrence: Hashable, Sendable {
    var context: Int
    var index: Int
}

/// The contexts of a site, found by walking every directory that holds configuration.
struct RuleContexts: @unchecked Sendable {
    var contexts: [RuleContext] = []

    init(topology: Topology) {
        let origin = topology.origin
        let site = topology.site
        let root = site.documentRoot
        let absolute = URLShapes.language(.absolutePath)
        if site.vhost.block.rewrite?.engine == true, !origin.serverRuleSet.rules.isEmpty {
            let server = RuleContext(id: "server", isServer: true, directory: "", urlPrefix: "/", base: nil, options: [],
                                     ruleSet: origin.serverRuleSet)
            server.applies = absolute
            contexts.append(server)
        }
        // Every directory with its own configuration: .htaccess files and <Directory> blocks.
        var directories = Set([root])
        for dir in site.accessConfigs.keys {
            let d = dir.hasSuffix("/") && dir != "/" ? String(dir.dropLast()) : dir
            if d == root || d.hasPrefix(root + "/") { directories.insert(d) }
        }
        for (path, _) in site.vhost.block.server?.directories ?? [] {
            var p = path.replacingOccurrences(of: "${DOCROOT}", with: root)
            while p.count > 1, p.hasSuffix("/") { p.removeLast() }
            if p.hasPrefix(root + "/"), site.files.isDirectory(p) { directories.insert(p) }
        }
        var seen = Set<String>()
        for dir in directories.sorted() {
            let config = origin.configuration(forDirectory: dir)
            guard let rw = config.rewrite, rw.engine, config.allowsRewrite, !rw.ruleSet.rules.isEmpty,
                  seen.insert(rw.directory).inserted else { continue }
            let urlPrefix: String
            if rw.directory == root + "/" {
                urlPrefix = "/"
            } else if rw.directory.hasPrefix(root + "/") {
                urlPrefix = String(rw.directory.dropFirst(root.count))
            } else {
                continue  // rules of a <Directory> above the document root: subjects not modelled
            }
            contexts.append(RuleContext(id: urlPrefix, isServer: false, directory: rw.directory, urlPrefix: urlPrefix,
                                        base: rw.base, options: rw.options, ruleSet: rw.ruleSet))
        }
        // A directory's rules run for the paths under it that no deeper context claims; the
        // directory itself without its slash runs none (mod_dir redirects it first).
        let perDirectory = contexts.filter { !$0.isServer }
        for c in perDirectory {
            var lang = DFA.literal(c.urlPrefix).concatenating(DFA.all()) ?? DFA.all()
            if c.urlPrefix != "/" { lang = lang.subtracting(DFA.literal(String(c.urlPrefix.dropLast()))) ?? lang }
            for deeper in perDirectory where deeper !== c && deeper.urlPrefix.hasPrefix(c.urlPrefix) {
                let claimed = (DFA.literal(deeper.urlPrefix).concatenating(DFA.all()) ?? .nothing)
                    .union(DFA.literal(String(deeper.urlPrefix.dropLast()))) ?? .nothing
                lang = lang.subtracting(claimed) ?? lang
            }
            c.applies = lang.intersection(absolute) ?? lang
        }
    }

    var occurrences: [RuleOccurrence] {
        contexts.enumerated().flatMap { (c, ctx) in ctx.ruleSet.rules.indices.map { RuleOccurrence(context: c, index: $0) } }
    }

    func rule(_ o: RuleOccurrence) -> RewriteRule { contexts[o.context].ruleSet.rules[o.index] }

    /// Contexts whose rules see requests for paths in `paths`.
    func contexts(seeing paths: DFA, serverToo: Bool) -> [Int] {
        contexts.indices.filter { i in
            let c = contexts[i]
            if c.isServer { return serverToo }
            return !(c.applies.intersection(paths)?.isEmpty ?? false)
        }
    }
}
