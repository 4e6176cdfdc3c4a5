import Foundation
import HtlintApache
import HtlintBytes

/// A recorded scenario (a site tree, a virtual host, requests, and what real Apache answered),
/// in the format of `fixtures/apache/*` and the shared conformance corpus.
public struct ConformanceCase {
    public struct Request {
        public var url: String
        public var method: String
        public var headers: [HTTPHeader]
    }

    public var name: String
    public var description: String
    public var host: String
    public var aliases: [String]
    public var edge: Edge
    public var vhost: [String]
    public var vhostHTTP: [String]
    public var vhostHTTPS: [String]
    /// A whole site configuration (`site_conf`: main-server lines and `<VirtualHost>` sections),
    /// read as `--vhost FILE` reads one; nil when the case gives per-port `vhost` lines.
    public var siteConf: [String]?
    public var modules: [String]
    public var requests: [Request]
    public var recordHeaders: [String]
    /// `results` of expected.json, one per request.
    public var expected: [[String: Any]]
    public var siteDirectory: String

    public enum LoadError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case invalid(String, String)
        public var description: String {
            switch self {
            case .unreadable(let p, let why): "cannot read '\(p)': \(why)"
            case .invalid(let p, let why): "invalid case '\(p)': \(why)"
            }
        }
    }

    public static func load(_ directory: String) throws -> ConformanceCase {
        func json(_ name: String) throws -> [String: Any] {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path) else { throw LoadError.unreadable(path, "missing") }
            guard let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw LoadError.invalid(path, "not a JSON object")
            }
            return obj
        }
        let c = try json("case.json")
        // A case without its recording has nothing to agree with: not counting it as agreeing.
        let e: [String: Any]
        do { e = try json("expected.json") } catch LoadError.unreadable(let path, _) {
            throw LoadError.unreadable(path, "missing; record the case with `python3 tools/apache-oracle/oracle.py record DIR`")
        }
        guard let host = c["host"] as? String else { throw LoadError.invalid(directory, "no host") }
        let edgeName = c["edge"] as? String ?? "none"
        guard var edge = Edge(name: edgeName) else { throw LoadError.invalid(directory, "unknown edge '\(edgeName)'") }
        // The recordings' nginx sets `X-Forwarded-For $remote_addr` where Cloudflare appends.
        edge.replacesForwardedFor = true
        // Its proxy_buffer_size is the default page: 4096 bytes of status line and headers.
        edge.originHeaderLimit = 4096
        // Its large_client_header_buffers (4 8k) hold a request line of 8190 bytes (414 beyond).
        edge.requestLineBuffer = 8192
        // Header lines go to a 1k buffer, then to at most four 8k ones (400 beyond).
        edge.headerBuffers = Edge.HeaderBuffers(first: 1024, large: 8192, count: 4)
        // It refuses malformed request paths itself (400).
        edge.rejectsMalformedPaths = true
        // And TRACE and CONNECT (405).
        edge.rejectsTrace = true
        // It passes no request header whose name holds `_` or another odd byte.
        edge.dropsInvalidHeaderNames = true
        // And one whose Host header it finds invalid (400).
        edge.rejectsInvalidHost = true
        // And a repeated or non-numeric Content-Length (400), an unknown Transfer-Encoding (501).
        edge.rejectsBadBodyHeaders = true
        // Its proxy module drops Expect, TE, Keep-Alive and Upgrade on the way to Apache.
        edge.dropsProxyDefaultHeaders = true
        // And hides X-Pad and the X-Accel-* headers of Apache's answers from the client.
        edge.hidesProxyControlHeaders = true
        // Behind it, Apache listens on 127.0.0.2 (oracle.py), which %{SERVER_ADDR} reports.
        edge.originServerAddress = "127.0.0.2"
        // Its TLS to Apache (full modes) is TLSv1.2 (nginx 1.22.1's proxy_ssl_protocols).
        edge.originTLSProtocol = "TLSv1.2"
        // …with ECDHE-ECDSA-AES256-GCM-SHA384: the recordings' Apache has an EC (P-256)
        // certificate (recorded: https-ssl-cipher-behind-edge).
        edge.originTLSCipher = "ECDHE-ECDSA-AES256-GCM-SHA384"
        var requests: [Request] = []
        for item in c["requests"] as? [Any] ?? [] {
            if let s = item as? String {
                requests.append(Request(url: s, method: "GET", headers: []))
            } else if let o = item as? [String: Any], let url = o["url"] as? String {
                // An HTTP server reads a header value without the spaces and tabs around it.
                let headers = (o["headers"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }
                    .map { HTTPHeader($0.key, wireValue($0.value).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))) }
                requests.append(Request(url: url, method: (o["method"] as? String ?? "GET").uppercased(), headers: headers))
            }
        }
        let results = e["results"] as? [[String: Any]] ?? []
        guard results.count == requests.count else {
            throw LoadError.invalid(directory + "/expected.json",
                                    "\(results.count) recorded results for \(requests.count) requests in case.json; record the case again")
        }
        return ConformanceCase(
            name: (directory as NSString).lastPathComponent, description: c["description"] as? String ?? "",
            host: host, aliases: c["aliases"] as? [String] ?? [], edge: edge,
            vhost: c["vhost"] as? [String] ?? [], vhostHTTP: c["vhost_http"] as? [String] ?? [],
            vhostHTTPS: c["vhost_https"] as? [String] ?? [], siteConf: c["site_conf"] as? [String], modules: c["modules"] as? [String] ?? [],
            requests: requests, recordHeaders: c["record_headers"] as? [String] ?? [],
            expected: results, siteDirectory: directory + "/site")
    }

    /// A header value as the recording client sends it: each character as its Latin-1 byte, so
    /// `cafÃ©` in case.json is the UTF-8 of café on the wire and `café` the single byte 0xE9
    /// (recorded: header-request-value-non-ascii-bytes).
    static func wireValue(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: { $0.value > 0x7F }),
              value.unicodeScalars.allSatisfy({ $0.value <= 0xFF }) else { return value }
        return String(preservingBytes: value.unicodeScalars.map { UInt8($0.value) })
    }

    /// The modules the recordings' server loaded (conformance README).
    public var moduleSet: ModuleSet {
        var m = ModuleSet(ModuleSet.builtIn.union(["mpm_prefork", "authz_core", "authz_host", "mime", "dir", "alias",
                                                   "rewrite", "headers", "setenvif", "ssl"]))
        for x in modules { m.insert(x) }
        return m
    }

    /// Builds the simulator for this case: one origin per scheme when the vhosts differ, one per
    /// `<VirtualHost>` section a connection reaches with `site_conf`.
    public func simulator() throws -> ChainSimulator {
        // An empty file is served as `oracle-file:/its/path` and a newline (tools/apache-oracle).
        let files = try SiteFileSystem.load(directory: siteDirectory, mountedAt: "/var/www/html",
                                            emptyFileSize: { "oracle-file:\($0)\n".rawByteCount }, displayPrefix: "/var/www/html")
        var simulator = siteConf.map { siteConfSimulator(files, lines: $0) } ?? vhostSimulator(files)
        simulator.recordingClient = true
        // Its fixed User-Agent (oracle.py's USER_AGENT), which %{HTTP_USER_AGENT} and headers show.
        simulator.userAgent = "Mozilla/5.0 (compatible; htlint-oracle/1.0)"
        // The recording client keeps no HSTS state: a Strict-Transport-Security header never
        // turns a later http hop into a browser-made 307.
        simulator.browser.usesHSTS = false
        simulator.originServer.certificate = ConformanceCase.oracleCertificate
        return simulator
    }

    /// The oracle's throw-away certificate (oracle.py's make_certificate: `openssl req -x509`
    /// with a P-256 key and `-subj /CN=htlint-oracle`), self-signed.
    static let oracleCertificate = ServerCertificate(
        subject: [.init("CN", "htlint-oracle")], issuer: [.init("CN", "htlint-oracle")],
        keyAlgorithm: "id-ecPublicKey", signatureAlgorithm: "ecdsa-with-SHA256")

    private func vhostSimulator(_ files: SiteFileSystem) -> ChainSimulator {
        func site(_ extra: [String]) -> Site {
            Site(serverName: host, aliases: aliases, documentRoot: "/var/www/html", files: files,
                 vhostLines: vhost + extra, modules: moduleSet, directoryIndex: ["index.html", "index.php"])
        }
        let http = Origin(site: site(vhostHTTP))
        let https = vhostHTTPS.isEmpty && vhostHTTP.isEmpty ? http : Origin(site: site(vhostHTTPS))
        var simulator = ChainSimulator(origin: http, tlsOrigin: https, edge: edge)
        // The recording client stays on `host` and `aliases` only: a name a case's own lines add
        // (`ServerAlias *.example.com`) is served by Apache but offsite to the client (recorded:
        // vhost-own-alias-offsite-to-client, vhost-serveralias-offsite-to-client).
        simulator.clientHosts = Set(([host] + aliases).map { $0.lowercased() })
        return simulator
    }

    /// The configuration is the site's, as `--vhost FILE` gives it: `host` and `aliases` only
    /// name the hosts the recording client stays on, no section gets them. The main server is
    /// the oracle's, named `oracle.invalid` (what a section without ServerName answers as).
    private func siteConfSimulator(_ files: SiteFileSystem, lines: [String]) -> ChainSimulator {
        let source = SiteSource(serverName: "oracle.invalid", documentRoot: "/var/www/html", files: files, vhostLines: lines,
                                modules: moduleSet, directoryIndex: ["index.html", "index.php"])
        var simulator = ChainSimulator(source: source, layers: edge.mode == .none ? [] : [edge])
        simulator.clientHosts = Set(([host] + aliases).map { $0.lowercased() })
        return simulator
    }
}
