/// httpd's table of status lines (http_protocol.c's status_lines). A status without a line
/// goes out as 500 (`%>s` still logs it), is looked up as 500 for ErrorDocument
/// (ap_index_of_response) and cannot be named by ErrorDocument or `[R=]`. Recorded:
/// fixtures/apache/errordoc-unknown-status-codes.
enum StatusLines {
    static func known(_ status: Int) -> Bool {
        switch status {
        case 100...103, 200...208, 226, 300...305, 307, 308, 400...417, 421...424, 426, 428, 429, 431, 451,
             500...508, 510, 511: true
        default: false
        }
    }

    /// ap_is_HTTP_REDIRECT.
    static func isRedirect(_ status: Int) -> Bool { (300...399).contains(status) }

    /// The ErrorDocument that answers a status: its own, or 500's when it has no line.
    static func errorDocumentKey(_ status: Int) -> Int { known(status) ? status : 500 }
}
