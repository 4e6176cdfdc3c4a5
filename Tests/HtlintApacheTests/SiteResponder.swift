@testable import HtlintApache

/// The site most regression tests build: the files and `.htaccess` texts under /var/www/html of
/// a virtual host `serverName` with these lines, answering one request to `host` (over TLS when
/// `tls`, on the local address `serverAddress`).
func respondOnSite(_ target: String, serverName: String = "shop.example", host: String? = nil, vhost: [String] = [],
                   access: [(String, String)] = [], files: [String], tls: Bool = false,
                   serverAddress: String = "127.0.0.1") -> OriginResponse {
    var fs = SiteFileSystem(root: "/var/www/html")
    for f in files { fs.addFile(f) }
    for (dir, text) in access {
        fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
    }
    let origin = Origin(site: Site(serverName: serverName, files: fs, vhostLines: vhost))
    return origin.respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", host ?? serverName)], tls: tls,
                                            serverAddress: serverAddress))
}
