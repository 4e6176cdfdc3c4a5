/// One request to replay: from a URL list line or an access-log line.
struct ReplayRequest: Sendable {
    var method: String
    var url: String

    /// The request as replay's cache knows it. A URL read from a line has no space, so a GET
    /// (nearly every line) is its URL, without a string built per line.
    var cacheKey: String { method == "GET" ? url : method + " " + url }
}

/// Turns input lines into requests: absolute URLs, paths, or Apache/nginx access-log lines in
/// common or combined format (`… "GET /path?q HTTP/1.1" 200 …`).
struct ReplayInput {
    var scheme: String
    var host: String

    /// A line that is not meant as a request (blank, or a `#` comment), as opposed to an
    /// unreadable one.
    static func isBlankOrComment(_ line: String) -> Bool {
        let text = line.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        return text.isEmpty || text.first == UInt8(ascii: "#")
    }

    func request(_ line: String) -> ReplayRequest? {
        // By bytes: every delimiter is ASCII, and a log has millions of lines.
        var line = line
        return line.withUTF8 { request(bytes: $0) }
    }

    private func request(bytes b: UnsafeBufferPointer<UInt8>) -> ReplayRequest? {
        func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        func starts(_ prefix: StaticString, at i: Int, before end: Int) -> Bool {
            let n = prefix.utf8CodeUnitCount
            guard end - i >= n else { return false }
            let p = prefix.utf8Start
            for k in 0..<n where b[i + k] != p[k] { return false }
            return true
        }
        /// End of the run of non-space bytes from `i`.
        func wordEnd(_ i: Int, _ end: Int) -> Int {
            var j = i
            while j < end, b[j] != 0x20 { j += 1 }
            return j
        }
        var lo = 0, hi = b.count
        while lo < hi, isBlank(b[lo]) { lo += 1 }
        while hi > lo, isBlank(b[hi - 1]) { hi -= 1 }
        if lo == hi || b[lo] == UInt8(ascii: "#") { return nil }
        if starts("http://", at: lo, before: hi) || starts("https://", at: lo, before: hi) {
            return ReplayRequest(method: "GET", url: text(lo..<wordEnd(lo, hi)))
        }
        if b[lo] == UInt8(ascii: "/") {
            return ReplayRequest(method: "GET", url: "\(scheme)://\(host)" + text(lo..<wordEnd(lo, hi)))
        }
        // Access log: the request line is the first quoted field.
        guard let open = b[lo..<hi].firstIndex(of: UInt8(ascii: "\"")),
              let close = b[(open + 1)..<hi].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        var parts: [Range<Int>] = []
        var i = open + 1
        while i < close, parts.count < 2 {
            if b[i] == 0x20 { i += 1; continue }
            let end = Swift.min(wordEnd(i, close), close)
            parts.append(i..<end)
            i = end
        }
        guard parts.count == 2, b[parts[0]].allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return nil }
        let method = text(parts[0])
        let target = parts[1]
        if starts("http://", at: target.lowerBound, before: target.upperBound)
            || starts("https://", at: target.lowerBound, before: target.upperBound) {
            return ReplayRequest(method: method, url: text(target))
        }
        guard b[target.lowerBound] == UInt8(ascii: "/") else { return nil }
        return ReplayRequest(method: method, url: "\(scheme)://\(host)" + text(target))
    }
}
