extension Origin {
    /// The first response header whose value Apache's header filter refuses under
    /// `HttpProtocolOptions Strict` (the default): a control character other than HTAB, such as
    /// the newline a `%0A` in the URL puts into an `[CO=]` cookie (check_headers, AH02430).
    func headerRefusedByFilter(_ headers: [HTTPHeader]) -> HTTPHeader? {
        headers.first { h in h.value.unicodeScalars.contains { ($0.value < 0x20 && $0.value != 0x09) || $0.value == 0x7F } }
    }
}
