import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(CCurl)
import CCurl
#endif
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

/// The fetcher for this build: libcurl when the CCurl module is linked, else URLSession.
enum ProbeFetchers {
    static func live(_ connection: ProbeConnection) -> (any ProbeFetcher)? {
        #if canImport(CCurl)
        return CurlFetcher(connection: connection)
        #else
        // URLSession on Linux cannot turn certificate checks off.
        if connection.insecure { return nil }
        return URLSessionFetcher(connection: connection)
        #endif
    }

    static var supportsInsecure: Bool {
        #if canImport(CCurl)
        return true
        #else
        return false
        #endif
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

#if canImport(CCurl)
/// libcurl easy handle per request: no redirects, no proxy, http(s) only, `CURLOPT_RESOLVE`.
struct CurlFetcher: ProbeFetcher {
    var connection: ProbeConnection

    private final class Sink {
        var hop: LiveHop
        init(_ hop: LiveHop) { self.hop = hop }
    }

    init(connection: ProbeConnection) {
        self.connection = connection
        _ = CurlFetcher.initialised
    }

    private static let initialised: Bool = { curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK }()

    func fetch(_ url: String, method: String) -> LiveHop {
        let sink = Sink(LiveHop(url: url, method: method, status: 0))
        guard let h = curl_easy_init() else { sink.hop.error = "curl_easy_init failed"; return sink.hop }
        defer { curl_easy_cleanup(h) }
        var resolve: UnsafeMutablePointer<curl_slist>? = nil
        for entry in connection.resolve { resolve = curl_slist_append(resolve, entry) }
        defer { curl_slist_free_all(resolve) }
        var headers: UnsafeMutablePointer<curl_slist>? = nil
        headers = curl_slist_append(headers, "User-Agent: Mozilla/5.0 (compatible; htlint-probe/\(CLI.version))")
        headers = curl_slist_append(headers, "Accept: */*")
        defer { curl_slist_free_all(headers) }
        _ = htlint_curl_setopt_string(h, CURLOPT_URL, url)
        _ = htlint_curl_setopt_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = htlint_curl_setopt_string(h, CURLOPT_PROXY, "")
        _ = htlint_curl_setopt_long(h, CURLOPT_FOLLOWLOCATION, 0)
        _ = htlint_curl_setopt_long(h, CURLOPT_NOSIGNAL, 1)
        _ = htlint_curl_setopt_long(h, CURLOPT_TIMEOUT_MS, Int(connection.timeout * 1000))
        _ = htlint_curl_setopt_long(h, CURLOPT_CONNECTTIMEOUT_MS, Int(connection.timeout * 1000))
        if method == "HEAD" { _ = htlint_curl_setopt_long(h, CURLOPT_NOBODY, 1) }
        if connection.insecure {
            _ = htlint_curl_setopt_long(h, CURLOPT_SSL_VERIFYPEER, 0)
            _ = htlint_curl_setopt_long(h, CURLOPT_SSL_VERIFYHOST, 0)
        }
        if resolve != nil { _ = htlint_curl_setopt_pointer(h, CURLOPT_RESOLVE, resolve) }
        _ = htlint_curl_setopt_pointer(h, CURLOPT_HTTPHEADER, headers)
        let user = Unmanaged.passUnretained(sink).toOpaque()
        _ = htlint_curl_setopt_pointer(h, CURLOPT_HEADERDATA, user)
        _ = htlint_curl_setopt_callback(h, CURLOPT_HEADERFUNCTION) { data, size, count, user in
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
        _ = htlint_curl_setopt_callback(h, CURLOPT_WRITEFUNCTION) { _, _, _, _ in 0 }
        let code = curl_easy_perform(h)
        var status = 0
        _ = htlint_curl_getinfo_long(h, CURLINFO_RESPONSE_CODE, &status)
        sink.hop.status = status
        if status == 0 || (code != CURLE_OK && code != CURLE_WRITE_ERROR) {
            sink.hop.status = 0
            sink.hop.error = String(cString: curl_easy_strerror(code))
        }
        return sink.hop
    }
}
#endif

/// URLSession with a delegate that refuses redirects; `--resolve` by connecting to the address
/// with the original `Host` header (plain http only: TLS would check the certificate against the address).
final class URLSessionFetcher: NSObject, ProbeFetcher, URLSessionTaskDelegate, @unchecked Sendable {
    let connection: ProbeConnection

    init(connection: ProbeConnection) {
        self.connection = connection
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func fetch(_ url: String, method: String) -> LiveHop {
        var hop = LiveHop(url: url, method: method, status: 0)
        guard let parts = URLParts(url), var components = URLComponents(string: url) else {
            hop.error = "not a URL"
            return hop
        }
        if let addr = connection.address(host: parts.host, port: parts.effectivePort) {
            components.host = addr.contains(":") ? "[\(addr)]" : addr
        }
        guard let target = components.url else { hop.error = "not a URL"; return hop }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: connection.timeout)
        request.httpMethod = method
        request.setValue(parts.hostHeader, forHTTPHeaderField: "Host")
        request.setValue("Mozilla/5.0 (compatible; htlint-probe/\(CLI.version))", forHTTPHeaderField: "User-Agent")
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = [:]
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: (URLResponse?, Error?) = (nil, nil)
        session.dataTask(with: request) { _, response, error in
            result = (response, error)
            done.signal()
        }.resume()
        if done.wait(timeout: .now() + connection.timeout + 2) == .timedOut {
            hop.error = "timed out"
            return hop
        }
        if let http = result.0 as? HTTPURLResponse {
            hop.status = http.statusCode
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { record(k, v, into: &hop) }
            }
        } else {
            hop.error = result.1.map { ($0 as NSError).localizedDescription } ?? "no response"
        }
        return hop
    }
}
