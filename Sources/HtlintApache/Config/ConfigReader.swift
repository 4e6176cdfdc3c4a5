import HtlintRegex
import HtlintDiagnostics
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
    /// Whether a path exists where htlint knows for sure (the simulated site's files); nil
    /// elsewhere. mod_rewrite refuses a `RewriteMap` whose file does not exist.
    public var knownFileExists: (String) -> Bool?
    public let context: ConfigContext
    /// For `.htaccess`: what the directory's AllowOverride permits (nil: everything, as `All`).
    public var overrides: AllowedOverrides?
    // The reading state below is internal, not private: the reader's extensions (one file per
    // module family: ConfigReader+RewriteDirectives.swift and its siblings) share it.
    var diagnostics: [Diagnostic] = []
    /// The errors of `diagnostics` Apache meets while it builds the file's tree, with where it meets each.
    var buildErrors: [(at: Int, diagnostic: Diagnostic)] = []
    /// Names of the sections being read, innermost last (for "not allowed in <X> context").
    var sectionNames: [String] = []
    var rewriteParser = RewriteParser()
    /// Enclosing `<RequireAll/Any/None>` sections, innermost last (empty: the implicit `<RequireAny>`).
    var authzParents: [AuthzLogic] = []
    /// Depth of per-directory sections (`<Directory>`, `<Location>`, `<Files>`, `<If>`): inside
    /// one, `Redirect` may take the one-argument form (mod_alias checks `cmd->path`).
    var objectDepth = 0
    /// Reading for one connection: only this `<VirtualHost>` section is read (nil: none of them).
    var selectingVirtualHost = false
    var selectedVirtualHost: SourceRange? = nil
    /// The selected section, read once the whole main server has been (it overrides the main
    /// server wherever its lines stand in the file).
    var deferredVirtualHost: SectionNode? = nil
    /// mod_rewrite directives read so far, in any section: httpd gives a virtual host its own
    /// mod_rewrite configuration at the first one inside it (ap_set_config_vectors).
    var rewriteDirectivesRead = 0
    /// `ServerName` lines read so far: whether the selected section names itself.
    var serverNamesRead = 0
    /// The lines outside any section are a `<VirtualHost>`'s (a case's `vhost` lines, a site
    /// file's `vhost-lines`), not the main server's.
    var topLevelIsVirtualHost = false
    /// Inside a `<VirtualHost>`, written or implied: main-server-only directives are refused.
    var readingVirtualHost: Bool {
        topLevelIsVirtualHost || sectionNames.contains { $0.asciiLowercased() == "virtualhost" }
    }

    public init(context: ConfigContext, modules: ModuleSet = .standard, defines: Set<String> = [],
                variables: [String: String] = [:], processEnvironment: [String: String] = [:],
                overrides: AllowedOverrides? = nil,
                fileExists: @escaping (String) -> Bool = ConfigReader.systemFileExists,
                knownFileExists: @escaping (String) -> Bool? = { _ in nil }) {
        self.context = context
        self.knownFileExists = knownFileExists
        self.processEnvironment = processEnvironment
        self.overrides = overrides
        self.modules = modules
        self.defines = defines
        self.variables = variables
        self.fileExists = fileExists
        rewriteParser.restricted = context == .htaccess
    }

    /// `<IfFile>` without a simulated site: only the fixed list of Debian paths exists.
    /// A path with a trailing slash asks for a directory.
    public static func systemFileExists(_ path: String) -> Bool {
        guard path.count > 1, path.hasByteSuffix("/") else { return Conditionals.systemPaths.contains(path) }
        let name = String(path.dropLast())
        return Conditionals.systemPaths.contains(name) && !Conditionals.systemFiles.contains(name)
    }

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
                            knownFileExists: @escaping (String) -> Bool? = { _ in nil },
                            virtualHost: VirtualHostChoice? = nil, serverDirectoryIndex: [String]? = nil,
                            topLevelIsVirtualHost: Bool = false) -> ConfigFile {
        func once(_ expand: ((LogicalLine) -> LogicalLine?)?) -> ConfigFile {
            read(tree: Parser.parse(file, context: context, expand: expand), context: context, modules: modules,
                 defines: defines, variables: variables, processEnvironment: processEnvironment, overrides: overrides,
                 fileExists: fileExists, knownFileExists: knownFileExists, virtualHost: virtualHost,
                 serverDirectoryIndex: serverDirectoryIndex, topLevelIsVirtualHost: topLevelIsVirtualHost)
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
                            knownFileExists: @escaping (String) -> Bool? = { _ in nil },
                            virtualHost: VirtualHostChoice? = nil, serverDirectoryIndex: [String]? = nil,
                            topLevelIsVirtualHost: Bool = false) -> ConfigFile {
        let file = tree.file
        var reader = ConfigReader(context: context, modules: modules, defines: defines, variables: variables,
                                  processEnvironment: processEnvironment, overrides: overrides, fileExists: fileExists,
                                  knownFileExists: knownFileExists)
        reader.topLevelIsVirtualHost = topLevelIsVirtualHost && context == .server
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
        let ownSection = reader.deferredVirtualHost != nil
        reader.readDeferredVirtualHost(into: &block)
        // The server these lines configure owns a mod_rewrite configuration even when its only
        // mod_rewrite lines are inside its `<Location>`/`<Directory>` sections (ap_set_config_vectors
        // creates it): hook_uri2file then runs, without rules, where a `<Location>` turns the
        // engine on, and leaves the URI in r->filename (recorded: section-location-engine-on-without-server-rewrite-lines).
        if context == .server, !ownSection, block.rewrite == nil, reader.rewriteDirectivesRead > 0 {
            block.rewrite = RewriteSettings()
        }
        let all = (tree.diagnostics + reader.diagnostics).sorted { $0.range.start < $1.range.start }
        var config = ConfigFile(path: file.path, block: block, diagnostics: all, defines: reader.defines,
                                variables: reader.variables, virtualHosts: virtualHosts)
        // The reader's come first where both report a line: it knows the closer of a true
        // conditional section is read with no section open (ap_build_cont_config).
        config.buildErrors = (reader.buildErrors + buildPhase(tree)).sorted { $0.at < $1.at }.map(\.diagnostic)
        return config
    }

    /// Reads a section that is a configuration object of its own (`<Files>`, `<If>`,
    /// `<Directory>`): its `Require` lines start a new implicit `<RequireAny>`.
    mutating func readObject(_ nodes: [ConfigNode], into block: inout ConfigBlock, methods: Set<String>?,
                                     inSection: String?) {
        let saved = authzParents
        authzParents = []
        var pending: [RewriteCondition] = []
        objectDepth += 1
        block.hasCoreConfig = true   // the section command sets core's object of the section
        read(nodes, into: &block, pendingConditions: &pending, methods: methods, inSection: inSection)
        objectDepth -= 1
        authzParents = saved
    }

    mutating func error(_ code: String, _ message: String, _ range: SourceRange) {
        diagnostics.append(Diagnostic(code: code, severity: .error, message: message, range: range))
    }

    /// An error ap_build_config returns: at its line, or (`atEnd`) when the file ends, where the
    /// innermost open section is the one reported.
    mutating func buildError(_ code: String, _ message: String, _ range: SourceRange, atEnd: Bool = false) {
        let d = Diagnostic(code: code, severity: .error, message: message, range: range)
        diagnostics.append(d)
        buildErrors.append((atEnd ? Int.max / 2 - range.start : range.start, d))
    }

    /// The parser's errors that ap_build_config meets, at their lines: section structure and
    /// over-long lines. A missing `>` on the opening line of a section that is not conditional
    /// is its command's error, met only when the directives run.
    static func buildPhase(_ tree: SyntaxTree) -> [(at: Int, diagnostic: Diagnostic)] {
        var openers = Set<Int>()
        func visit(_ nodes: [ConfigNode]) {
            for case .section(let s) in nodes {
                if !conditionalKeys.contains(s.key) { openers.insert(s.openRange.start) }
                visit(s.children)
            }
        }
        visit(tree.nodes)
        return tree.diagnostics.compactMap { d in
            guard d.severity == .error, d.code == SyntaxCode.section || d.code == SyntaxCode.lineTooLong else { return nil }
            if d.message.hasBytePrefix("<"), !d.message.hasBytePrefix("</"), d.message.hasByteSuffix("directive missing closing '>'"),
               openers.contains(d.range.start) { return nil }
            return (d.range.start, d)
        }
    }

    mutating func warning(_ code: String, _ message: String, _ range: SourceRange) {
        diagnostics.append(Diagnostic(code: code, severity: .warning, message: message, range: range))
    }

    mutating func read(_ nodes: [ConfigNode], into block: inout ConfigBlock, pendingConditions: inout [RewriteCondition],
                       methods: Set<String>?, inSection: String?) {
        var lastIf: Int? = nil   // index into block.ifChains that an <ElseIf>/<Else> may extend
        read(nodes, into: &block, pendingConditions: &pendingConditions, methods: methods, inSection: inSection, lastIf: &lastIf)
    }

    /// Reads `nodes` into `block`, continuing the `<If>` chain `lastIf` names: a conditional
    /// section (`<IfModule>`…) is read inline into the same scope, so an `<Else>` inside it
    /// extends an `<If>` before it and the other way round (recorded: section-else-inside-ifmodule).
    mutating func read(_ nodes: [ConfigNode], into block: inout ConfigBlock, pendingConditions: inout [RewriteCondition],
                       methods: Set<String>?, inSection: String?, lastIf: inout Int?) {
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

    // MARK: Directives

    /// A directive name as Apache's error log shows it where it matters: the invisible UTF-8
    /// byte-order mark an editor put in front of the first directive.
    static func shownLikeApache(_ name: String) -> String {
        name.hasBytePrefix("\u{FEFF}") ? "\\xef\\xbb\\xbf" + name.dropFirst() : name
    }

    mutating func directive(_ d: DirectiveNode, into block: inout ConfigBlock, pending: inout [RewriteCondition],
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
        if context == .htaccess, info.category == .serverOnly || info.category == .globalOnly || info.category == .configOnly {
            error(ConfigCode.notAllowedHere, "\(info.commandName) not allowed here", d.nameRange)
            return
        }
        // mod_authz_core walks a <RequireAll/Any/None> with only OR_AUTHCFG allowed, whatever
        // AllowOverride says (recorded: access-requireall-refuses-other-directives).
        if !authzParents.isEmpty, info.category != .authConfig, info.category != .any {
            error(ConfigCode.notAllowedHere, "\(info.commandName) not allowed in <\(sectionNames.last ?? "RequireAll")> context", d.nameRange)
            return
        }
        if info.category == .globalOnly, readingVirtualHost {
            error(ConfigCode.notAllowedHere, "\(info.name) cannot occur within <VirtualHost> section", d.nameRange)
            return
        }
        guard !authzParents.isEmpty || overrideAllows([info.category], name: info.name, shown: info.commandName, d.nameRange) else {
            createsEmptyModuleConfig(info, into: &block)
            return
        }
        guard serverLevelAllows(info.category, name: info.name, serverLevel: info.serverLevel, d.nameRange) else { return }
        guard directorySectionAllows(info, words: { d.words.count }, d.nameRange) else { return }
        if info.module == "rewrite" { rewriteDirectivesRead += 1 }
        // RewriteRule/RewriteCond tokenise themselves; only the others need the generic words.
        let key = info.name
        let words = key == "RewriteRule" || key == "RewriteCond" ? [] : d.words
        let line = DirectiveLine(node: d, words: words, info: info)
        if let check = Self.argumentChecks[key] {
            // Directives htlint reads no further still get invoke_cmd's checks: a TAKE1 takes one
            // non-empty word (`EnableMMAP Off # c` is a 500), an ITERATE a non-empty first one.
            if !arity(line, check.arity, check.usage) { return }
            if let values = check.values, !values.contains(words[0].value.asciiLowercased()) {
                let message = check.valueErrorNamesValue ? check.valueError + words[0].value : check.valueError
                error(ConfigCode.badArguments, message, words[0].range); return
            }
        }
        // A FLAG directive htlint reads no further: its first word must be On or Off in any
        // case, or it is "… must be On or Off" (a 500 in `.htaccess`); words after it are
        // ignored (recorded: syntax-error-flag-directives-on-or-off).
        if Self.flagDirectives.contains(key), flag(line) == nil { return }
        if info.module == "core" { block.hasCoreConfig = true }
        if key == "AuthUserFile" { block.authUserFile = words[0].value }
        if key == "AuthBasicProvider" {
            // add_authn_provider: each name a registered provider of a loaded module.
            if let unknown = words.first(where: { !Self.authnProviderLoaded($0.value, modules) }) {
                error(ConfigCode.badArguments, "Unknown Authn provider: \(unknown.value)", unknown.range); return
            }
            block.authBasicProviders = words.map { $0.value.asciiLowercased() }
        }
        // set_limit_xml_req_body: atol's reading below zero is refused (`12k` is 12, `x` 0;
        // recorded: syntax-error-limitxmlrequestbody-negative).
        if key == "LimitXMLRequestBody", Self.atolIsNegative(words[0].value) {
            error(ConfigCode.badArguments, "LimitXMLRequestBody requires a non-negative integer.", words[0].range); return
        }
        // deflate_set_inflate_limit: apr_strtoff must read the whole word, not below zero.
        if key == "DeflateInflateLimitRequestBody", !Self.isNonNegativeInteger(words[0].value) {
            error(ConfigCode.badArguments, "DeflateInflateLimitRequestBody requires a non-negative integer.", words[0].range); return
        }
        if info.module == "ssl" { sslHandshakeDirective(line, into: &block) }
        switch info.module {
        case "rewrite": rewriteDirective(line, into: &block, pending: &pending, inSection: inSection)
        case "alias": aliasDirective(line, into: &block)
        case "dir", "autoindex": dirDirective(line, into: &block)
        case "headers", "setenvif", "env": environmentDirective(line, into: &block)
        case "mime", "negotiation": mimeDirective(line, into: &block)
        case "speling": spelingDirective(line, into: &block)
        case "expires": expiresDirective(line, into: &block)
        case "allowmethods": allowMethodsDirective(line, into: &block)
        case "filter": filterDirective(line, into: &block)
        case "actions": actionsDirective(line, into: &block)
        case "authz_core", "authn_core", "access_compat", "ssl": accessDirective(line, into: &block, methods: methods)
        case "core" where info.category != .serverOnly && info.category != .globalOnly: coreDirective(line, into: &block)
        case "core", "remoteip": serverDirective(line, into: &block)
        default: break   // Known to Apache, accepted, not simulated.
        }
    }

    /// invoke_cmd's argument checks of directives read no further (TAKE1, TAKE12 or ITERATE, with the
    /// usage text Apache appends), and the values a TAKE1 accepts, if it checks them (the
    /// refused word follows the message when `valueErrorNamesValue`).
    static let argumentChecks: [String: (arity: ClosedRange<Int>, usage: String, values: Set<String>?, valueError: String, valueErrorNamesValue: Bool)] = [
        "AuthUserFile": (1...1, "AuthUserFile takes one argument, text file containing user IDs and passwords", nil, "", false),
        "EnableMMAP": (1...1, "EnableMMAP takes one argument, Controls whether memory-mapping may be used to read files",
                       ["on", "off"], "parameter must be 'on' or 'off'", false),
        "EnableSendfile": (1...1, "EnableSendfile takes one argument, Controls whether sendfile may be used to transmit files",
                           ["on", "off"], "parameter must be 'on' or 'off'", false),
        "SetInputFilter": (1...1, "SetInputFilter takes one argument, filter (or ; delimited list of filters) to be run on the request body", nil, "", false),
        "HeaderName": (1...1, "HeaderName takes one argument, a filename", nil, "", false),
        "ReadmeName": (1...1, "ReadmeName takes one argument, a filename", nil, "", false),
        "LimitXMLRequestBody": (1...1, "LimitXMLRequestBody takes one argument, Limit (in bytes) on maximum size of an XML-based request body", nil, "", false),
        "IndexIgnore": (1...Int.max, "IndexIgnore requires at least one argument, one or more file extensions", nil, "", false),
        // mod_auth_basic's set_use_digest_algorithm: Off or MD5, in any case (recorded:
        // syntax-error-flag-directives-on-or-off).
        "AuthBasicUseDigestAlgorithm": (1...1, "AuthBasicUseDigestAlgorithm takes one argument, Set to 'MD5' to use the auth provider's authentication check for digest auth, using a hash of 'user:realm:pass'",
                                        ["off", "md5"], "Invalid algorithm in AuthBasicUseDigestAlgorithm: ", true),
        // mod_mime's ITERATE removals (recorded: syntax-error-mime-filter-directive-arguments).
        "RemoveOutputFilter": (1...Int.max, "RemoveOutputFilter requires at least one argument, one or more file extensions", nil, "", false),
        "RemoveInputFilter": (1...Int.max, "RemoveInputFilter requires at least one argument, one or more file extensions", nil, "", false),
        // core's TAKE12 resource limits and mod_ssl's per-directory TAKE1/TAKE12 settings
        // (recorded: syntax-error-rlimit-and-ssl-directive-arguments).
        "RLimitCPU": (1...2, "RLimitCPU takes 1-2 arguments, Soft/hard limits for max CPU usage in seconds", nil, "", false),
        "RLimitMEM": (1...2, "RLimitMEM takes 1-2 arguments, Soft/hard limits for max memory usage per process", nil, "", false),
        "RLimitNPROC": (1...2, "RLimitNPROC takes 1-2 arguments, soft/hard limits for max number of processes per uid", nil, "", false),
        "SSLCipherSuite": (1...2, "SSLCipherSuite takes 1-2 arguments, Colon-delimited list of permitted SSL Ciphers, optional preceded by protocol identifier ('XXX:...:XXX' - see manual)", nil, "", false),
        "SSLVerifyClient": (1...1, "SSLVerifyClient takes one argument, SSL Client verify type ('none', 'optional', 'require', 'optional_no_ca')", nil, "", false),
        "SSLVerifyDepth": (1...1, "SSLVerifyDepth takes one argument, SSL Client verify depth ('N' - number of intermediate certificates)", nil, "", false),
        "SSLRenegBufferSize": (1...1, "SSLRenegBufferSize takes one argument, Configure the amount of memory that will be used for buffering the request body if a per-location SSL renegotiation is required due to changed access control requirements", nil, "", false),
        "SSLUserName": (1...1, "SSLUserName takes one argument, Set user name to SSL variable value", nil, "", false),
        // mod_autoindex's ITERATE2 and TAKE1 settings, and the auth and deflate ones next to
        // them (recorded: syntax-error-autoindex-auth-deflate-directive-arguments).
        "AddAlt": (2...Int.max, "AddAlt requires at least two arguments, alternate descriptive text followed by one or more filenames", nil, "", false),
        "AddAltByEncoding": (2...Int.max, "AddAltByEncoding requires at least two arguments, alternate descriptive text followed by one or more content encodings", nil, "", false),
        "AddAltByType": (2...Int.max, "AddAltByType requires at least two arguments, alternate descriptive text followed by one or more MIME types", nil, "", false),
        "AddDescription": (2...Int.max, "AddDescription requires at least two arguments, Descriptive text followed by one or more filenames", nil, "", false),
        "AddIcon": (2...Int.max, "AddIcon requires at least two arguments, an icon URL followed by one or more filenames", nil, "", false),
        "AddIconByEncoding": (2...Int.max, "AddIconByEncoding requires at least two arguments, an icon URL followed by one or more content encodings", nil, "", false),
        "AddIconByType": (2...Int.max, "AddIconByType requires at least two arguments, an icon URL followed by one or more MIME types", nil, "", false),
        "DefaultIcon": (1...1, "DefaultIcon takes one argument, an icon URL", nil, "", false),
        "IndexHeadInsert": (1...1, "IndexHeadInsert takes one argument, String to insert in HTML HEAD section", nil, "", false),
        "IndexStyleSheet": (1...1, "IndexStyleSheet takes one argument, URL to style sheet", nil, "", false),
        "AuthGroupFile": (1...1, "AuthGroupFile takes one argument, text file containing group names and member user IDs", nil, "", false),
        "AuthBasicFake": (1...2, "AuthBasicFake takes 1-2 arguments, Fake basic authentication using the given expressions for username and password, 'off' to disable. Password defaults to 'password' if missing.", nil, "", false),
        "AuthBasicProvider": (1...Int.max, "AuthBasicProvider requires at least one argument, specify the auth providers for a directory or location", nil, "", false),
        "DeflateInflateLimitRequestBody": (1...1, "DeflateInflateLimitRequestBody takes one argument, Set a limit on size of inflated input", nil, "", false),
    ]

    /// The authn providers and the modules registering them (names compared exactly).
    static func authnProviderLoaded(_ name: String, _ modules: ModuleSet) -> Bool {
        let byName = ["file": "authn_file", "dbm": "authn_dbm", "anon": "authn_anon", "dbd": "authn_dbd",
                      "socache": "authn_socache", "ldap": "authnz_ldap"]
        return byName[name].map { modules.contains($0) } ?? false
    }

    /// Whether atol reads `word` as below zero (blanks, a sign, digits; saturating as strtol does).
    static func atolIsNegative(_ word: String) -> Bool { strtol64(word.utf8).value < 0 }

    /// A whole decimal number apr_strtoff reads (strtoll to the end), not negative (`+5`, `0`, `-0`).
    static func isNonNegativeInteger(_ word: String) -> Bool {
        let (value, complete) = strtol64(word.utf8)
        return complete && value >= 0
    }

    /// FLAG directives (On/Off) that no module reader of htlint handles itself.
    static let flagDirectives: Set<String> = [
        "ContentDigest", "CGIPassAuth", "QualifyRedirectURL", "AuthzSendForbiddenOnFailure", "AuthBasicAuthoritative",
        "LogIOTrackTTFB",
    ]

    /// ITERATE's check: a first word, not empty (`PassEnv ""` is "requires at least one
    /// argument"); reported on the arguments.
    mutating func hasFirstArgument(_ line: DirectiveLine, _ message: String) -> Bool {
        if line.words.first?.value.isEmpty == false { return true }
        error(ConfigCode.badArguments, message, line.node.argumentsRange)
        return false
    }

    /// Checks the number of arguments; Apache treats an empty first word (`""`) as a missing one.
    mutating func arity(_ line: DirectiveLine, _ range: ClosedRange<Int>, _ message: String) -> Bool {
        let words = line.words
        // invoke_cmd refuses an empty word ("") where one is required: TAKE1/2/3 need every word,
        // TAKE12/23/123 their first ones, ITERATE/ITERATE2 their first (ErrorDocument 404 "" is
        // "takes two arguments").
        let required = range.upperBound == Int.max ? 1 : range.lowerBound
        if range.contains(words.count), !words.prefix(required).contains(where: { $0.value.isEmpty }) { return true }
        error(ConfigCode.badArguments, message, words.isEmpty ? line.node.argumentsRange : words[min(words.count - 1, range.upperBound)].range)
        return false
    }

    /// An `On`/`Off` argument; nil (and an error) for anything else.
    mutating func flag(_ line: DirectiveLine) -> Bool? {
        guard let w = line.words.first, ["on", "off"].contains(w.value.asciiLowercased()) else {
            error(ConfigCode.badArguments, "\(line.info.name) must be On or Off", line.words.first?.range ?? line.node.argumentsRange)
            return nil
        }
        return w.value.asciiLowercased() == "on"
    }
}

/// One directive being read: its node, its catalog entry, and its words (none for
/// `RewriteRule`/`RewriteCond`, which tokenise themselves).
struct DirectiveLine {
    let node: DirectiveNode
    let words: [Word]
    let info: DirectiveInfo
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
