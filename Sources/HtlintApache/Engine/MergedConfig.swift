import Foundation
import HtlintDiagnostics

/// The rewrite configuration in effect for a directory after merging (apache-semantics §4.4).
struct EffectiveRewrite {
    var engine: Bool
    var options: Set<String>
    var base: String?
    /// Apache's `options_set` / `baseurl_set`: a merge sets `baseurl_set` only under MergeBase,
    /// so a base merged without it does not survive a later MergeBase merge.
    var optionsSet: Bool
    var baseSet: Bool
    var rules: [RewriteRule]
    /// D: the directory of the most specific object holding a mod_rewrite directive, with a
    /// trailing slash; `*If/` for rules inside `<If>`.
    var directory: String
    /// Identity of the rule list, for the compiled-rule cache.
    var key: String
}

/// A mod_rewrite configuration as config_perdir_merge takes its `overrides`: one configuration
/// object's own lines, or the objects one walk matched, merged among themselves first
/// (ap_location_walk, ap_file_walk and ap_if_walk_sub merge their matches together and only
/// then onto the request's configuration).
struct RewriteOverride {
    var engine: Bool?
    var options: Set<String>?
    var base: String?
    var baseSet: Bool
    var rules: [RewriteRule]
    var directory: String
    var key: String

    init(_ rw: RewriteSettings, directory: String, key: String) {
        engine = rw.engine
        options = rw.options
        base = rw.base
        baseSet = rw.base != nil
        rules = rw.rules
        self.directory = directory
        self.key = key
    }

    /// config_perdir_merge(self, next): both objects of one walk, neither yet on the request's
    /// configuration (state and options stay unset when neither sets them).
    func then(_ next: RewriteOverride) -> RewriteOverride {
        var merged = next
        merged.engine = next.engine ?? engine
        merged.options = next.options ?? options
        let opts = merged.options ?? []
        let ignore = opts.contains("ignoreinherit")
        let mine = options ?? []
        if opts.contains("inherit") || (mine.contains("inheritdown") && !ignore) {
            merged.rules = next.rules + rules
            merged.key = next.key + "+" + key
        } else if opts.contains("inheritbefore") || (mine.contains("inheritdownbefore") && !ignore) {
            merged.rules = rules + next.rules
            merged.key = key + "+" + next.key
        }
        if opts.contains("mergebase") {
            if !next.baseSet { merged.base = base }
            merged.baseSet = next.baseSet || baseSet
        } else {
            merged.baseSet = false
        }
        return merged
    }
}

/// The per-directory configuration of one request after the directory walk, `<Files>` and `<If>`.
///
/// Every walk result, cached walk and request record holds one, and most are never changed
/// after the walk: the fields live in one shared box that a copy only retains, and the first
/// change to a shared copy duplicates the box (copy on write). Fields read as `config.name`.
@dynamicMemberLookup
struct MergedConfig {
    private final class Box: @unchecked Sendable {
        // Only ever changed once `makeBoxUnique` made it this copy's own.
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
    private var box: Box

    init(directoryIndex: [String]) {
        box = Box(Fields(directoryIndex: directoryIndex))
    }

    /// AP_DEFAULT_MAX_RANGES: `MaxRanges default`, and the value when none is set.
    static let defaultMaxRanges = 200

    subscript<T>(dynamicMember field: WritableKeyPath<Fields, T>) -> T {
        get { box.fields[keyPath: field] }
        _modify {
            makeBoxUnique()
            yield &box.fields[keyPath: field]
        }
    }

    /// Fields derived from others (read only).
    subscript<T>(dynamicMember field: KeyPath<Fields, T>) -> T { box.fields[keyPath: field] }

    private mutating func makeBoxUnique() {
        if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
    }

    // The merges themselves are `Fields`' (below); these make the box this copy's own first.

    mutating func mergeRewriteOntoVhost(options vhostOptions: Set<String>?) {
        makeBoxUnique()
        box.fields.mergeRewriteOntoVhost(options: vhostOptions)
    }

    /// Takes the rewrite configuration back to the walk's own merge (before the virtual host's).
    mutating func reopenWalkRewrite() {
        makeBoxUnique()
        box.fields.rewrite = box.fields.walkRewrite
    }

    mutating func mergeRewrite(_ o: RewriteOverride, defaultEngine: Bool) {
        makeBoxUnique()
        box.fields.mergeRewrite(o, defaultEngine: defaultEngine)
    }

    mutating func merge(_ block: ConfigBlock, directory: String, key: String, defaultEngine: Bool) {
        makeBoxUnique()
        box.fields.merge(block, directory: directory, key: key, defaultEngine: defaultEngine)
    }

    /// A walk (directory, file, location or one level of `<If>`) ends: its objects, merged among
    /// themselves, were merged onto the request's configuration, and the next walk starts anew.
    mutating func endWalk() {
        guard box.fields.mimeWalk != nil else { return }
        makeBoxUnique()
        box.fields.mimeWalk = nil
    }
}

extension MergedConfig {
    struct Fields {
        var rewrite: EffectiveRewrite?
        /// `rewrite` as the directory walk's own objects merged it, before the merge onto the
        /// virtual host: matching `<DirectoryMatch>` sections join those objects first.
        var walkRewrite: EffectiveRewrite?
        /// Deepest configuration first (mod_alias merge order, apache-semantics §8.3).
        var redirects: [AliasRedirect] = []
        var redirectExpression: AliasRedirect?
        var redirectRelative = false
        var locationAlias: LocationAlias?
        var aliasPreservePath = false
        var directorySlash = true
        /// A section's `UseCanonicalName`; nil: the server's.
        var canonicalName: CanonicalName?
        /// A section's `UseCanonicalPhysicalPort`; nil: the server's.
        var canonicalPhysicalPort: Bool?
        var directoryCheckHandler = false
        var directoryIndexRedirect = 0
        var indexCharset: String?
        var indexIgnore: [String] = []
        var directoryIndex: [String]
        var fallbackResource: String?
        var options: Set<String> = ["followsymlinks"] {
            didSet { (linksAllowed, multiViews) = Fields.hotOptions(options) }
        }
        /// FollowSymLinks or SymLinksIfOwnerMatch, and MultiViews: asked on every pass, so kept
        /// as flags beside `options` (a set look-up hashes the word).
        private(set) var linksAllowed = true, multiViews = false
        /// core's opts_add / opts_remove: the `+`/`-` options merged so far, kept apart from
        /// `options` because merge_core_dir_configs re-applies them at every core object.
        var optionsAdd: Set<String> = []
        var optionsRemove: Set<String> = []
        var headers: [HeaderDirective] = []
        var requestHeaders: [HeaderDirective] = []
        var setEnvIf: [SetEnvIfDirective] = []
        /// Access directives of the deepest configuration that has any.
        var access: [AccessDirective] = []
        var errorDocuments: [Int: String] = [:]
        var errorDocumentExpressions: [Int: ExprWord] = [:]
        var errorDocumentRanges: [Int: SourceRange] = [:]
        var acceptPathInfo: Bool?
        var limitRequestBody = 0
        /// `MaxRanges` (nil: unlimited).
        var maxRanges: Int? = MergedConfig.defaultMaxRanges
        var speling: SpelingConfig?
        var expires: ExpiresConfig?
        var allowMethods: Set<String>?
        var actions: [String: ActionTarget] = [:]
        var methodScripts: [String: String] = [:]
        var outputFilters: [String]?
        var outputFiltersByType: [String: [String]] = [:]
        var authType: String?
        var authName: String?
        var authNameExpression: ExprWord?
        var authUserFile: String?
        var authBasicProviders: [String]?
        var sslRequired = false
        var sslRequirements: [ApExpression] = []
        var sslUserName: String?
        var sslVerifyClient: String?
        /// DEFAULT_RENEG_BUFFER_SIZE unless a directory sets it.
        var sslRenegBufferSize = 128 * 1024
        /// mod_ssl's nOptions, nOptionsAdd and nOptionsDel as merged so far.
        var sslOptions = SSLOptionsSetting()
        var setEnv: [(String, String)] = []
        /// Per-directory content types (nil: no mime line anywhere, Debian's mime.types only).
        var mime: MimeConfig? = nil
        /// mod_mime's objects merged so far by the walk under way (see `MimeWalk`); nil between walks.
        var mimeWalk: MimeWalk? = nil
        /// The configuration objects merged, in order. Apache's walk caches hand an internal
        /// redirect that matches the same objects the very same merged configuration.
        var objectKeys: [String] = []

        init(directoryIndex: [String]) {
            self.directoryIndex = directoryIndex
        }

        /// ap_directory_walk merges the `<Directory>` sections and `.htaccess` files among themselves
        /// and only then onto the virtual host's defaults, where its `RewriteOptions` apply when no
        /// object below set any. Under MergeBase that last merge keeps the base only if `baseurl_set`
        /// (fixtures/apache/rewrite-base-vhost-mergebase-drops-merged-base,
        /// rewrite-base-mergebase-dropped-after-plain-merge).
        mutating func mergeRewriteOntoVhost(options vhostOptions: Set<String>?) {
            walkRewrite = rewrite
            guard var rw = rewrite else { return }
            if !rw.optionsSet, let vhostOptions {
                rw.options = vhostOptions
                rw.optionsSet = true
            }
            if !rw.options.contains("mergebase") {
                rw.baseSet = false
            } else if !rw.baseSet {
                rw.base = nil
            }
            rewrite = rw
        }

        /// config_perdir_merge with what is here as the base and `o` as the overrides.
        mutating func mergeRewrite(_ o: RewriteOverride, defaultEngine: Bool) {
            let parent = rewrite
            let engine = o.engine ?? parent?.engine ?? defaultEngine
            let options = o.options ?? parent?.options ?? []
            let parentOptions = parent?.options ?? []
            var rules = o.rules
            var ruleKey = o.key
            // config_perdir_merge: a configuration without RewriteOptions keeps its parent's
            // options, so an inherited `Inherit`/`InheritBefore` merges the parent's rules again.
            if let parent {
                let ignore = options.contains("ignoreinherit")
                if options.contains("inherit") || (parentOptions.contains("inheritdown") && !ignore) {
                    rules = rules + parent.rules
                    ruleKey = o.key + "+" + parent.key
                } else if options.contains("inheritbefore") || (parentOptions.contains("inheritdownbefore") && !ignore) {
                    rules = parent.rules + rules
                    ruleKey = parent.key + "+" + o.key
                }
            }
            var base = o.base
            // The first object is taken as it is (baseurl_set iff it has a RewriteBase).
            var baseSet = o.baseSet
            if let parent {
                if options.contains("mergebase") {
                    if !o.baseSet { base = parent.base }
                    baseSet = baseSet || parent.baseSet
                } else {
                    baseSet = false
                }
            }
            rewrite = EffectiveRewrite(engine: engine, options: options, base: base,
                                       optionsSet: o.options != nil || (parent?.optionsSet ?? false), baseSet: baseSet,
                                       rules: rules, directory: o.directory, key: o.directory + "|" + ruleKey)
        }

        /// Merges `block` (a configuration object for `directory`) over what is here.
        mutating func merge(_ block: ConfigBlock, directory: String, key: String, defaultEngine: Bool) {
            objectKeys.append(key)
            if let rw = block.rewrite {
                mergeRewrite(RewriteOverride(rw, directory: directory, key: key), defaultEngine: defaultEngine)
            }
            if !block.redirects.isEmpty {
                let everything = block.redirects.filter { if case .everything = $0.matcher { true } else { false } }
                let listed = block.redirects.filter { if case .everything = $0.matcher { false } else { true } }
                if let last = everything.last { redirectExpression = last }
                redirects = listed + redirects
            }
            if let r = block.redirectRelative { redirectRelative = r }
            if let a = block.locationAlias { locationAlias = a }
            if let p = block.aliasPreservePath { aliasPreservePath = p }
            if let s = block.directorySlash { directorySlash = s }
            if let c = block.canonicalName { canonicalName = c }
            if let p = block.canonicalPhysicalPort { canonicalPhysicalPort = p }
            if let c = block.directoryCheckHandler { directoryCheckHandler = c }
            if let s = block.directoryIndexRedirect { directoryIndexRedirect = s }
            if let c = block.indexCharset { indexCharset = c }
            // merge_autoindex_configs appends the inherited list unless IndexIgnoreReset is on.
            if block.indexIgnoreReset == true { indexIgnore = block.indexIgnore } else { indexIgnore += block.indexIgnore }
            if let i = block.directoryIndex { directoryIndex = i }
            if let f = block.fallbackResource { fallbackResource = f.asciiLowercased() == "disabled" ? nil : f }
            if block.hasCoreConfig || !block.options.isEmpty { mergeCoreOptions(block.options) }
            // `early` headers are applied before the directory walk: never from here.
            headers += block.headers.filter { !$0.early }
            if !block.requestHeaders.isEmpty { requestHeaders += block.requestHeaders.filter { !$0.early } }
            setEnvIf += block.setEnvIf
            // mod_access_compat (Order/Allow/Deny/Satisfy) and mod_authz_core (Require) are separate
            // modules: a configuration without any line of one keeps the enclosing one's lines of it,
            // so `Require all granted` below does not lift an inherited `Deny from all`.
            // merge_authz_core_dir_config keeps the parent's section only for an object that set
            // neither `Require` nor `AuthMerging`: under `AuthMerging Off` alone nothing is required
            // (recorded: access-authmerging-off-without-require).
            if !block.access.isEmpty || block.authMergingOff {
                let compat = block.access.contains { !$0.isAuthorization }
                    ? block.access.filter { !$0.isAuthorization } : access.filter { !$0.isAuthorization }
                let inherited = access.filter(\.isAuthorization)
                var authz = block.access.filter(\.isAuthorization)
                if authz.isEmpty {
                    authz = block.authMergingOff ? [] : inherited
                } else if let logic = block.authMerging {
                    // `AuthMerging And|Or`: both sets of lines, each an implicit `<RequireAny>`, in
                    // a `<RequireAll>`/`<RequireAny>` (merge_authz_core_dir_config). With no line
                    // above, the parent is the server's `Require all granted` for the document root
                    // (recorded: access-authmerging-or-server-grant).
                    let parent = inherited.isEmpty ? [AccessDirective.require(negated: false, kind: "all", values: ["granted"], methods: nil)] : inherited
                    authz = [.requireSection(logic: logic, children: [.requireSection(logic: .any, children: parent),
                                                                      .requireSection(logic: .any, children: authz)])]
                }
                access = compat + authz
            }
            if !block.errorDocuments.isEmpty {
                errorDocuments.merge(block.errorDocuments) { _, new in new }
                errorDocumentRanges.merge(block.errorDocumentRanges) { _, new in new }
                for code in block.errorDocuments.keys { errorDocumentExpressions[code] = block.errorDocumentExpressions[code] }
            }
            // `AcceptPathInfo Default` below an `On` gives the handler's default back (recorded:
            // nested-acceptpathinfo-default-overrides-parent).
            if let a = block.acceptPathInfo { acceptPathInfo = a }
            if let l = block.limitRequestBody { limitRequestBody = l }
            if let m = block.maxRanges { maxRanges = m }
            // mod_speling has no merge function: the deepest object with any of its directives
            // replaces the whole configuration (recorded: negotiation-speling-config-replaced).
            if let s = block.speling { speling = s }
            if let m = block.allowMethods { allowMethods = m }
            // mod_actions' merge: the child's entries overlay the parent's.
            actions.merge(block.actions) { _, new in new }
            methodScripts.merge(block.methodScripts) { _, new in new }
            if let f = block.outputFilters { outputFilters = f }
            outputFiltersByType.merge(block.outputFiltersByType) { old, new in old + new }
            if let e = block.expires { expires = expires.map { e.merged(over: $0) } ?? e }
            if let t = block.authType { authType = t }
            if let n = block.authName { authName = n; authNameExpression = block.authNameExpression }
            if let f = block.authUserFile { authUserFile = f }
            if let p = block.authBasicProviders { authBasicProviders = p }
            if block.sslRequired { sslRequired = true }
            // cfgMergeArray: the enclosing object's requirements, then this one's.
            sslRequirements += block.sslRequirements
            if let n = block.sslUserName { sslUserName = n }
            if let v = block.sslVerifyClient { sslVerifyClient = v }
            if let b = block.sslRenegBufferSize { sslRenegBufferSize = b }
            if let o = block.sslOptions { sslOptions = o.merged(over: sslOptions) }
            if let m = block.mime {
                var effective = mime ?? MimeConfig()
                effective.mergeSettings(m)
                if m.modMimeObject {
                    var walk = mimeWalk ?? MimeWalk(before: effective)
                    walk.merge(m)
                    effective.setTables(walk.result)
                    mimeWalk = walk
                }
                mime = effective
            }
            // mod_env's merge: the parent's variables less this block's `UnsetEnv`, then its `SetEnv`.
            setEnv.removeAll { v in block.unsetEnv.contains { equalsIgnoringASCIICase($0, v.0) } }
            for (name, value) in block.setEnv {
                setEnv.removeAll { equalsIgnoringASCIICase($0.0, name) }
                setEnv.append((name, value))
            }
        }
    }
}

/// The result of the directory walk for one filename (apache-semantics §3).
struct WalkResult {
    var filename: String
    var pathInfo: String
    var config: MergedConfig
    /// A file Apache could not read: every request through it answers 500.
    var fatal: FatalConfig?
    /// The directory whose `.htaccess` failed; the walk stops there (with a trailing slash).
    var fatalDirectory: String?
    /// A symbolic link on the path whose target is missing: Apache's walk answers 403 (AH00037).
    var danglingLink: String? = nil
    /// A path component longer than NAME_MAX: ap_directory_walk answers 403 (AH00036).
    var nameTooLong: String? = nil
    /// Objects holding `<Files>`/`<If>` sections, in merge order (virtual host first).
    var sections: [SectionSource] = []
}

/// A configuration file Apache cannot read and the error it stops at. A reference: walk results
/// are copied several times a pass, and a file held inline made each copy a kilobyte memcpy.
final class FatalConfig: Sendable {
    let file: ConfigFile
    let diagnostic: Diagnostic
    /// Apache could not open the file at all (a directory, a link cycle): 403 with AH00529
    /// instead of the 500 of a file it read.
    let unopenable: Bool
    init(file: ConfigFile, diagnostic: Diagnostic, unopenable: Bool = false) {
        self.file = file
        self.diagnostic = diagnostic
        self.unopenable = unopenable
    }
}

/// A configuration object with `<Files>` or `<If>` sections; `key` names it for rule caches.
struct SectionSource {
    var key: String
    var block: ConfigBlock
}

/// The merged configuration of a directory and its sections (cached per directory).
struct MergedWalk {
    var config: MergedConfig
    var fatal: FatalConfig?
    var fatalDirectory: String?
    var sections: [SectionSource] = []
}

extension MergedConfig.Fields {
    /// `linksAllowed` and `multiViews` for an Options set.
    static func hotOptions(_ options: Set<String>) -> (linksAllowed: Bool, multiViews: Bool) {
        (options.contains("followsymlinks") || options.contains("symlinksifownermatch"), options.contains("multiviews"))
    }

    /// The option words an `Options` word list stands for: `All` is OPT_ALL, `None` nothing.
    static func expandedOptions(_ words: Set<String>) -> Set<String> {
        var set = words
        if set.contains("all") { set.formUnion(["indexes", "includes", "followsymlinks", "execcgi"]) }
        set.remove("all"); set.remove("none")
        return set
    }

    /// One configuration object's core options merged on (core.c): set_options keeps opts_add /
    /// opts_remove across an object's lines (a plain list resets opts only); merge_core_dir_configs
    /// copies an object with a plain list, and otherwise folds its +/- into the inherited ones and
    /// re-applies them all to opts, so a removal an explicit list did not clear comes back
    /// (recorded: nested-options-stale-removal-reapplied).
    mutating func mergeCoreOptions(_ lines: [OptionsDirective]) {
        var own: Set<String> = [], add: Set<String> = [], remove: Set<String> = [], explicit = false
        for o in lines {
            // Plain words add up after a reset to None: `All MultiViews` keeps MultiViews
            // (recorded: negotiation-options-plain-words-add-up).
            if let replace = o.replace { own = Self.expandedOptions(replace); explicit = true }
            let plus = Self.expandedOptions(o.add), minus = Self.expandedOptions(o.remove)
            add.formUnion(plus); remove.subtract(plus); own.formUnion(plus)
            remove.formUnion(minus); add.subtract(minus); own.subtract(minus)
        }
        if explicit {
            (options, optionsAdd, optionsRemove) = (own, add, remove)
        } else {
            optionsAdd = optionsAdd.subtracting(remove).union(add)
            optionsRemove = optionsRemove.subtracting(add).union(remove)
            options = options.subtracting(optionsRemove).union(optionsAdd)
        }
    }
}
