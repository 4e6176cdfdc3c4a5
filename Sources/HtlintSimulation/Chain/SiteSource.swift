import HtlintApache
import HtlintDiagnostics

/// Everything needed to build a `Site`, kept so that a fix can be tried on a changed copy
/// (`explain` re-simulates each suggested fix).
public struct SiteSource: Sendable {
    /// `ServerName` (the vhost may override it).
    public var serverName: String
    /// `ServerAlias` names.
    public var aliases: [String]
    /// DocumentRoot as Apache knows it.
    public var documentRoot: String
    /// The document root's files and `.htaccess` sources.
    public var files: SiteFileSystem
    /// Virtual-host lines given inline.
    public var vhostLines: [String]
    /// Virtual-host configuration read from a file (wins over `vhostLines`).
    public var vhostFile: SourceFile?
    /// Loaded Apache modules.
    public var modules: ModuleSet
    /// The server's default `DirectoryIndex`.
    public var directoryIndex: [String]

    /// A site source with Debian's defaults.
    public init(serverName: String, aliases: [String] = [], documentRoot: String = "/var/www/html",
                files: SiteFileSystem, vhostLines: [String] = [], vhostFile: SourceFile? = nil,
                modules: ModuleSet = .standard,
                directoryIndex: [String] = ["index.html", "index.cgi", "index.pl", "index.php", "index.xhtml", "index.htm"]) {
        self.serverName = serverName
        self.aliases = aliases
        self.documentRoot = documentRoot
        self.files = files
        self.vhostLines = vhostLines
        self.vhostFile = vhostFile
        self.modules = modules
        self.directoryIndex = directoryIndex
    }

    /// Parses everything into a `Site` (done once per topology); `virtualHost` picks the
    /// `<VirtualHost>` section that answers that connection.
    public func build(virtualHost: VirtualHostChoice? = nil) -> Site {
        Site(serverName: serverName, aliases: aliases, documentRoot: documentRoot, files: files, vhostLines: vhostLines,
             vhostFile: vhostFile, modules: modules, directoryIndex: directoryIndex, virtualHost: virtualHost)
    }

    /// The origins Apache answers with: one, or with `<VirtualHost>` sections one per section
    /// that some connection reaches; `http`/`tls` answer the site's own name.
    public func origins(_ server: OriginServer) -> (http: Origin, tls: Origin, virtualHosts: VirtualHostOrigins?) {
        let host = Site.parseServerName(serverName).host
        let choice = VirtualHostChoice(port: server.httpPort, host: host)
        let http = Origin(site: build(virtualHost: choice))
        guard !http.site.vhost.virtualHosts.isEmpty else { return (http, http, nil) }
        // The ports the sections name too: a proxy in front may connect to `<VirtualHost *:8080>`.
        let sections = http.site.vhost.virtualHosts
        let table = VirtualHostOrigins(source: self, ports: [server.httpPort, server.httpsPort] + sections.flatMap { $0.ports.compactMap { $0 } },
                                       sections: sections, known: (choice, http))
        // The table holds an origin for every port it was built for.
        return (http, table.origin(port: server.httpsPort, host: host) ?? http, table)
    }

    /// The `.htaccess` whose display path is `path`, with the directory it belongs to
    /// (relative to the document root: `/`, `/blog`).
    public func accessFile(_ path: String) -> (directory: String, file: SourceFile)? {
        guard let (key, file) = files.accessFileEntries.first(where: { $0.value.path == path }) else { return nil }
        var dir = String(key.dropFirst(files.root.count))
        while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
        return (dir.isEmpty ? "/" : dir, file)
    }

    /// A copy with one `.htaccess` replaced (same display path).
    public func replacingAccessFile(_ path: String, text: String) -> SiteSource {
        var copy = self
        if let (dir, file) = accessFile(path) {
            copy.files.addAccessFile(dir, file: SourceFile(path: file.path, text: text))
        }
        return copy
    }

    /// A copy with a `.htaccess` added or replaced in a directory (relative to the document root).
    public func settingAccessFile(directory: String, displayPath: String, text: String) -> SiteSource {
        var copy = self
        copy.files.addAccessFile(directory, file: SourceFile(path: displayPath, text: text))
        return copy
    }
}
