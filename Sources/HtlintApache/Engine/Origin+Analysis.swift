/// The per-directory configuration a request for one directory runs with, after the directory
/// walk has merged every `.htaccess` from the document root down (apache-semantics §3, §4.4).
/// Read-only: for analyses of the compiled rule graph (`htlint graph`).
public struct DirectoryConfiguration: Sendable {
    /// The directory asked about (filesystem path, no trailing slash).
    public let directory: String
    /// The effective mod_rewrite configuration, nil when no object on the way holds a
    /// mod_rewrite directive.
    public let rewrite: Rewrite?
    /// `DirectoryIndex` in effect.
    public let directoryIndex: [String]
    /// `FallbackResource` in effect.
    public let fallbackResource: String?
    /// `Options FollowSymLinks` or `SymLinksIfOwnerMatch` is on (per-directory rewriting needs it).
    public let allowsRewrite: Bool

    /// The mod_rewrite part.
    public struct Rewrite: Sendable {
        /// D: the directory of the most specific object holding a mod_rewrite directive, with a
        /// trailing slash (the prefix stripped from the subject of per-directory rules).
        public let directory: String
        /// `RewriteEngine` in effect.
        public let engine: Bool
        /// Lower-cased `RewriteOptions` words.
        public let options: Set<String>
        /// `RewriteBase` in effect.
        public let base: String?
        /// The merged rule list as the engine runs it.
        public let ruleSet: CompiledRuleSet
    }
}

extension Origin {
    /// The configuration requests for files in `directory` (a filesystem path under the
    /// document root) are processed with; the same cached walk the engine uses.
    public func configuration(forDirectory directory: String) -> DirectoryConfiguration {
        let walk = directoryWalk(directory)
        let config = walk.config
        let rewrite = config.rewrite.map {
            DirectoryConfiguration.Rewrite(directory: $0.directory, engine: $0.engine, options: $0.options, base: $0.base,
                                           ruleSet: graph.ruleSet($0))
        }
        return DirectoryConfiguration(directory: directory, rewrite: rewrite, directoryIndex: config.directoryIndex,
                                      fallbackResource: config.fallbackResource,
                                      allowsRewrite: config.options.contains("followsymlinks")
                                          || config.options.contains("symlinksifownermatch"))
    }

    /// The virtual host's own (server-context) rule set, run in translate_name.
    public var serverRuleSet: CompiledRuleSet { graph.server }
}
