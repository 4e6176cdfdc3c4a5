import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// The site and layer settings shared by `simulate`, `explain` and `lint`: flags, merged over a
/// `--site FILE` description (flags win).
struct SiteOptions {
    static let valued: Set<String> = ["--docroot", "--host", "--alias", "--edge", "--vhost", "--modules", "--only-modules",
                                      "--server-docroot", "--directory-index", "--site", "--max-hops", "--origin-tls", "--browser",
                                      "--wordpress-home", "--wordpress-siteurl", "--wordpress-proxy-fix"]
    static let booleans: Set<String> = ["--always-https", "--hsts"]

    static let help = """
    site options:
      --site FILE            YAML site description (docroot, host, layers, origin, wordpress, browser);
                             the options below override it
      --docroot DIR          the site's document root (default: current directory)
      --host NAME            ServerName (default: the host of the first URL)
      --alias NAME           ServerAlias (repeatable)
      --edge MODE            what is in front of Apache: none (default), cloudflare-off, cloudflare-flexible,
                             cloudflare-full, cloudflare-strict, cloudfront, alb, clb, nginx, haproxy,
                             fastly, varnish, proxy
      --always-https         the edge redirects http to https itself (Always Use HTTPS, redirect action, …)
      --origin-tls MODE      the origin's own HTTPS: valid (default), none, self-signed, expired, wrong-host, broken
      --vhost FILE           virtual-host configuration lines (server context, <Directory> blocks)
      --modules LIST         extra Apache modules, comma-separated (e.g. env,access_compat)
      --server-docroot PATH  DocumentRoot as Apache knows it (default /var/www/html)
      --directory-index LIST DirectoryIndex of the server (default Debian's list)
      --wordpress-home URL   WordPress runs behind Apache with this Site Address (home)
      --wordpress-siteurl URL  its WordPress Address (siteurl; default: home)
      --wordpress-proxy-fix HEADER  wp-config.php sets HTTPS=on from this header (X-Forwarded-Proto)
      --browser NAME         chrome (default), firefox, safari, curl, googlebot
      --hsts                 the browser already holds HSTS for the site's host names
      --max-hops N           stop after N hops (default: the browser's redirect limit, 20 for Chrome)
    """

    var docroot: String
    var host: String?
    var aliases: [String]
    /// The Cloudflare-like edge as the first version had it (what `lint` reads).
    var edge: Edge
    /// Layers given by `--edge`, nil when the flag is absent.
    var layers: [any Layer]?
    var vhost: String?
    var modules: ModuleSet
    var serverDocroot: String
    var directoryIndex: [String]?
    var siteFile: String?
    var hsts: Bool
    var maxHops: Int?
    var originTLS: OriginServer.TLS?
    var browser: Browser?
    var wordpressHome: String?
    var wordpressSiteURL: String?
    var wordpressProxyFix: String?
    /// Flags given explicitly (they override the site file).
    private var given: Set<String>

    /// Why `name` cannot be a `ServerName`/`ServerAlias` the simulated requests carry in
    /// `Host` (a host, an optional `:port`, or a bracketed IPv6 address), or nil when it can.
    static func hostNameProblem(_ name: String) -> String? {
        if name.isEmpty { return "it is empty" }
        if name.contains("://") { return "give the host without a scheme" }
        for b in name.utf8 {
            if b <= 0x20 || b == 0x7F { return "it contains a space or control character" }
            if "/?#@\\\"<>{}|^`".utf8.contains(b) { return "'\(Character(Unicode.Scalar(b)))' cannot appear in a host name" }
        }
        return nil
    }

    init(_ a: Arguments) throws(CLIError) {
        given = Set(a.values.keys).union(a.flags)
        docroot = a.value("--docroot") ?? "."
        host = a.value("--host")
        aliases = a.all("--alias")
        for (flag, name) in (host.map { [("--host", $0)] } ?? []) + aliases.map({ ("--alias", $0) }) {
            if let problem = SiteOptions.hostNameProblem(name) { throw .usage("\(flag) expects a host name, got '\(name)': \(problem)") }
        }
        let edgeName = a.value("--edge") ?? "none"
        guard var layers = LayerNames.layers(edgeName) else {
            throw .usage("unknown edge '\(edgeName)'; expected one of: \(LayerNames.all.joined(separator: ", "))")
        }
        if a.has("--always-https") { layers = layers.map(LayerNames.withHTTPSRedirect) }
        self.layers = a.value("--edge") != nil ? layers : nil
        var edge = Edge(name: edgeName) ?? Edge(mode: .terminatingProxy)
        if a.has("--always-https") { edge.alwaysHTTPS = true }
        self.edge = edge
        vhost = a.value("--vhost")
        modules = SiteOptions.modules(extra: a.value("--modules"), only: a.value("--only-modules"))
        serverDocroot = a.value("--server-docroot") ?? "/var/www/html"
        directoryIndex = a.value("--directory-index").map { $0.split(separator: ",").map(String.init) }
        siteFile = a.value("--site")
        hsts = a.has("--hsts")
        if let n = a.value("--max-hops") {
            guard let v = Int(n), v > 0 else { throw .usage("--max-hops expects a positive number, got '\(n)'") }
            maxHops = v
        }
        if let t = a.value("--origin-tls") {
            guard let tls = OriginServer.TLS(rawValue: t) else {
                throw .usage("unknown origin tls '\(t)'; expected one of: \(OriginServer.TLS.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            originTLS = tls
        }
        if let b = a.value("--browser") {
            guard let profile = Browser.named(b) else {
                throw .usage("unknown browser '\(b)'; expected one of: \(Browser.profiles.map(\.name).joined(separator: ", "))")
            }
            browser = profile
        }
        wordpressHome = a.value("--wordpress-home")
        wordpressSiteURL = a.value("--wordpress-siteurl")
        wordpressProxyFix = a.value("--wordpress-proxy-fix")
    }

    static func modules(extra: String?, only: String?) -> ModuleSet {
        if let only { return ModuleSet(ModuleSet.builtIn.union(only.split(separator: ",").map(String.init))) }
        var m = ModuleSet.standard
        for x in (extra ?? "").split(separator: ",") { m.insert(String(x)) }
        return m
    }

    /// URLs the site file asks to simulate (used when the command line names none).
    func defaultURLs(io: CLIEnvironment) throws -> [String] {
        guard let siteFile else { return [] }
        return try SiteFile.load(siteFile, io: io).urls
    }

    /// The same options with `dir` as the document root, over `--docroot` and the site file's
    /// (a directory `htlint lint` is given is a site of its own).
    func rooted(at dir: String) -> SiteOptions {
        var copy = self
        copy.docroot = dir
        copy.given.insert("--docroot")
        return copy
    }

    /// Loads the document root (and the site file) and builds the simulator.
    func simulator(defaultHost: String?, io: CLIEnvironment) throws -> ChainSimulator {
        let file = try siteFile.map { try SiteFile.load($0, io: io) } ?? SiteFile()
        func pick<T>(_ flag: String, _ flagValue: T, _ fileValue: T?) -> T { given.contains(flag) ? flagValue : fileValue ?? flagValue }
        let docroot = pick("--docroot", self.docroot, file.docroot)
        let serverDocroot = pick("--server-docroot", self.serverDocroot, file.serverDocroot)
        guard io.isDirectory(docroot) else { throw CLIError.unreadable(docroot, "not a directory") }
        let display = docroot.hasSuffix("/") ? String(docroot.dropLast()) : docroot
        let files = try SiteFileSystem.load(directory: docroot, mountedAt: serverDocroot, displayPrefix: display)
        var vhostFile: SourceFile? = nil
        if let v = given.contains("--vhost") ? vhost : file.vhost ?? vhost { vhostFile = SourceFile(path: v, bytes: try io.read(v)) }
        var modules = self.modules
        if !given.contains("--modules"), !given.contains("--only-modules"), let extra = file.modules {
            for m in extra { modules.insert(m) }
        }
        let serverName = host ?? file.host ?? defaultHost ?? "localhost"
        let source = SiteSource(serverName: serverName, aliases: given.contains("--alias") ? aliases : file.aliases ?? aliases,
                                documentRoot: serverDocroot, files: files, vhostLines: file.vhostLines ?? [], vhostFile: vhostFile,
                                modules: modules,
                                directoryIndex: directoryIndex ?? file.directoryIndex ?? ["index.html", "index.cgi", "index.pl", "index.php", "index.xhtml", "index.htm"])
        var layers = self.layers ?? file.layers ?? []
        if given.contains("--always-https"), self.layers == nil { layers = layers.map(LayerNames.withHTTPSRedirect) }
        var wordpress = file.wordpress
        if let home = wordpressHome {
            wordpress = WordPress(home: home, siteURL: wordpressSiteURL ?? wordpress?.siteURL, proxyFixHeader: wordpressProxyFix)
        } else if var wp = wordpress, let fix = wordpressProxyFix {
            wp.proxyFixHeader = fix.lowercased() == "none" ? nil : fix
            wordpress = wp
        }
        var originServer = OriginServer(tls: originTLS ?? file.originTLS ?? .valid)
        originServer.certificate = file.originCertificate
        var simulator = ChainSimulator(source: source, layers: layers, originServer: originServer, app: wordpress,
                                       browser: browser ?? file.browser ?? .chrome)
        let site = simulator.origin.site
        if hsts || file.hsts != nil {
            let hosts = hsts || file.hsts?.isEmpty == true ? [site.canonicalHost] + site.serverAliases : file.hsts!
            simulator = simulator.withHSTS(hosts)
        }
        if let n = maxHops ?? file.maxHops { simulator.maxHops = n }
        return simulator
    }
}
