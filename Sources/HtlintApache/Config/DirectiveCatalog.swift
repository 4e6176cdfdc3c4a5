/// Which `AllowOverride` category a directive needs in `.htaccess`.
public enum OverrideCategory: String, Sendable {
    case fileInfo = "FileInfo", indexes = "Indexes", options = "Options", authConfig = "AuthConfig"
    case limit = "Limit", any = "All"
    /// Never allowed in `.htaccess` (server configuration only).
    case serverOnly
    /// The main server's configuration only (GLOBAL_ONLY): Apache refuses to start when one
    /// stands inside `<VirtualHost>` ("… cannot occur within <VirtualHost> section").
    case globalOnly
    /// Server configuration and `<Directory>`-type sections (RSRC_CONF|ACCESS_CONF), never
    /// `.htaccess`; read like the per-directory directives of its module.
    case configOnly
}

/// What Apache knows about one directive: the module that defines it and where it may appear.
public struct DirectiveInfo: Sendable {
    /// Canonical spelling.
    public let name: String
    /// Short module name (`rewrite`, `core`, …).
    public let module: String
    public let category: OverrideCategory
    /// RSRC_CONF as well as its override class: a virtual host may set it even where the class
    /// alone (AuthConfig, Limit) would keep it to directory sections.
    public var serverLevel = false
    /// RSRC_CONF alone (no ACCESS_CONF): inside `<Directory>`, `<Location>`, `<Files>` or `<If>`
    /// of the server configuration Apache refuses it ("… not allowed in <Directory> context",
    /// invoke_cmd) and does not start.
    public var notInDirectorySections = false

    /// The name as the module's command table spells it, which Apache's messages show:
    /// mod_access_compat registers `order`, `allow` and `deny` in lower case.
    public var commandName: String {
        module == "access_compat" && name != "Satisfy" ? name.asciiLowercased() : name
    }
}

/// The directives htlint recognises. Names are looked up case-insensitively. A name missing
/// here is reported the way Apache does: `Invalid command '…'` (500 for `.htaccess`).
public enum DirectiveCatalog {
    private static func entries(_ module: String, _ category: OverrideCategory, _ names: [String],
                                serverLevel: Bool = false, notInDirectorySections: Bool = false) -> [DirectiveInfo] {
        names.map { DirectiveInfo(name: $0, module: module, category: category, serverLevel: serverLevel,
                                  notInDirectorySections: notInDirectorySections) }
    }

    public static let all: [String: DirectiveInfo] = {
        var list: [DirectiveInfo] = []
        list += entries("rewrite", .fileInfo, ["RewriteEngine", "RewriteOptions", "RewriteBase", "RewriteCond", "RewriteRule"])
        list += entries("rewrite", .serverOnly, ["RewriteMap"], notInDirectorySections: true)
        list += entries("alias", .fileInfo, ["Redirect", "RedirectMatch", "RedirectTemp", "RedirectPermanent",
                                              "RedirectRelative", "AliasPreservePath"])
        // Alias and ScriptAlias are ACCESS_CONF too (their one-argument form in `<Location>`).
        list += entries("alias", .serverOnly, ["Alias", "ScriptAlias"])
        list += entries("alias", .serverOnly, ["AliasMatch", "ScriptAliasMatch"], notInDirectorySections: true)
        list += entries("dir", .indexes, ["DirectoryIndex", "DirectorySlash", "FallbackResource",
                                           "DirectoryCheckHandler", "DirectoryIndexRedirect"])
        list += entries("headers", .fileInfo, ["Header", "RequestHeader"])
        list += entries("setenvif", .fileInfo, ["SetEnvIf", "SetEnvIfNoCase", "SetEnvIfExpr", "BrowserMatch",
                                                 "BrowserMatchNoCase"])
        list += entries("env", .fileInfo, ["SetEnv", "UnsetEnv", "PassEnv"])
        list += entries("mime", .fileInfo, ["AddType", "AddHandler", "RemoveHandler", "RemoveType", "AddEncoding",
                                             "AddCharset", "AddLanguage", "AddOutputFilter", "AddInputFilter",
                                             "RemoveOutputFilter", "DefaultLanguage", "MultiviewsMatch", "RemoveEncoding",
                                             "RemoveCharset", "RemoveLanguage", "RemoveInputFilter"])
        list += entries("mime", .serverOnly, ["ModMimeUsePathInfo"])
        list += entries("mime", .serverOnly, ["TypesConfig"], notInDirectorySections: true)
        // Override classes as core.c declares them (recorded: ovr-* hunt 24 cases, fixture
        // allowoverride-core-and-ssl-directive-classes): ContentDigest is OR_OPTIONS, CGIPassAuth
        // OR_AUTHCFG, EnableSendfile/EnableMMAP/QualifyRedirectURL OR_FILEINFO, RLimit* OR_ALL.
        list += entries("core", .fileInfo, ["ErrorDocument", "ForceType", "SetHandler", "AcceptPathInfo",
                                             "AddDefaultCharset", "DefaultType", "FileETag", "SetInputFilter", "SetOutputFilter",
                                             "CGIVar", "EnableSendfile", "EnableMMAP", "QualifyRedirectURL"])
        list += entries("core", .authConfig, ["CGIPassAuth"])
        list += entries("core", .options, ["Options", "ContentDigest"])
        list += entries("core", .any, ["LimitRequestBody", "LimitXMLRequestBody", "ServerSignature",
                                        "RLimitCPU", "RLimitMEM", "RLimitNPROC"])
        // RSRC_CONF|ACCESS_CONF (server and <Directory>, never `.htaccess`): "… not allowed here".
        list += entries("core", .configOnly, ["Define", "UnDefine", "LogLevel", "MaxRanges", "MaxRangeOverlaps", "MaxRangeReversals"])
        // RSRC_CONF|ACCESS_CONF: a `<Directory>` of the server configuration may hold them.
        list += entries("core", .serverOnly, [
            "UseCanonicalName", "UseCanonicalPhysicalPort", "AllowOverride", "AllowOverrideList", "HostnameLookups",
            "Include", "IncludeOptional", "ReadBufferSize",
        ])
        // RSRC_CONF alone, refused in a `<Directory>`, `<Location>`, `<Files>` or `<If>` (each
        // recorded with Apache 2.4); the rest are server-level too but not recorded there.
        list += entries("core", .serverOnly, [
            "ServerName", "ServerAlias", "ServerAdmin", "DocumentRoot", "LimitInternalRecursion", "AccessFileName",
            "ErrorLog", "ErrorLogFormat", "KeepAlive", "Timeout", "KeepAliveTimeout", "MaxKeepAliveRequests", "TraceEnable",
            "MergeSlashes", "AllowEncodedSlashes", "LimitRequestLine", "LimitRequestFields", "LimitRequestFieldsize",
            "Protocols", "HttpProtocolOptions", "MergeTrailers", "StrictHostCheck", "ServerPath", "FlushMaxThreshold",
            "FlushMaxPipelined",
        ], notInDirectorySections: true)
        list += entries("core", .serverOnly, ["ServerRoot", "LoadModule", "ProtocolsHonorOrder", "DefaultRuntimeDir",
                                              "NameVirtualHost", "Protocol"])
        list += entries("log_config", .serverOnly, ["LogFormat", "CustomLog", "TransferLog"], notInDirectorySections: true)
        list += entries("log_config", .serverOnly, ["BufferedLogs"])
        list += entries("log_config", .globalOnly, ["GlobalLog"])
        list += entries("logio", .any, ["LogIOTrackTTFB"])
        list += entries("so", .serverOnly, ["LoadFile"])
        list += entries("unixd", .globalOnly, ["ChrootDir", "Suexec"])
        list += entries("watchdog", .globalOnly, ["WatchdogInterval"])
        // GLOBAL_ONLY, core and the MPM's (prefork, as recorded) — each refused inside a
        // <VirtualHost> with "… cannot occur within <VirtualHost> section" (recorded with
        // `apache2 -t`; tests in ServerContextTests).
        list += entries("core", .globalOnly, [
            "Listen", "ListenBacklog", "ListenCoresBucketsRatio", "ReceiveBufferSize", "SendBufferSize", "AcceptFilter",
            "ServerTokens", "RegexDefaultOptions", "RegisterHttpMethod", "Mutex", "PidFile", "User", "Group",
            "ExtendedStatus", "SeeRequestTail", "ScoreBoardFile", "MaxMemFree", "CoreDumpDirectory", "GracefulShutdownTimeout",
            "StartServers", "ServerLimit", "MaxRequestWorkers", "MaxClients", "MaxConnectionsPerChild", "MaxRequestsPerChild",
            // core.c's too, for every MPM (recorded: section-ifdirective-threadstacksize-is-core).
            "ThreadStackSize",
        ])
        // Each MPM's own: Debian's stock server runs event, the recordings prefork.
        list += entries("mpm_prefork", .globalOnly, ["MinSpareServers", "MaxSpareServers"])
        list += entries("mpm_event", .globalOnly, ["ThreadsPerChild", "ThreadLimit", "MinSpareThreads", "MaxSpareThreads",
                                                   "AsyncRequestWorkerFactor"])
        // `Error "message"` stops reading with that message wherever it is read (OR_ALL).
        list += entries("core", .any, ["Error"])
        list += entries("cgi", .serverOnly, ["ScriptLog", "ScriptLogLength", "ScriptLogBuffer"])
        list += entries("authz_core", .authConfig, ["Require", "AuthMerging", "AuthzSendForbiddenOnFailure"])
        // AuthType and AuthName moved from core to mod_authn_core in 2.4.
        list += entries("authn_core", .authConfig, ["AuthName", "AuthType"])
        list += entries("auth_basic", .authConfig, ["AuthBasicProvider", "AuthBasicAuthoritative", "AuthBasicFake",
                                                    "AuthBasicUseDigestAlgorithm"])
        list += entries("authn_file", .authConfig, ["AuthUserFile"])
        list += entries("authz_groupfile", .authConfig, ["AuthGroupFile"])
        list += entries("access_compat", .limit, ["Order", "Allow", "Deny"])
        // Satisfy is OR_AUTHCFG (mod_access_compat): AllowOverride Limit refuses it (recorded:
        // allowoverride-satisfy-is-authconfig).
        list += entries("access_compat", .authConfig, ["Satisfy"])
        list += entries("expires", .indexes, ["ExpiresActive", "ExpiresByType", "ExpiresDefault"])
        // Other modules' classes as recorded (hunt 24 cat-* cases, fixture
        // allowoverride-module-directive-classes).
        list += entries("deflate", .serverOnly, ["DeflateCompressionLevel", "DeflateBufferSize", "DeflateFilterNote",
                                                 "DeflateAlterEtag", "DeflateMemLevel", "DeflateWindowSize"])
        list += entries("deflate", .any, ["DeflateInflateLimitRequestBody", "DeflateInflateRatioLimit", "DeflateInflateRatioBurst"])
        list += entries("filter", .fileInfo, ["AddOutputFilterByType"])
        list += entries("filter", .options, ["FilterDeclare", "FilterProvider", "FilterChain", "FilterProtocol"])
        list += entries("filter", .configOnly, ["FilterTrace"])
        list += entries("autoindex", .indexes, ["IndexOptions", "IndexIgnore", "AddIcon", "AddDescription",
                                                 "HeaderName", "ReadmeName", "IndexOrderDefault", "DefaultIcon",
                                                 "AddAlt", "AddAltByType", "AddAltByEncoding", "AddIconByType",
                                                 "AddIconByEncoding", "IndexHeadInsert", "IndexIgnoreReset", "IndexStyleSheet"])
        list += entries("include", .options, ["XBitHack"])
        list += entries("include", .any, ["SSIErrorMsg", "SSITimeFormat", "SSIUndefinedEcho"])
        list += entries("include", .limit, ["SSIEtag", "SSILastModified", "SSILegacyExprParser"])
        list += entries("include", .serverOnly, ["SSIStartTag", "SSIEndTag"])
        list += entries("actions", .fileInfo, ["Action"])
        list += entries("actions", .configOnly, ["Script"])
        list += entries("auth_digest", .authConfig, ["AuthDigestProvider", "AuthDigestDomain", "AuthDigestNonceLifetime",
                                                     "AuthDigestAlgorithm", "AuthDigestQop"])
        list += entries("auth_digest", .serverOnly, ["AuthDigestShmemSize"])
        list += entries("authn_anon", .authConfig, ["Anonymous", "Anonymous_MustGiveEmail", "Anonymous_LogEmail",
                                                    "Anonymous_VerifyEmail", "Anonymous_NoUserID"])
        list += entries("charset_lite", .fileInfo, ["CharsetSourceEnc", "CharsetDefault", "CharsetOptions"])
        list += entries("substitute", .fileInfo, ["Substitute", "SubstituteMaxLineLength", "SubstituteInheritBefore"])
        list += entries("usertrack", .fileInfo, ["CookieTracking", "CookieName", "CookieExpires", "CookieDomain",
                                                 "CookieStyle", "CookieSameSite", "CookieHttpOnly", "CookieSecure"])
        list += entries("userdir", .serverOnly, ["UserDir"])
        list += entries("mime_magic", .serverOnly, ["MimeMagicFile"])
        list += entries("negotiation", .serverOnly, ["CacheNegotiatedDocs"])
        list += entries("request", .configOnly, ["KeptBodySize"])
        list += entries("allowmethods", .configOnly, ["AllowMethods"])
        list += entries("speling", .options, ["CheckSpelling", "CheckCaseOnly", "CheckBasenameMatch"])
        list += entries("negotiation", .fileInfo, ["LanguagePriority", "ForceLanguagePriority"])
        list += entries("php", .options, ["php_value", "php_flag"])
        list += entries("php", .serverOnly, ["php_admin_value", "php_admin_flag"])
        // mod_ssl's SSL_CMD_DIR(…, AUTHCFG) directives, and its SSL_CMD_ALL (RSRC_CONF|OR_AUTHCFG)
        // ones, which a virtual host may set too (recorded with `apache2 -t`).
        list += entries("ssl", .authConfig, ["SSLRequireSSL", "SSLRequire", "SSLRenegBufferSize"])
        list += entries("ssl", .authConfig, ["SSLUserName", "SSLCipherSuite", "SSLVerifyClient", "SSLVerifyDepth"], serverLevel: true)
        list += entries("ssl", .options, ["SSLOptions"])
        list += entries("ssl", .serverOnly, [
            "SSLEngine", "SSLCertificateFile", "SSLCertificateKeyFile", "SSLCertificateChainFile", "SSLProtocol",
            "SSLCACertificateFile", "SSLCACertificatePath", "SSLCADNRequestFile", "SSLCADNRequestPath",
            "SSLCARevocationCheck", "SSLCARevocationFile", "SSLCARevocationPath", "SSLCompression", "SSLHonorCipherOrder",
            "SSLInsecureRenegotiation", "SSLOpenSSLConfCmd", "SSLSessionCacheTimeout", "SSLSessionTicketKeyFile",
            "SSLSessionTickets", "SSLStrictSNIVHostCheck", "SSLSRPUnknownUserSeed", "SSLSRPVerifierFile",
            "SSLOCSPEnable", "SSLOCSPDefaultResponder", "SSLOCSPOverrideResponder", "SSLOCSPResponderTimeout",
            "SSLOCSPResponseMaxAge", "SSLOCSPResponseTimeSkew", "SSLOCSPUseRequestNonce",
            "SSLUseStapling", "SSLStaplingErrorCacheTimeout", "SSLStaplingFakeTryLater", "SSLStaplingForceURL",
            "SSLStaplingResponderTimeout", "SSLStaplingResponseMaxAge", "SSLStaplingResponseTimeSkew",
            "SSLStaplingReturnResponderErrors", "SSLStaplingStandardCacheTimeout",
            "SSLProxyEngine", "SSLProxyVerify", "SSLProxyVerifyDepth", "SSLProxyCheckPeerCN", "SSLProxyCheckPeerName",
            "SSLProxyCheckPeerExpire", "SSLProxyProtocol", "SSLProxyCipherSuite", "SSLProxyCACertificateFile",
            "SSLProxyCACertificatePath", "SSLProxyCARevocationCheck", "SSLProxyCARevocationFile", "SSLProxyCARevocationPath",
            "SSLProxyMachineCertificateFile", "SSLProxyMachineCertificatePath", "SSLProxyMachineCertificateChainFile",
        ])
        list += entries("ssl", .globalOnly, ["SSLCryptoDevice", "SSLFIPS", "SSLPassPhraseDialog", "SSLRandomSeed",
                                             "SSLSessionCache", "SSLStaplingCache"])
        list += entries("reqtimeout", .serverOnly, ["RequestReadTimeout"], notInDirectorySections: true)
        list += entries("remoteip", .serverOnly, ["RemoteIPHeader", "RemoteIPInternalProxy", "RemoteIPTrustedProxy"])
        list += entries("proxy", .serverOnly, ["ProxyPass", "ProxyPassReverse", "ProxyPreserveHost", "ProxyRequests"])
        list += entries("version", .any, [])
        var map: [String: DirectiveInfo] = [:]
        for info in list { map[info.name.asciiLowercased()] = info }
        return map
    }()

    /// Looks up a directive by name, case-insensitively.
    public static func info(_ name: String) -> DirectiveInfo? { all[name.asciiLowercased()] }
}
