import HtlintDiagnostics

/// One client request's answer while its requests run — the request itself, the internal
/// redirects it leads to and its ErrorDocument pages — with what Apache keeps between them
/// (r->status handed on, r->prev, ap_die_r's r_1st_err). One object, so that each step of
/// `Origin.respond(to:)` can be a function of its own.
final class AnswerState {
    let request: OriginRequest
    let chain: RequestChain
    /// Why ap_read_request refused the request, if it did.
    let refusal: (status: Int, why: String)?
    /// The client's own request record.
    let firstRecord: RequestRecord
    /// The request record that runs now.
    var record: RequestRecord
    /// The status the running request was refused with while its URL was read or decoded.
    var early: Int?
    /// The first request's state when its pass ended (the log's original request).
    var originalState: RecordState? = nil
    /// Internal redirects so far (rewrites and ErrorDocument pages).
    var redirects = 0
    /// The status, Location and served file the answer has so far.
    var status = 200
    var location: String? = nil
    var served: String? = nil
    /// A handler answered with a page of its own (OPTIONS' Allow, a listing): sent like a
    /// file, with the normal header table, whatever status an `[R]` without `[L]` left.
    var handlerPage = false
    /// The error the running ErrorDocument request carries (nil outside an ErrorDocument chain).
    var errorDocumentStatus: Int? = nil
    /// What `%>s` logs when it differs from the status sent: the failing ErrorDocument request's own.
    /// Set exactly when the answer is a recursive error (ap_die_r), sent canned for an earlier request.
    var loggedStatus: Int? = nil
    /// The status of the first request of the latest unbroken run of non-200 statuses
    /// handed on by internal redirects (ap_die_r's r_1st_err).
    var runStart: Int? = nil
    /// The request whose status started that run (r_1st_err: its headers go out).
    var runStartRecord: RequestRecord? = nil
    /// That request's Location when ap_die redirected it to an ErrorDocument page (a redirect's,
    /// which ap_send_error_response sends for r_1st_err); nil when the run started otherwise.
    var runStartLocation: String?? = nil
    /// The error that started the current chain of ErrorDocument redirects.
    var firstErrorStatus: Int? = nil
    /// The request whose error started that chain: ap_die_r sends a recursive error for it
    /// (r_1st_err), so its headers (`Header always`, its environment) go out.
    var errorOrigin: RequestRecord? = nil
    /// A redirect's Location, which internal_internal_redirect copies into the ErrorDocument
    /// request when the status is a 3xx (ErrorDocument 301 /page.html).
    var errorDocumentLocation: String? = nil
    /// The ErrorDocument page's redirect Location, sent with a recursive error's status.
    var pageLocationOnError: String? = nil
    /// A 2xx a hook answered ([R=200], `Redirect 226`): ap_die sends Apache's canned page.
    var cannedSuccess = false
    /// The request body is read (or discarded) once: by the handler, or by ap_die for an
    /// answer a hook gave. A body over the configuration's LimitRequestBody makes that a
    /// 413 (HTTP_IN's error), unless the answer closes the connection anyway.
    var bodyRead = false
    /// The body was refused: a canned 413 goes out without what the error table held before
    /// (`Header always … early` lines, mod_rewrite's cookies; recorded: access-limitrequestbody-error-table-lost).
    var bodyRefused = false
    /// The default handler answered a file 304 or 412 (a failed precondition).
    var conditionFailedFile = false
    /// The header filter refused an answer once: it calls ap_die no more.
    var headersRefused = false

    /// The Location a recursive error goes out with: r_1st_err's own (ap_send_error_response
    /// reads its headers_out) when ap_die redirected that request to an ErrorDocument page,
    /// else `fallback`.
    func firstErrorLocation(or fallback: String?) -> String? {
        if case .some(let first) = runStartLocation { return first }
        return fallback
    }

    init(request: OriginRequest, chain: RequestChain, refusal: (status: Int, why: String)?, record: RequestRecord, early: Int?) {
        self.request = request
        self.chain = chain
        self.refusal = refusal
        self.firstRecord = record
        self.record = record
        self.early = early
    }
}

extension Origin {
    /// Runs the request's pass, and those of the internal redirects and ErrorDocument pages it
    /// leads to, until one of them is answered.
    func runRequests(_ a: AnswerState) {
        let chain = a.chain
        while true {
            var result: PassResult
            // The status this request inherited through an internal redirect ([R] without [L]).
            let carried = a.redirects > 0 && a.errorDocumentStatus == nil ? a.record.status : 200
            // ap_die_r walks back to the first of the requests before whose status was not OK.
            let firstCarried = a.runStart ?? carried
            if let early = a.early {
                // A path refused while it is decoded comes after post_read_request; a request
                // refused while it is read (die_unusable_input) before it (recorded:
                // env-setenvif-before-bad-path, a malformed Host).
                if !(a.refusal != nil && a.redirects == 0) { postReadRequest(a.record, chain) }
                result = .final(status: early, location: nil)
                a.record.status = early
                // Refused while the URL is decoded, before the location walk: the server defaults.
                if a.record.config == nil { a.record.config = .vhostDefaults(site) }
            } else {
                result = runPass(a.record, chain: chain, redirects: a.redirects)
            }
            // The work budget ran out, perhaps inside a look-up subrequest whose failure only
            // failed its condition: the answer is htlint's 500 with its note, never one that
            // looks normal (hunt round 34: a look-up tree past the budget answered 404).
            if chain.budgetExhausted, result.finalStatus != 500 {
                result = .final(status: 500, location: nil)
                a.record.status = 500
            }
            if a.originalState == nil { a.originalState = state(of: a.record) }
            // ap_internal_redirect hands a failing request to ap_die without resetting r->status
            // (only the first request's ap_process_async_request does): a status a per-directory
            // [R] or full URL without [L] set in this very pass, whose later rule went back to
            // the same file (no internal redirect), makes the error a recursive one. Its
            // predecessor was OK, so r_1st_err is this request: the error goes out canned, without
            // ErrorDocument (recorded: errordoc-skipped-after-rewrite-status-in-internal-redirect).
            // A path refused while it is decoded (`%2F`) is no such status: the new request's
            // r->status is OK when ap_die gets the 404, so ErrorDocument applies (recorded:
            // errordoc-encoded-slash-after-rewrite-b-flag).
            let setThisPass = a.early == nil && a.redirects > 0 && a.errorDocumentStatus == nil && carried == 200
                && a.record.status != 200 && !a.record.answeredByRewrite
            let another: Bool
            switch result {
            case .final(let s, let loc):
                another = answerDecided(s, location: loc, a, carried: carried, firstCarried: firstCarried, setThisPass: setThisPass)
            case .serve:
                another = answerServed(a, carried: carried, firstCarried: firstCarried, setThisPass: setThisPass)
            case .internalRedirect(let url):
                another = redirectInternally(to: url, a)
            }
            if !another { return }
        }
    }

    /// A hook decided the answer (a status, perhaps a Location). True when an ErrorDocument page
    /// is requested next.
    private func answerDecided(_ decided: Int, location decidedLocation: String?, _ a: AnswerState,
                               carried: Int, firstCarried: Int, setThisPass: Bool) -> Bool {
        let chain = a.chain, request = a.request
        var (s, loc) = (decided, decidedLocation)
        // ap_die looks up the ErrorDocument of the hook's own status before it discards the
        // body: a local page is redirected to first (its handler then finds the body too
        // large: a recursive error, the hook's status goes out), otherwise the 413 is sent
        // canned, without ErrorDocument 413 (recorded: errordoc-413-not-for-hook-answers).
        // An ErrorDocument page that a rewrite answers again ([F]) goes to its page again,
        // until the recursion limit, without reading the body either (recorded:
        // errordoc-page-forbidden-by-rewrite-body-never-read).
        let pageFirst = s != 200 && (a.errorDocumentStatus == nil ? a.redirects < site.limitInternalRecursion : a.record.answeredByRewrite)
            && !a.bodyRead && request.header("Content-Length").flatMap({ Int($0) }).map({ $0 > 0 }) == true
            && errorDocument(for: s, record: a.record, chain: chain)?.hasBytePrefix("/") == true
        // A recursive error reads the body for r_1st_err, under its LimitRequestBody
        // (recorded: errordoc-recursive-error-body-limit-of-first-request).
        let recursive = a.errorDocumentStatus != nil && !a.record.answeredByRewrite
        let discardFailed = !pageFirst && bodyTooLarge(a, status: s, readFor: recursive ? a.runStartRecord ?? a.errorOrigin : nil)
        if discardFailed, recursive {
            // A recursive error (the page's request already holds the error): ap_die_r
            // sends canned for r_1st_err, and the body it reads for that request makes the
            // answer a 413; the page's request keeps its own status in %>s (recorded:
            // errordoc-recursive-error-body-too-large-sends-413).
            a.record.status = s
            (a.status, a.location, a.loggedStatus) = (413, nil, s)
            if (a.runStartRecord ?? a.errorOrigin) === a.firstRecord { a.originalState?.status = 413 }
            return false
        }
        let answeredLocation = loc
        if discardFailed { (s, loc) = (413, nil) }
        a.record.status = s
        if discardFailed, let first = a.errorDocumentStatus {
            // The ErrorDocument page's own answer (a rewrite [R]) finds the body too large:
            // a recursive error, the first status goes out with its own Location, or
            // else with the page's, even on a 403 (recorded:
            // errordoc-page-redirect-body-too-large-keeps-location).
            a.status = a.runStart ?? first
            a.location = a.errorDocumentLocation
            if a.location == nil { a.pageLocationOnError = answeredLocation }
            a.loggedStatus = s
            return false
        }
        if let first = a.errorDocumentStatus, !a.record.answeredByRewrite {
            // A recursive error (ap_die_r): the first error goes out canned, without the
            // failing ErrorDocument request's Location. r_1st_err walks back over every
            // request whose status is not OK: past an ErrorDocument page's own [F] to the
            // error that started the chain. A redirect keeps that request's own Location
            // (ap_send_error_response reads its headers_out; recorded:
            // errordoc-redirect-page-fails-keeps-first-location), not a later page's.
            a.status = a.runStart ?? first
            a.location = a.firstErrorLocation(or: a.errorDocumentLocation)
            a.loggedStatus = s
            return false
        }
        if carried != 200, !a.record.answeredByRewrite {
            // ap_die_r sees r->status != OK: a recursive error. The original request's
            // status goes out canned, without a Location and without ErrorDocument.
            chain.note(.status, "\(carried): the status set by [R] without [L] answers the failing internal redirect (\(s))")
            a.status = firstCarried
            a.location = nil
            a.record.status = firstCarried
            a.loggedStatus = s
            return false
        }
        if setThisPass, s >= 400 {
            noteRecursiveError(s, chain)
            a.status = s
            a.location = nil
            return false
        }
        a.errorDocumentStatus = nil
        a.status = s
        a.location = loc
        a.cannedSuccess = true
        // ap_die looks up an ErrorDocument for every status a hook answers, redirects included.
        if s != 200, !discardFailed, let doc = errorDocument(for: s, record: a.record, chain: chain) {
            if doc.hasBytePrefix("/"), a.redirects >= site.limitInternalRecursion {
                // An ErrorDocument page answered by a rewrite ([F]) again and again:
                // the 11th redirect fails (AH00124); ap_die then finds the chain's
                // statuses set and sends the first of the run canned, %>s logs 500:
                // a status an [R] without [L] carried into the chain (recorded:
                // errordoc-page-forbidden-after-carried-redirect-status).
                noteErrorRedirectMethod(a.record)
                chain.logRecursionLimit(site.limitInternalRecursion)
                a.status = a.runStart ?? a.firstErrorStatus ?? s
                a.loggedStatus = 500
                // r_1st_err's Location, not the page's: an ErrorDocument 302 page that
                // a rewrite redirects again keeps the first redirect's (recorded:
                // errordoc-redirect-page-redirects-again-keeps-first-location).
                a.location = a.firstErrorLocation(or: a.location)
            } else if doc.hasBytePrefix("/") {
                redirectToErrorDocument(a, to: doc, status: s, location: loc)
                return true
            } else if isAbsoluteURI(doc) {
                // No internal redirect, so the limit does not matter: a 500 from a
                // FallbackResource look-up past it still sends the client to the URL
                // (recorded: errordoc-url-after-fallback-recursion-limit).
                a.status = 302
                a.location = doc
            }
        }
        return false
    }

    /// The handler phase: a file, a handler's own page, or an error for what is there. True when
    /// an ErrorDocument page is requested next.
    private func answerServed(_ a: AnswerState, carried: Int, firstCarried: Int, setThisPass: Bool) -> Bool {
        let chain = a.chain, request = a.request
        var (s, file) = bodyTooLarge(a, status: 200) ? (413, nil) : serve(a.record, chain: chain)
        if s != 200, carried != 200 {
            chain.note(.status, "\(carried): the status set by [R] without [L] answers the failing internal redirect (\(s))")
            a.status = firstCarried
            a.record.status = firstCarried
            a.loggedStatus = s
            a.served = nil
            return false
        }
        if s >= 400, setThisPass {
            noteRecursiveError(s, chain)
            a.status = s
            a.record.status = s
            a.served = nil
            return false
        }
        // The default handler's ap_meets_conditions (Origin+Preconditions): its 304 or 412
        // is sent as the handler's own answer without a body or ErrorDocument (recorded:
        // header-if-none-match-any-file).
        let precondition = s == 200 && file != nil && a.record.status == 200 && a.errorDocumentStatus == nil
            ? failedPrecondition(request, method: a.record.method, chain: chain) : nil
        let conditionFailed = precondition != nil
        if let p = precondition {
            s = p
            a.conditionFailedFile = true
            file = nil
            chain.note(.status, "\(s): a precondition (If-Match, If-Unmodified-Since, If-None-Match: *) fails for the file")
        }
        // The byte-range filter's 416 is an error bucket: ap_die then redirects to a page or
        // URL ErrorDocument 416 names (recorded: errordoc-range-not-satisfiable-page).
        if s == 200, file != nil, a.record.status == 200, a.errorDocumentStatus == nil,
           unsatisfiableRange(a.record, request),
           let doc = errorDocument(for: 416, record: a.record, chain: chain), doc.hasBytePrefix("/") || isAbsoluteURI(doc) {
            chain.note(.status, "416: every range of the Range header starts past the end of the file")
            s = 416
        }
        a.handlerPage = (s == 200 && file == nil) || conditionFailed
        if s == 200, a.record.status != 200 { s = a.record.status }
        // A page that fails inside an ErrorDocument chain is a recursive error: the first
        // status of the run of non-OK requests goes out (ap_die_r's r_1st_err).
        // The page goes out with its request's r->status: the error ap_die set, unless a
        // rewrite in the ErrorDocument request replaced it (a full-URL substitution that a
        // later rule turned local: 302, no Location; recorded:
        // errordoc-page-rewrite-carried-redirect-status).
        a.status = a.errorDocumentStatus.map { s >= 400 ? a.runStart ?? $0 : s != 200 ? s : $0 } ?? s
        a.record.status = s
        a.served = file
        // A page that fails sends r_1st_err's Location; one served, its own request's.
        if a.errorDocumentStatus != nil { a.location = s >= 400 ? a.firstErrorLocation(or: a.errorDocumentLocation) : a.errorDocumentLocation }
        if s >= 400, a.errorDocumentStatus == nil, !conditionFailed, let doc = errorDocument(for: s, record: a.record, chain: chain) {
            if doc.hasBytePrefix("/"), a.redirects < site.limitInternalRecursion {
                redirectToErrorDocument(a, to: doc, status: s)
                a.served = nil
                return true
            } else if doc.hasBytePrefix("/") {
                // The internal redirect to the page exceeds the limit: ap_die(500) on the
                // failing request, a recursive error sent canned as 500.
                noteErrorRedirectMethod(a.record)
                chain.logRecursionLimit(site.limitInternalRecursion)
                chain.note(.status, "500: ErrorDocument \(s) \(doc) would be internal redirect #\(a.redirects + 1) (AH00124)")
                a.status = 500
                a.served = nil
            } else if isAbsoluteURI(doc) {
                // A full URL: the client is sent there with a 302 (core docs, ErrorDocument).
                a.status = 302
                a.location = doc
                a.served = nil
            }
        }
        if a.errorDocumentStatus != nil, s >= 400 {
            // A recursive error: the first status goes out, %>s logs the page's own.
            a.served = nil
            a.loggedStatus = s
        }
        return false
    }

    /// An internal redirect to `url` (a rewrite in per-directory context, a FallbackResource, a
    /// DirectoryIndex page): true when the new request runs, false past LimitInternalRecursion.
    private func redirectInternally(to url: String, _ a: AnswerState) -> Bool {
        let chain = a.chain
        if a.redirects >= site.limitInternalRecursion {
            chain.logRecursionLimit(site.limitInternalRecursion)
            chain.note(.status, "500: more than \(site.limitInternalRecursion) internal redirects (AH00124)")
            a.status = 500
            a.location = nil
            a.served = nil
            if let first = a.errorDocumentStatus {
                // Inside an ErrorDocument chain every request carries the error status:
                // ap_die(500) is a recursive error and the first error goes out canned
                // (the first of the run, which may be a 3xx carried from [R]).
                a.status = a.runStart ?? a.firstErrorStatus ?? first
                a.loggedStatus = 500
            } else if a.record.status == 200 {
                a.record.status = 500
                if let doc = errorDocument(for: 500, record: a.record, chain: chain),
                   let url = redirectAfterRecursionLimit(doc, a.record, chain) {
                    (a.status, a.location, a.record.status) = (302, url, 302)
                }
            } else if let first = a.runStart {
                // ap_die(500) on a request whose status is not OK: a recursive error.
                a.status = first
                a.loggedStatus = 500
            } else {
                // The status was set in this very pass ([R] without [L]): r_1st_err is this
                // request, whose status ap_die has just made 500, and that goes out
                // (recorded: recursion-limit-r-without-l-in-last-pass).
                a.record.status = 500
            }
            return false
        }
        let handedOn = a.errorDocumentStatus != nil && a.record.status == 200 ? a.errorDocumentStatus! : a.record.status
        if handedOn == 200 {
            a.runStart = nil
            a.runStartRecord = nil
            a.runStartLocation = nil
        } else if a.runStart == nil {
            a.runStart = handedOn
            a.runStartRecord = a.record
            a.runStartLocation = nil
        }
        a.redirects += 1
        chain.note(.internalRedirect, "internal redirect #\(a.redirects) to \(url)")
        // internal_internal_redirect copies r->method: GET after an ErrorDocument's redirect
        // (recorded: errordoc-post-becomes-get-through-rewrite).
        let next = makeRecord(url: url, method: a.record.method, isSubrequest: false, chain: chain)
        // An ErrorDocument request keeps its error as r->status, which a later internal redirect
        // reports as REDIRECT_STATUS (recorded: recursion-errordocument-rewrite-redirect-status).
        next.0.env = renamedEnvironment(a.record, status: a.record.errorStatus ?? a.record.status)
        // A status set by `[R]` without `[L]` travels with the internal redirect (§4.9 CT-RW-R-02).
        next.0.status = a.record.status
        next.0.errorStatus = a.record.errorStatus
        next.0.inherit(from: a.record)
        // mod_rewrite's redirect-keeps-vary note: its internal redirect keeps r->headers_out's Vary.
        next.0.ifVary = a.record.ifVary
        a.record = next.0
        a.early = next.1
        return true
    }

    /// ap_die(500) for an internal redirect past the limit looks up ErrorDocument 500: the URL
    /// the client is sent to with a 302, if it is one; a local page is one more internal redirect,
    /// which exceeds the limit again (AH00124 once more), and a quoted text is not sent — both
    /// leave the canned 500 (recorded: errordoc-500-after-recursion-limit).
    private func redirectAfterRecursionLimit(_ doc: String, _ record: RequestRecord, _ chain: RequestChain) -> String? {
        if doc.hasBytePrefix("/") {
            // ap_die_r notes the method before its internal redirect fails (its headers show it).
            noteErrorRedirectMethod(record)
            chain.logRecursionLimit(site.limitInternalRecursion)
        }
        return isAbsoluteURI(doc) ? doc : nil
    }

    private func noteRecursiveError(_ s: Int, _ chain: RequestChain) {
        chain.note(.status, "\(s): r->status was set by [R] without [L] in this internal redirect: a recursive error, no ErrorDocument")
    }

    /// Reads (or discards) the request body once, for an answer with `status`: true when it is
    /// over the configuration's LimitRequestBody, which makes the answer a 413.
    func bodyTooLarge(_ a: AnswerState, status: Int, readFor reader: RequestRecord? = nil) -> Bool {
        defer { a.bodyRead = true }
        guard !a.bodyRead, let length = a.request.header("Content-Length").flatMap({ Int($0) }), length > 0,
              ![400, 408, 411, 413, 414, 500, 501, 503].contains(status) else { return false }
        // A translate_name answer has the location and if walks' configuration. HTTP_IN takes
        // the limit of the request it first reads for.
        let reader = reader ?? a.record
        let limit = (reader.config ?? reader.preTranslate ?? .vhostDefaults(site)).limitRequestBody
        guard limit > 0, length > limit else { return false }
        a.chain.note(.status, "413: the request body (\(length) bytes) is over LimitRequestBody \(limit)")
        a.bodyRefused = true
        a.chain.errorTableClearedAt = a.chain.postReadRecords.count
        return true
    }

    /// ErrorDocument with a local path: an internal redirect that keeps the error status.
    func redirectToErrorDocument(_ a: AnswerState, to doc: String, status s: Int, location: String? = nil) {
        // The line errorDocument(for:) just found `doc` on (set only with tracing).
        a.chain.note(.internalRedirect, "ErrorDocument \(s) → \(doc)", range: a.chain.errorDocumentRange)
        if a.errorDocumentStatus == nil && a.firstErrorStatus == nil { (a.firstErrorStatus, a.errorOrigin) = (s, a.record) }
        // internal_internal_redirect copies a redirect's Location into the page's request.
        let kept = StatusLines.isRedirect(s) ? location : nil
        // ap_die set this request's status to the error: the run of non-OK statuses goes on.
        if a.runStart == nil { (a.runStart, a.runStartRecord, a.runStartLocation) = (s, a.record, .some(kept)) }
        a.errorDocumentStatus = s
        a.errorDocumentLocation = kept
        if a.redirects == 0 { a.originalState?.status = s }
        // ap_die_r notes the method in the failing request's environment, then makes it a GET
        // (HEAD too): the page sees REDIRECT_REQUEST_METHOD.
        noteErrorRedirectMethod(a.record)
        let next = makeRecord(url: doc, method: "GET", isSubrequest: false, chain: a.chain)
        next.0.env = renamedEnvironment(a.record, status: s)
        next.0.inherit(from: a.record)
        next.0.errorStatus = s
        a.record = next.0
        a.early = next.1
        a.redirects += 1
    }
}
