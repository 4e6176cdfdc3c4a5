@testable import HtlintApache

/// A site under /var/www/html from a few files, `.htaccess` texts and vhost lines, answering one request.
func respond(_ target: String, method: String = "GET", vhost: [String] = [], access: [(String, String)] = [],
             files: [String] = [], headers: [HTTPHeader] = []) -> OriginResponse {
    var fs = SiteFileSystem(root: "/var/www/html")
    for f in files { fs.addFile(f) }
    for (dir, text) in access {
        fs.addAccessFile(dir, displayPath: "/var/www/html\(dir == "/" ? "" : dir)/.htaccess", text: text)
    }
    let origin = Origin(site: Site(serverName: "shop.example", files: fs, vhostLines: vhost))
    return origin.respond(to: OriginRequest(method: method, target: target, headers: [HTTPHeader("Host", "shop.example")] + headers))
}
