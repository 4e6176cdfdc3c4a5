import HtlintDiagnostics
import HtlintRegex
import HtlintSyntax

/// Turns a syntax tree into a typed `ConfigBlock`, validating each directive as Apache does when
/// it reads the file (apache-semantics §2.6–§2.8, §4.1–§4.3, §8.2, §13).
public struct ConfigReader {
    public var modules: ModuleSet
    public var defines: Set<String>
    /// `Define NAME value` variables, for `${NAME}` (read order matters only for `<IfDefine>`).
    public var variables: [String: String]
    /// The httpd process's environment, which `PassEnv` copies from (not `Define`'s variables).
    public var processEnvironment: [String: String]
    /// `<IfFile>`: whether an absolute path exists (the simulated site, else a fixed system list).
    public var fileExists: (String) -> Bool
    public let context: ConfigContext
    /// For `.htaccess`: what the directory's AllowOverride permits (nil: everything, as `All`).
    public var overrides: AllowedOverrides?
    private(set) var diagnostics: [Diagnostic] = []
    /// Names of the sections being read, innermost last (for "not allowed in <X> context").
    private var sectionNames: [String] = []
    private var rewriteParser = RewriteParser()
    /// Enclosing `<RequireAll/Any/None>` sections, innermost last (empty: the implicit `<RequireAny>`).
    private var authzParents: [AuthzLogic] = []
    /// Depth of per-directory sections (`<Directory>`, `<Location>`, `<Files>`, `<If>`): inside
    /// one, `Redirect` may take the one-argument form (mod_alias checks `cmd->path`).
    private var objectDepth = 0
    /// Reading for one connection: only this `<VirtualHost>` section is read (nil: none of them).
    private var selectingVirtualHost = false
    private var selectedVirtualHost: SourceRange? = nil
    /// The selected section, read once the whole main server has been (it overrides the main
    /// server wherever its lines stand in the file).
    private var deferredVirtualHost: SectionNode? = nil
    /// mod_rewrite directives read so far, in any section: httpd gives a virtual host its own
    /// mod_rewrite configuration at the first one inside it (ap_set_config_vectors).
    private var rewriteDirectivesRead = 0
    /// `ServerName` lines read so far: whether the selected section names itself.
    private var serverNamesRead = 0

    public init(context: ConfigContext, modules: ModuleSet = .standard, defines: Set<String> = [],
                variables: [String: String] = [:], processEnvironment: [String: String] = [:],
                overrides: AllowedOverrides? = nil,
                fileExists: @escaping (String) -> Bool = ConfigReader.systemFileExists) {
        self.context = context
        self.processEnvironment = processEnvironment
        self.overrides = overrides
        self.modules = modules
        self.defines = defines
        self.variables = variables
        self.fileExists = fileExists
        rewriteParser.restricted = context == .htaccess
    }

    /// `<IfFile>` without a simulated site: only the fixed list of Debian paths exists.
    public static func systemFileExists(_ path: String) -> Bool { Conditionals.systemPaths.contains(path) }

    /// Reads a whole file. `${NAME}` is replaced by `variables` and the file's own `Define`s
    /// in each line before it is tokenised (apache-semantics §2.5), keeping the ranges of the
    /// file as written; htlint collects the file's `Define`s first, so a `${NAME}` above its
    /// `Define` is expanded too (Apache would leave it).
    /// With `virtualHost`, a server configuration's `<VirtualHost>` sections are read as Apache
    /// reads them for that connection: the one that answers it, none of the others; the lines
    /// outside every section are then the main server's, whose `DirectoryIndex` lines add to
    /// `serverDirectoryIndex` (the list the server configuration set before, Debian's dir.conf).
    public static func read(_ file: SourceFile, context: ConfigContext, modules: ModuleSet = .standard,
                            defines: Set<String> = [], variables: [String: String] = [:],
                            processEnvironment: [String: String] = [:], overrides: AllowedOverrides? = nil,
                            fileExists: @escaping (String) -> Bool = ConfigReader.systemFileExists,
                            virtualHost: VirtualHostChoice? = nil, serverDirectoryIndex: [String]? = nil) -> ConfigFile {
        func once(_ expand: ((LogicalLine) -> LogicalLine?)?) -> ConfigFile {
            read(tree: Parser.parse(file, context: context, expand: expand), context: context, modules: modules,
                 defines: defines, variables: variables, processEnvironment: processEnvironment, overrides: overrides,
                 fileExists: fileExists, virtualHost: virtualHost, serverDirectoryIndex: serverDirectoryIndex)
        }
        let first = once(nil)
        // A byte scan: a copy of a large file as a String (and Foundation's search) cost more
        // than reading it.
        let b = file.bytes
        guard !first.variables.isEmpty, b.count <= SourceFile.sizeLimit,
              b.indices.dropLast().contains(where: { b[$0] == UInt8(ascii: "$") && b[$0 + 1] == UInt8(ascii: "{") }) else { return first }
        let known = first.variables
        return once { Conditionals.expandVariables(in: $0, known) }
    }

    /// Reads an already parsed file (callers that keep the tree parse only once).
    public static func read(tree: SyntaxTree, context: ConfigContext, modules: ModuleSet = .standard,
                            defines: Set<String> = [], variables: [String: String] = [:],
                            processEnvironment: [String: String] = [:], overrides: AllowedOverrides? = nil,
                            fileExists: @escaping (String) -> Bool = ConfigReader.systemFileExists,
                            virtualHost: VirtualHostChoice? = nil, serverDirectoryIndex: [String]? = nil) -> ConfigFile {
        let file = tree.file
        var reader = ConfigReader(context: context, modules: modules, defines: defines, variables: variables,
                                  processEnvironment: processEnvironment, overrides: overrides, fileExists: fileExists)
        var sectionDefines = defines
        let virtualHosts = context == .server ? VirtualHosts.sections(in: tree.nodes, defines: &sectionDefines) {
            ConfigReader.conditionHolds($0, modules: modules, defines: $1, fileExists: fileExists)
        } : []
        if let virtualHost, !virtualHosts.isEmpty {
            reader.selectingVirtualHost = true
            reader.selectedVirtualHost = VirtualHosts.select(virtualHost, among: virtualHosts)?.openRange
        }
        var block = ConfigBlock()
        if context == .server { block.server = ServerSettings() }
        // The main server's DirectoryIndex object already holds the server's list: add_index
        // appends to it (a section's own list replaces it).
        if reader.selectingVirtualHost { block.directoryIndex = serverDirectoryIndex }
        var pending: [RewriteCondition] = []
        reader.read(tree.nodes, into: &block, pendingConditions: &pending, methods: nil, inSection: nil)
        reader.readDeferredVirtualHost(into: &block)
        let all = (tree.diagnostics + reader.diagnostics).sorted { $0.range.start < $1.range.start }
        return ConfigFile(path: file.path, block: block, diagnostics: all, defines: reader.defines,
                          variables: reader.variables, virtualHosts: virtualHosts)
    }

    /// Reads a section that is a configuration object of its own (`<Files>`, `<If>`,
    /// `<Directory>`): its `Require` lines start a new implicit `<RequireAny>`.
    private mutating func readObject(_ nodes: [ConfigNode], into block: inout ConfigBlock, methods: Set<String>?,
                                     inSection: String?) {
        let saved = authzParents
        authzParents = []
        var pending: [RewriteCondition] = []
        objectDepth += 1
        read(nodes, into: &block, pendingConditions: &pending, methods: methods, inSection: inSection)
        objectDepth -= 1
        authzParents = saved
    }

    /// The expression of `Require [not] expr …`: the rest of the line, without surrounding
    /// double quotes (mod_authz_core strips one pair), parsed with ap_expr.
    private mutating func requireExpression(_ d: DirectiveNode, negated: Bool) -> ApExpression? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var text = Substring(d.rawArguments).drop(while: blank)
        while let last = text.last, blank(last) { text = text.dropLast() }
        for word in negated ? ["not", "expr"] : ["expr"] {
            text = text.dropFirst(word.count).drop(while: blank)
        }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        do { return try ApExpression(parsing: String(text), restricted: context == .htaccess) } catch {
            self.error(ConfigCode.badExpression, "Cannot parse expression in require line: \(error.message)", d.argumentsRange)
            return nil
        }
    }

    private mutating func error(_ code: String, _ message: String, _ range: SourceRange) {
        diagnostics.append(Diagnostic(code: code, severity: .error, message: message, range: range))
    }

    private mutating func warning(_ code: String, _ message: String, _ range: SourceRange) {
        diagnostics.append(Diagnostic(code: code, severity: .warning, message: message, range: range))
    }

    mutating func read(_ nodes: [ConfigNode], into block: inout ConfigBlock, pendingConditions: inout [RewriteCondition],
                       methods: Set<String>?, inSection: String?) {
        var lastIf: Int? = nil   // index into block.ifChains that an <ElseIf>/<Else> may extend
        for node in nodes {
            switch node {
            case .comment: continue
            case .directive(let d):
                // core's <ElseIf>/<Else> extend the last <If> chain of the same scope (its
                // sec_if list): directives and other sections in between do not end it.
                directive(d, into: &block, pending: &pendingConditions, methods: methods, inSection: inSection)
            case .section(let s):
                section(s, into: &block, pending: &pendingConditions, methods: methods, lastIf: &lastIf)
            }
        }
    }

    // MARK: Sections

    /// Whether Apache reads the contents of a conditional section (`<IfModule>`, `<IfDefine>`,
    /// `<IfVersion>`, `<IfFile>`, `<IfDirective>`, `<IfSection>`, with `!` negation); nil for
    /// any other section. Shared with rules that walk the syntax tree.
    public static func conditionHolds(_ s: SectionNode, modules: ModuleSet, defines: Set<String> = [],
                                      fileExists: (String) -> Bool = ConfigReader.systemFileExists) -> Bool? {
        func check(_ test: (String) -> Bool) -> Bool {
            var a = s.arguments.first?.value ?? s.argumentText
            var negate = false
            if a.hasPrefix("!") { negate = true; a.removeFirst() }
            return test(a) != negate
        }
        switch s.key {
        case "ifmodule": return check { modules.ifModuleTest($0) }
        case "ifdefine": return check { defines.contains($0) }
        // An invalid <IfVersion> stops Apache; htlint reads it as false.
        case "ifversion": return Conditionals.versionHolds(s.arguments.map(\.value)) ?? false
        case "iffile": return check { fileExists(Conditionals.absolutePath($0)) }
        case "ifdirective": return check { DirectiveCatalog.info($0).map { modules.contains($0.module) } ?? false }
        case "ifsection": return check { Conditionals.sectionExists($0, modules: modules) }
        default: return nil
        }
    }

    private mutating func section(_ s: SectionNode, into block: inout ConfigBlock, pending: inout [RewriteCondition],
                                  methods: Set<String>?, lastIf: inout Int?) {
        let key = s.key
        let arg = s.argumentText
        func requireArgument() -> Bool {
            if arg.isEmpty || arg == ">" {
                error(ConfigCode.badSection, "<\(s.name)> directive requires additional arguments", s.openRange)
                return false
            }
            return true
        }
        let truth = ConfigReader.conditionHolds(s, modules: modules, defines: defines, fileExists: fileExists)
        guard overrideAllows(sectionCategory(key, conditional: truth != nil), name: "<" + s.name, s.nameRange) else { return }
        if let category = sectionCategory(key, conditional: false).first, category != .any {
            guard serverLevelAllows(category, name: "<" + s.name, s.nameRange) else { return }
        }
        // Conditional sections are read inline (EXEC_ON_READ): they are nobody's parent context.
        if truth == nil { sectionNames.append(s.name) }
        defer { if truth == nil { sectionNames.removeLast() } }
        if let truth {
            guard requireArgument() else { return }
            if truth {
                read(s.children, into: &block, pendingConditions: &pending, methods: methods, inSection: nil)
            } else if s.closeRange == nil {
                error(ConfigCode.badSection, "Expected </\(s.name)> before end of configuration", s.openRange)
            }
            return
        }
        switch key {
        case "files", "filesmatch":
            guard requireArgument(), checkClosed(s) else { return }
            var words = s.arguments.map(\.value)
            var isRegex = key == "filesmatch"
            if !isRegex, words.first == "~" { isRegex = true; words.removeFirst() }
            let pattern = words.first ?? arg
            let matcher: FilesBlock.Matcher
            if isRegex {
                do { matcher = .regex(try Regex(pattern)) } catch {
                    self.error(ConfigCode.badRegex, "Regex could not be compiled: \(error.message)", s.argumentsRange)
                    return
                }
            } else {
                matcher = .wildcard(pattern)
            }
            var inner = ConfigBlock()
            readObject(s.children, into: &inner, methods: methods, inSection: s.name)
            block.files.append(FilesBlock(matcher: matcher, block: inner))
        case "if", "elseif", "else":
            guard checkClosed(s) else { return }
            if key != "else" { guard requireArgument() else { return } }
            if key == "else", !(arg.isEmpty || arg == ">") {
                error(ConfigCode.badSection, "<Else> does not take an argument", s.argumentsRange)
                return
            }
            var condition: ApExpression? = nil
            if key != "else" {
                var text = arg
                if let w = s.arguments.first, s.arguments.count == 1 { text = w.value }
                do { condition = try ApExpression(parsing: text, restricted: context == .htaccess) } catch {
                    self.error(ConfigCode.badExpression, "Cannot parse condition clause: \(error.message)", s.argumentsRange)
                    return
                }
            }
            var inner = ConfigBlock()
            readObject(s.children, into: &inner, methods: methods, inSection: "If")
            if key == "if" {
                block.ifChains.append(IfChain(branches: [(condition, inner, s.range)]))
                lastIf = block.ifChains.count - 1
            } else if let index = lastIf {
                block.ifChains[index].branches.append((condition, inner, s.range))
                if key == "else" { lastIf = nil }
            } else {
                error(ConfigCode.badSection,
                      "<Else> or <ElseIf> section without previous <If> or <ElseIf> section in same scope", s.openRange)
            }
        case "limit", "limitexcept":
            guard requireArgument(), checkClosed(s) else { return }
            // limit_section looks each name up as written (case matters): TRACE is TraceEnable's
            // business, and an unknown name can only be registered by the server configuration.
            for w in s.arguments {
                if w.value == "TRACE", key == "limit" {
                    error(ConfigCode.badArguments, "TRACE cannot be controlled by <Limit>, see TraceEnable", w.range)
                    return
                }
                if context == .htaccess, !Origin.registeredMethods.contains(w.value) {
                    error(ConfigCode.badArguments, "Could not register method '\(w.value)' for \(key == "limit" ? "<Limit" : "<LimitExcept") from .htaccess configuration", w.range)
                    return
                }
            }
            var set = Set(s.arguments.map(\.value))
            // "If GET is used, it will also restrict HEAD requests" (core docs, <Limit>): both are
            // method number M_GET, so `<Limit HEAD>` restricts GET as well.
            if set.contains("GET") || set.contains("HEAD") { set.formUnion(["GET", "HEAD"]) }
            if key == "limitexcept" {
                // Every other method number: WebDAV's MOVE and the unknown methods' M_INVALID too.
                set = Origin.registeredMethods.union([Origin.unknownMethod]).subtracting(set)
            }
            read(s.children, into: &block, pendingConditions: &pending, methods: set, inSection: nil)
        case "requireall", "requireany", "requirenone":
            guard checkClosed(s) else { return }
            let logic: AuthzLogic = key == "requireall" ? .all : key == "requireany" ? .any : .none
            let parent = authzParents.last ?? .any
            // A negated container can only deny, which changes nothing where one grant is enough.
            if logic == .none, parent == .any {
                error(ConfigCode.badArguments, "<RequireNone> directive has no effect in <RequireAny> directive", s.openRange)
                return
            }
            // Other directives inside stay in this block; the authorization lines become children.
            let before = block.access.count
            authzParents.append(logic)
            read(s.children, into: &block, pendingConditions: &pending, methods: methods, inSection: nil)
            authzParents.removeLast()
            // Only authorization lines belong to the container; `Order`/`Allow`/`Deny` read
            // inside it stay the block's own.
            let inside = block.access[before...]
            let children = inside.filter(\.isAuthorization)
            let others = inside.filter { !$0.isAuthorization }
            block.access.removeSubrange(before...)
            block.access += others
            guard children.contains(where: \.isAuthorization) else {
                error(ConfigCode.badArguments, "<\(logic.rawValue)> directive contains no authorization directives", s.openRange)
                return
            }
            block.access.append(.requireSection(logic: logic, children: children, methods: methods))
        case "directory", "directorymatch", "location", "locationmatch", "virtualhost", "proxy", "proxymatch":
            if context == .htaccess {
                error(ConfigCode.notAllowedHere, "<\(s.name) not allowed here", s.nameRange)
                return
            }
            guard requireArgument(), checkClosed(s) else { return }
            if key == "directorymatch" || (key == "directory" && s.arguments.first?.value == "~") {
                // Regex sections merge after the whole walk, .htaccess files included, matched
                // against the walked filename (directory_walk).
                guard let matcher = locationMatcher(s, regex: key == "directorymatch"), case .regex = matcher else { return }
                var inner = ConfigBlock()
                readObject(s.children, into: &inner, methods: nil, inSection: nil)
                let pattern = s.arguments.map(\.value).last ?? ""
                let slashes = pattern.utf8.filter { $0 == UInt8(ascii: "/") }.count
                var list = block.server?.directoryMatches ?? []
                let at = list.firstIndex { m in
                    guard case .regex(let r) = m.matcher else { return false }
                    return r.pattern.utf8.filter { $0 == UInt8(ascii: "/") }.count > slashes
                } ?? list.count
                list.insert(LocationBlock(matcher: matcher, block: inner), at: at)
                block.server?.directoryMatches = list
            } else if key == "directory" {
                var inner = ConfigBlock()
                readObject(s.children, into: &inner, methods: nil, inSection: nil)
                let path = s.arguments.first?.value ?? arg
                block.server?.directories.append((path, inner))
            } else if key == "virtualhost" {
                // Apache refuses to start (recorded with `apache2 -t`).
                let enclosing = sectionNames.dropLast()
                if enclosing.contains(where: { $0.lowercased() == "virtualhost" }) {
                    error(ConfigCode.notAllowedHere, "<VirtualHost> cannot occur within <VirtualHost> section", s.nameRange)
                    return
                }
                if let scope = enclosing.last(where: { ConfigReader.directoryScopes.contains($0.lowercased()) }) {
                    error(ConfigCode.notAllowedHere, "<\(s.name) not allowed in <\(scope)> context", s.nameRange)
                    return
                }
                guard selectingVirtualHost else {
                    read(s.children, into: &block, pendingConditions: &pending, methods: nil, inSection: nil)
                    return
                }
                // Read for one connection, the sections that do not answer it have no say; the
                // one that does is merged over the main server once all of it is read.
                if s.openRange == selectedVirtualHost { deferredVirtualHost = s }
            } else if key == "location" || key == "locationmatch" {
                if let matcher = locationMatcher(s, regex: key == "locationmatch") {
                    var inner = ConfigBlock()
                    readObject(s.children, into: &inner, methods: nil, inSection: s.name)
                    block.server?.locations.append(LocationBlock(matcher: matcher, block: inner))
                }
            } else {
                warning(ConfigCode.ignored, "<\(s.name)> sections are not simulated", s.openRange)
            }
        default:
            error(ConfigCode.unknownDirective,
                  "Invalid command '<\(s.name)', perhaps misspelled or defined by a module not included in the server configuration",
                  s.nameRange)
        }
    }

    /// The selected `<VirtualHost>` section over the whole main server (Apache merges each
    /// section over the main server after reading the file, so main-server lines below a section
    /// count too): its own mod_rewrite and mod_alias lines are merged as httpd merges them.
    private mutating func readDeferredVirtualHost(into block: inout ConfigBlock) {
        guard let s = deferredVirtualHost else { return }
        let main = (rewrite: block.rewrite, redirects: block.redirects, aliases: block.server?.aliases ?? [],
                    directoryIndex: block.directoryIndex, maps: block.server?.rewriteMaps ?? [:])
        block.rewrite = nil
        block.redirects = []
        block.server?.aliases = []
        block.directoryIndex = nil
        block.server?.rewriteMaps = [:]
        var pending: [RewriteCondition] = []
        let rewriteDirectivesBefore = rewriteDirectivesRead
        let serverNamesBefore = serverNamesRead
        sectionNames.append(s.name)
        read(s.children, into: &block, pendingConditions: &pending, methods: nil, inSection: nil)
        sectionNames.removeLast()
        // Without a ServerName of its own the section keeps the main server's name and takes
        // its first address's port.
        if serverNamesRead == serverNamesBefore {
            block.server?.virtualHostAddressPort = s.arguments.first.flatMap { VirtualHosts.port(of: $0.value) }
        }
        // A mod_rewrite line in one of its `<Directory>`/`<Location>` sections is enough.
        let ownsRewriteConfig = rewriteDirectivesRead > rewriteDirectivesBefore
        // The section's `RewriteOptions`, else the main server's (config_server_merge), decide
        // whether the main server's rules and maps are inherited.
        let inheritance = ConfigReader.inheritance(block.rewrite?.options ?? main.rewrite?.options ?? [],
                                                   fromMain: main.rewrite?.options ?? [])
        let sectionMaps = block.server?.rewriteMaps ?? [:]
        block.server?.rewriteMaps = ownsRewriteConfig ? ConfigReader.mergeRewriteMaps(main: main.maps, section: sectionMaps, inheritance)
                                                      : main.maps
        block.rewrite = ConfigReader.mergeServerRewrite(main: main.rewrite,
                                                        virtualHost: block.rewrite ?? (ownsRewriteConfig ? RewriteSettings() : nil),
                                                        inheritance)
        block.redirects += main.redirects
        block.server?.aliases += main.aliases
        // dir_merge_config: the section's own list, else the main server's.
        block.directoryIndex = block.directoryIndex ?? main.directoryIndex
    }

    /// mod_rewrite's server merge (config_server_merge), seen on Apache 2.4: `RewriteEngine` and
    /// `RewriteOptions` come from the virtual host when it sets them, else from the main server;
    /// the main server's rules run in the virtual host only with `RewriteOptions Inherit` (after
    /// its own) or `InheritBefore` (before), or when the main server says `InheritDown` /
    /// `InheritDownBefore` and the section no `IgnoreInherit`. mod_alias puts the virtual host's
    /// `Redirect`/`Alias` lines before the main server's (alias_merge_server_config).
    /// A section with no mod_rewrite line at all shares the main server's configuration, for
    /// which hook_uri2file declines (`conf->server != r->server`): no server rules run there, not
    /// even inherited ones; the main server's `RewriteEngine` still is its per-directory default.
    static func mergeServerRewrite(main: RewriteSettings?, virtualHost: RewriteSettings?,
                                   _ inheritance: RuleInheritance) -> RewriteSettings? {
        guard let main else { return virtualHost }
        guard var merged = virtualHost else {
            var shared = RewriteSettings()
            shared.engine = main.engine
            shared.engineRange = main.engineRange
            shared.serverHookRuns = false
            return shared
        }
        if merged.engine == nil {
            merged.engine = main.engine
            merged.engineRange = main.engineRange
        }
        if merged.options == nil { merged.options = main.options }
        switch inheritance {
        case .after: merged.rules += main.rules
        case .before: merged.rules = main.rules + merged.rules
        case .none: break
        }
        return merged
    }

    enum RuleInheritance { case after, before, none }

    /// The `RewriteMap`s of a section with its own mod_rewrite configuration: only its own unless
    /// it inherits the main server's rules; then both, the section's map winning a shared name
    /// with `Inherit`, the main server's with `InheritBefore` (config_server_merge's overlays).
    static func mergeRewriteMaps(main: [String: RewriteMapDefinition], section: [String: RewriteMapDefinition],
                                 _ inheritance: RuleInheritance) -> [String: RewriteMapDefinition] {
        switch inheritance {
        case .after: section.merging(main) { own, _ in own }
        case .before: section.merging(main) { _, inherited in inherited }
        case .none: section
        }
    }

    /// Where the parent's rules go, in mod_rewrite's order of tests: `Inherit` before
    /// `InheritBefore`, each also asked for by the parent's `InheritDown[Before]`.
    static func inheritance(_ options: Set<String>, fromMain main: Set<String>) -> RuleInheritance {
        let downward = !options.contains("ignoreinherit")
        if options.contains("inherit") || downward && main.contains("inheritdown") { return .after }
        if options.contains("inheritbefore") || downward && main.contains("inheritdownbefore") { return .before }
        return .none
    }

    /// What a `<Location>` matches: `~ re` and `<LocationMatch>` are regexes, wildcards use fnmatch.
    private mutating func locationMatcher(_ s: SectionNode, regex: Bool) -> LocationBlock.Matcher? {
        var words = s.arguments.map(\.value)
        var isRegex = regex
        if !isRegex, words.first == "~" { isRegex = true; words.removeFirst() }
        let pattern = words.first ?? s.argumentText
        if isRegex {
            do { return .regex(try Regex(pattern)) } catch {
                self.error(ConfigCode.badRegex, "Regex could not be compiled", s.argumentsRange)
                return nil
            }
        }
        return pattern.contains(where: { "*?[".contains($0) }) ? .wildcard(pattern) : .prefix(pattern)
    }

    /// The AllowOverride class a section needs in `.htaccess` (core and mod_authz_core tables).
    private func sectionCategory(_ key: String, conditional: Bool) -> [OverrideCategory] {
        switch key {
        case "limit", "limitexcept": [.limit, .authConfig]
        case "requireall", "requireany", "requirenone": [.authConfig]
        case "files", "filesmatch", "if", "elseif", "else": [.any]
        default: conditional ? [.any] : []
        }
    }

    /// Checks a directive or section against the directory's AllowOverride / AllowOverrideList
    /// (Apache's invoke_cmd): forbidden is fatal unless `Nonfatal=Override`. Empty `categories`
    /// means not a per-directory construct (checked elsewhere).
    private mutating func overrideAllows(_ categories: [OverrideCategory], name: String, _ range: SourceRange) -> Bool {
        guard context == .htaccess, let allowed = overrides, !categories.isEmpty,
              !categories.contains(where: { allowed.permits($0, name: name) }) else { return true }
        if allowed.nonfatalOverride {
            warning(ConfigCode.ignored, "\(name) in .htaccess forbidden by AllowOverride", range)
        } else if let parent = sectionNames.last {
            error(ConfigCode.notAllowedHere, "\(name) not allowed in <\(parent)> context", range)
        } else {
            error(ConfigCode.notAllowedHere, "\(name) not allowed here", range)
        }
        return false
    }

    /// Sections that open a per-directory scope in the server configuration.
    private static let directoryScopes: Set<String> = ["directory", "directorymatch", "location", "locationmatch",
                                                        "files", "filesmatch", "if", "elseif", "else", "proxy",
                                                        "proxymatch"]

    /// Outside `<Directory>`-like sections Apache reads with `RSRC_CONF|OR_ALL` minus
    /// `OR_AUTHCFG|OR_LIMIT` (config.c ap_process_config_tree), and `ACCESS_CONF`-only
    /// directives (AllowOverride) are refused too: the server does not start. htlint reads
    /// server-context files as the inside of a `<VirtualHost>`, as Site does with vhost lines.
    private mutating func serverLevelAllows(_ category: OverrideCategory, name: String, _ range: SourceRange) -> Bool {
        guard context == .server,
              category == .authConfig || category == .limit || name == "AllowOverride" || name == "AllowOverrideList",
              !sectionNames.contains(where: { ConfigReader.directoryScopes.contains($0.lowercased()) }) else { return true }
        let parent = sectionNames.last ?? "VirtualHost"
        error(ConfigCode.notAllowedHere, "\(name) not allowed in <\(parent)> context", range)
        return false
    }

    /// Runtime sections must be closed (apache-semantics §2.7).
    private mutating func checkClosed(_ s: SectionNode) -> Bool {
        if s.closeRange == nil {
            error(ConfigCode.badSection, "<\(s.name)> was not closed.", s.openRange)
            return false
        }
        return true
    }

    // MARK: Directives

    /// `Require` providers and the module registering each. The name is looked up as written:
    /// `Require All granted` is an unknown provider (500), as is `valid-user` without mod_authz_user.
    static let authzProviders: [String: String] = [
        "all": "authz_core", "env": "authz_core", "method": "authz_core", "expr": "authz_core",
        "ip": "authz_host", "host": "authz_host", "local": "authz_host", "forward-dns": "authz_host",
        "user": "authz_user", "valid-user": "authz_user", "group": "authz_groupfile",
        "dbm-group": "authz_dbm", "dbm-file-group": "authz_dbm", "file-owner": "authz_owner", "file-group": "authz_owner",
        "dbd-group": "authz_dbd", "ssl": "ssl", "ssl-verify-client": "ssl",
    ]

    /// A directive name as Apache's error log shows it where it matters: the invisible UTF-8
    /// byte-order mark an editor put in front of the first directive.
    static func shownLikeApache(_ name: String) -> String {
        name.hasPrefix("\u{FEFF}") ? "\\xef\\xbb\\xbf" + name.dropFirst() : name
    }

    private mutating func directive(_ d: DirectiveNode, into block: inout ConfigBlock, pending: inout [RewriteCondition],
                                    methods: Set<String>?, inSection: String?) {
        guard let info = DirectiveCatalog.info(d.name), modules.contains(info.module) else {
            if context == .htaccess, overrides?.nonfatalUnknown == true {
                warning(ConfigCode.ignored, "Unknown directive \(d.name) perhaps misspelled or defined by a module not included in the server configuration",
                        d.nameRange)
                return
            }
            error(ConfigCode.unknownDirective,
                  "Invalid command '\(Self.shownLikeApache(d.name))', perhaps misspelled or defined by a module not included in the server configuration",
                  d.nameRange)
            return
        }
        if context == .htaccess, info.category == .serverOnly {
            error(ConfigCode.notAllowedHere, "\(info.name) not allowed here", d.nameRange)
            return
        }
        guard overrideAllows([info.category], name: info.name, d.nameRange) else { return }
        guard serverLevelAllows(info.category, name: info.name, d.nameRange) else { return }
        if info.module == "rewrite" { rewriteDirectivesRead += 1 }
        // RewriteRule/RewriteCond tokenise themselves; only the others need the generic words.
        let key = info.name
        let words = key == "RewriteRule" || key == "RewriteCond" ? [] : d.words
        func arity(_ range: ClosedRange<Int>, _ message: String) -> Bool {
            // Apache treats an empty first word (`""`) as a missing argument.
            if range.contains(words.count), words.first?.value.isEmpty != true { return true }
            error(ConfigCode.badArguments, message, words.isEmpty ? d.argumentsRange : words[min(words.count - 1, range.upperBound)].range)
            return false
        }
        func flag() -> Bool? {
            guard let w = words.first, ["on", "off"].contains(w.value.lowercased()) else {
                error(ConfigCode.badArguments, "\(info.name) must be On or Off", words.first?.range ?? d.argumentsRange)
                return nil
            }
            return w.value.lowercased() == "on"
        }
        switch info.name {
        case "RewriteEngine":
            guard let on = flag() else { return }
            block.rewrite = block.rewrite ?? RewriteSettings()
            block.rewrite!.engine = on
            block.rewrite!.engineRange = d.range
        case "RewriteOptions":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "RewriteOptions requires at least one argument", d.argumentsRange); return
            }
            block.rewrite = block.rewrite ?? RewriteSettings()
            let known: Set<String> = ["inherit", "inheritbefore", "inheritdown", "inheritdownbefore", "ignoreinherit",
                                      "allownoslash", "allowanyuri", "mergebase", "ignorecontextinfo",
                                      "legacyprefixdocroot", "unsafeprefixstat"]
            var set = block.rewrite!.options ?? []
            for w in words {
                let v = w.value.lowercased()
                if known.contains(v) { set.insert(v) } else if v.hasPrefix("maxredirects=") {
                    warning(ConfigCode.ignored, "RewriteOptions MaxRedirects is no longer supported and is ignored", w.range)
                } else {
                    error(ConfigCode.badArguments, "RewriteOptions: unknown option '\(w.value)'", w.range); return
                }
            }
            block.rewrite!.options = set
        case "RewriteBase":
            guard arity(1...1, "RewriteBase takes one argument, the base URL of the per-directory context") else { return }
            // Apache rejects it only where cmd->path is NULL: a `<Directory>` (even through
            // `<IfModule>`, which is read inline) is a per-directory context.
            let inDirectory = sectionNames.contains { ["directory", "directorymatch"].contains($0.lowercased()) }
            if context == .server && inSection == nil && !inDirectory {
                error(ConfigCode.notAllowedHere, "RewriteBase: only valid in per-directory config files", d.range); return
            }
            let v = words[0].value
            if v.isEmpty { error(ConfigCode.badArguments, "RewriteBase: empty URL not allowed", words[0].range); return }
            if !v.hasPrefix("/") { error(ConfigCode.badArguments, "RewriteBase: argument is not a valid URL", words[0].range); return }
            block.rewrite = block.rewrite ?? RewriteSettings()
            block.rewrite!.base = v
            block.rewrite!.baseRange = d.range
        case "RewriteCond":
            block.rewrite = block.rewrite ?? RewriteSettings()
            if let c = rewriteParser.parseCondition(d) { pending.append(c) }
            flushRewriteDiagnostics()
        case "RewriteRule":
            block.rewrite = block.rewrite ?? RewriteSettings()
            if let r = rewriteParser.parseRule(d, conditions: pending) { block.rewrite!.rules.append(r) }
            pending = []
            flushRewriteDiagnostics()
        case "Redirect", "RedirectMatch", "RedirectTemp", "RedirectPermanent":
            if let r = parseRedirect(info.name, d, words) { block.redirects.append(r) }
        case "RedirectRelative":
            guard let on = flag() else { return }
            block.redirectRelative = on
        case "DirectorySlash":
            guard let on = flag() else { return }
            block.directorySlash = on
        case "DirectoryIndexRedirect":
            guard arity(1...1, "DirectoryIndexRedirect takes one argument, On, Off, or a 3xx status code.") else { return }
            let w = words[0]
            let named = ["on": 302, "off": 0, "permanent": 301, "temp": 302, "seeother": 303]
            if let s = named[w.value.lowercased()] {
                block.directoryIndexRedirect = s
            } else if let c = w.value.utf8.first, c >= 0x30, c <= 0x39 {
                let code = atoi(w.value)
                guard (300...399).contains(code) else {
                    error(ConfigCode.badArguments, "DirectoryIndexRedirect only accepts values between 300 and 399", w.range); return
                }
                block.directoryIndexRedirect = code
            } else {
                error(ConfigCode.badArguments, "DirectoryIndexRedirect ON|OFF|permanent|temp|seeother|3xx", w.range)
            }
        case "IndexOptions":
            // Only the listing's charset changes what the simulator answers (its Content-Type).
            for w in words where w.value.lowercased().hasPrefix("charset=") {
                block.indexCharset = String(w.value.dropFirst("charset=".count))
            }
        case "DirectoryIndex":
            guard !words.isEmpty else { error(ConfigCode.badArguments, "DirectoryIndex requires at least one argument", d.argumentsRange); return }
            let names = words.map(\.value)
            // add_index appends to the list of this configuration object; `disabled` alone clears it.
            block.directoryIndex = names.count == 1 && names[0].lowercased() == "disabled"
                ? [] : (block.directoryIndex ?? []) + names
        case "FallbackResource":
            guard arity(1...1, "FallbackResource takes one argument, Set a default handler") else { return }
            block.fallbackResource = words[0].value
        case "Options":
            if let o = parseOptions(d, words) { block.options.append(o) }
        case "Header":
            if let h = parseHeader(d, words) { block.headers.append(h) }
        case "RequestHeader":
            if let h = parseHeader(d, words, request: true) { block.requestHeaders.append(h) }
        case "SetEnvIf", "SetEnvIfNoCase", "BrowserMatch", "BrowserMatchNoCase":
            parseSetEnvIf(info.name, d, words, into: &block)
        case "SetEnvIfExpr":
            parseSetEnvIfExpr(d, words, into: &block)
        case "SetEnv":
            guard arity(1...2, "SetEnv takes 1-2 arguments, an environment variable name and optional value to pass to CGI") else { return }
            block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, words[0].value) }
            block.setEnv.append((words[0].value, words.count > 1 ? words[1].value : ""))
        case "PassEnv":
            guard !words.isEmpty else { error(ConfigCode.badArguments, "PassEnv requires at least one argument, a list of environment variables to pass to CGI.", d.argumentsRange); return }
            // The process's value, copied when the line is read, into the same table as SetEnv's
            // (an undefined one is only logged, AH01506).
            for w in words {
                guard let value = processEnvironment[w.value] else { continue }
                block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, w.value) }
                block.setEnv.append((w.value, value))
            }
        case "UnsetEnv":
            guard !words.isEmpty else { error(ConfigCode.badArguments, "UnsetEnv requires at least one argument", d.argumentsRange); return }
            for w in words {
                block.unsetEnv.append(w.value)
                block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, w.value) }
            }
        case "DefaultType":
            // Deprecated and ignored, but still one argument.
            guard arity(1...1, "DefaultType takes one argument, the default media type for otherwise untyped files (DEPRECATED)") else { return }
        case "AddType", "AddCharset":
            let type = info.name == "AddType"
            guard words.count >= 2, !words[0].value.isEmpty else {
                error(ConfigCode.badArguments, type
                      ? "AddType requires at least two arguments, a mime type followed by one or more file extensions"
                      : "AddCharset requires at least two arguments, a charset (e.g., iso-2022-jp), followed by one or more file extensions",
                      d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            let value = words[0].value.lowercased()
            for w in words.dropFirst() {
                let ext = Self.mimeExtension(w.value)
                if type {
                    // RemoveType lines of this object apply after its AddType lines.
                    m.types.insert((ext, value), at: m.types.firstIndex { $0.type == nil } ?? m.types.count)
                } else {
                    m.charsets.insert((ext, value), at: m.charsets.firstIndex { $0.charset == nil } ?? m.charsets.count)
                }
            }
            block.mime = m
        case "AddHandler":
            guard words.count >= 2, !words[0].value.isEmpty else {
                error(ConfigCode.badArguments, "AddHandler requires at least two arguments, a handler name followed by one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            let handler = words[0].value.lowercased()
            for w in words.dropFirst() {
                m.handlers.insert((Self.mimeExtension(w.value), handler), at: m.handlers.firstIndex { $0.handler == nil } ?? m.handlers.count)
            }
            block.mime = m
        case "AddLanguage":
            guard words.count >= 2, !words[0].value.isEmpty else {
                error(ConfigCode.badArguments, "AddLanguage requires at least two arguments, a language (e.g., en), followed by one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            let language = words[0].value.lowercased()
            for w in words.dropFirst() {
                m.languages.insert((Self.mimeExtension(w.value), language), at: m.languages.firstIndex { $0.language == nil } ?? m.languages.count)
            }
            block.mime = m
        case "DefaultLanguage":
            guard arity(1...1, "DefaultLanguage takes one argument, language to use for documents with no other language file extension") else { return }
            var m = block.mime ?? MimeDirectives()
            m.defaultLanguage = words[0].value
            block.mime = m
        case "ForceLanguagePriority":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "ForceLanguagePriority requires at least one argument, Force LanguagePriority elections, either None, or Fallback and/or Prefer", d.argumentsRange)
                return
            }
            var prefer = false, fallback = false
            for w in words {
                switch w.value.lowercased() {
                case "none": break
                case "prefer": prefer = true
                case "fallback": fallback = true
                default: error(ConfigCode.badArguments, "Invalid ForceLanguagePriority option \(w.value)", w.range); return
                }
            }
            var m = block.mime ?? MimeDirectives()
            m.forceLanguagePriority = (prefer, fallback)
            block.mime = m
        case "RemoveLanguage":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "RemoveLanguage requires at least one argument, one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            for w in words { m.languages.append((Self.mimeExtension(w.value), nil)) }
            block.mime = m
        case "LanguagePriority":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "LanguagePriority requires at least one argument, space-delimited list of MIME language abbreviations", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            m.languagePriority = (m.languagePriority ?? []) + words.map(\.value)
            block.mime = m
        case "RemoveHandler":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "RemoveHandler requires at least one argument, one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            for w in words { m.handlers.append((Self.mimeExtension(w.value), nil)) }
            block.mime = m
        case "SetHandler":
            guard arity(1...1, "SetHandler takes one argument, a handler name that overrides any other configured handler") else { return }
            var m = block.mime ?? MimeDirectives()
            m.setHandler = words[0].value.lowercased()
            block.mime = m
        case "RemoveType", "RemoveCharset":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "\(info.name) requires at least one argument, one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            for w in words {
                if info.name == "RemoveType" { m.types.append((Self.mimeExtension(w.value), nil)) }
                else { m.charsets.append((Self.mimeExtension(w.value), nil)) }
            }
            block.mime = m
        case "ForceType":
            guard arity(1...1, "ForceType takes one argument, a mime type that overrides other configured type") else { return }
            var m = block.mime ?? MimeDirectives()
            m.forceType = words[0].value.lowercased()
            block.mime = m
        case "AddDefaultCharset":
            guard arity(1...1, "AddDefaultCharset takes one argument, The name of the default charset to add to any Content-Type without one or 'Off' to disable") else { return }
            var m = block.mime ?? MimeDirectives()
            switch words[0].value.lowercased() {
            case "off": m.defaultCharset = "off"
            case "on": m.defaultCharset = "iso-8859-1"
            default: m.defaultCharset = words[0].value
            }
            block.mime = m
        case "ErrorDocument":
            guard arity(2...2, "ErrorDocument takes two arguments, Change responses for HTTP errors") else { return }
            // Any status with a line in httpd's table, 3xx and 2xx too (ap_index_of_response).
            guard let code = Int(words[0].value), StatusLines.known(code) else {
                error(ConfigCode.badArguments, "Unsupported HTTP response code \(words[0].value)", words[0].range); return
            }
            block.errorDocuments[code] = words[1].value
            block.errorDocumentExpressions[code] = nil
            if words[1].value.contains("%{") {
                do {
                    block.errorDocumentExpressions[code] = try ApExpression.parsingString(words[1].value, restricted: context == .htaccess)
                } catch {
                    self.error(ConfigCode.badExpression, "Cannot parse expression in ErrorDocument: \(error.message)", words[1].range)
                    return
                }
            }
        case "AuthType":
            guard arity(1...1, "AuthType takes one argument, an HTTP authorization type (e.g., \"Basic\")") else { return }
            block.authType = words[0].value
        case "AuthName":
            guard arity(1...1, "AuthName takes one argument, the authentication realm (e.g. \"Members Only\")") else { return }
            block.authName = words[0].value
        case "AcceptPathInfo":
            guard arity(1...1, "AcceptPathInfo takes one argument") else { return }
            switch words[0].value.lowercased() {
            case "on": block.acceptPathInfo = true
            case "off": block.acceptPathInfo = false
            case "default": block.acceptPathInfo = nil
            default: error(ConfigCode.badArguments, "AcceptPathInfo must be set to on, off, or default", words[0].range)
            }
        case "Require":
            guard !words.isEmpty else { error(ConfigCode.badArguments, "Require requires at least one argument", d.argumentsRange); return }
            var provider = words[0].value
            var negated = false
            var rest = Array(words.dropFirst()).map(\.value)
            if provider.lowercased() == "not", let k = rest.first { negated = true; provider = k; rest.removeFirst() }
            guard let module = Self.authzProviders[provider], modules.contains(module) else {
                error(ConfigCode.badArguments, "Unknown Authz provider: \(provider)", d.argumentsRange)
                return
            }
            let kind = provider
            if kind == "all", !["granted", "denied"].contains(rest.first?.lowercased() ?? "") {
                error(ConfigCode.badArguments, "Argument for 'Require all' must be 'granted' or 'denied'", d.argumentsRange)
                return
            }
            // A negated line can only deny (or stay neutral): useless where one grant is enough.
            if negated, (authzParents.last ?? .any) == .any {
                error(ConfigCode.badArguments, "negative Require directive has no effect in <RequireAny> directive", d.range)
                return
            }
            // mod_authz_core's method provider looks each name up as written (ap_method_number_of).
            if kind == "method", let bad = rest.first(where: { !Origin.registeredMethods.contains($0) }) {
                error(ConfigCode.badArguments, "Invalid Method '\(bad)'", d.argumentsRange)
                return
            }
            if kind == "expr" {
                guard let e = requireExpression(d, negated: negated) else { return }
                block.access.append(.requireExpr(negated: negated, expression: e, methods: methods))
                return
            }
            block.access.append(.require(negated: negated, kind: kind, values: rest, methods: methods))
        case "Order":
            block.access.append(.order(words.map(\.value).joined().lowercased()))
        case "Satisfy":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "Satisfy requires at least one argument, access policy if both allow and require used ('all' or 'any')", d.argumentsRange)
                return
            }
            for w in words {   // ITERATE: each word in turn, the last one stands
                switch w.value.lowercased() {
                case "all": block.access.append(.satisfy(any: false, methods: methods))
                case "any": block.access.append(.satisfy(any: true, methods: methods))
                default: error(ConfigCode.badArguments, "Satisfy either 'any' or 'all'.", w.range); return
                }
            }
        case "AuthMerging":
            guard arity(1...1, "AuthMerging takes one argument, controls how a <Directory>, <Location>, or similar directive's authorization directives are combined with those of its predecessor") else { return }
            switch words[0].value.lowercased() {
            case "off": block.authMerging = nil
            case "and": block.authMerging = .all
            case "or": block.authMerging = .any
            default: error(ConfigCode.badArguments, "AuthMerging must be one of: Off | And | Or", words[0].range)
            }
        case "Allow", "Deny":
            guard words.count >= 2, words[0].value.lowercased() == "from" else {
                error(ConfigCode.badArguments, "\(info.name) must be followed by 'from'", d.argumentsRange); return
            }
            let hosts = words.dropFirst().map(\.value)
            block.access.append(info.name == "Allow" ? .allow(from: Array(hosts), methods: methods)
                                : .deny(from: Array(hosts), methods: methods))
        case "ServerName":
            guard arity(1...1, "ServerName takes one argument, The hostname and port of the server") else { return }
            // A later ServerName without a scheme replaces host and port but keeps the scheme an
            // earlier one gave (server_hostname_port sets server_scheme only when one is written).
            var name = words[0].value
            if !name.contains("://"), let old = block.server?.serverName, let r = old.range(of: "://") {
                name = old[..<r.upperBound] + name
            }
            block.server?.serverName = name
            serverNamesRead += 1
        case "ServerAdmin":
            guard arity(1...1, "ServerAdmin takes one argument, The email address of the server administrator") else { return }
            block.server?.serverAdmin = words[0].value
        case "ServerAlias":
            block.server?.serverAliases += words.map(\.value)
        case "DocumentRoot":
            guard arity(1...1, "DocumentRoot takes one argument") else { return }
            block.server?.documentRoot = words[0].value
        case "UseCanonicalName":
            guard arity(1...1, "UseCanonicalName takes one argument") else { return }
            block.server?.useCanonicalName = words[0].value.lowercased()
        case "UseCanonicalPhysicalPort":
            guard arity(1...1, "UseCanonicalPhysicalPort takes one argument, Whether to use the physical Port when constructing URLs") else { return }
            switch words[0].value.lowercased() {
            case "on": block.server?.useCanonicalPhysicalPort = true
            case "off": block.server?.useCanonicalPhysicalPort = false
            default: error(ConfigCode.badArguments, "parameter must be 'on' or 'off'", words[0].range)
            }
        case "LimitInternalRecursion":
            guard arity(1...2, "LimitInternalRecursion takes 1-2 arguments") else { return }
            guard let n = Int(words[0].value), n > 0 else {
                error(ConfigCode.badArguments, "The recursion limit must be greater than zero.", words[0].range); return
            }
            block.server?.limitInternalRecursion = n
            // One number limits both internal redirects and subrequest nesting.
            if words.count == 2 {
                guard let m = Int(words[1].value), m > 0 else {
                    error(ConfigCode.badArguments, "The recursion limit must be greater than zero.", words[1].range); return
                }
                block.server?.limitSubrequestNesting = m
            } else {
                block.server?.limitSubrequestNesting = n
            }
        case "RemoteIPHeader":
            guard arity(1...1, "RemoteIPHeader takes one argument") else { return }
            block.server?.remoteIP.header = words[0].value
        case "RemoteIPInternalProxy", "RemoteIPTrustedProxy":
            guard arity(1...Int.max, "\(info.name) requires at least 1 argument") else { return }
            let isInternal = info.name == "RemoteIPInternalProxy"
            block.server?.remoteIP.proxies += words.map { ($0.value, isInternal) }
        case "AllowEncodedSlashes":
            guard arity(1...1, "AllowEncodedSlashes takes one argument") else { return }
            switch words[0].value.lowercased() {
            case "on": block.server?.encodedSlashes = .decode
            case "off": block.server?.encodedSlashes = .forbid
            case "nodecode": block.server?.encodedSlashes = .keep
            default: error(ConfigCode.badArguments, "AllowEncodedSlashes must be On, Off, or NoDecode", words[0].range)
            }
        case "TraceEnable":
            guard arity(1...1, "TraceEnable takes one argument, 'on' (default), 'off' or 'extended' to trace request body content") else { return }
            switch words[0].value.lowercased() {
            case "on", "extended": block.server?.traceEnable = true
            case "off": block.server?.traceEnable = false
            default: error(ConfigCode.badArguments, "TraceEnable must be one of 'on', 'off', or 'extended'", words[0].range)
            }
        case "AllowOverride":
            switch AllowedOverrides.parse(words.map(\.value)) {
            case .success(let setting): block.allowOverride = setting
            case .failure(let bad): error(ConfigCode.badArguments, "Illegal override option \(bad.word)", d.argumentsRange)
            }
        case "Define":
            guard arity(1...2, "Define takes 1-2 arguments") else { return }
            defines.insert(words[0].value)
            if words.count == 2 { variables[words[0].value] = words[1].value }
        case "UnDefine":
            guard arity(1...1, "UnDefine takes one argument") else { return }
            defines.remove(words[0].value)
            variables[words[0].value] = nil
        case "RewriteMap":
            guard arity(2...3, "RewriteMap takes two or three arguments, a mapname and a filename and optional DBM type") else { return }
            switch RewriteMapDefinition.parse(words[1].value) {
            case .success(let map):
                if case .unsupported(let type) = map.kind {
                    warning(ConfigCode.ignored, "RewriteMap type \(type): is not simulated: lookups give the default", words[1].range)
                }
                if case .random = map.kind {
                    warning(ConfigCode.ignored, "RewriteMap type rnd: picks one of a value's alternatives at random; the simulation takes the first", words[1].range)
                }
                block.server?.rewriteMaps[words[0].value] = map
            case .failure(let message): error(ConfigCode.badArguments, message.text, words[1].range)
            }
        case "AllowOverrideList":
            let names = words.map { $0.value.lowercased() }
            block.allowOverrideList = names == ["none"] ? [] : Set(names)
        case "AccessFileName":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "AccessFileName requires at least one argument", d.argumentsRange); return
            }
            block.server?.accessFileNames = words.map(\.value)
        case "Alias", "AliasMatch", "ScriptAlias", "ScriptAliasMatch":
            guard arity(2...2, "\(key) takes two arguments, a fakename and a realname") else { return }
            var regex: Regex? = nil
            if key.hasSuffix("Match") {
                do { regex = try Regex(words[0].value) } catch {
                    self.error(ConfigCode.badRegex, "Regular expression could not be compiled.", words[0].range); return
                }
            }
            block.server?.aliases.append(AliasEntry(url: words[0].value, path: words[1].value, regex: regex,
                                                    handler: key.hasPrefix("Script") ? "cgi-script" : nil))
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    private mutating func flushRewriteDiagnostics() {
        diagnostics += rewriteParser.diagnostics
        rewriteParser.diagnostics = []
    }

    /// Status keyword or number (apache-semantics §8.2); nil when the word is not a status.
    private func redirectStatus(_ w: String) -> Int? {
        switch w.lowercased() {
        case "permanent": return 301
        case "temp": return 302
        case "seeother": return 303
        case "gone": return 410
        default:
            guard let f = w.utf8.first, f >= 0x30, f <= 0x39 else { return nil }
            return atoi(w)
        }
    }

    private mutating func parseRedirect(_ name: String, _ d: DirectiveNode, _ words: [Word]) -> AliasRedirect? {
        let values = words.map(\.value)
        var status = name == "RedirectPermanent" ? 301 : 302
        var path: String? = nil
        var target: String? = nil
        let inDirectory = context == .htaccess || objectDepth > 0
        switch name {
        case "RedirectTemp", "RedirectPermanent":
            guard values.count == 2 else {
                error(ConfigCode.badArguments, "\(name) takes two arguments, a document to be redirected, then the destination URL", d.argumentsRange)
                return nil
            }
            path = values[0]; target = values[1]
        default:
            let isMatch = name == "RedirectMatch"
            guard (isMatch ? 2...3 : 1...3).contains(values.count), values.first?.isEmpty == false else {
                error(ConfigCode.badArguments, isMatch
                      ? "RedirectMatch takes two or three arguments, an optional status, then a regular expression and destination URL"
                      : "Redirect takes one, two or three arguments, an optional status, then document to be redirected and destination URL",
                      d.argumentsRange)
                return nil
            }
            if values.count == 3 {
                guard let s = redirectStatus(values[0]) else {
                    error(ConfigCode.badArguments, "\(name): invalid first argument (of three)", words[0].range); return nil
                }
                status = s; path = values[1]; target = values[2]
            } else if values.count == 2 {
                if let s = redirectStatus(values[0]) {
                    status = s
                    if (300...399).contains(s) {
                        // `Redirect 301 /target` in a directory context: the expression form.
                        target = values[1]
                    } else {
                        path = values[1]
                    }
                } else {
                    path = values[0]; target = values[1]
                }
            } else {
                if let s = redirectStatus(values[0]) { status = s } else { target = values[0] }
            }
        }
        if (300...399).contains(status) {
            guard target != nil else {
                error(ConfigCode.badArguments, "URL to redirect to is missing", d.argumentsRange); return nil
            }
        } else if target != nil && path != nil {
            error(ConfigCode.badArguments, "Redirect URL not valid for this status", d.argumentsRange); return nil
        }
        if path == nil && !inDirectory {
            error(ConfigCode.badArguments, "URL to redirect to is missing", d.argumentsRange); return nil
        }
        if name != "RedirectMatch", path != nil, let t = target, !(t.hasPrefix("/") || isAbsoluteURI(t)) {
            error(ConfigCode.badArguments, "Redirect to non-URL", words.last!.range); return nil
        }
        if path == nil, let t = target {
            // The directory-context form's URL is an ap_expr string, parsed with the file: a bad
            // one fails it (`expr=` is no prefix here, just text).
            do { _ = try ApExpression.parsingString(t, restricted: context == .htaccess) } catch {
                self.error(ConfigCode.badArguments, "Cannot parse redirect expression '\(t)': \(error.message)", words.last!.range)
                return nil
            }
        }
        let matcher: AliasRedirect.Matcher
        if let p = path {
            if name == "RedirectMatch" {
                do { matcher = .regex(try Regex(p)) } catch {
                    let w = words[words.count == 3 ? 1 : 0]
                    self.error(ConfigCode.badRegex, "Regular expression could not be compiled.", w.range)
                    return nil
                }
            } else {
                matcher = .prefix(p)
            }
        } else {
            matcher = .everything
        }
        return AliasRedirect(matcher: matcher, status: status, target: (300...399).contains(status) ? target : nil,
                             range: d.range, line: d.line.line)
    }

    private mutating func parseOptions(_ d: DirectiveNode, _ words: [Word]) -> OptionsDirective? {
        let known = ["none", "all", "indexes", "includes", "includesnoexec", "followsymlinks", "symlinksifownermatch",
                     "execcgi", "multiviews"]
        var o = OptionsDirective()
        var sawSigned = false, sawPlain = false
        // Only `All` / `None` written plainly may be followed by signed options (core.c set_options).
        var plainAllOrNoneOnly = true
        var plain = Set<String>()
        for w in words {
            var v = w.value
            var sign: Character? = nil
            if let f = v.first, f == "+" || f == "-" { sign = f; v.removeFirst() }
            if (sign == nil && sawSigned) || (sign != nil && sawPlain && !plainAllOrNoneOnly) {
                error(ConfigCode.badArguments, "Either all Options must start with + or -, or no Option may.", w.range)
                return nil
            }
            if sign == nil {
                sawPlain = true
                if !["all", "none"].contains(v.lowercased()) { plainAllOrNoneOnly = false }
            } else {
                sawSigned = true
            }
            let k = v.lowercased()
            guard known.contains(k) else {
                error(ConfigCode.badArguments, "Illegal option \(v)", w.range); return nil
            }
            // `AllowOverride Options=…`: every bit of the option must be permitted.
            if context == .htaccess, let allowed = overrides?.options, let bits = AllowedOverrides.optionBits(k),
               !bits.isSubset(of: allowed) {
                error(ConfigCode.notAllowedHere, "Option \(v) not allowed here", w.range); return nil
            }
            switch sign {
            case "+": o.add.insert(k)
            case "-": o.remove.insert(k)
            default: plain.insert(k)
            }
        }
        if sawPlain { o.replace = plain }
        return o
    }

    /// `Header [always|onsuccess] action name [value [replacement]] [condition]`, read as
    /// mod_headers' header_cmd/header_inout_cmd do (apache-semantics §13).
    private mutating func parseHeader(_ d: DirectiveNode, _ words: [Word], request: Bool = false) -> HeaderDirective? {
        var w = words[...]
        var always = false
        if !request, let f = w.first?.value.lowercased(), f == "always" || f == "onsuccess" { always = f == "always"; w.removeFirst() }
        let actions = ["add", "set", "setifempty", "append", "merge", "unset", "echo", "edit", "edit*", "note"]
        guard let actionWord = w.popFirst() else {
            error(ConfigCode.badArguments,
                  "first argument must be 'add', 'set', 'setifempty', 'append', 'merge', 'unset', 'echo', 'note', 'edit', or 'edit*'.",
                  d.argumentsRange)
            return nil
        }
        // ap_getword_conf gives an empty word past the end: a missing header name is "" (so a
        // bare `Header unset` is accepted), and the value check below reports the rest.
        let name = w.popFirst()?.value ?? ""
        let action = actionWord.value.lowercased()
        if request, action == "echo" || action == "note" {
            error(ConfigCode.badArguments, "\(action) not valid for RequestHeader", actionWord.range)
            return nil
        }
        guard actions.contains(action) else {
            error(ConfigCode.badArguments,
                  "first argument must be 'add', 'set', 'setifempty', 'append', 'merge', 'unset', 'echo', 'note', 'edit', or 'edit*'.",
                  actionWord.range)
            return nil
        }
        guard w.count <= 3 else { error(ConfigCode.badArguments, "Header has too many arguments", d.argumentsRange); return nil }
        var value = w.popFirst()
        let replacement = w.popFirst()
        var clause = w.popFirst()
        var editPattern: Regex? = nil
        if action.hasPrefix("edit") {
            guard let pattern = value, replacement != nil else {
                error(ConfigCode.badArguments, "Header edit requires a match and a substitution", d.argumentsRange); return nil
            }
            guard let regex = try? Regex(pattern.value) else {
                error(ConfigCode.badRegex, "Header edit regex could not be compiled", pattern.range); return nil
            }
            editPattern = regex
            value = replacement
        } else {
            // Without a replacement the third word is the condition.
            if clause != nil { error(ConfigCode.badArguments, "Too many arguments to directive", d.argumentsRange); return nil }
            clause = replacement
        }
        if action == "unset" || action == "echo" {
            // These take no value: a third word is the condition.
            if let v = value {
                guard clause == nil else {
                    let message = action == "unset" ? "header unset takes two arguments" : "Header echo takes two arguments"
                    error(ConfigCode.badArguments, message, d.argumentsRange); return nil
                }
                clause = v
                value = nil
            }
        } else if value == nil {
            error(ConfigCode.badArguments, "Header requires three arguments", d.argumentsRange); return nil
        }
        var condition: (String, Bool)? = nil
        var expression: ApExpression? = nil
        let early = clause?.value.lowercased() == "early"
        if let c = clause {
            let text = c.value, lower = text.lowercased()
            if lower.hasPrefix("env=") {
                var n = String(text.dropFirst(4))
                let neg = n.hasPrefix("!")
                if neg { n.removeFirst() }
                guard !n.isEmpty else {
                    error(ConfigCode.badArguments,
                          "error: missing environment variable name. envclause should be in the form env=envar ", c.range)
                    return nil
                }
                condition = (n, neg)
            } else if lower.hasPrefix("expr=") {
                do { expression = try ApExpression(parsing: String(text.dropFirst(5)), restricted: context == .htaccess) } catch {
                    self.error(ConfigCode.badExpression, "Can't parse envclause/expression: \(error.message)", c.range)
                    return nil
                }
            } else if lower != "early" {
                error(ConfigCode.badArguments, "Unknown parameter: \(text)", c.range); return nil
            }
        }
        // Checked last, as mod_headers parses the format after the condition. `expr=` (case
        // as written) makes the value a string expression instead of a format.
        var valueExpression: ExprWord? = nil
        if let v = value, v.value.hasPrefix("expr=") {
            do { valueExpression = try ApExpression.parsingString(String(v.value.dropFirst(5)), restricted: context == .htaccess) } catch {
                self.error(ConfigCode.badExpression, "Can't parse value expression : \(error.message)", v.range)
                return nil
            }
        } else if let v = value, case .failure(let e) = parseHeaderFormat(v.value) {
            error(ConfigCode.badArguments, e.message, v.range); return nil
        }
        if action == "echo" {
            // The header name is a regular expression matched against the request's header names.
            guard let regex = try? Regex(name) else {
                error(ConfigCode.badRegex, "Header echo regex could not be compiled", d.argumentsRange); return nil
            }
            editPattern = regex
        }
        var header = HeaderDirective(always: always, action: action, name: name, value: value?.value ?? "", editPattern: editPattern,
                                     envCondition: condition, expression: expression, early: early, range: d.range)
        header.valueExpression = valueExpression
        return header
    }

    private mutating func parseSetEnvIf(_ name: String, _ d: DirectiveNode, _ words: [Word], into block: inout ConfigBlock) {
        var w = words.map(\.value)
        let browser = name.hasPrefix("BrowserMatch")
        if browser { w.insert("User-Agent", at: 0) }
        guard w.count >= 3 || (browser && w.count >= 2) else {
            error(ConfigCode.badArguments, "Missing regular expression for \(name)", d.argumentsRange); return
        }
        let attribute = w[0]
        let pattern = w[1]
        var options = RegexOptions.apacheDefault
        if name.hasSuffix("NoCase") { options.insert(.caseless) }
        guard let regex = try? Regex(pattern, options: options) else {
            error(ConfigCode.badRegex, "Regular expression could not be compiled.", d.argumentsRange); return
        }
        var headerNames: Regex? = nil
        if SetEnvIfDirective.namesHeadersByPattern(attribute) {
            // Header names compare without case, whichever form (recorded: env-setenvif-last-header-and-missing).
            guard let names = try? Regex(attribute, options: RegexOptions.apacheDefault.union(.caseless)) else {
                error(ConfigCode.badRegex, "Header name regex could not be compiled.", d.argumentsRange); return
            }
            headerNames = names
        }
        var directive = SetEnvIfDirective(attribute: attribute, regex: regex, assignments: Self.envAssignments(w.dropFirst(2)),
                                          range: d.range, headerNames: headerNames)
        directive.plainString = SetEnvIfDirective.isPlainString(pattern)
        block.setEnvIf.append(directive)
    }

    /// A mod_mime extension argument: without its leading dot, lower-cased.
    static func mimeExtension(_ word: String) -> String {
        (word.hasPrefix(".") ? String(word.dropFirst()) : word).lowercased()
    }

    /// `SetEnvIfExpr "expression" [!]VAR[=value]...`: the expression is one argument.
    private mutating func parseSetEnvIfExpr(_ d: DirectiveNode, _ words: [Word], into block: inout ConfigBlock) {
        guard words.count >= 2 else {
            error(ConfigCode.badArguments, "SetEnvIfExpr requires at least two arguments", d.argumentsRange); return
        }
        let expression: ApExpression
        do { expression = try ApExpression(parsing: words[0].value, restricted: context == .htaccess) } catch {
            self.error(ConfigCode.badExpression, "Could not parse expression \"\(words[0].value)\": \(error.message)", words[0].range)
            return
        }
        block.setEnvIf.append(SetEnvIfDirective(attribute: "", regex: Self.emptyPattern, assignments: Self.envAssignments(words.dropFirst().map(\.value)),
                                                range: d.range, expression: expression))
    }

    private static let emptyPattern = try! Regex("")

    /// `!VAR` unsets, `VAR=value` sets, `VAR` sets to 1.
    private static func envAssignments(_ items: some Sequence<String>) -> [(name: String, value: String, unset: Bool)] {
        items.map { item in
            if item.hasPrefix("!") { return (String(item.dropFirst()), "", true) }
            if let eq = item.firstIndex(of: "=") { return (String(item[..<eq]), String(item[item.index(after: eq)...]), false) }
            return (item, "1", false)
        }
    }
}

/// `scheme:` prefix as Apache's `ap_is_url` sees it: letters, digits, `+-.` then `:`.
func isAbsoluteURI(_ s: String) -> Bool {
    var sawScheme = false
    for c in s.utf8 {
        if c == UInt8(ascii: ":") { return sawScheme }
        let ok = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39)
            || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        if !ok { return false }
        sawScheme = true
    }
    return false
}
