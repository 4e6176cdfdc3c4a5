import HtlintBytes

/// What ap_read_request refuses before any hook sees the request (die_unusable_input): no
/// post_read_request, the raw path logged, the status through ap_die (ErrorDocument applies).
extension Origin {
    /// The status and reason when the request is refused while it is read, in Apache's order:
    /// the request line, then the header lines (`lines`, as received), then the Host header.
    func readRequestRefusal(_ request: OriginRequest, lines: [HTTPHeader], _ chain: RequestChain) -> (status: Int, why: String)? {
        // read_request_line: a line that does not fit LimitRequestLine plus its CRLF is refused
        // before anything in it is read (8191 bytes pass, 8192 are 414, measured with Apache
        // 2.4.71; its AH00565 is logged at info level, below the default LogLevel).
        if chain.theRequest.utf8.count >= site.limitRequestLine + 2 {
            return (414, "the request line is longer than LimitRequestLine (\(site.limitRequestLine) bytes)")
        }
        if let problem = requestHeaderProblem(lines) { return (400, problem) }
        if let host = request.header("Host"), hostHeaderIsMalformed(host, strict: !site.httpProtocolUnsafe) {
            return (400, "malformed Host header \(host)")
        }
        if let problem = bodyFramingProblem(request.headers) { return (400, problem) }
        // ap_check_request_header: an expectation other than 100-continue is 417 (AH00570, info
        // level), after the framing checks (recorded: header-expect-unknown-417).
        if let expect = request.header("Expect"), !expect.isEmpty, !equalsIgnoringASCIICase(expect, "100-continue") {
            return (417, "unrecognized expectation Expect: \(expect)")
        }
        return nil
    }

    /// ap_get_mime_headers_core ends with apr_table_compress(APR_OVERLAP_TABLES_MERGE): the
    /// lines of one name (ASCII case-insensitive) become one, at the first's place and with
    /// its name, their values joined by ", " (an empty one too: `a, b, `), so `%{HTTP:…}`,
    /// `req()`, SetEnvIf and `Header echo` read `a, b` (recorded: header-repeated-lines-merged).
    static func mergingRepeatedHeaders(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        guard repeatsAName(headers) else { return headers }
        var out: [HTTPHeader] = []
        out.reserveCapacity(headers.count)
        for h in headers {
            if let i = out.firstIndex(where: { equalsIgnoringASCIICase($0.name, h.name) }) {
                out[i].value += ", " + h.value
            } else {
                out.append(h)
            }
        }
        return out
    }

    /// Whether two lines share a name. Most requests repeat none, and this runs on every hop:
    /// over the array's buffer, names compared only when their lengths agree.
    private static func repeatsAName(_ headers: [HTTPHeader]) -> Bool {
        headers.withUnsafeBufferPointer { h in
            for i in h.indices.dropFirst() {
                let count = h[i].name.utf8.count
                for j in 0..<i where h[j].name.utf8.count == count && equalsIgnoringASCIICase(h[j].name, h[i].name) { return true }
            }
            return false
        }
    }

    /// Why ap_read_request refuses the body's framing headers with 400 (logged at info level),
    /// repeated lines read as one joined with ", ": a Transfer-Encoding whose last coding is
    /// not `chunked` (AH02539), else a Content-Length that is not all digits (AH10242), so a
    /// second Content-Length line (`0, 8`) is refused too. `chunked` drops Content-Length
    /// unread. Recorded: header-invalid-content-length-refused.
    func bodyFramingProblem(_ headers: [HTTPHeader]) -> String? {
        func joined(_ name: String) -> String? {
            // Most requests carry neither header: ask before copying any.
            guard headers.indexOfHeader(name) != nil else { return nil }
            let values = headers.filter { equalsIgnoringASCIICase($0.name, name) }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        if let te = joined("Transfer-Encoding") {
            // Split at `,` bytes, as ap_get_list_item reads the list.
            let codings = byteSplit(te[...], UInt8(ascii: ",")).map {
                String($0.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
            }
            let chunked = codings.map { equalsIgnoringASCIICase($0, "chunked") }
            guard chunked.last == true, chunked.filter({ $0 }).count == 1 else {
                return "unknown Transfer-Encoding (\(te))"
            }
            return nil
        }
        if let cl = joined("Content-Length"), !Origin.isStrictLength(cl) { return "invalid Content-Length (\(cl))" }
        return nil
    }

    /// ap_parse_strict_length: decimal digits only (no sign, no blank), within apr_off_t.
    static func isStrictLength(_ s: String) -> Bool {
        !s.isEmpty && s.allBytes { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } && Int64(s) != nil
    }

    /// Why ap_get_mime_headers_core refuses the request's header lines with 400, if it does:
    /// a line (`Name: value`) of LimitRequestFieldsize plus two bytes or more (AH00561), or
    /// more lines than LimitRequestFields (AH00563; 0 is no limit). Measured by hand against
    /// Apache 2.4.71 with raw requests (the oracle matches a hop to its access-log line by a
    /// header Apache never reads here): with the default 8190 a line of 8191 bytes is read and
    /// one of 8192 refused; `LimitRequestFieldsize 0` refuses every header, `LimitRequestFields
    /// 4` refuses a fifth line, `Host` included.
    func requestHeaderProblem(_ headers: [HTTPHeader]) -> String? {
        let fieldLimit = site.limitRequestFieldSize, countLimit = site.limitRequestFields
        // Lines are read in order: whichever limit a line breaks first is the one reported.
        for (i, h) in headers.enumerated() {
            if countLimit > 0, i == countLimit {
                return "the request has more header lines than LimitRequestFields (\(countLimit))"
            }
            // A raw byte is one byte on the wire and four in the string: count raw bytes only
            // for a line the string's length puts over the limit.
            guard h.name.utf8.count + 2 + h.value.utf8.count >= fieldLimit + 2 else { continue }
            let length = h.name.utf8.count + 2 + h.value.rawByteCount
            if length >= fieldLimit + 2 {
                return "the header line \(h.name) (\(length) bytes) is longer than LimitRequestFieldsize (\(fieldLimit) bytes)"
            }
        }
        return nil
    }
}
