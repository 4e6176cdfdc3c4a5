import HtlintDiagnostics

/// What goes out for an answer: the status line, the request states the log reports, the headers.
struct SentAnswer {
    /// The last request's state, with the status `%>s` logs.
    var final: RecordState
    /// The first request's state, with the status `%<s` logs.
    var original: RecordState
    /// The status line's code.
    var sentStatus: Int
    var headers: [HTTPHeader] = []
}

/// What the byte-range filter made of a file sent with 200.
enum RangeAnswer: Equatable {
    /// No range applies: the whole file.
    case whole
    /// Part of the file with 206; one range has its `Content-Range` (several are a multipart body).
    case partial(contentRange: String?)
    /// Every range starts past the end: 416, an error page.
    case refused

    var isPartial: Bool { if case .partial = self { true } else { false } }
}

extension Origin {
    /// The answer the requests ended with, as it goes out: nil when the header filter refused it
    /// and ErrorDocument 500 names a page, which is then requested (`runRequests` again).
    func send(_ a: AnswerState) -> OriginResponse? {
        let chain = a.chain
        var out = statusLine(a)
        // A page a handler sends goes out like any page, not by ap_send_error_response, whatever
        // its status: an ErrorDocument page, or a file served with a status an [R=3xx] without
        // [L] left on the request.
        // A 204 has no body: whatever page was meant goes out empty, though its handler sent it
        // with its request's headers (an ErrorDocument page for a 204; recorded:
        // errordoc-204-page-headers).
        let sentEmpty = a.status == 204 && a.served != nil
        if a.status == 204 { a.served = nil }
        // The default handler sent a file: ap_set_accept_ranges put `Accept-Ranges` in
        // r->headers_out (`none` under MaxRanges none), kept on a 206, gone with a 416's error page.
        // …also before ap_meets_conditions, whose 304 or 412 keeps r->headers_out (recorded:
        // header-if-none-match-304-accept-ranges).
        let handlerSentFile = a.served != nil || a.conditionFailedFile
        let range = applyByteRange(a, &out)
        let acceptsRanges = handlerSentFile && range != .refused
        // A listing that is the ErrorDocument page goes out with the error status and its own
        // type (mod_autoindex sends it whatever r->status is); so does mod_status' or mod_info's
        // page (recorded: errordoc-server-info-page-keeps-own-type).
        let generated = a.record.listed || a.record.generatedType != nil
        let servedErrorPage = a.served != nil || sentEmpty || (a.handlerPage && (a.status == a.record.status || (generated && a.errorDocumentStatus != nil)))
        let headerRecord = a.loggedStatus != nil ? (a.runStartRecord ?? a.errorOrigin ?? a.record) : a.record
        // One error table serves the whole chain: a recursive error's Vary has the later requests' tokens.
        headerRecord.negotiationVary = a.record.negotiationVary
        headerRecord.contentLocation = a.record.contentLocation
        // …and a later request's challenge (the ErrorDocument page's own 401) is in it too
        // (recorded: errordoc-401-page-rewritten-keeps-challenge).
        if let challenge = a.record.wwwAuthenticate { headerRecord.wwwAuthenticate = challenge }
        // (An ErrorDocument page's request that ran after the refusal wrote its early lines
        // into the emptied table again, whether or not the page is found; recorded:
        // access-limitrequestbody-missing-page-keeps-later-early.)
        let errorTableLost = a.bodyRefused && a.status == 413
        if errorTableLost { chain.cookies = [] }
        out.headers = a.record.traceEcho && a.status == 200
            ? traceEchoHeaders(a.record, chain: chain)
            : responseHeaders(headerRecord, status: a.status, location: a.location, servedErrorPage: servedErrorPage,
                              canned: a.cannedSuccess && !servedErrorPage, errorTableLost: errorTableLost, handlerRan: range == .refused,
                              acceptRanges: acceptsRanges ? ((a.record.config ?? .vhostDefaults(site)).maxRanges == 0 ? "none" : "bytes") : nil,
                              chain: chain)
        if case .partial(let contentRange?) = range { out.headers.append(HTTPHeader("Content-Range", contentRange)) }
        if let page = a.pageLocationOnError { out.headers.append(HTTPHeader("Location", page)) }
        if let bad = headerRefusedByFilter(out.headers),
           !refuseHeaders(bad, a, &out, headerRecord: headerRecord, rangedFile: range.isPartial) {
            return nil
        }
        a.location = clientLocation(&out.headers, a.location)
        // Status 0: a crashed child closes the connection without a response (AH00052).
        let crashed = chain.childCrashed
        var response = OriginResponse(status: crashed ? 0 : out.sentStatus, location: crashed ? nil : a.location, headers: crashed ? [] : out.headers,
                                      served: crashed ? nil : a.served, final: out.final, original: out.original,
                                      recursionLimitExceeded: !crashed && chain.recursionLimitExceeded,
                                      errors: chain.errors, errorCodes: chain.errorCodes, trace: chain.trace,
                                      internalRedirects: a.redirects, firedRules: chain.fired, readsClock: chain.readsClock)
        response.connectionLost = chain.connectionLost && !crashed
        if chain.compressed, !crashed, out.headers.contains(where: { equalsIgnoringASCIICase($0.name, "Content-Encoding") }) {
            response.compressed = true
        }
        return response
    }

    /// The Location the client sees, taken out of `headers`: every Location line sent (a
    /// `Header` one too, on any status), joined as one header's values, each without the blanks
    /// that follow the colon on the wire (a `Header set Location "  /x"` is `/x`, a tab-led
    /// `\t.html` is `.html`; recorded: header-location-leading-blanks-dropped). Dropped by
    /// scalars, as the client drops bytes: a space followed by a combining mark is one Character.
    private func clientLocation(_ headers: inout [HTTPHeader], _ location: String?) -> String? {
        var locations: [String] = []
        for h in headers where equalsIgnoringASCIICase(h.name, "Location") {
            // Rebuilt only when a blank leads (rare; this runs for every answer).
            let lead = h.value.utf8.first
            locations.append(lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t")
                ? String(String.UnicodeScalarView(h.value.unicodeScalars.drop { $0 == " " || $0 == "\t" })) : h.value)
        }
        guard !locations.isEmpty || location != nil else { return nil }
        headers.removeAll { equalsIgnoringASCIICase($0.name, "Location") }
        return locations.isEmpty ? nil : locations.count == 1 ? locations[0] : locations.joined(separator: ", ")
    }

    /// The status line and the logged statuses of the answer the requests ended with.
    private func statusLine(_ a: AnswerState) -> SentAnswer {
        var final = state(of: a.record)
        final.status = a.loggedStatus ?? a.status
        var original = a.originalState ?? final
        if a.redirects == 0 { original.status = a.status }
        // A status without a line in httpd's table goes out as 500; %>s logs it, unless it is
        // not a status at all (600 and up: AH01579, and 500 logged).
        var sentStatus = a.status
        if !StatusLines.known(a.status) {
            if a.status >= 600 || a.status < 100 {
                a.chain.log("AH01579", "error", "Invalid response status \(a.status)")
                if final.status == a.status { final.status = 500 }
                if original.status == a.status { original.status = 500 }
            }
            sentStatus = 500
        }
        return SentAnswer(final: final, original: original, sentStatus: sentStatus)
    }

    /// The byte-range filter on a file the default handler sends with 200: a satisfiable
    /// `Range` makes it 206 (part of the body), one past the end 416 (an error page).
    private func applyByteRange(_ a: AnswerState, _ out: inout SentAnswer) -> RangeAnswer {
        let request = a.request, chain = a.chain
        // Not the old Request-Range (recorded). An If-Range must equal the ETag or
        // Last-Modified, which htlint does not know: taken as not matching (whole body).
        // The header first: most requests have none, and then no file is looked at.
        if a.status == 200, a.loggedStatus == nil, a.served != nil, request.header("If-Range") == nil,
           let header = request.header("Range"), let f = a.record.filename,
           case .file(let size)? = site.files.stat(f.hasByteSuffix("/") ? String(f.dropLast()) : f) {
            let maxRanges = (a.record.config ?? .vhostDefaults(site)).maxRanges
            switch ByteRangeOutcome.evaluate(header, length: size, maxRanges: maxRanges) {
            case .whole: return .whole
            case .partial(let ranges):
                chain.note(.status, "206: the Range header asks for part of the file")
                (a.status, out.sentStatus, out.final.status, a.served) = (206, 206, 206, nil)
                if a.redirects == 0 { out.original.status = 206 }
                return .partial(contentRange: ranges.count == 1 ? "bytes \(ranges[0].lowerBound)-\(ranges[0].upperBound)/\(size)" : nil)
            case .unsatisfiable:
                chain.note(.status, "416: every range of the Range header starts past the end of the file")
                (a.status, out.sentStatus, out.final.status, a.served) = (416, 416, 416, nil)
                if a.redirects == 0 { out.original.status = 416 }
                return .refused
            }
        }
        return .whole
    }

    /// The header filter refused a header of the answer (`bad.header`): it clears both header
    /// tables (mod_rewrite's cookies too) and answers with ap_die(500), once: refused again, on
    /// that answer or its ErrorDocument page, the 500 goes out bare. False when ErrorDocument 500
    /// names a page, which is requested next.
    private func refuseHeaders(_ bad: (header: HTTPHeader, code: String, message: String), _ a: AnswerState, _ out: inout SentAnswer,
                               headerRecord: RequestRecord, rangedFile: Bool) -> Bool {
        let chain = a.chain
        chain.log(bad.code, "error", bad.message)
        chain.note(.status, bad.header.name.isEmpty ? "500: a response header has an empty name"
                   : "500: the response header \(bad.header.name) has a character Apache refuses in its name or value")
        chain.cookies = []
        let firstRefusal = !a.headersRefused
        a.headersRefused = true
        // ap_die(500) on a page sent with 200 (r->status OK) looks up ErrorDocument 500: a
        // local page is an internal redirect, served with 500; a URL a 302 to it (recorded:
        // header-refused-errordocument-500).
        var pageURL: String? = nil
        if firstRefusal, a.status == 200, a.record.status == 200, a.firstErrorStatus == nil, !a.cannedSuccess,
           let doc = errorDocument(for: 500, record: a.record, chain: chain) {
            if doc.hasBytePrefix("/"), a.redirects < site.limitInternalRecursion {
                (a.status, a.location, a.served, a.loggedStatus, a.handlerPage) = (200, nil, nil, nil, false)
                redirectToErrorDocument(a, to: doc, status: 500)
                return false
            }
            if isAbsoluteURI(doc) { pageURL = doc }
        }
        // In an ErrorDocument chain ap_die_r's recursive error answers for the first request
        // (r_1st_err). Refused on the canned error of a page that is missing, the 500 is
        // that request's and the page's request keeps its status in the log; refused on a
        // page that was served, the page's request is logged 500 and the first request's
        // own error goes out canned (recorded: header-refused-name-on-errordocument-page).
        // (A page its handler sent left r->handler set: %{HANDLER} is its type; not so for
        // the first request of an ErrorDocument chain, whose error goes out canned.)
        let handlerRan = (a.served != nil || rangedFile) && headerRecord === a.record && a.firstErrorStatus == nil
        // A page request's own canned error (a per-directory [R=4xx] there left r->status OK,
        // so ap_die did not treat it as recursive) is refused like a served page: that
        // request is logged 500 and the first request's error goes out canned (recorded:
        // header-refused-errordocument-page-own-canned-error).
        let pageAnswered = a.served != nil || (a.firstErrorStatus != nil && a.loggedStatus == nil)
        let sent = pageURL != nil ? 302 : pageAnswered ? a.firstErrorStatus ?? 500 : 500
        let onCannedError = a.firstErrorStatus != nil && !pageAnswered
        (a.status, out.sentStatus, a.location, a.served) = (sent, sent, pageURL, nil)
        // ap_die_r walks back only through requests whose status is not OK: after a
        // rewrite's internal redirect the first request keeps its 200 in the log (recorded:
        // header-refused-canned-error-after-rewrite-keeps-first-200).
        let firstRequestDies = (a.runStartRecord ?? a.errorOrigin ?? a.record) === a.firstRecord
        if onCannedError {
            if firstRequestDies { out.original.status = 500 }
        } else {
            out.final.status = pageURL != nil ? 302 : 500
            if a.redirects == 0 { out.original.status = out.final.status }
        }
        // mod_headers' error filter runs again on that error: `Header always` lines are sent
        // (recorded: rewrite-flags-cookie-control-character-header-always).
        if !firstRefusal {
            // The ErrorDocument 500 page refused as well: the 500 goes out bare.
            out.headers = []
        } else {
            // A served page's refusal sends the first request's error canned: ap_send_error_response
            // runs the insert_error_filter hook for r_1st_err, so mod_headers adds that request's
            // `Header always` lines, not the page's (recorded: header-refused-errordocument-page-only).
            let dying = a.firstErrorStatus != nil && !onCannedError ? (a.runStartRecord ?? a.errorOrigin ?? headerRecord) : headerRecord
            let again = responseHeaders(dying, status: sent, location: pageURL, handlerRan: handlerRan, chain: chain)
            if let second = headerRefusedByFilter(again) {
                // A refused `always` line is refused again on the 500, logged again (recorded:
                // header-empty-or-invalid-name-aborts), and the answer goes out bare: no body,
                // no Content-Type (recorded: header-refused-twice-sent-without-type). The
                // status line stays; the request that sends it is logged 500.
                chain.log(second.code, "error", second.message)
                a.location = nil
                if firstRequestDies { out.original.status = 500 }
                out.headers = []
            } else {
                out.headers = again
            }
        }
        return true
    }
}
