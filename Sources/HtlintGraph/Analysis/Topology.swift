import HtlintApache
import HtlintSimulation

/// What the variables of a request can be when it reaches Apache, given the site and the layer
/// in front of it: `%{HTTPS}` is always `off` behind a Flexible or proxy edge, `%{HTTP_HOST}`
/// ranges over the host names (and anything else for a first request), forwarded headers carry
/// the visitor's scheme, and so on.
struct Topology: @unchecked Sendable {
    let origin: Origin
    let site: Site
    let edge: Edge
    /// Host names the site answers (ServerName, aliases, wildcard aliases), lower-case.
    let ownHosts: DFA
    /// Literal own host names, canonical first (for witnesses).
    let hostNames: [String]
    /// Any host name a client could send.
    let anyHost: DFA
    /// URL-paths of files, and of directories (with and without the trailing slash); nil when
    /// the site is too large to enumerate (file tests then stay unknown).
    private(set) var files: DFA?
    private(set) var directories: DFA?
    /// Paths whose REQUEST_FILENAME is a file: the file itself, or the file followed by path
    /// info (`/index.php/x` maps to `index.php`).
    private(set) var filesWithPathInfo: DFA?
    /// Filesystem paths (under the document root) that file tests see as files, or directories.
    private(set) var filesystemFiles: DFA?
    private(set) var filesystemDirectories: DFA?
    /// Directories that have one of their index files, as URL-paths with and without `/`.
    private(set) var indexedDirectories: DFA?
    /// `SetEnvIf`/`BrowserMatch` directives in the order they run.
    let setEnvIf: [SetEnvIfDirective]
    /// Some `ErrorDocument` of the site names a local URL: error responses become internal
    /// redirects that carry REDIRECT_STATUS.
    let hasLocalErrorDocuments: Bool
    /// Names set by `[E=]` flags; nil when a flag computes its name.
    let ruleEnvironmentNames: Set<String>?

    init(origin: Origin, edge: Edge) {
        self.origin = origin
        site = origin.site
        self.edge = edge
        var names = [site.canonicalHost]
        var patterns: [String] = []
        for alias in site.serverAliases {
            let a = alias.lowercased()
            if a.hasPrefix("*.") {
                // isOwnHost: a `*.x` alias accepts any name ending in `.x`.
                patterns.append("^.*" + Topology.escape(String(a.dropFirst())) + "$")
            } else if !names.contains(a) {
                names.append(a)
            }
        }
        hostNames = names
        anyHost = URLShapes.language(.host)
        var own = DFA.literals(names)
        for p in patterns {
            if let m = PatternLanguage.of(p, caseInsensitive: false).matches, let u = own.union(m) { own = u }
        }
        ownHosts = own.intersection(anyHost) ?? own

        let root = site.documentRoot
        var filePaths: [String] = [], dirPaths: [String] = [], indexed: [String] = []
        for (path, node) in site.files.nodes where path == root || path.hasPrefix(root + "/") {
            let url = path == root ? "/" : String(path.dropFirst(root.count))
            switch node {
            case .directory:
                dirPaths.append(url)
                if url != "/" { dirPaths.append(url + "/") }
            default:
                filePaths.append(url)
            }
        }
        for dir in dirPaths where dir.hasSuffix("/") {
            let config = origin.configuration(forDirectory: dir == "/" ? root : root + String(dir.dropLast()))
            let fs = origin.site.files
            if config.directoryIndex.contains(where: { fs.isFile(root + dir + $0) }) {
                indexed.append(dir)
                if dir != "/" { indexed.append(String(dir.dropLast())) }
            }
        }
        let small = filePaths.count + dirPaths.count < 3_000
        files = small ? DFA.literals(filePaths) : nil
        filesWithPathInfo = files.flatMap { f in
            f.concatenating(DFA.literal("/").concatenating(.all()) ?? .all()).flatMap { f.union($0) }
        }
        directories = small ? DFA.literals(dirPaths) : nil
        indexedDirectories = small ? DFA.literals(indexed) : nil
        filesystemFiles = filesWithPathInfo.flatMap { DFA.literal(root).concatenating($0) }
        // `/` maps to the document root itself, without a slash.
        filesystemDirectories = directories.flatMap { d in
            DFA.literal(root).concatenating(d.subtracting(.literal("/")) ?? d)?.union(.literal(root)).flatMap { $0.union(.literal(root + "/")) }
        }
        // Environment variables: `SetEnvIf` in order (server first, then directories from the
        // root down), and the names `[E=…]` flags set (`nil`: a name that is not literal).
        var setEnvIf = site.vhost.block.setEnvIf
        for dir in site.accessConfigs.keys.sorted() { setEnvIf += site.accessConfigs[dir]!.block.setEnvIf }
        self.setEnvIf = setEnvIf
        func localErrorDocuments(_ b: ConfigBlock) -> Bool {
            b.errorDocuments.values.contains { $0.hasPrefix("/") }
                || b.files.contains { localErrorDocuments($0.block) }
                || b.ifChains.contains { $0.branches.contains { localErrorDocuments($0.block) } }
        }
        hasLocalErrorDocuments = localErrorDocuments(site.vhost.block)
            || (site.vhost.block.server?.directories ?? []).contains { localErrorDocuments($0.block) }
            || site.accessConfigs.values.contains { localErrorDocuments($0.block) }
        var envNames: Set<String>? = []
        var rules = site.vhost.block.rewrite?.rules ?? []
        for config in site.accessConfigs.values { rules += config.block.rewrite?.rules ?? [] }
        for rule in rules {
            for e in rule.flags.env {
                guard case .literal(let text)? = e.parts.first else { envNames = nil; break }
                let name = String(text.prefix { $0 != ":" }).trimmingCharacters(in: ["!"])
                // Apache's environment table ignores case: [E=gate:…] sets %{ENV:GATE}.
                if text.contains(":") || e.parts.count == 1 { envNames?.insert(name.uppercased()) } else { envNames = nil }
            }
        }
        ruleEnvironmentNames = envNames
    }

    /// `%{ENV:name}` before any rule ran: the process environment, then `SetEnvIf` evaluated on
    /// what the edge sends. Free when a rule's `[E=]` may set it or `SetEnvIf` tests something
    /// that varies with the visitor.
    func environment(_ name: String, scheme: String) -> VariableValue {
        // Names compare without case, as in Apache's environment table (recorded: `SetEnvIf …
        // Gate=open` makes `RewriteCond %{ENV:GATE} =open` hold).
        let upper = name.uppercased()
        func same(_ other: String) -> Bool { equalsIgnoringASCIICase(other, name) }
        if ruleEnvironmentNames?.contains(upper) ?? true { return .free("%{ENV:\(name)}") }
        var value = site.processEnvironment.first(where: { same($0.key) })?.value
        for d in setEnvIf where d.assignments.contains(where: { same($0.name) }) {
            if d.expression != nil { return .free("%{ENV:\(name)}") }
            let attribute: String
            switch d.attribute.lowercased() {
            case "request_protocol": attribute = "HTTP/1.1"
            case "server_addr": attribute = "127.0.0.1"
            case "request_uri", "request_method", "query_string", "remote_addr", "remote_host":
                return .free("%{ENV:\(name)}")
            default:
                guard case .values(let v) = variable("HTTP:" + d.attribute, scheme: scheme, internalRedirect: false,
                                                     serverContext: true), v.count == 1 else { return .free("%{ENV:\(name)}") }
                attribute = v[0]
            }
            guard d.regex.matches(attribute) else { continue }
            for a in d.assignments where same(a.name) {
                if a.unset { value = nil } else if a.value.contains("$") { return .free("%{ENV:\(name)}") } else { value = a.value }
            }
        }
        return .values([value ?? ""])
    }

    /// The same topology with file tests left open: for conclusions that must hold whatever
    /// files appear later (caches, uploads), such as "this rule can never fire".
    func withoutFileList() -> Topology {
        var t = self
        t.files = nil
        t.directories = nil
        t.filesWithPathInfo = nil
        t.indexedDirectories = nil
        t.filesystemFiles = nil
        t.filesystemDirectories = nil
        return t
    }

    /// Escapes a literal for a PCRE pattern.
    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            if "\\^$.|?*+()[]{}/".contains(c) { out.append("\\") }
            out.append(c)
        }
        return out
    }

    /// Visitor schemes that reach Apache (the edge answers the others itself).
    var schemesReachingOrigin: [String] {
        ["http", "https"].filter { edge.ownAnswer(scheme: $0, host: site.canonicalHost, target: "/") == nil }
    }

    /// The scheme a visitor ends up using after asking for `scheme` (the edge may redirect first).
    func visitorScheme(after scheme: String) -> String {
        guard edge.ownAnswer(scheme: scheme, host: site.canonicalHost, target: "/") != nil else { return scheme }
        return scheme == "http" ? "https" : "http"
    }

    /// Whether the connection to Apache is TLS for a visitor using `scheme`.
    func originTLS(_ scheme: String) -> Bool { edge.originTLS(forVisitorScheme: scheme) }

    /// The scheme Apache uses for self-referential URLs (`REQUEST_SCHEME`, `[R]` without a host).
    func originScheme(_ scheme: String) -> String {
        originTLS(scheme) || site.serverNameScheme == "https" ? "https" : "http"
    }

    /// The local address Apache's connections arrive on: the edge's, or 127.0.0.1 when the
    /// visitor talks to Apache directly (as the simulator has it).
    var serverAddress: String { edge.originServerAddress ?? "127.0.0.1" }

    /// `%{SERVER_NAME}` when it does not come from the Host header (nil under UseCanonicalName Off).
    var canonicalServerName: String? { site.canonicalServerName(localAddress: serverAddress) }

    /// Headers that proxies and CDNs set and browsers do not send: their value is what the
    /// edge in front adds, or nothing.
    static let forwardingHeaders: Set<String> = [
        "forwarded", "x-real-ip", "front-end-https", "x-url-scheme", "x-forwarded-ssl", "x-arr-ssl", "x-client-ip",
        "true-client-ip", "x-scheme", "x-original-url",
    ]
}

/// What a variable is for a request: a dimension of the request, fixed values, or unknown.
enum VariableValue {
    case host, path, query
    /// `docroot + path` in per-directory context (REQUEST_FILENAME).
    case filename
    case theRequest
    case values([String])
    /// A name mod_rewrite does not know: always empty.
    case unknownName
    /// Varies with things the analysis does not model (time, client address, cookies, …).
    case free(String)
}

extension Topology {
    /// The value of `%{name}` for a request with visitor `scheme`; `internalRedirect` for a
    /// request created by an internal redirect (REDIRECT_STATUS, REDIRECT_ variables).
    func variable(_ rawName: String, scheme: String, internalRedirect: Bool, serverContext: Bool) -> VariableValue {
        let tls = originTLS(scheme)
        if let colon = rawName.firstIndex(of: ":") {
            let kind = rawName[..<colon].uppercased()
            let arg = String(rawName[rawName.index(after: colon)...])
            switch kind {
            case "HTTP":
                let header = arg.lowercased()
                if header == "host" { return .host }
                if let h = edge.forwardedHeaders(scheme: scheme).first(where: { $0.name.lowercased() == header }) {
                    return .values([h.value])
                }
                // A header no layer sets is whatever the client sends: with no edge, or an edge
                // that passes it through, anyone can send `X-Forwarded-Proto: https`.
                return .free("%{HTTP:\(arg)}")
            case "ENV":
                // A local `ErrorDocument` is an internal redirect too: REDIRECT_STATUS is then its
                // status (404 for `ErrorDocument 404 /index.php`), and REDIRECT_ variables are set.
                if arg.hasPrefix("REDIRECT_"), hasLocalErrorDocuments { return .free("%{ENV:\(arg)}") }
                if arg == "REDIRECT_STATUS" { return .values([internalRedirect ? "200" : ""]) }
                if arg.hasPrefix("REDIRECT_") {
                    // Set only by an internal redirect from a request that had the variable.
                    return internalRedirect ? .free("%{ENV:\(arg)}") : .values([""])
                }
                return environment(arg, scheme: scheme)
            case "SSL": return .values([""])
            case "LA-U", "LA-F": return variable(arg, scheme: scheme, internalRedirect: internalRedirect, serverContext: serverContext)
            default: return .values([""])
            }
        }
        let name = rawName.uppercased()
        guard name.count >= 4 else { return .unknownName }
        switch name {
        case "HTTP_HOST": return .host
        case "SERVER_NAME": return canonicalServerName.map { .values([$0]) } ?? .host
        case "REQUEST_URI", "DOCUMENT_URI": return .path
        case "REQUEST_FILENAME", "SCRIPT_FILENAME": return serverContext ? .path : .filename
        case "QUERY_STRING": return .query
        case "THE_REQUEST": return .theRequest
        case "HTTPS": return .values([tls ? "on" : "off"])
        case "REQUEST_SCHEME": return .values([originScheme(scheme)])
        case "SERVER_PORT":
            if site.useCanonicalName, let p = site.canonicalPort { return .values([String(p)]) }
            return .values([originScheme(scheme) == "https" ? "443" : "80"])
        case "REQUEST_METHOD": return .free("%{REQUEST_METHOD}")
        case "SERVER_PROTOCOL": return .values(["HTTP/1.1"])
        case "SERVER_ADDR": return .values([serverAddress])
        case "SERVER_ADMIN": return .values([site.vhost.block.server?.serverAdmin ?? "[no address given]"])
        case "SERVER_SOFTWARE": return .values([Conditionals.serverBanner])
        case "DOCUMENT_ROOT", "CONTEXT_DOCUMENT_ROOT": return .values([site.documentRoot])
        case "CONTEXT_PREFIX": return .values([""])
        // True in the subrequests mod_dir (DirectoryIndex), `-F`/`-U` and SSI make, which run the
        // rules too (recorded: `RewriteCond %{IS_SUBREQ} true` rewrites the index subrequest of /).
        case "IS_SUBREQ": return .free("%{IS_SUBREQ}")
        case "API_VERSION": return .values(["20120211:142"])
        case "HTTP_FORWARDED", "HTTP_PROXY_CONNECTION": return .values([""])
        case "REMOTE_USER", "REMOTE_IDENT", "AUTH_TYPE": return .values([""])
        case "HTTP_ACCEPT", "HTTP_COOKIE", "HTTP_REFERER", "HTTP_USER_AGENT", "REMOTE_ADDR", "CONN_REMOTE_ADDR",
             "REMOTE_HOST", "REMOTE_PORT", "PATH_INFO", "IPV6", "SCRIPT_USER", "SCRIPT_GROUP":
            return .free("%{\(name)}")
        default:
            if name.hasPrefix("TIME") { return .free("%{\(name)}") }
            // The engine answers "" for names it does not know (HT208 says so).
            return .unknownName
        }
    }
}
