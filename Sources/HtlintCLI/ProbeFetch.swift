import CCurl
import Foundation
import HtlintSimulation

/// One exchange with the live site, as `htlint probe` saw it.
struct LiveHop: Sendable, Codable, Equatable {
    var url: String
    var method: String
    /// 0 when no answer arrived (see `error`).
    var status: Int
    var location: String?
    var hsts: String?
    var server: String?
    var error: String?

    init(url: String, method: String = "HEAD", status: Int, location: String? = nil, hsts: String? = nil,
         server: String? = nil, error: String? = nil) {
        self.url = url
        self.method = method
        self.status = status
        self.location = location
        self.hsts = hsts
        self.server = server
        self.error = error
    }
}

/// A live redirect chain; `outcome` uses the simulator's words (`final`, `loop`, `offsite`,
/// `too-many-hops`, `error`).
struct LiveChain: Sendable, Codable, Equatable {
    var request: String
    var hops: [LiveHop]
    var outcome: String
}

/// Where and how to connect: `--resolve HOST:PORT:ADDR`, `--insecure`, `--timeout`.
struct ProbeConnection: Sendable {
    var resolve: [String] = []
    var insecure = false
    var timeout: Double = 10

    /// The address `--resolve` gives for a host and port, if any.
    func address(host: String, port: Int) -> String? {
        for entry in resolve {
            let parts = entry.split(separator: ":", maxSplits: 2).map(String.init)
            guard parts.count == 3, parts[0].lowercased() == host.lowercased(), Int(parts[1]) == port else { continue }
            var addr = parts[2]
            if addr.hasPrefix("[") && addr.hasSuffix("]") { addr = String(addr.dropFirst().dropLast()) }
            return addr
        }
        return nil
    }

    /// Checks the `--resolve` entries' shape.
    static func validate(_ entry: String) -> Bool {
        let parts = entry.split(separator: ":", maxSplits: 2).map(String.init)
        return parts.count == 3 && !parts[0].isEmpty && Int(parts[1]).map { (1...65535).contains($0) } == true && !parts[2].isEmpty
    }
}

/// Sends one request (no redirect following) and reports what came back.
protocol ProbeFetcher {
    func fetch(_ url: String, method: String) -> LiveHop
}

/// Follows a live chain one hop at a time: HEAD, GET when HEAD is refused (405/501), stopping
/// like the simulator does (a repeated request, `maxHops`, a Location off the site, an error).
struct ProbeFollower {
    var fetcher: any ProbeFetcher
    var maxHops: Int
    /// Whether a URL belongs to the site (redirects elsewhere are recorded, not followed).
    var isOnSite: (URLParts) -> Bool

    func follow(_ start: String) -> LiveChain {
        var hops: [LiveHop] = []
        var seen: Set<String> = []
        var current = start
        let method = "HEAD"
        while true {
            guard let url = URLParts(current) else { return LiveChain(request: start, hops: hops, outcome: "error") }
            if seen.contains("\(method) \(url.text)") { return LiveChain(request: start, hops: hops, outcome: "loop") }
            if hops.count >= maxHops { return LiveChain(request: start, hops: hops, outcome: "too-many-hops") }
            seen.insert("\(method) \(url.text)")
            var hop = fetcher.fetch(url.text, method: method)
            if method == "HEAD", hop.status == 405 || hop.status == 501 {
                hop = fetcher.fetch(url.text, method: "GET")
            }
            hops.append(hop)
            if hop.error != nil || hop.status == 0 { return LiveChain(request: start, hops: hops, outcome: "error") }
            guard (300...399).contains(hop.status), let location = hop.location else {
                return LiveChain(request: start, hops: hops, outcome: "final")
            }
            guard let next = URLParts(url.resolve(location)) else { return LiveChain(request: start, hops: hops, outcome: "error") }
            guard isOnSite(next) else { return LiveChain(request: start, hops: hops, outcome: "offsite") }
            current = next.text
        }
    }
}

/// The live fetcher: libcurl, opened on first use.
enum ProbeFetchers {
    /// nil when libcurl cannot be opened (the error names the package).
    static func live(_ connection: ProbeConnection) -> (any ProbeFetcher)? {
        guard case .success(let api) = CurlFetcher.loaded else { return nil }
        return CurlFetcher(connection: connection, api: api.pointer)
    }

    /// What to tell a user whose system has no usable libcurl.
    static var unavailable: String {
        guard case .failure(let reason) = CurlFetcher.loaded else { return "" }
        return "probe needs libcurl (Debian package libcurl4): \(reason.message)"
    }
}

/// Response headers probe records.
private func record(_ name: String, _ value: String, into hop: inout LiveHop) {
    switch name.lowercased() {
    case "location": hop.location = value
    case "strict-transport-security": hop.hsts = value
    case "server": hop.server = value
    default: break
    }
}

/// libcurl easy handle per request: no redirects, no proxy, http(s) only, `CURLOPT_RESOLVE`.
struct CurlFetcher: ProbeFetcher {
    var connection: ProbeConnection

    private final class Sink {
        var hop: LiveHop
        init(_ hop: LiveHop) { self.hop = hop }
    }

    let api: UnsafePointer<htlint_curl_api>

    init(connection: ProbeConnection, api: UnsafePointer<htlint_curl_api>) {
        self.connection = connection
        self.api = api
    }

    /// The loaded function table (static data of the C shim, never freed or changed).
    struct API: @unchecked Sendable { let pointer: UnsafePointer<htlint_curl_api> }
    struct Unavailable: Error { let message: String }

    /// libcurl's functions, loaded and globally initialised once, or why that failed.
    static let loaded: Result<API, Unavailable> = {
        guard let api = htlint_curl_load() else {
            return .failure(Unavailable(message: dlerror().map { String(cString: $0) } ?? "libcurl.so.4 cannot be opened"))
        }
        guard api.pointee.global_init!(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK else {
            return .failure(Unavailable(message: "curl_global_init failed"))
        }
        return .success(API(pointer: api))
    }()

    func fetch(_ url: String, method: String) -> LiveHop {
        let sink = Sink(LiveHop(url: url, method: method, status: 0))
        guard let h = api.pointee.easy_init!() else { sink.hop.error = "curl_easy_init failed"; return sink.hop }
        defer { api.pointee.easy_cleanup!(h) }
        var resolve: UnsafeMutablePointer<curl_slist>? = nil
        for entry in connection.resolve { resolve = api.pointee.slist_append!(resolve, entry) }
        defer { api.pointee.slist_free_all!(resolve) }
        var headers: UnsafeMutablePointer<curl_slist>? = nil
        headers = api.pointee.slist_append!(headers, "User-Agent: Mozilla/5.0 (compatible; htlint-probe/\(CLI.version))")
        headers = api.pointee.slist_append!(headers, "Accept: */*")
        defer { api.pointee.slist_free_all!(headers) }
        _ = htlint_curl_setopt_string(api, h, CURLOPT_URL, url)
        _ = htlint_curl_setopt_string(api, h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = htlint_curl_setopt_string(api, h, CURLOPT_PROXY, "")
        _ = htlint_curl_setopt_long(api, h, CURLOPT_FOLLOWLOCATION, 0)
        _ = htlint_curl_setopt_long(api, h, CURLOPT_NOSIGNAL, 1)
        _ = htlint_curl_setopt_long(api, h, CURLOPT_TIMEOUT_MS, Int(connection.timeout * 1000))
        _ = htlint_curl_setopt_long(api, h, CURLOPT_CONNECTTIMEOUT_MS, Int(connection.timeout * 1000))
        if method == "HEAD" { _ = htlint_curl_setopt_long(api, h, CURLOPT_NOBODY, 1) }
        if connection.insecure {
            _ = htlint_curl_setopt_long(api, h, CURLOPT_SSL_VERIFYPEER, 0)
            _ = htlint_curl_setopt_long(api, h, CURLOPT_SSL_VERIFYHOST, 0)
        }
        if resolve != nil { _ = htlint_curl_setopt_pointer(api, h, CURLOPT_RESOLVE, resolve) }
        _ = htlint_curl_setopt_pointer(api, h, CURLOPT_HTTPHEADER, headers)
        let user = Unmanaged.passUnretained(sink).toOpaque()
        _ = htlint_curl_setopt_pointer(api, h, CURLOPT_HEADERDATA, user)
        _ = htlint_curl_setopt_callback(api, h, CURLOPT_HEADERFUNCTION) { data, size, count, user in
            guard let data, let user else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
            let n = size * count
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: n), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {  // a new response (after 100 Continue): start over
                let method = sink.hop.method, url = sink.hop.url
                sink.hop = LiveHop(url: url, method: method, status: 0)
            } else if let colon = line.firstIndex(of: ":") {
                record(String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                       String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces), into: &sink.hop)
            }
            return n
        }
        // The body is not needed: stop reading at its first byte (curl reports a write error).
        _ = htlint_curl_setopt_callback(api, h, CURLOPT_WRITEFUNCTION) { _, _, _, _ in 0 }
        let code = api.pointee.easy_perform!(h)
        var status = 0
        _ = htlint_curl_getinfo_long(api, h, CURLINFO_RESPONSE_CODE, &status)
        sink.hop.status = status
        if status == 0 || (code != CURLE_OK && code != CURLE_WRITE_ERROR) {
            sink.hop.status = 0
            sink.hop.error = api.pointee.easy_strerror!(code).map { String(cString: $0) } ?? "curl error \(code.rawValue)"
        }
        return sink.hop
    }
}
