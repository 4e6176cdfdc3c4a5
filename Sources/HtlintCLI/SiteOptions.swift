import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// The site and layer settings shared by `simulate`, `explain` and later commands.
struct SiteOptions {
    static let valued: Set<String> = ["--docroot", "--host", "--alias", "--edge", "--vhost", "--modules", "--only-modules",
                                      "--server-docroot", "--directory-index"]
    static let booleans: Set<String> = ["--always-https"]

    static let help = """
    site options:
      --docroot DIR          the site's document root (default: current directory)
      --host NAME            ServerName (default: the host of the first URL)
      --alias NAME           ServerAlias (repeatable)
      --edge MODE            what is in front of Apache: none (default), cloudflare-flexible,
                             cloudflare-full, cloudflare-strict, cloudflare-off, proxy
      --always-https         the edge redirects http to https itself (Always Use HTTPS)
      --vhost FILE           virtual-host configuration lines (server context)
      --modules LIST         extra Apache modules, comma-separated (e.g. env,access_compat)
      --server-docroot PATH  DocumentRoot as Apache knows it (default /var/www/html)
      --directory-index LIST DirectoryIndex of the server (default Debian's list)
    """

    var docroot: String
    var host: String?
    var aliases: [String]
    var edge: Edge
    var vhost: String?
    var modules: ModuleSet
    var serverDocroot: String
    var directoryIndex: [String]?

    init(_ a: Arguments) throws(CLIError) {
        docroot = a.value("--docroot") ?? "."
        host = a.value("--host")
        aliases = a.all("--alias")
        let edgeName = a.value("--edge") ?? "none"
        guard var edge = Edge(name: edgeName) else {
            throw .usage("unknown edge '\(edgeName)'; expected one of: \(Edge.Mode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if a.has("--always-https") { edge.alwaysHTTPS = true }
        self.edge = edge
        vhost = a.value("--vhost")
        modules = SiteOptions.modules(extra: a.value("--modules"), only: a.value("--only-modules"))
        serverDocroot = a.value("--server-docroot") ?? "/var/www/html"
        directoryIndex = a.value("--directory-index").map { $0.split(separator: ",").map(String.init) }
    }

    static func modules(extra: String?, only: String?) -> ModuleSet {
        if let only { return ModuleSet(ModuleSet.builtIn.union(only.split(separator: ",").map(String.init))) }
        var m = ModuleSet.standard
        for x in (extra ?? "").split(separator: ",") { m.insert(String(x)) }
        return m
    }

    /// Loads the document root and builds the simulator.
    func simulator(defaultHost: String?, io: CLIEnvironment) throws -> ChainSimulator {
        guard io.isDirectory(docroot) else { throw CLIError.unreadable(docroot, "not a directory") }
        let display = docroot.hasSuffix("/") ? String(docroot.dropLast()) : docroot
        let files = try SiteFileSystem.load(directory: docroot, mountedAt: serverDocroot, displayPrefix: display)
        var vhostFile: SourceFile? = nil
        if let v = vhost { vhostFile = SourceFile(path: v, bytes: try io.read(v)) }
        let site = Site(serverName: host ?? defaultHost ?? "localhost", aliases: aliases, documentRoot: serverDocroot,
                        files: files, vhostFile: vhostFile, modules: modules,
                        directoryIndex: directoryIndex ?? ["index.html", "index.cgi", "index.pl", "index.php", "index.xhtml", "index.htm"])
        return ChainSimulator(origin: Origin(site: site), edge: edge)
    }
}
