import HtlintApache
import HtlintRegex

/// The `$_SERVER` values WordPress decides on, for a request Apache hands to PHP
/// (layers-and-mixed-content §12.1, §11.1).
public struct PHPEnvironment: Sendable, Hashable {
    /// `$_SERVER['HTTPS']`, nil when unset.
    public var https: String?
    /// Where `HTTPS` came from, in words.
    public var httpsSource: String
    /// `$_SERVER['SERVER_PORT']`, Apache's idea of the port.
    public var serverPort: Int
    /// `HTTP_HOST`: the `Host` header Apache received.
    public var httpHost: String
    /// The original request's URI with its query (what Apache passes as `REQUEST_URI`).
    public var requestURI: String
    /// `REQUEST_METHOD`.
    public var method: String

    /// `is_ssl()`: `HTTPS` is `on` or `1`; only when it is unset at all, port 443 (§12.1).
    public var isSSL: Bool {
        if let https { return https.lowercased() == "on" || https == "1" }
        return serverPort == 443
    }

    /// Why `is_ssl()` answers what it does.
    public var isSSLReason: String {
        if let https { return "$_SERVER['HTTPS'] is '\(https)' (\(httpsSource))" }
        return serverPort == 443 ? "$_SERVER['HTTPS'] is unset but SERVER_PORT is 443"
            : "$_SERVER['HTTPS'] is unset (\(httpsSource)) and SERVER_PORT is \(serverPort)"
    }

    /// Builds the environment: mod_ssl sets `HTTPS=on` on a TLS connection; otherwise a
    /// `SetEnvIf … HTTPS=on` that matched (it runs again after the internal redirect to
    /// index.php, §11.1), otherwise the wp-config.php fix keyed on `proxyFixHeader` (§12.4).
    public init(request: OriginRequest, response: OriginResponse, site: Site, proxyFixHeader: String?) {
        httpHost = request.header("Host") ?? ""
        requestURI = request.target
        method = request.method
        serverPort = PHPEnvironment.serverPort(request, site)
        if request.tls {
            https = "on"
            httpsSource = "set by mod_ssl: the connection to Apache is TLS"
        } else if let set = PHPEnvironment.setEnvIfHTTPS(request, response, site) {
            https = set.value
            httpsSource = "set by SetEnvIf at \(set.at)"
        } else if let name = proxyFixHeader, let value = request.header(name),
                  name.lowercased() == "fastly-ssl" || value.lowercased().contains("https") {
            https = "on"
            httpsSource = "set by the wp-config.php fix because \(name) is '\(value)'"
        } else {
            https = nil
            httpsSource = request.header("X-Forwarded-Proto") == "https"
                ? "Apache is reached over plain HTTP and wp-config.php has no X-Forwarded-Proto fix"
                : "Apache is reached over plain HTTP"
        }
    }

    /// Apache's `SERVER_PORT`: the port in `Host`, else ServerName's, else the connection
    /// scheme's default (UseCanonicalName Off, apache-semantics §10.2).
    static func serverPort(_ request: OriginRequest, _ site: Site) -> Int {
        let defaultPort = request.tls ? 443 : 80
        if site.useCanonicalName { return site.canonicalPort ?? defaultPort }
        if let host = request.header("Host"), !host.hasPrefix("["), let colon = host.lastIndex(of: ":"),
           let port = Int(host[host.index(after: colon)...]) {
            return port
        }
        return site.canonicalPort ?? defaultPort
    }

    /// A header-based `SetEnvIf` that sets `HTTPS` for the final request: server level and every
    /// `.htaccess` on the walk to the served file.
    static func setEnvIfHTTPS(_ request: OriginRequest, _ response: OriginResponse, _ site: Site) -> (value: String, at: String)? {
        var lists = [site.vhost.block.setEnvIf]
        if let file = response.final.filename, file.hasPrefix("/") {
            let absolute = site.documentRoot + file
            var dir = site.documentRoot + "/"
            let rest = absolute.dropFirst(dir.count).split(separator: "/").dropLast()
            var dirs = [dir]
            for segment in rest { dir += segment + "/"; dirs.append(dir) }
            for d in dirs {
                for (path, block) in site.vhost.block.server?.directories ?? [] where (path.hasSuffix("/") ? path : path + "/") == d {
                    lists.append(block.setEnvIf)
                }
                if let config = site.accessConfigs[d] { lists.append(config.block.setEnvIf) }
            }
        }
        var found: (String, String)? = nil
        for list in lists {
            for d in list {
                guard let value = request.header(d.attribute), d.regex.firstMatch(in: value) != nil else { continue }
                for a in d.assignments where a.name.uppercased() == "HTTPS" {
                    found = a.unset ? nil : (a.value, site.location(of: d.range))
                }
            }
        }
        return found
    }
}
