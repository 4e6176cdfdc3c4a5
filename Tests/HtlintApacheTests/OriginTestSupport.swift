import HtlintDiagnostics
@testable import HtlintApache

/// A site under /var/www/html from a few files (`sizedFiles` when the size matters), `.htaccess`
/// texts and vhost lines, answering one request.
func respond(_ target: String, method: String = "GET", vhost: [String] = [], access: [(String, String)] = [],
             files: [String] = [], sizedFiles: [(String, Int)] = [], headers: [HTTPHeader] = []) -> OriginResponse {
    var fs = SiteFileSystem(root: "/var/www/html")
    for f in files { fs.addFile(f) }
    for (f, size) in sizedFiles { fs.addFile(f, size: size) }
    for (dir, text) in access {
        fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
    }
    let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
    return origin.respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
}

/// A site under /var/www/html with one root `.htaccess`, files of the given sizes and vhost lines
/// (the regression tests' recorded sites).
func testOrigin(_ htaccess: String, vhost: [String] = [], files: [(String, Int)], serverName: String,
                aliases: [String] = [], modules extra: [String] = []) -> Origin {
    var fs = SiteFileSystem(root: "/var/www/html")
    for (path, size) in files { fs.addFile(path, size: size) }
    fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
    var modules = ModuleSet.standard
    for m in extra { modules.insert(m) }
    return Origin(site: Site(serverName: serverName, aliases: aliases, files: fs, vhostLines: vhost, modules: modules))
}

/// One request to `origin`, with its own server name as `Host`.
func respond(_ origin: Origin, _ target: String, method: String = "GET", headers: [HTTPHeader] = [],
             tls: Bool = false) -> OriginResponse {
    origin.respond(to: OriginRequest(method: method, target: target,
                                     headers: [HTTPHeader("Host", origin.site.serverName)] + headers, tls: tls))
}

/// The first response header of that name (as written).
func header(_ r: OriginResponse, _ name: String) -> String? {
    r.headers.first { $0.name == name }?.value
}
