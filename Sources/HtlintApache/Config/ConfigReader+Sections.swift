import HtlintBytes
import HtlintDiagnostics
import HtlintRegex
import HtlintSyntax

/// Sections: conditional ones (`<IfModule>` …) read inline, per-directory ones (`<Directory>`,
/// `<Files>`, `<If>`, `<Location>` …) as objects of their own, `<VirtualHost>` as httpd selects it.
extension ConfigReader {
    /// The conditional sections: their commands run while Apache builds the file's tree
    /// (EXEC_ON_READ), so their errors come before any directive's.
    static let conditionalKeys: Set<String> = ["ifmodule", "ifdefine", "ifversion", "iffile", "ifdirective", "ifsection"]

    /// Whether Apache reads the contents of a conditional section (`<IfModule>`, `<IfDefine>`,
    /// `<IfVersion>`, `<IfFile>`, `<IfDirective>`, `<IfSection>`, with `!` negation); nil for
    /// any other section. Shared with rules that walk the syntax tree.
    public static func conditionHolds(_ s: SectionNode, modules: ModuleSet, defines: Set<String> = [],
                                      fileExists: (String) -> Bool = ConfigReader.systemFileExists) -> Bool? {
        func check(_ test: (String) -> Bool) -> Bool {
            let (negate, word) = conditionWord(s)
            return test(word) != negate
        }
        switch s.key {
        case "ifmodule": return check { modules.ifModuleTest($0) }
        case "ifdefine": return check { defines.contains($0) }
        // An invalid <IfVersion> stops Apache; htlint reads it as false.
        case "ifversion": return Conditionals.versionHolds(s.arguments.map(\.value)) ?? false
        case "iffile": return check { Conditionals.ifFileHolds($0, fileExists: fileExists) }
        // A section is registered as the directive `<Name` (recorded:
        // section-ifdirective-names-sections-with-their-bracket).
        case "ifdirective": return check { word in
            if word.hasBytePrefix("<") { return Conditionals.sectionExists(String(word.dropFirst()), modules: modules) }
            return DirectiveCatalog.info(word).map { modules.contains($0.module) } ?? false
        }
        case "ifsection": return check { Conditionals.sectionExists($0, modules: modules) }
        default: return nil
        }
    }

    /// What a conditional section (`<IfModule>`, `<IfDefine>`, `<IfFile>`, `<IfDirective>`,
    /// `<IfSection>`) tests: a `!` that is the argument's first byte negates, and the test is
    /// the first word after it as ap_getword_conf reads it (blanks skipped, quotes stripped),
    /// the rest ignored. `<IfModule ! mod_rewrite.c>` is a negated test of mod_rewrite.c,
    /// `<IfModule !mod_x.c mod_rewrite.c>` of mod_x.c, `<IfModule "!mod_x.c">` a test of the
    /// name `!mod_x.c`; an empty word (`<IfModule !>`, `<IfModule "">`) is "requires
    /// additional arguments" (recorded: section-ifmodule-bang-then-first-word).
    public static func conditionWord(_ s: SectionNode) -> (negate: Bool, word: String) {
        let bytes = s.argumentText.rawBytes
        let negate = bytes.first == UInt8(ascii: "!")
        let line = LogicalLine(bytes: bytes, offsets: Array(bytes.indices), endOffset: bytes.count, line: 0, file: "")
        let word = Tokenizer.generic(line, from: negate ? 1 : 0, limit: 1).first?.value ?? ""
        return (negate, word)
    }

    mutating func section(_ s: SectionNode, into block: inout ConfigBlock, pending: inout [RewriteCondition],
                                  methods: Set<String>?, lastIf: inout Int?) {
        let key = s.key
        let arg = s.argumentText
        func requireArgument(whileBuilding: Bool = false) -> Bool {
            let conditionMissing = key != "ifversion" && ConfigReader.conditionalKeys.contains(key) && ConfigReader.conditionWord(s).word.isEmpty
            if arg.isEmpty || arg == ">" || conditionMissing {
                let message = "<\(s.name)> directive requires additional arguments"
                if whileBuilding { buildError(ConfigCode.badSection, message, s.openRange) } else { error(ConfigCode.badSection, message, s.openRange) }
                return false
            }
            return true
        }
        let truth = ConfigReader.conditionHolds(s, modules: modules, defines: defines, fileExists: fileExists)
        guard overrideAllows(sectionCategory(key, conditional: truth != nil), name: "<" + s.name, s.nameRange) else {
            // A conditional section is read as it is built (EXEC_ON_READ): under AllowOverride
            // Nonfatal= its refused opening line is skipped alone, so its lines are read in place
            // and its closing line has no open section: the file fails (recorded:
            // allowoverride-nonfatal-skipped-ifmodule-leaves-closer).
            if truth != nil, context == .htaccess, overrides?.nonfatalOverride == true {
                read(s.children, into: &block, pendingConditions: &pending, methods: methods, inSection: nil, lastIf: &lastIf)
                if let range = s.closeRange {
                    let word = s.inexactCloseWord ?? "</\(s.name)>"
                    buildError(ConfigCode.badSection, "\(word) without matching <\(word.dropFirst(2)) section", range)
                }
            }
            return
        }
        if let category = sectionCategory(key, conditional: false).first, category != .any {
            guard serverLevelAllows(category, name: "<" + s.name, s.nameRange) else { return }
        }
        // Conditional sections are read inline (EXEC_ON_READ): they are nobody's parent context.
        if truth == nil { sectionNames.append(s.name) }
        defer { if truth == nil { sectionNames.removeLast() } }
        if let truth {
            guard requireArgument(whileBuilding: true) else { return }
            // An invalid `<IfVersion>` is a configuration error (a 500 in `.htaccess`).
            if key == "ifversion", case .failure(let e) = Conditionals.versionTest(s.arguments.map(\.value)) {
                buildError(ConfigCode.badArguments, e.message, s.openRange)
                return
            }
            if truth {
                read(s.children, into: &block, pendingConditions: &pending, methods: methods, inSection: nil, lastIf: &lastIf)
                // ap_build_cont_config only ends a true conditional section at a line that is
                // exactly `</Name>`; `</IfModule> # end` is read as a closer with no open section
                // of its own (recorded: syntax-error-ifmodule-close-with-trailing-text).
                if let word = s.inexactCloseWord, let range = s.closeRange {
                    buildError(ConfigCode.badSection, "\(word) without matching <\(word.dropFirst(2)) section", range)
                }
            } else if s.closeRange == nil {
                buildError(ConfigCode.badSection, "Expected </\(s.name)> before end of configuration", s.openRange, atEnd: true)
            }
            return
        }
        // These section commands are core's: invoking one gives the enclosing object (a
        // `.htaccess`) core's per-directory config, whose merge re-applies stale option removals
        // (recorded: nested-options-stale-removal-section-directive).
        if ["files", "filesmatch", "if", "elseif", "else", "limit", "limitexcept"].contains(key) { block.hasCoreConfig = true }
        // NOT_IN_LIMIT (ap_check_cmd_context): the file fails (recorded: section-limit-nested-sections).
        if methods != nil, ["files", "filesmatch", "if", "elseif", "else"].contains(key) {
            error(ConfigCode.notAllowedHere, "<\(s.name)> cannot occur within <Limit> or <LimitExcept> section", s.nameRange)
            return
        }
        switch key {
        case "files", "filesmatch":
            guard checkClosed(s), requireArgument() else { return }
            // NOT_IN_LOCATION: Apache refuses to start (recorded with Apache 2.4, Hunt38RegressionTests).
            if context == .server, let location = sectionNames.dropLast().last(where: { ["location", "locationmatch"].contains($0.asciiLowercased()) }) {
                error(ConfigCode.notAllowedHere, "<\(s.name)> cannot occur within <\(location)> section", s.nameRange)
                return
            }
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
                // file_walk: d_is_fnmatch (apr_fnmatch_test) picks apr_fnmatch, otherwise strcmp.
                matcher = ConfigReader.isWildcard(pattern) ? .wildcard(pattern) : .literal(pattern)
            }
            var inner = ConfigBlock()
            readObject(s.children, into: &inner, methods: methods, inSection: s.name)
            block.files.append(FilesBlock(matcher: matcher, block: inner))
            refuseExtraSectionWords(s)
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
            guard checkClosed(s), requireArgument() else { return }
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
            // A nested section narrows the enclosing one's methods and must change them
            // (ap_limit_section; recorded: section-limit-nested-sections).
            if let outer = methods {
                let name = key == "limit" ? "<Limit" : "<LimitExcept"
                set.formIntersection(outer)
                if set.isEmpty {
                    error(ConfigCode.badArguments, "\(name)> directive excludes all methods", s.openRange)
                    return
                }
                if set == outer {
                    error(ConfigCode.badArguments, "\(name)> directive specifies methods already excluded", s.openRange)
                    return
                }
            }
            read(s.children, into: &block, pendingConditions: &pending, methods: set, inSection: nil)
        case "requireall", "requireany", "requirenone":
            guard checkClosed(s) else { return }
            // add_authz_section (recorded: access-require-section-no-arguments).
            if !(arg.isEmpty || arg == ">") {
                error(ConfigCode.badSection, "<\(s.name)> directive doesn't take additional arguments", s.argumentsRange)
                return
            }
            let logic: AuthzLogic = key == "requireall" ? .all : key == "requireany" ? .any : .none
            let parent = authzParents.last ?? .any
            // A negated container can only deny, which changes nothing where one grant is enough
            // (in `<RequireNone>` too, an OR).
            if logic == .none, parent != .all {
                error(ConfigCode.badArguments, "<RequireNone> directive has no effect in <\(parent.rawValue)> directive", s.openRange)
                return
            }
            // Other directives inside stay in this block; the authorization lines become children.
            let before = block.access.count
            authzParents.append(logic)
            // Its lines are read as if in a `<Limit>` of every method, so the sections a `<Limit>`
            // refuses are refused here too (recorded: access-require-section-methods-from-children).
            read(s.children, into: &block, pendingConditions: &pending,
                 methods: methods ?? Origin.registeredMethods.union([Origin.unknownMethod]), inSection: nil)
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
            block.access.append(.requireSection(logic: logic, children: children))
        case "directory", "directorymatch", "location", "locationmatch", "virtualhost", "proxy", "proxymatch":
            if context == .htaccess {
                error(ConfigCode.notAllowedHere, "<\(s.name) not allowed here", s.nameRange)
                return
            }
            guard checkClosed(s), requireArgument() else { return }
            // RSRC_CONF sections: inside a `<Directory>`, `<Location>`, `<Files>` or `<If>` Apache
            // refuses to start (recorded with Apache 2.4, Hunt38RegressionTests).
            if key != "virtualhost", key != "proxy", key != "proxymatch",
               let scope = sectionNames.dropLast().last(where: { ConfigReader.directoryScopes.contains($0.asciiLowercased()) }) {
                error(ConfigCode.notAllowedHere, "<\(s.name) not allowed in <\(scope)> context", s.nameRange)
                return
            }
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
                refuseExtraSectionWords(s)
            } else if key == "directory" {
                var inner = ConfigBlock()
                readObject(s.children, into: &inner, methods: nil, inSection: nil)
                let path = s.arguments.first?.value ?? arg
                block.server?.directories.append((path, inner))
                refuseExtraSectionWords(s)
            } else if key == "virtualhost" {
                // Apache refuses to start (recorded with `apache2 -t`).
                let enclosing = sectionNames.dropLast()
                if enclosing.contains(where: { $0.asciiLowercased() == "virtualhost" }) {
                    error(ConfigCode.notAllowedHere, "<VirtualHost> cannot occur within <VirtualHost> section", s.nameRange)
                    return
                }
                if let scope = enclosing.last(where: { ConfigReader.directoryScopes.contains($0.asciiLowercased()) }) {
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
                    if case .prefix(let path) = matcher { inner.locationAlias?.locationPath = path }
                    block.server?.locations.append(LocationBlock(matcher: matcher, block: inner))
                    refuseExtraSectionWords(s)
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
    mutating func readDeferredVirtualHost(into block: inout ConfigBlock) {
        guard let s = deferredVirtualHost else { return }
        let main = (rewrite: block.rewrite, redirects: block.redirects, aliases: block.server?.aliases ?? [],
                    directoryIndex: block.directoryIndex, maps: block.server?.rewriteMaps ?? [:])
        block.rewrite = nil
        block.redirects = []
        block.server?.aliases = []
        block.directoryIndex = nil
        block.server?.rewriteMaps = [:]
        // core's per-directory merge takes the section's AllowEncodedSlashes (default Off), never
        // the main server's (recorded: vhost-allow-encoded-slashes-not-inherited).
        block.server?.encodedSlashes = nil
        // The section's mod_expires object is made with the server (create_default_per_dir_config)
        // and merged over the main server's: its `wildcards` flag is the section's own, so the main
        // server's `ExpiresByType image/*` is not read there (recorded: header-expires-wildcards-not-inherited).
        block.expires?.wildcards = false
        // Likewise its mod_mime object is merged over the main server's, whose own Remove… lines
        // (but RemoveType) are never applied: only the child's list is (recorded:
        // header-mime-own-removal-undone-below).
        block.mime?.dropPendingRemovals()
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
    mutating func locationMatcher(_ s: SectionNode, regex: Bool) -> LocationBlock.Matcher? {
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
        // d_is_fnmatch is apr_fnmatch_test, on bytes: `[` needs a `]` after it, a backslash hides
        // the next byte, and a `*` a combining mark follows still counts.
        return ConfigReader.isWildcard(pattern) ? .wildcard(pattern) : .prefix(pattern)
    }

    /// The AllowOverride class a section needs in `.htaccess` (core and mod_authz_core tables).
    func sectionCategory(_ key: String, conditional: Bool) -> [OverrideCategory] {
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
    /// `shown`: the name as the messages show it (the command table's spelling).
    mutating func overrideAllows(_ categories: [OverrideCategory], name: String, shown: String? = nil, _ range: SourceRange) -> Bool {
        guard context == .htaccess, let allowed = overrides, !categories.isEmpty,
              !categories.contains(where: { allowed.permits($0, name: name) }) else { return true }
        let shown = shown ?? name
        if allowed.nonfatalOverride {
            warning(ConfigCode.ignored, "\(shown) in .htaccess forbidden by AllowOverride", range)
        } else if let parent = sectionNames.last {
            error(ConfigCode.notAllowedHere, "\(shown) not allowed in <\(parent)> context", range)
        } else {
            error(ConfigCode.notAllowedHere, "\(shown) not allowed here", range)
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
    /// `serverLevel`: the directive is RSRC_CONF as well (`DirectiveInfo.serverLevel`).
    mutating func serverLevelAllows(_ category: OverrideCategory, name: String, serverLevel: Bool = false,
                                    _ range: SourceRange) -> Bool {
        guard context == .server, !serverLevel,
              category == .authConfig || category == .limit || name == "AllowOverride" || name == "AllowOverrideList",
              !sectionNames.contains(where: { ConfigReader.directoryScopes.contains($0.asciiLowercased()) }) else { return true }
        let parent = sectionNames.last ?? "VirtualHost"
        error(ConfigCode.notAllowedHere, "\(name) not allowed in <\(parent)> context", range)
        return false
    }

    /// A RSRC_CONF-only directive (`DirectiveInfo.notInDirectorySections`) inside a
    /// `<Directory>`, `<Location>`, `<Files>` or `<If>` of the server configuration: invoke_cmd
    /// refuses it, the server does not start (recorded; MainServerDirectiveTests).
    /// `Alias`/`ScriptAlias` with two arguments refuse themselves (mod_alias's own message).
    /// `words`: the directive's word count, asked only of `Alias`/`ScriptAlias` (tokenising every
    /// line again cost W3's 110,000 RewriteRule lines a tenth of their reading).
    mutating func directorySectionAllows(_ info: DirectiveInfo, words: () -> Int, _ range: SourceRange) -> Bool {
        let aliasWithTarget = (info.name == "Alias" || info.name == "ScriptAlias") && words() == 2
        guard context == .server, info.notInDirectorySections || aliasWithTarget,
              sectionNames.contains(where: { ConfigReader.directoryScopes.contains($0.asciiLowercased()) }) else { return true }
        if aliasWithTarget {
            error(ConfigCode.notAllowedHere, "\(info.name) cannot occur within directory context", range)
        } else {
            error(ConfigCode.notAllowedHere, "\(info.name) not allowed in <\(sectionNames.last ?? "Directory")> context", range)
        }
        return false
    }

    /// Runtime sections must be closed (apache-semantics §2.7).
    /// filesection, dirsection and urlsection read one path word (two with `~`, one for the
    /// …Match forms) and refuse any more once the contents are read: `<Files a.php b.php>` is
    /// "Multiple <Files> arguments not (yet) supported." (recorded: section-files-multiple-arguments).
    mutating func refuseExtraSectionWords(_ s: SectionNode) {
        let used = s.key.hasByteSuffix("match") || s.arguments.first?.value != "~" ? 1 : 2
        guard s.arguments.count > used else { return }
        let names = ["files": "Files", "filesmatch": "FilesMatch", "directory": "Directory", "directorymatch": "DirectoryMatch",
                     "location": "Location", "locationmatch": "LocationMatch"]
        error(ConfigCode.badSection, "Multiple <\(names[s.key] ?? s.name)> arguments not (yet) supported.", s.closeRange ?? s.openRange)
    }

    /// An unclosed section is found when the tree is built, at the end of the file (before the
    /// section's own command could refuse its arguments).
    mutating func checkClosed(_ s: SectionNode) -> Bool {
        if s.closeRange == nil {
            buildError(ConfigCode.badSection, "<\(s.name)> was not closed.", s.openRange, atEnd: true)
            return false
        }
        return true
    }
}

extension ConfigReader {
    /// A directive AllowOverride's Nonfatal=Override skips still leaves its module's configuration
    /// object behind: ap_walk_config_sub creates it (ap_set_config_vectors) before invoke_cmd
    /// refuses the line. For mod_rewrite that is an empty rule list, which replaces the parent's
    /// (recorded: allowoverride-nonfatal-skipped-rewrite-replaces-rules); core's re-applies the
    /// removed options; mod_access_compat's replaces the parent's lines.
    mutating func createsEmptyModuleConfig(_ info: DirectiveInfo, into block: inout ConfigBlock) {
        guard context == .htaccess, overrides?.nonfatalOverride == true else { return }
        if info.module == "rewrite" { block.rewrite = block.rewrite ?? RewriteSettings() }
        if info.module == "core" { block.hasCoreConfig = true }
        // mod_access_compat has no merge: its empty object (create_access_dir_config's
        // deny,allow and no host lines) replaces the parent's Order/Allow/Deny
        // (recorded: allowoverride-nonfatal-skipped-access-compat-replaces-parent).
        if info.module == "access_compat", !block.access.contains(where: { !$0.isAuthorization }) {
            block.access.append(.order("deny,allow", methods: nil))
        }
    }
}
