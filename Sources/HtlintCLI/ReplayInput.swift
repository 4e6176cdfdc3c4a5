/// One request to replay: from a URL list line or an access-log line.
struct ReplayRequest: Sendable {
    var method: String
    var url: String
}

/// Turns input lines into requests: absolute URLs, paths, or Apache/nginx access-log lines in
/// common or combined format (`… "GET /path?q HTTP/1.1" 200 …`).
struct ReplayInput {
    var scheme: String
    var host: String

    func request(_ line: String) -> ReplayRequest? {
        var s = Substring(line)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        if s.isEmpty || s.hasPrefix("#") { return nil }
        if s.hasPrefix("http://") || s.hasPrefix("https://") {
            let url = s.split(separator: " ", maxSplits: 1).first.map(String.init) ?? String(s)
            return ReplayRequest(method: "GET", url: url)
        }
        if s.hasPrefix("/") {
            return ReplayRequest(method: "GET", url: "\(scheme)://\(host)\(s.split(separator: " ").first ?? "")")
        }
        // Access log: the request line is the first quoted field.
        guard let open = s.firstIndex(of: "\"") else { return nil }
        let rest = s[s.index(after: open)...]
        guard let close = rest.firstIndex(of: "\"") else { return nil }
        let parts = rest[..<close].split(separator: " ")
        guard parts.count >= 2, parts[0].allSatisfy({ $0.isUppercase }) else { return nil }
        var target = String(parts[1])
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            return ReplayRequest(method: String(parts[0]), url: target)
        }
        guard target.hasPrefix("/") else { return nil }
        if target.isEmpty { target = "/" }
        return ReplayRequest(method: String(parts[0]), url: "\(scheme)://\(host)\(target)")
    }
}
