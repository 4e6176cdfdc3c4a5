import HtlintBytes

extension Origin {
    /// The first response header Apache's header filter refuses under `HttpProtocolOptions
    /// Strict` (the default), with its log line (check_headers): an empty name (AH02428,
    /// `Header set "" v`), a name that is no HTTP token (AH02429), or a value with a control
    /// character other than HTAB, such as the newline a `%0A` in the URL puts into an `[CO=]`
    /// cookie (AH02430).
    func headerRefusedByFilter(_ headers: [HTTPHeader]) -> (header: HTTPHeader, code: String, message: String)? {
        for h in headers {
            if h.name.isEmpty { return (h, "AH02428", "Empty response header name, aborting request") }
            if !h.name.allBytes(Origin.isTokenByte) {
                return (h, "AH02429", "Response header name '\(h.name)' contains invalid characters, aborting request")
            }
            // By bytes: a control character is one byte in UTF-8, and no byte of a longer
            // sequence is below 0x80.
            if h.value.containsByte(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                return (h, "AH02430", "Response header '\(h.name)' value of '\(h.value)' contains invalid characters, aborting request")
            }
        }
        return nil
    }

    /// RFC 7230 tchar: letters, digits and ``!#$%&'*+-.^_`|~``.
    public static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
             UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
