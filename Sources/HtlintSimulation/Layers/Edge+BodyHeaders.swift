import HtlintApache
import HtlintBytes

extension Edge {
    /// What nginx 1.22 answers a request whose body-framing headers it refuses, if it does:
    /// Content-Length is a unique header (a second line is 400 while the headers are parsed),
    /// its value must pass ngx_atoof (digits only, within off_t), and Transfer-Encoding must
    /// be exactly `chunked` (else 501) without a Content-Length beside it (400).
    static func nginxBodyHeaderRefusal(_ headers: [HTTPHeader]) -> (status: Int, why: String)? {
        let lengths = headers.filter { equalsIgnoringASCIICase($0.name, "Content-Length") }.map(\.value)
        if lengths.count > 1 { return (400, "the proxy refuses a repeated Content-Length header") }
        if let cl = lengths.first,
           cl.isEmpty || !cl.allBytes({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) || Int64(cl) == nil {
            return (400, "the proxy refuses an invalid Content-Length (\(cl))")
        }
        guard let te = headers.first(where: { equalsIgnoringASCIICase($0.name, "Transfer-Encoding") })?.value else { return nil }
        guard equalsIgnoringASCIICase(te, "chunked") else { return (501, "the proxy does not know Transfer-Encoding \(te)") }
        return lengths.isEmpty ? nil : (400, "the proxy refuses Content-Length beside Transfer-Encoding")
    }
}
