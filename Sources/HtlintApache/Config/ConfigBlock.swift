import HtlintDiagnostics
import HtlintRegex

/// The mod_rewrite part of one configuration object. It exists only when the object holds at
/// least one mod_rewrite directive, which is what decides inheritance (apache-semantics §4.4).
public struct RewriteSettings: Sendable {
    public var engine: Bool? = nil
    public var engineRange: SourceRange? = nil
    /// Lower-cased `RewriteOptions` words; nil when the object set none.
    public var options: Set<String>? = nil
    public var base: String? = nil
    public var baseRange: SourceRange? = nil
    public var rules: [RewriteRule] = []
    /// False in a `<VirtualHost>` without mod_rewrite lines: the server-context hook declines
    /// there (no rules, no SCRIPT_URL, `%f` unset), whatever the main server says.
    public var serverHookRuns = true
    public init() {}
}

/// One `Redirect`-family directive (apache-semantics §8.2).
public struct AliasRedirect: Sendable {
    public enum Matcher: Sendable {
        /// `Redirect [status] /path target`: segment-aware prefix of the URL-path.
        case prefix(String)
        /// `RedirectMatch`: regex search on the URL-path.
        case regex(Regex)
        /// Expression form (`Redirect 301 /target` in a directory context): every request.
        case everything
    }
    public var matcher: Matcher
    public var status: Int
    /// Target URL or path; nil for non-redirect statuses.
    public var target: String?
    public var range: SourceRange
    public var line: Int
    /// The expression form's target as the ap_expr string Apache parses with the file (`%{…}`,
    /// backslash escapes), evaluated per request; nil for the other forms.
    public var targetExpression: ExprWord? = nil
}

/// `Alias target` inside `<Location>` (mod_alias's try_alias): every request the section covers
/// maps to the ap_expr string `target`.
public struct LocationAlias: Sendable {
    public var target: ExprWord
    /// `cgi-script` for `ScriptAlias`.
    public var handler: String?
    /// The `<Location>` path, whose length `AliasPreservePath` strips from the URI; nil for
    /// `<LocationMatch>`, where the path is not kept.
    public var locationPath: String? = nil
}

/// A `Header` directive, enough to know what it sets and when.
public struct HeaderDirective: Sendable {
    /// `always` (error and redirect responses too) or the default `onsuccess`.
    public var always: Bool
    public var action: String
    public var name: String
    /// The value format; for `edit`/`edit*` the replacement.
    public var value: String
    /// A value written `expr=…`: a string expression evaluated per response instead of `value`.
    public var valueExpression: ExprWord? = nil
    /// `edit`/`edit*`: what the replacement replaces; `echo`: the header-name pattern.
    public var editPattern: Regex?
    /// `env=VAR` / `env=!VAR` condition.
    public var envCondition: (name: String, negated: Bool)?
    /// `expr=...` condition, evaluated when the response goes out.
    public var expression: ApExpression?
    /// `early`: applied when the request is read, so only from the virtual host.
    public var early = false
    public var range: SourceRange
}

/// `SetEnvIf attribute regex [!]VAR[=value]...`, or `SetEnvIfExpr expr [!]VAR[=value]...`
/// (then `expression` is set, `attribute` empty and `regex` unused).
public struct SetEnvIfDirective: Sendable {
    public var attribute: String
    public var regex: Regex
    public var assignments: [(name: String, value: String, unset: Bool)]
    public var range: SourceRange
    public var expression: ApExpression? = nil
    /// An attribute with characters outside `[-A-Za-z0-9_]` is, for mod_setenvif, a regular
    /// expression over request header names (caseless), compiled when the file is read.
    public var headerNames: Regex? = nil
    /// A pattern without regex metacharacters (non_regex_pattern): mod_setenvif searches it as a
    /// plain string and sets the values as written (`$1` stays `$1`), its groups untouched.
    public var plainString = false

    /// Whether mod_setenvif's non_regex_pattern takes `pattern` as a plain string: no
    /// `^.$|()[]*+?{}` unless escaped, and a backslash only before one of them (or itself).
    public static func isPlainString(_ pattern: String) -> Bool {
        var escaped = false
        for c in pattern.utf8 {
            switch c {
            case UInt8(ascii: "^"), UInt8(ascii: "."), UInt8(ascii: "$"), UInt8(ascii: "|"), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                 UInt8(ascii: "?"), UInt8(ascii: "{"), UInt8(ascii: "}"):
                if !escaped { return false }
                escaped = false
            case UInt8(ascii: "\\"):
                escaped.toggle()
            default:
                if escaped { return false }
            }
        }
        return true
    }

    /// Whether mod_setenvif takes `attribute` as a pattern over header names.
    public static func namesHeadersByPattern(_ attribute: String) -> Bool {
        !attribute.utf8.allSatisfy { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
            || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}

/// Access control in a block (mod_authz_core `Require`, mod_access_compat `Order/Allow/Deny`).
/// The `Require` forms of a block are the children of an implicit `<RequireAny>`.
public indirect enum AccessDirective: Sendable {
    case require(negated: Bool, kind: String, values: [String], methods: Set<String>?)
    /// `Require [not] expr …`, parsed when the file is read.
    case requireExpr(negated: Bool, expression: ApExpression, methods: Set<String>?)
    /// `<RequireAll>`, `<RequireAny>`, `<RequireNone>` with the authorization lines inside. Its
    /// methods are its children's together, whatever `<Limit>` encloses it (add_authz_section).
    case requireSection(logic: AuthzLogic, children: [AccessDirective])
    /// `Order`, set for the methods of its `<Limit>` only (mod_access_compat's order per method).
    case order(String, methods: Set<String>?)
    case allow(from: [String], methods: Set<String>?)
    case deny(from: [String], methods: Set<String>?)
    /// `Satisfy Any|All` (mod_access_compat): with `Any`, a request the host-based lines let in
    /// needs no `Require` (and no credentials).
    case satisfy(any: Bool, methods: Set<String>?)

    /// Whether this is a `Require` form (not mod_access_compat).
    public var isAuthorization: Bool {
        switch self {
        case .require, .requireExpr, .requireSection: true
        case .order, .allow, .deny, .satisfy: false
        }
    }
}

/// How an authorization container combines its children (mod_authz_core).
public enum AuthzLogic: String, Sendable {
    /// `<RequireAll>`: every child must grant; one denial denies.
    case all = "RequireAll"
    /// `<RequireAny>` (and the top level): one grant is enough.
    case any = "RequireAny"
    /// `<RequireNone>`: `<RequireAny>` negated; it can deny but never grant by itself.
    case none = "RequireNone"
}

/// `Options` changes (`+X`/`-X`, or a plain list that replaces).
public struct OptionsDirective: Sendable {
    public var replace: Set<String>?
    public var add: Set<String> = []
    public var remove: Set<String> = []
}

/// `<Files>`/`<FilesMatch>` with what it contains.
public struct FilesBlock: Sendable {
    public enum Matcher: Sendable {
        /// A pattern apr_fnmatch_test calls one: matched with apr_fnmatch.
        case wildcard(String)
        /// Any other name (no `*` or `?`, no `[…]`, backslashes included): compared byte for byte
        /// with strcmp, so `<Files "a\.html">` names a file called `a\.html`, not `a.html`.
        case literal(String)
        case regex(Regex)
    }
    public var matcher: Matcher
    public var block: ConfigBlock
}

/// `<Location>`/`<LocationMatch>` of a virtual host: matched against the URL-path (`r->uri`),
/// merged after `<Directory>` and `<Files>` (core docs, "How the sections are merged").
public struct LocationBlock: Sendable {
    public enum Matcher: Sendable {
        /// `<Location /path>`: segment-aware prefix (`/old` matches `/old/x`, not `/oldish`).
        case prefix(String)
        /// `<Location /a*/b>`: wildcards, `*` never crossing `/`.
        case wildcard(String)
        /// `<LocationMatch re>` / `<Location ~ re>`: regex search.
        case regex(Regex)

        /// The section's argument as written (cmd->path: the path, pattern or regex).
        public var text: String {
            switch self {
            case .prefix(let p), .wildcard(let p): p
            case .regex(let r): r.pattern
            }
        }
    }
    public var matcher: Matcher
    public var block: ConfigBlock
}

/// `Alias`, `AliasMatch`, `ScriptAlias`, `ScriptAliasMatch` (mod_alias), in configuration order.
public struct AliasEntry: Sendable {
    /// The URL-path prefix, or the pattern text for the regex forms.
    public var url: String
    public var path: String
    /// Set for `AliasMatch`/`ScriptAliasMatch`; the target may use `$1`…
    public var regex: Regex?
    /// `cgi-script` for the `ScriptAlias` forms.
    public var handler: String?
}

/// One `<If>`/`<ElseIf>`/`<Else>` chain; the first true branch applies.
public struct IfChain: Sendable {
    public var branches: [(condition: ApExpression?, block: ConfigBlock, range: SourceRange)]
}

/// Server-only settings from a `<VirtualHost>` or main configuration.
public struct ServerSettings: Sendable {
    public var serverName: String? = nil
    /// The port of the chosen `<VirtualHost>` section's first address when the section names
    /// no `ServerName` of its own: httpd then gives the server that port, so self-referential
    /// URLs carry it (`<VirtualHost *:8080>` behind a proxy: `http://host:8080/…`; recorded by
    /// hand on Apache 2.4.71, spec S11). A section with its own port-less `ServerName`, and the
    /// main server, have none (the scheme's default).
    public var virtualHostAddressPort: Int? = nil
    /// `ServerAdmin`; Apache's compiled-in default when absent is `[no address given]`.
    public var serverAdmin: String? = nil
    public var serverAliases: [String] = []
    public var documentRoot: String? = nil
    public var useCanonicalName: CanonicalName? = nil
    /// `UseCanonicalPhysicalPort On`: without a port in `Host`, the connection's port.
    public var useCanonicalPhysicalPort: Bool? = nil
    public var limitInternalRecursion: Int? = nil
    /// `LimitInternalRecursion`'s second number, or its only one: the subrequest nesting limit.
    public var limitSubrequestNesting: Int? = nil
    /// `AllowEncodedSlashes` (nil: not set, Apache's default Off).
    public var encodedSlashes: EncodedSlashes? = nil
    /// `TraceEnable` (nil: not set, Apache's default On; Debian's security.conf sets Off).
    public var traceEnable: Bool? = nil
    /// `MergeSlashes` (nil: not set, Apache's default On).
    public var mergeSlashes: Bool? = nil
    /// `HttpProtocolOptions Unsafe` (true) or `Strict` (false); nil: not set, Apache's default Strict.
    public var httpProtocolUnsafe: Bool? = nil
    /// `LimitRequestLine` in bytes (nil: not set, Apache's default 8190).
    public var limitRequestLine: Int? = nil
    /// `LimitRequestFieldsize` in bytes (nil: not set, Apache's default 8190).
    public var limitRequestFieldSize: Int? = nil
    /// `LimitRequestFields` (nil: not set, Apache's default 100; 0: no limit).
    public var limitRequestFields: Int? = nil
    /// mod_remoteip (`RemoteIPHeader`, `RemoteIPInternalProxy`, `RemoteIPTrustedProxy`).
    public var remoteIP = RemoteIPSettings()
    /// mod_ssl's handshake settings (`SSLProtocol`, `SSLCipherSuite`, `SSLVerifyClient`, …).
    public var tlsHandshake = TLSHandshakeSettings()
    /// `AccessFileName` (nil: `.htaccess`); in each directory the first name that exists is read.
    public var accessFileNames: [String]? = nil
    /// `Alias` and friends, in order (the first match wins).
    public var aliases: [AliasEntry] = []
    /// `<Location>`/`<LocationMatch>` blocks, in order.
    public var locations: [LocationBlock] = []
    /// `<Directory path>` blocks, in order.
    public var directories: [(path: String, block: ConfigBlock)] = []
    /// `<DirectoryMatch re>` / `<Directory ~ re>` blocks (always `.regex`), in Apache's order:
    /// fewer slashes in the pattern first, then as written (core's reorder_sorter).
    public var directoryMatches: [LocationBlock] = []
    /// `RewriteMap name type:source`, by name (the last definition wins).
    public var rewriteMaps: [String: RewriteMapDefinition] = [:]
    public init() {}
}

/// mod_mime's per-directory lines and core's ForceType / AddDefaultCharset, as written in one
/// configuration object. Extensions are lower-cased without their dot; mod_mime lower-cases the
/// types, charsets, languages and encodings it stores, core lower-cases ForceType's type.
public struct MimeDirectives: Sendable {
    /// `AddType` / `RemoveType` (nil type) in order, the last line for an extension winning.
    public var types: [(ext: String, type: String?)] = []
    /// `AddCharset` / `RemoveCharset` (nil charset); the Remove lines apply after the Add lines.
    public var charsets: [(ext: String, charset: String?)] = []
    /// `AddLanguage` / `RemoveLanguage` (nil language), as the charsets.
    public var languages: [(ext: String, language: String?)] = []
    /// `AddEncoding` / `RemoveEncoding` (nil encoding), as the charsets.
    public var encodings: [(ext: String, encoding: String?)] = []
    /// `DefaultLanguage`, as written (mod_mime keeps its case).
    public var defaultLanguage: String? = nil
    /// `ForceType` (`none` turns an inherited one off).
    public var forceType: String? = nil
    /// `ModMimeUsePathInfo`: mod_mime types the filename with the path info appended.
    public var usePathInfo: Bool? = nil
    /// `MultiviewsMatch` options of one object (lower-cased); the last object that sets it counts.
    public var multiviewsMatch: Set<String>? = nil
    /// `AddHandler` / `RemoveHandler` (nil handler), as the charsets.
    public var handlers: [(ext: String, handler: String?)] = []
    /// `SetHandler` (`none`: no override, an inherited one off).
    public var setHandler: String? = nil
    /// mod_negotiation's `LanguagePriority`: the lines of one block add up; a nested block's list
    /// replaces the enclosing one's.
    public var languagePriority: [String]? = nil
    /// `ForceLanguagePriority`: (prefer, fallback); nil: unset (Prefer).
    public var forceLanguagePriority: (prefer: Bool, fallback: Bool)? = nil
    /// `AddDefaultCharset`: `off`, or the charset (`On` is iso-8859-1).
    public var defaultCharset: String? = nil
    /// `AddOutputFilter` (the filter names) / `RemoveOutputFilter` (nil), as the charsets.
    public var outputFilters: [(ext: String, filters: [String]?)] = []
    /// The object has mod_mime lines (not only core's ForceType/SetHandler/AddDefaultCharset or
    /// mod_negotiation's): it is one of the objects the walk merges (see `MimeWalk`).
    public var modMimeObject = false
    public init() {}
}

/// Everything a configuration object (a `.htaccess` file, or a section inside one) says,
/// grouped by the module that acts on it.
public struct ConfigBlock: Sendable {
    public var rewrite: RewriteSettings? = nil
    public var redirects: [AliasRedirect] = []
    public var redirectRelative: Bool? = nil
    /// A one-argument `Alias`/`ScriptAlias` of a `<Location>` section.
    public var locationAlias: LocationAlias? = nil
    /// `AliasPreservePath`.
    public var aliasPreservePath: Bool? = nil
    public var directorySlash: Bool? = nil
    /// `UseCanonicalName` of a `<Directory>`/`<Location>`/`<If>` section.
    public var canonicalName: CanonicalName? = nil
    /// `UseCanonicalPhysicalPort` of such a section.
    public var canonicalPhysicalPort: Bool? = nil
    /// `DirectoryCheckHandler`: mod_dir leaves a directory with another handler alone.
    public var directoryCheckHandler: Bool? = nil
    /// `DirectoryIndexRedirect`: the status mod_dir answers a found index with (0 for Off).
    public var directoryIndexRedirect: Int? = nil
    /// `IndexOptions Charset=…`: the charset of mod_autoindex's listing.
    public var indexCharset: String? = nil
    /// `IndexIgnore` patterns: entries a listing leaves out without looking them up.
    public var indexIgnore: [String] = []
    /// `IndexIgnoreReset On`: this object's `IndexIgnore` list does not add to the inherited one.
    public var indexIgnoreReset: Bool? = nil
    /// mod_autoindex's option bits as this object's `IndexOptions` lines left them: `None`
    /// set, and other keywords set (both at once is refused, across lines too).
    var indexOptionsNone = false, indexOptionsOthers = false
    public var directoryIndex: [String]? = nil
    /// `FallbackResource`; `"disabled"` turns an inherited one off.
    public var fallbackResource: String? = nil
    public var options: [OptionsDirective] = []
    public var headers: [HeaderDirective] = []
    /// `RequestHeader` lines (mod_headers' fixup, or `early` from the virtual host).
    public var requestHeaders: [HeaderDirective] = []
    public var setEnvIf: [SetEnvIfDirective] = []
    public var access: [AccessDirective] = []
    public var errorDocuments: [Int: String] = [:]
    /// `ErrorDocument` values that hold expression syntax (`%{…}`), parsed as string
    /// expressions (core parses every value so; a plain one evaluates to itself).
    public var errorDocumentExpressions: [Int: ExprWord] = [:]
    /// Where each `ErrorDocument` line stands, for the trace (lint names the line a page came from).
    public var errorDocumentRanges: [Int: SourceRange] = [:]
    /// `AcceptPathInfo`: nil unset; `.some(nil)` for `Default`, which is a value of its own
    /// (AP_REQ_DEFAULT_PATH_INFO) that replaces a parent's On/Off in core's merge.
    public var acceptPathInfo: Bool?? = nil
    /// `LimitRequestBody` in bytes (0: no limit).
    public var limitRequestBody: Int? = nil
    /// `MaxRanges`: 0 for `none`, nil for `unlimited` inside `.some`; the outer nil: not set here.
    public var maxRanges: Int?? = nil
    /// mod_speling's `CheckSpelling`/`CheckCaseOnly`/`CheckBasenameMatch` (nil: none here).
    public var speling: SpelingConfig? = nil
    /// mod_expires' `ExpiresActive`/`ExpiresDefault`/`ExpiresByType` (nil: none here).
    public var expires: ExpiresConfig? = nil
    /// mod_allowmethods' `AllowMethods` (HEAD read as GET; empty: `reset`; nil: none here).
    public var allowMethods: Set<String>? = nil
    /// mod_actions' `Action` lines by lower-cased type or handler, and `Script` lines by method.
    public var actions: [String: ActionTarget] = [:]
    public var methodScripts: [String: String] = [:]
    /// Output filters: `SetOutputFilter`, `AddOutputFilterByType` by media type (only
    /// mod_deflate's DEFLATE changes what htlint answers); `AddOutputFilter` is mod_mime's (`mime`).
    public var outputFilters: [String]? = nil
    public var outputFiltersByType: [String: [String]] = [:]
    /// `AuthType` and `AuthName` (mod_authn_core): how a `Require` that needs a user asks for one.
    public var authType: String? = nil
    public var authName: String? = nil
    /// `AuthName` as the ap_expr string set_authname parses (`%{…}`, backslash escapes, `$1`
    /// empty), nil when it reads as written.
    public var authNameExpression: ExprWord? = nil
    /// `AuthUserFile` (mod_authn_file), as written.
    public var authUserFile: String? = nil
    /// `AuthBasicProvider` (mod_auth_basic), lower-cased; nil is the default, `file`.
    public var authBasicProviders: [String]? = nil
    /// `AuthMerging And|Or` (mod_authz_core): this section's `Require` lines are combined with the
    /// nearest enclosing ones as in `<RequireAll>`/`<RequireAny>`; nil (or Off) replaces them.
    public var authMerging: AuthzLogic? = nil
    /// `AuthMerging Off` written: the object's (possibly empty) `Require` lines replace the
    /// enclosing ones even when it has none.
    public var authMergingOff = false
    /// `SSLRequireSSL` (mod_ssl): a request that did not arrive over TLS is refused.
    public var sslRequired = false
    /// `SSLRequire` (mod_ssl): expressions a request over TLS must satisfy, parent's first.
    public var sslRequirements: [ApExpression] = []
    /// `SSLUserName` (mod_ssl): the variable whose value becomes r->user in the fixups over TLS.
    public var sslUserName: String? = nil
    /// `SSLOptions` (mod_ssl), as this object's lines left its per-directory record.
    public var sslOptions: SSLOptionsSetting? = nil
    /// `SSLVerifyClient` in a directory context (`none`, `optional`, `optional_no_ca`,
    /// `require`): the client verification this directory asks for after the handshake.
    public var sslVerifyClient: String? = nil
    /// `SSLRenegBufferSize` (mod_ssl): how much request body a renegotiation may buffer.
    public var sslRenegBufferSize: Int? = nil
    /// `SSLVerifyClient` outside one: the mode the handshake itself asked for.
    public var sslVerifyClientHandshake: String? = nil
    public var files: [FilesBlock] = []
    public var ifChains: [IfChain] = []
    /// `SetEnv` (mod_env): set in the fixups after mod_rewrite and mod_alias, so never visible to
    /// rewrite conditions (§12); a value already in the environment wins. Last one of a name wins.
    public var setEnv: [(String, String)] = []
    /// mod_mime / ForceType / AddDefaultCharset lines (nil: none).
    public var mime: MimeDirectives? = nil
    /// `UnsetEnv` names (mod_env): drop what enclosing configurations `SetEnv`; a `SetEnv` of the
    /// same name later in the same configuration sets it again.
    public var unsetEnv: [String] = []
    /// `AllowOverride` / `AllowOverrideList` of a `<Directory>` block (nil when it sets none).
    public var allowOverride: AllowOverrideSetting? = nil
    public var allowOverrideList: Set<String>? = nil
    /// Present in server configuration.
    public var server: ServerSettings? = nil
    /// core's per-directory object exists: every section has one, a `.htaccess` once it holds a
    /// core directive. Merged, it re-applies the options removed so far (merge_core_dir_configs).
    public var hasCoreConfig = false
    public init() {}
}

/// A parsed `.htaccess` (or server configuration) file.
public struct ConfigFile: Sendable {
    public var path: String
    public var block: ConfigBlock
    /// Everything found while reading, in file order.
    public var diagnostics: [Diagnostic]
    /// Names `Define`d by the end of the file (with those passed in), for the `.htaccess` files.
    public var defines: Set<String> = []
    /// `Define NAME value` variables by the end of the file (with those passed in).
    public var variables: [String: String] = [:]
    /// The file's `<VirtualHost>` sections (server configuration): with some, each connection is
    /// answered by one of them, and the file is read per connection (`virtualHost:`).
    public var virtualHosts: [VirtualHostSection] = []
    /// The errors Apache meets while it builds the file's tree (ap_build_config: section
    /// structure, conditional sections, over-long lines), in the order it meets them; it stops at
    /// the first of them before it runs any directive.
    public var buildErrors: [Diagnostic] = []
    /// The first error Apache would stop at; requests whose walk reads this file answer 500.
    /// An unterminated quote is reported as an error (it is almost always a typo) but Apache
    /// accepts it, so it does not make the file fail.
    public var fatal: Diagnostic? {
        let fails = { (d: Diagnostic) in d.severity == .error && !ConfigFile.acceptedByApache.contains(d.code) }
        return buildErrors.first(where: fails) ?? diagnostics.first(where: fails)
    }

    /// Error codes htlint reports although Apache reads the file anyway.
    public static let acceptedByApache: Set<String> = ["HT103", "HT104"]
}

/// `UseCanonicalName`: where self-referential URLs take their host name from.
public enum CanonicalName: String, Sendable {
    /// The client's `Host` header (the default).
    case off
    /// ServerName (and its port).
    case on
    /// The name of the local address the connection reached; the port as with Off.
    case dns
}
