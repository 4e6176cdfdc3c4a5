import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
import HtlintSyntax

/// One configuration file being linted. Immutable: the derived lists below are built once,
/// because every rule reads them (W3's 100,000 rules were flattened again for each rule).
public struct LintFile: Sendable {
    public let source: SourceFile
    public let tree: SyntaxTree
    public let config: ConfigFile
    /// URL-path of the directory the file governs (`/`, `/blog/`); nil for server configuration.
    public let directory: String?
    public let context: ConfigContext
    /// The modules the file was read with (which `<IfModule>` sections count).
    public let modules: ModuleSet
    /// Every rewrite configuration of the file: top level, `<Files>` and `<If>` branches.
    public let rewriteBlocks: [RewriteSettings]
    /// Every `RewriteRule` of the file in order.
    public let rules: [RewriteRule]
    /// Every `Redirect*` of the file.
    public let redirects: [AliasRedirect]
    /// All directive nodes, depth-first.
    public let directives: [DirectiveNode]

    /// `config`: the file as the simulated site already read it (same source, context and
    /// modules), so a 100,000-rule file is not read — nor its patterns compiled — twice.
    public init(source: SourceFile, context: ConfigContext = .htaccess, directory: String? = "/",
                modules: ModuleSet = .standard, config: ConfigFile? = nil) {
        self.source = source
        let tree = Parser.parse(source, context: context)
        self.tree = tree
        let config = config ?? ConfigReader.read(tree: tree, context: context, modules: modules)
        self.config = config
        self.directory = context == .htaccess ? directory : nil
        self.context = context
        self.modules = modules
        var blocks: [RewriteSettings] = []
        var redirects: [AliasRedirect] = []
        func visit(_ b: ConfigBlock) {
            if let r = b.rewrite { blocks.append(r) }
            redirects += b.redirects
            for f in b.files { visit(f.block) }
            for chain in b.ifChains { for branch in chain.branches { visit(branch.block) } }
        }
        visit(config.block)
        self.rewriteBlocks = blocks
        self.rules = blocks.flatMap(\.rules)
        self.redirects = redirects
        // Counted first: grown by doubling, a 100,000-directive list briefly held twice its size.
        func count(_ nodes: [ConfigNode]) -> Int {
            nodes.reduce(0) { n, node in
                switch node {
                case .directive: n + 1
                case .section(let s): n + count(s.children)
                case .comment: n
                }
            }
        }
        var directives: [DirectiveNode] = []
        directives.reserveCapacity(count(tree.nodes))
        func visit(_ nodes: [ConfigNode]) {
            for n in nodes {
                switch n {
                case .directive(let d): directives.append(d)
                case .section(let s): visit(s.children)
                case .comment: break
                }
            }
        }
        visit(tree.nodes)
        self.directives = directives
    }

    /// Text of a range of this file.
    public func text(_ r: SourceRange) -> String { source.text(r.start..<r.end) }

    /// Where `needle` first occurs within `r`'s text (a `$2` in a substitution, say).
    func range(of needle: String, within r: SourceRange) -> SourceRange? {
        let text = text(r)
        guard let at = text.utf8.firstRange(of: needle.utf8) else { return nil }
        let start = r.start + text.utf8.distance(from: text.utf8.startIndex, to: at.lowerBound)
        return SourceRange(file: r.file, start: start, end: start + needle.utf8.count)
    }
}

/// What rules see: the files, and the site and layers when the linter knows them.
public struct LintContext: Sendable {
    public var files: [LintFile]
    /// The simulated site (document root with all files), for simulation-backed rules.
    public var simulator: ChainSimulator?
    public var edge: Edge
    /// ServerName and aliases.
    public var hosts: [String]
    /// Simulated probe requests, computed on first use and shared by the rules.
    let probeCache = ProbeCache()
    /// The document root's pages, style sheets and `wp-config.php`, for content rules (HT5xx,
    /// WordPress); empty unless the caller knows the files.
    public var content: SiteContent = .empty
    /// Mixed-content findings of all pages, computed on first use and shared by the HT5xx rules.
    let contentCache = ContentAnalysisCache()

    /// Access files Apache never opens (`AllowOverride None` for their directory): no rule reads
    /// their directives; HT223 says they are not read.
    public var unreadAccessFiles: [LintFile] = []

    /// Where a finding no directive produced (a loop or downgrade made by a layer, mod_dir's
    /// slash redirect) is reported when the site has no configuration file to point at: the
    /// `--site` file, say. Nil when unknown; such findings are then dropped.
    public var anchor: SourceFile?

    /// The site (its files, virtual host and settings) when the linter knows it, with or without
    /// simulation: `lint --no-simulation` leaves `simulator` nil but still reads the document root,
    /// so static rules that ask about the site's files or its virtual host (HT224's directories,
    /// HT201's `RewriteEngine` from the vhost) read it here.
    public var site: Site? {
        get { staticSite ?? simulator?.origin.site }
        set { staticSite = newValue }
    }
    private var staticSite: Site?

    /// The probe set's chains (empty without a simulator).
    public var probes: [ProbeResult] { probeCache.results(self) }

    /// The probes with GET, then those with another method that loop or recurse where the same
    /// URL with GET does not: what the loop rules (HT301, HT302) read.
    public var loopProbes: [ProbeResult] { probes + probeCache.methodResults(self) }

    /// The layers in front of Apache as findings name them: the `--edge` name for a Cloudflare
    /// mode, otherwise the layers themselves (`nginx`, `CloudFront (…) → load balancer (ALB)`)
    /// rather than the generic `proxy`.
    public var edgeName: String {
        guard edge.mode == .terminatingProxy, let layers = simulator?.layers, !layers.isEmpty else { return edge.mode.rawValue }
        return layers.map(\.label).joined(separator: " → ")
    }

    /// The position of a finding no directive produced: the start of the server configuration,
    /// else of the first `.htaccess`, else of the `anchor`.
    public var fallbackRange: SourceRange? {
        (files.first { $0.context == .server } ?? files.first).map { $0.source.range(0, 0) } ?? anchor?.range(0, 0)
    }

    public init(files: [LintFile], simulator: ChainSimulator? = nil, edge: Edge = Edge(mode: .none), hosts: [String] = []) {
        self.files = files
        self.simulator = simulator
        self.edge = edge
        self.hosts = hosts
    }

    /// A context for one `.htaccess` at the document root of an in-memory site with an
    /// `index.html`, as rule examples and `htlint lint FILE` use it.
    /// With `parent`, `text` is the `.htaccess` of `/sub/` and `parent` the root's.
    /// `pages` are further files of the site with their text, by URL-path (`/index.html`,
    /// `/wp-config.php`): Apache serves them and content rules read them. `vhost` is the
    /// virtual host's configuration (`${DOCROOT}` stands for the document root). `layers`, when
    /// given, replace `edge` (a load balancer, CloudFront, nginx…).
    public init(htaccess text: String, path: String = ".htaccess", parent: String? = nil, edge: Edge = Edge(mode: .none),
                layers: [any Layer]? = nil, host: String = "example.com", aliases: [String] = ["www.example.com"],
                extraFiles: [String] = [], pages: [String: String] = [:], vhost: String? = nil) {
        let source = SourceFile(path: parent == nil ? path : "sub/" + path, text: text)
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        for f in extraFiles { fs.addFile(f) }
        for (page, body) in pages { fs.addFile(page.hasPrefix("/") ? page : "/" + page, size: max(1, body.utf8.count)) }
        var files: [LintFile] = []
        if let parent {
            let root = SourceFile(path: path, text: parent)
            fs.addAccessFile("/", file: root)
            fs.addFile("/sub/index.html")
            fs.addAccessFile("/sub", file: source)
            files = [LintFile(source: root), LintFile(source: source, directory: "/sub/")]
        } else {
            fs.addAccessFile("/", file: source)
            files = [LintFile(source: source)]
        }
        let vhostLines = vhost.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
        let site = Site(serverName: host, aliases: aliases, files: fs, vhostLines: vhostLines)
        // The source lets a rule re-simulate a changed copy of the site (HT301's %{ENV:HTTPS}).
        let siteSource = SiteSource(serverName: host, aliases: aliases, files: fs, vhostLines: vhostLines)
        let simulator = ChainSimulator(origin: Origin(site: site), layers: layers ?? (edge.mode == .none ? [] : [edge]), source: siteSource)
        // A file the site does not open (`AllowOverride None` in `vhost`) is not linted, as in `htlint lint --vhost`.
        let (read, unread) = files.reduce(into: ([LintFile](), [LintFile]())) { out, file in
            let opened = site.allowedOverrides(forDirectory: SiteFileSystem.normalize(site.mountedRoot + (file.directory ?? "/"))).readsFiles
            if opened { out.0.append(file) } else { out.1.append(file) }
        }
        self.init(files: read, simulator: simulator, edge: layers == nil ? edge : simulator.edge, hosts: [host] + aliases)
        unreadAccessFiles = unread
        if !pages.isEmpty { content = SiteContent(files: pages) }
    }

    /// Finds the file containing a range.
    public func file(containing range: SourceRange) -> LintFile? {
        files.first { $0.source.path == range.file }
    }

    /// The `RewriteRule` written at `range` (a fired directive of the simulation), nil for
    /// another directive.
    public func rewriteRule(at range: SourceRange) -> RewriteRule? {
        file(containing: range)?.rules.first { $0.range == range }
    }
}
