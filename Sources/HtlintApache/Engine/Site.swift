import HtlintRegex
import HtlintBytes
import HtlintDiagnostics
import HtlintSyntax

/// Everything the origin needs to answer requests: the virtual host, its files and its
/// configuration, parsed and compiled once.
public final class Site: @unchecked Sendable {
    /// `ServerName` as written (may carry a scheme and port: `https://example.org:8443`).
    public let serverName: String
    public let serverAliases: [String]
    /// The effective `DocumentRoot`: the vhost's own when it sets one, else `mountedRoot`.
    public let documentRoot: String
    /// Where the site's files are mounted (`${DOCROOT}`): the main server's document root, whose
    /// `<Directory>` grants access and AllowOverride All. The directory walk starts here even
    /// when the vhost moves its DocumentRoot below it, as Apache's walk reads every level.
    public let mountedRoot: String
    /// Whether `mountedRoot` is itself no system path (not `/`, no system directory or file):
    /// then nothing of the system lies below it (`Origin.systemNode`).
    public let mountedRootHoldsNoSystemPath: Bool
    public let files: SiteFileSystem
    public let modules: ModuleSet
    /// Server/virtual-host configuration (server context).
    public let vhost: ConfigFile
    /// Its text, for showing where a directive stands.
    public let vhostSource: SourceFile
    /// Default `DirectoryIndex` (Debian's stock list unless the site says otherwise).
    public let defaultDirectoryIndex: [String]
    public let limitInternalRecursion: Int
    /// Subrequest nesting limit (AH00125), `LimitInternalRecursion`'s second number or its only one.
    public let limitSubrequestNesting: Int
    /// `AllowEncodedSlashes` of the virtual host (Off unless set).
    public let encodedSlashes: EncodedSlashes
    /// `TraceEnable` of the virtual host (On unless set): TRACE is echoed, else refused.
    public let traceEnabled: Bool
    /// `MergeSlashes` of the virtual host (On unless set): Off keeps `//` in r->uri.
    public let mergeSlashes: Bool
    /// `HttpProtocolOptions Unsafe` of the virtual host (Strict unless set): fix_hostname then
    /// skips its strict host-name check.
    public let httpProtocolUnsafe: Bool
    /// `LimitRequestLine` (default 8190): a request line of this many bytes plus two is 414.
    public let limitRequestLine: Int
    /// `LimitRequestFieldsize` (default 8190): a header line of this many bytes plus two is 400.
    public let limitRequestFieldSize: Int
    /// `LimitRequestFields` (default 100; 0: no limit): more header lines than this are 400.
    public let limitRequestFields: Int
    /// The server's `UseCanonicalName` (a section may set its own).
    public let canonicalName: CanonicalName
    /// `UseCanonicalName On`: self-referential URLs name ServerName.
    public var useCanonicalName: Bool { canonicalName == .on }
    /// The server's `%{SERVER_NAME}` when it does not come from the Host header: ServerName
    /// under On, the name of `localAddress` under DNS (Origin.localHostName); nil under Off.
    public func canonicalServerName(localAddress: String) -> String? {
        switch canonicalName {
        case .on: return serverHostName
        case .dns: return Origin.localHostName(localAddress) ?? serverHostName
        case .off: return nil
        }
    }
    public let useCanonicalPhysicalPort: Bool
    /// mod_ssl's handshake settings, compared when `Host` and SNI pick different servers.
    public let tlsHandshake: TLSHandshakeSettings
    /// `%{ENV:X}` falls back to the httpd process environment.
    public let processEnvironment: [String: String]
    /// Parsed `.htaccess` files by directory path (with trailing slash). Directories whose names
    /// Swift holds equal (`café` precomposed or not) share an entry here; `accessConfig(_:)`
    /// keeps them apart.
    public let accessConfigs: [String: ConfigFile]
    /// The same by the path's bytes (recorded: nested-htaccess-directory-names-in-both-normal-forms).
    let accessConfigsByBytes: [PathKey: ConfigFile]

    /// The parsed `.htaccess` of `directory` (trailing slash), found by the path's bytes.
    public func accessConfig(_ directory: String) -> ConfigFile? { accessConfigsByBytes[PathKey(directory)] }
    /// The virtual host's `RewriteMap`s by name, usable from `.htaccess` too.
    public let rewriteMaps: [String: RewriteMapTable]

    /// `virtualHost`: the connection the site answers, which picks one of the configuration's
    /// `<VirtualHost>` sections (by port, then host name); without it every section is read.
    public init(serverName: String, aliases: [String] = [], documentRoot: String = "/var/www/html",
                files: SiteFileSystem, vhostLines: [String] = [], vhostFile: SourceFile? = nil,
                modules: ModuleSet = .standard,
                directoryIndex: [String] = ["index.html", "index.cgi", "index.pl", "index.php", "index.xhtml", "index.htm"],
                processEnvironment: [String: String] = ["PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C"],
                virtualHost: VirtualHostChoice? = nil) {
        self.mountedRoot = SiteFileSystem.normalize(documentRoot)
        self.mountedRootHoldsNoSystemPath = Site.holdsNoSystemPath(mountedRoot)
        self.files = files
        self.modules = modules
        self.defaultDirectoryIndex = directoryIndex
        self.processEnvironment = processEnvironment
        let text = vhostLines.map { $0.replacingOccurrences(of: "${DOCROOT}", with: documentRoot) }.joined(separator: "\n")
        let source = vhostFile ?? SourceFile(path: "<vhost>", text: text)
        self.vhostSource = source
        // `<IfFile>` sees the simulated site, and outside it a fixed list of Debian paths.
        let root = files.root
        let fileExists: (String) -> Bool = { path in
            path == root || path.hasBytePrefix(root + "/") ? files.stat(path) != nil : ConfigReader.systemFileExists(path)
        }
        // `${NAME}`: a Define'd variable, else the httpd process environment (apache-semantics §2.5).
        let vhost = ConfigReader.read(source, context: .server, modules: modules, variables: processEnvironment,
                                      processEnvironment: processEnvironment, fileExists: fileExists,
                                      knownFileExists: { path in path == root || path.hasBytePrefix(root + "/") ? files.stat(path) != nil : nil },
                                      virtualHost: virtualHost,
                                      serverDirectoryIndex: directoryIndex,
                                      // Lines (a case's `vhost`) stand inside the site's <VirtualHost>; a file is a whole configuration.
                                      topLevelIsVirtualHost: vhostFile == nil)
        self.vhost = vhost
        let server = vhost.block.server ?? ServerSettings()
        self.documentRoot = server.documentRoot.map(SiteFileSystem.normalize) ?? mountedRoot
        self.serverName = server.serverName ?? serverName
        self.serverAliases = aliases + server.serverAliases
        let parsed = Site.parseServerName(self.serverName)
        self.canonicalHost = parsed.host
        self.serverHostName = Site.splitServerName(self.serverName).host
        self.canonicalPort = server.virtualHostAddressPort ?? parsed.port
        self.serverNameScheme = parsed.scheme
        self.lowercasedAliases = serverAliases.map { $0.asciiLowercased() }
        self.limitInternalRecursion = server.limitInternalRecursion ?? 10
        self.limitSubrequestNesting = server.limitSubrequestNesting ?? 10
        self.encodedSlashes = server.encodedSlashes ?? .forbid
        self.traceEnabled = server.traceEnable ?? true
        self.mergeSlashes = server.mergeSlashes ?? true
        self.httpProtocolUnsafe = server.httpProtocolUnsafe ?? false
        self.limitRequestLine = server.limitRequestLine ?? 8190
        self.limitRequestFieldSize = server.limitRequestFieldSize ?? 8190
        self.limitRequestFields = server.limitRequestFields ?? 100
        self.canonicalName = server.useCanonicalName ?? .off
        self.useCanonicalPhysicalPort = server.useCanonicalPhysicalPort ?? false
        self.tlsHandshake = server.tlsHandshake
        var configs: [PathKey: ConfigFile] = [:]
        let accessFiles = Site.accessFiles(files, names: server.accessFileNames)
        for (dir, file) in accessFiles {
            let allowed = Site.allowedOverrides(forDirectory: dir, documentRoot: mountedRoot, vhost: vhost.block)
            // AllowOverride None (and no AllowOverrideList): Apache never opens the file.
            guard allowed.readsFiles else { continue }
            configs[PathKey(dir)] = ConfigReader.read(file, context: .htaccess, modules: modules, defines: vhost.defines,
                                             variables: vhost.variables, processEnvironment: processEnvironment,
                                             overrides: allowed, fileExists: fileExists)
        }
        // A linked directory's file is read again under the link's path, with the AllowOverride
        // that path has (directory_walk merges by the path walked, not the target's).
        if files.hasSymlinks {
            for (path, node) in files.nodes {
                guard case .symlink = node, path.hasBytePrefix(files.root + "/"), let target = files.resolve(path),
                      files.isDirectory(target), let file = accessFiles.first(where: { sameBytes($0.0, target + "/") })?.1 else { continue }
                let allowed = Site.allowedOverrides(forDirectory: path, documentRoot: mountedRoot, vhost: vhost.block)
                guard allowed.readsFiles else { continue }
                configs[PathKey(path + "/")] = ConfigReader.read(file, context: .htaccess, modules: modules, defines: vhost.defines,
                                                        variables: vhost.variables, processEnvironment: processEnvironment,
                                                        overrides: allowed, fileExists: fileExists)
            }
        }
        self.accessConfigsByBytes = configs
        self.accessConfigs = Dictionary(configs.map { ($0.key.path, $0.value) }, uniquingKeysWith: { a, _ in a })
        self.rewriteMaps = server.rewriteMaps.mapValues { map in
            switch map.kind {
            case .internalFunction(let name): return .internalFunction(name)
            case .unsupported: return .unsupported
            case .text(let path):
                // Only a file of the simulated site can be read; any other map finds nothing.
                let bytes = files.contents(Conditionals.absolutePath(path)) ?? []
                return .text(RewriteMapTable.parseText(String(preservingBytes: bytes)))
            case .random(let path):
                let bytes = files.contents(Conditionals.absolutePath(path)) ?? []
                return .random(RewriteMapTable.parseText(String(preservingBytes: bytes)))
            }
        }
    }

    /// The same site with more plain files (URL-paths below the document root, such as
    /// `/.well-known/acme-challenge/token`): the configuration is not read again.
    public func adding(files extra: [String]) -> Site {
        var fs = files
        for f in extra { fs.addFile(f) }
        return Site(copying: self, files: fs)
    }

    /// Every stored property but `files`, copied as read (nothing is read or compiled again).
    /// A stored property added to `Site` must be added here too.
    private init(copying s: Site, files: SiteFileSystem) {
        serverName = s.serverName
        serverAliases = s.serverAliases
        documentRoot = s.documentRoot
        mountedRoot = s.mountedRoot
        mountedRootHoldsNoSystemPath = s.mountedRootHoldsNoSystemPath
        self.files = files
        modules = s.modules
        vhost = s.vhost
        vhostSource = s.vhostSource
        defaultDirectoryIndex = s.defaultDirectoryIndex
        limitInternalRecursion = s.limitInternalRecursion
        limitSubrequestNesting = s.limitSubrequestNesting
        encodedSlashes = s.encodedSlashes
        traceEnabled = s.traceEnabled
        mergeSlashes = s.mergeSlashes
        httpProtocolUnsafe = s.httpProtocolUnsafe
        limitRequestLine = s.limitRequestLine
        limitRequestFieldSize = s.limitRequestFieldSize
        limitRequestFields = s.limitRequestFields
        canonicalName = s.canonicalName
        useCanonicalPhysicalPort = s.useCanonicalPhysicalPort
        tlsHandshake = s.tlsHandshake
        processEnvironment = s.processEnvironment
        accessConfigs = s.accessConfigs
        accessConfigsByBytes = s.accessConfigsByBytes
        rewriteMaps = s.rewriteMaps
        canonicalHost = s.canonicalHost
        serverHostName = s.serverHostName
        canonicalPort = s.canonicalPort
        serverNameScheme = s.serverNameScheme
        lowercasedAliases = s.lowercasedAliases
    }

    /// The per-directory configuration file of each directory: with `AccessFileName` the first
    /// of its names that is a file there (a `.htaccess` next to it is then just a file).
    /// A `.htaccess` that is a link to a site file is read through it (ap_pcfg_openfile follows
    /// links; recorded: access-htaccess-symlink-read-through-link).
    public static func accessFiles(_ files: SiteFileSystem, names: [String]?) -> [(String, SourceFile)] {
        let names = names ?? [".htaccess"]
        if names == [".htaccess"], !files.hasSymlinks { return files.accessFileEntries.map { ($0.key, $0.value) } }
        return files.nodes.compactMap { path, node in
            guard node == .directory, path == files.root || path.hasBytePrefix(files.root + "/") else { return nil }
            let dir = path + "/"
            return names.lazy.compactMap { files.accessFile(in: dir, named: $0) }.first.map { (dir, $0) }
        }
    }

    /// The per-directory configuration file Apache cannot open in `directory` (trailing slash):
    /// ap_parse_htaccess tries the AccessFileName names in order, passes over one that is missing
    /// (ENOENT, a dangling link too), reads a regular file, and answers 403 (AH00529) for anything
    /// else: a directory (pcfg_openfile's EBADF) or a link cycle (ELOOP). A link leaving the site
    /// leads into the modelled system: to a directory there (`/etc`) it is refused the same way
    /// (recorded: access-htaccess-symlink-to-system-path); a system file's contents are not
    /// known, so it counts as missing.
    public func unopenableAccessFile(in directory: String) -> String? {
        for name in vhost.block.server?.accessFileNames ?? [".htaccess"] {
            let path = directory + name
            guard files.lstat(path) != nil else { continue }
            if files.resolve(path) != nil { return files.isDirectory(path) ? path : nil }
            if files.linkLoops(path) { return path }
        }
        return nil
    }

    /// What a `.htaccess` in `directory` may contain: `<Directory />` has None and the document
    /// root All (the oracle harness's set-up; Debian's stock /var/www has None), then the vhost's
    /// `<Directory>` blocks from `/` down, the nearest setting winning.
    public func allowedOverrides(forDirectory directory: String) -> AllowedOverrides {
        Site.allowedOverrides(forDirectory: directory, documentRoot: mountedRoot, vhost: vhost.block)
    }

    static func allowedOverrides(forDirectory directory: String, documentRoot: String, vhost: ConfigBlock) -> AllowedOverrides {
        let target = SiteFileSystem.normalize(directory)
        let blocks = (vhost.server?.directories ?? []).map {
            (path: SiteFileSystem.normalize($0.path.replacingOccurrences(of: "${DOCROOT}", with: documentRoot)), block: $0.block)
        }
        var allowed = AllowedOverrides.none
        var level = ""
        for seg in [Substring("")] + slashSplit(target, omittingEmpty: true) {
            level = seg.isEmpty ? "/" : (level == "/" ? "" : level) + "/" + seg
            if sameBytes(level, documentRoot) { allowed = .all }
            for b in blocks where directorySection(b.path, covers: level) { allowed.apply(b.block) }
        }
        return allowed
    }

    /// Whether a `<Directory>` section's path names the directory `dir` (both normalised, no
    /// trailing slash): by bytes (recorded: section-directory-path-normal-form), or for a path
    /// with wildcards (d_is_fnmatch) by apr_fnmatch, `*` not crossing a slash, so only a
    /// directory of the path's depth matches (recorded: section-directory-wildcard).
    static func directorySection(_ path: String, covers dir: String) -> Bool {
        guard ConfigReader.isWildcard(path) else { return sameBytes(path, dir) }
        return wildcardMatch(path + "/", dir == "/" ? "/" : dir + "/", pathname: true)
    }

    /// Directories of a Debian system with apache2: the top-level ones for the server-context
    /// filesystem-path test, and a few below for file tests (`-d /usr/share`).
    public static let systemDirectories: Set<String> = [
        "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/media", "/mnt", "/opt", "/proc", "/root",
        "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var",
        "/etc/apache2", "/usr/bin", "/usr/lib", "/usr/lib/cgi-bin", "/usr/local", "/usr/sbin", "/usr/share",
        "/usr/share/doc", "/var/cache", "/var/lib", "/var/log", "/var/tmp", "/var/www",
    ]

    /// What a path outside the site is on that system, after the kernel's clean-up: `//` and `.`
    /// are skipped, `..` climbs, a trailing slash wants a directory. So `//` and `/etc/` are
    /// directories and `/etc//passwd` a file (recorded: rewrite-cond-system-paths-cleaned-up).
    public enum SystemNode: Equatable { case directory, file, executable }

    public static func systemNode(_ path: String) -> SystemNode? { systemPath(path)?.node }

    /// `systemNode` with the cleaned-up name it found.
    static func systemPath(_ path: String) -> (path: String, node: SystemNode)? {
        guard path.hasBytePrefix("/") else { return nil }
        var resolved: [Substring] = []
        var wantsDirectory = false
        for c in slashSplit(path) {
            if c.isEmpty || c == "." { wantsDirectory = !resolved.isEmpty; continue }
            // The kernel climbs only out of a directory (`/etc/passwd/..` is ENOTDIR).
            let here = "/" + resolved.joined(separator: "/")
            guard here == "/" || systemDirectories.contains(here) else { return nil }
            if c == ".." { _ = resolved.popLast(); wantsDirectory = true; continue }
            resolved.append(c)
            wantsDirectory = false
        }
        let cleaned = "/" + resolved.joined(separator: "/")
        if cleaned == "/" || systemDirectories.contains(cleaned) { return (cleaned, .directory) }
        guard !wantsDirectory, systemFiles.contains(cleaned) else { return nil }
        return (cleaned, systemExecutables.contains(cleaned) ? .executable : .file)
    }

    private static let systemExecutables: Set<String> = ["/usr/sbin/apache2"]

    /// Whether no system directory or file lies at or below `root` (`Origin.systemNode`).
    static func holdsNoSystemPath(_ root: String) -> Bool {
        root != "/" && !systemDirectories.contains(root) && !systemFiles.contains(root)
    }

    /// Regular files of a Debian system with apache2 that expressions may test (`-f /etc/passwd`).
    public static let systemFiles: Set<String> = [
        "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/hostname", "/etc/os-release", "/etc/debian_version",
        "/etc/mime.types", "/etc/apache2/apache2.conf", "/etc/apache2/ports.conf", "/etc/apache2/envvars",
        "/etc/apache2/magic", "/usr/sbin/apache2",
    ]

    /// Host part of `ServerName` (no scheme, no port), lower-cased for comparisons. Read on every
    /// request: computed once.
    public let canonicalHost: String
    /// The same as written: Apache keeps ServerName's case in self-referential URLs and
    /// `%{SERVER_NAME}` (`ServerName WWW.EXAMPLE.NET` redirects to http://WWW.EXAMPLE.NET/…).
    public let serverHostName: String
    /// Port written in `ServerName`, if any.
    public let canonicalPort: Int?
    /// `ServerName https://…` makes Apache build https URLs over plain HTTP (apache-semantics §11.1).
    public let serverNameScheme: String?
    /// Lower-cased `ServerAlias` names.
    private let lowercasedAliases: [String]

    /// Scheme, host (lower-cased) and port of a `ServerName` value.
    public static func parseServerName(_ serverName: String) -> (scheme: String?, host: String, port: Int?) {
        let parts = splitServerName(serverName)
        return (parts.scheme, parts.host.asciiLowercased(), parts.port)
    }

    /// Scheme, host as written and port of a `ServerName` value.
    static func splitServerName(_ serverName: String) -> (scheme: String?, host: String, port: Int?) {
        var s = serverName
        var scheme: String? = nil
        if let r = s.range(of: "://") {
            scheme = s[..<r.lowerBound].asciiLowercased()
            s = String(s[r.upperBound...])
        }
        var port: Int? = nil
        if s.hasBytePrefix("[") {
            // An IPv6 address (which Apache refuses with a port).
            if let colon = s.lastIndex(ofByte: UInt8(ascii: ":")) {
                port = Int(bytesAfter(s, colon))
                if !s.hasByteSuffix("]") { s = String(s[..<colon]) }
            }
        } else if let colon = s.firstIndex(ofByte: UInt8(ascii: ":")) {
            // server_hostname_port: the first `:` byte, then atoi (a combining mark after the
            // last digit ends the port; recorded: vhost-servername-port-read-by-bytes).
            let number = atoi(String(bytesAfter(s, colon)))
            port = (1...65535).contains(number) ? number : nil
            s = String(s[..<colon])
        }
        return (scheme, s, port)
    }

    /// Host names this virtual host answers to by name.
    public func isOwnHost(_ host: String) -> Bool {
        let h = host.asciiLowercased()
        if h == canonicalHost { return true }
        return lowercasedAliases.contains { a in
            if a.hasBytePrefix("*.") { return h.hasByteSuffix(String(a.dropFirst())) }
            return a == h
        }
    }

    /// All diagnostics of the site's configuration files.
    public var diagnostics: [Diagnostic] {
        (vhost.diagnostics + accessConfigs.values.flatMap(\.diagnostics)).sorted(by: Diagnostic.byLocation)
    }
}
