import HtlintDiagnostics
import HtlintRegex

/// Apache httpd 2.4 answering requests for one site, phase by phase (apache-semantics §1.1, §15.1).
/// Built once per site; `respond(to:)` runs without re-parsing anything.
public final class Origin: @unchecked Sendable {
    public let site: Site
    /// Compiled rewrite rule sets, shared by all requests.
    let graph: RuleGraph
    /// Merged per-directory configuration, by deepest directory.
    let walkCache = LockedCache<MergedWalk>()

    /// Record a trace of every decision (for explain); off makes bulk replay faster.
    public let tracing: Bool
    /// mod_negotiation is loaded (MultiViews is looked at on every pass otherwise).
    let negotiation: Bool

    /// Most work spent on one request (all passes, `[N]` rounds and subrequests), in rule and
    /// condition evaluations weighted by input length (`evaluationCost`) and 32 units per
    /// subrequest; past it the answer is a 500 that says htlint stopped (issue 9: bounded work,
    /// about two seconds in release). A million units let a substitution with two look-ups per
    /// level reach Apache's own end, ten internal redirects of a 2^10-subrequest tree each
    /// (recorded; WorkBudgetTests.lookUpTreesOfTenPassesEndAtTheRedirectLimit).
    public let ruleEvaluationBudget: Int

    /// `indexed: false` evaluates every rule in order (the reference the index is checked against).
    public init(site: Site, tracing: Bool = true, indexed: Bool = true, ruleEvaluationBudget: Int = 1_000_000) {
        self.site = site
        self.tracing = tracing
        self.negotiation = site.modules.contains("negotiation")
        self.graph = RuleGraph(site: site, indexed: indexed)
        self.ruleEvaluationBudget = ruleEvaluationBudget
    }

    /// What one pass over a request record ends in.
    enum PassResult {
        /// The response is decided (status, optional Location).
        case final(status: Int, location: String?)
        /// Serve the mapped file (or answer 404/403 for what is there).
        case serve
        /// Perform an internal redirect to this URL (path?query).
        case internalRedirect(String)

        /// The status of a decided response (nil: the pass goes on).
        var finalStatus: Int? { if case .final(let status, _) = self { status } else { nil } }
    }

    /// Answers one client request.
    public func respond(to received: OriginRequest) -> OriginResponse {
        // Every reader sees repeated header lines as one (ap_get_mime_headers_core); only the
        // header limits count the lines as received.
        var request = received
        request.headers = Origin.mergingRepeatedHeaders(received.headers)
        let chain = RequestChain(request: request, tracing: tracing)
        chain.note(.request, "\(request.method) \(request.target)\(request.tls ? " (TLS)" : "")")
        applyRemoteIP(chain)
        // A request ap_read_request refuses is answered before anything else reads it.
        let refusal = readRequestRefusal(request, lines: received.headers, chain)
        // A malformed Host is refused before the path is normalised: a `..` above the root
        // logs no AH10244 then (recorded: rewrite-escape-malformed-host-before-path); nor
        // after mod_ssl's 421 (recorded: vhost-sni-host-incompatible-tls-setup-421).
        var (record, early) = makeRecord(url: request.target, method: request.method, isSubrequest: false, chain: chain,
                                         logsBadPath: refusal == nil && request.misdirectedSNI == nil)
        let firstRecord = record
        if let refusal {
            chain.note(.status, "\(refusal.status): \(refusal.why)")
            // Refused before the URL is decoded: the log shows the raw path.
            record.uri = record.receivedURI ?? record.uri
            early = refusal.status
        }
        // mod_ssl's post_read_request hook, before the URL is decoded: the raw path is logged
        // (recorded: vhost-sni-host-incompatible-tls-setup-421).
        if refusal == nil, let sni = request.misdirectedSNI {
            chain.log("AH02032", "error", "Hostname \(sni) provided via SNI and hostname \(splitHostHeader(request.header("Host") ?? "").host) provided via HTTP have no compatible SSL setup")
            chain.note(.status, "421: SNI \(sni) picked a virtual host whose TLS settings differ from the Host's")
            record.uri = record.receivedURI ?? record.uri
            early = 421
        }
        var originalState: RecordState? = nil
        var redirects = 0
        var status = 200
        var location: String? = nil
        var served: String? = nil
        /// A handler answered with a page of its own (OPTIONS' Allow, a listing): sent like a
        /// file, with the normal header table, whatever status an `[R]` without `[L]` left.
        var handlerPage = false
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
        func bodyTooLarge(_ status: Int, readFor reader: RequestRecord? = nil) -> Bool {
            defer { bodyRead = true }
            guard !bodyRead, let length = request.header("Content-Length").flatMap({ Int($0) }), length > 0,
                  ![400, 408, 411, 413, 414, 500, 501, 503].contains(status) else { return false }
            // A translate_name answer has the location and if walks' configuration. HTTP_IN takes
            // the limit of the request it first reads for.
            let reader = reader ?? record
            let limit = (reader.config ?? reader.preTranslate ?? .vhostDefaults(site)).limitRequestBody
            guard limit > 0, length > limit else { return false }
            chain.note(.status, "413: the request body (\(length) bytes) is over LimitRequestBody \(limit)")
            bodyRefused = true
            chain.errorTableClearedAt = chain.postReadRecords.count
            return true
        }
        /// The Location a recursive error goes out with: r_1st_err's own (ap_send_error_response
        /// reads its headers_out) when ap_die redirected that request to an ErrorDocument page,
        /// else `fallback`.
        func firstErrorLocation(or fallback: String?) -> String? {
            if case .some(let first) = runStartLocation { return first }
            return fallback
        }
        /// ErrorDocument with a local path: an internal redirect that keeps the error status.
        func redirectToErrorDocument(_ doc: String, status s: Int, location: String? = nil) {
            chain.note(.internalRedirect, "ErrorDocument \(s) → \(doc)")
            if errorDocumentStatus == nil && firstErrorStatus == nil { firstErrorStatus = s; errorOrigin = record }
            // internal_internal_redirect copies a redirect's Location into the page's request.
            let kept = StatusLines.isRedirect(s) ? location : nil
            // ap_die set this request's status to the error: the run of non-OK statuses goes on.
            if runStart == nil { runStart = s; runStartRecord = record; runStartLocation = .some(kept) }
            errorDocumentStatus = s
            errorDocumentLocation = kept
            if redirects == 0 { originalState?.status = s }
            // ap_die_r notes the method in the failing request's environment, then makes it a GET
            // (HEAD too): the page sees REDIRECT_REQUEST_METHOD.
            noteErrorRedirectMethod(record)
            let next = makeRecord(url: doc, method: "GET", isSubrequest: false, chain: chain)
            next.0.env = renamedEnvironment(record, status: s)
            next.0.inherit(from: record)
            next.0.errorStatus = s
            record = next.0
            early = next.1
            redirects += 1
        }
        /// The header filter refused an answer once: it calls ap_die no more.
        var headersRefused = false
        // Once more for an ErrorDocument 500 page after the header filter refused the answer.
        answering: while true {
            while true {
                var result: PassResult
                // The status this request inherited through an internal redirect ([R] without [L]).
                let carried = redirects > 0 && errorDocumentStatus == nil ? record.status : 200
                // ap_die_r walks back to the first of the requests before whose status was not OK.
                let firstCarried = runStart ?? carried
                if let early {
                    // A path refused while it is decoded comes after post_read_request; a request
                    // refused while it is read (die_unusable_input) before it (recorded:
                    // env-setenvif-before-bad-path, a malformed Host).
                    if !(refusal != nil && redirects == 0) { postReadRequest(record, chain) }
                    result = .final(status: early, location: nil)
                    record.status = early
                    // Refused while the URL is decoded, before the location walk: the server defaults.
                    if record.config == nil { record.config = .vhostDefaults(site) }
                } else {
                    result = runPass(record, chain: chain, redirects: redirects)
                }
                // The work budget ran out, perhaps inside a look-up subrequest whose failure only
                // failed its condition: the answer is htlint's 500 with its note, never one that
                // looks normal (hunt round 34: a look-up tree past the budget answered 404).
                if chain.budgetExhausted, result.finalStatus != 500 {
                    result = .final(status: 500, location: nil)
                    record.status = 500
                }
                if originalState == nil { originalState = state(of: record) }
                // ap_internal_redirect hands a failing request to ap_die without resetting r->status
                // (only the first request's ap_process_async_request does): a status a per-directory
                // [R] or full URL without [L] set in this very pass, whose later rule went back to
                // the same file (no internal redirect), makes the error a recursive one. Its
                // predecessor was OK, so r_1st_err is this request: the error goes out canned, without
                // ErrorDocument (recorded: errordoc-skipped-after-rewrite-status-in-internal-redirect).
                // A path refused while it is decoded (`%2F`) is no such status: the new request's
                // r->status is OK when ap_die gets the 404, so ErrorDocument applies (recorded:
                // errordoc-encoded-slash-after-rewrite-b-flag).
                let setThisPass = early == nil && redirects > 0 && errorDocumentStatus == nil && carried == 200
                    && record.status != 200 && !record.answeredByRewrite
                func noteRecursiveError(_ s: Int) {
                    chain.note(.status, "\(s): r->status was set by [R] without [L] in this internal redirect: a recursive error, no ErrorDocument")
                }
                switch result {
                case .final(var s, var loc):
                    // ap_die looks up the ErrorDocument of the hook's own status before it discards the
                    // body: a local page is redirected to first (its handler then finds the body too
                    // large: a recursive error, the hook's status goes out), otherwise the 413 is sent
                    // canned, without ErrorDocument 413 (recorded: errordoc-413-not-for-hook-answers).
                    // An ErrorDocument page that a rewrite answers again ([F]) goes to its page again,
                    // until the recursion limit, without reading the body either (recorded:
                    // errordoc-page-forbidden-by-rewrite-body-never-read).
                    let pageFirst = s != 200 && (errorDocumentStatus == nil ? redirects < site.limitInternalRecursion : record.answeredByRewrite)
                        && !bodyRead && request.header("Content-Length").flatMap({ Int($0) }).map({ $0 > 0 }) == true
                        && errorDocument(for: s, record: record, chain: chain)?.hasBytePrefix("/") == true
                    // A recursive error reads the body for r_1st_err, under its LimitRequestBody
                    // (recorded: errordoc-recursive-error-body-limit-of-first-request).
                    let recursive = errorDocumentStatus != nil && !record.answeredByRewrite
                    let discardFailed = !pageFirst && bodyTooLarge(s, readFor: recursive ? runStartRecord ?? errorOrigin : nil)
                    if discardFailed, recursive {
                        // A recursive error (the page's request already holds the error): ap_die_r
                        // sends canned for r_1st_err, and the body it reads for that request makes the
                        // answer a 413; the page's request keeps its own status in %>s (recorded:
                        // errordoc-recursive-error-body-too-large-sends-413).
                        record.status = s
                        (status, location, loggedStatus) = (413, nil, s)
                        if (runStartRecord ?? errorOrigin) === firstRecord { originalState?.status = 413 }
                        break
                    }
                    let answeredLocation = loc
                    if discardFailed { (s, loc) = (413, nil) }
                    record.status = s
                    if discardFailed, let first = errorDocumentStatus {
                        // The ErrorDocument page's own answer (a rewrite [R]) finds the body too large:
                        // a recursive error, the first status goes out with its own Location, or
                        // else with the page's, even on a 403 (recorded:
                        // errordoc-page-redirect-body-too-large-keeps-location).
                        status = runStart ?? first
                        location = errorDocumentLocation
                        if location == nil { pageLocationOnError = answeredLocation }
                        loggedStatus = s
                        break
                    }
                    if let first = errorDocumentStatus, !record.answeredByRewrite {
                        // A recursive error (ap_die_r): the first error goes out canned, without the
                        // failing ErrorDocument request's Location. r_1st_err walks back over every
                        // request whose status is not OK: past an ErrorDocument page's own [F] to the
                        // error that started the chain. A redirect keeps that request's own Location
                        // (ap_send_error_response reads its headers_out; recorded:
                        // errordoc-redirect-page-fails-keeps-first-location), not a later page's.
                        status = runStart ?? first
                        location = firstErrorLocation(or: errorDocumentLocation)
                        loggedStatus = s
                        break
                    }
                    if carried != 200, !record.answeredByRewrite {
                        // ap_die_r sees r->status != OK: a recursive error. The original request's
                        // status goes out canned, without a Location and without ErrorDocument.
                        chain.note(.status, "\(carried): the status set by [R] without [L] answers the failing internal redirect (\(s))")
                        status = firstCarried
                        location = nil
                        record.status = firstCarried
                        loggedStatus = s
                        break
                    }
                    if setThisPass, s >= 400 {
                        noteRecursiveError(s)
                        status = s
                        location = nil
                        break
                    }
                    errorDocumentStatus = nil
                    status = s
                    location = loc
                    cannedSuccess = true
                    // ap_die looks up an ErrorDocument for every status a hook answers, redirects included.
                    if s != 200, !discardFailed, let doc = errorDocument(for: s, record: record, chain: chain) {
                        if doc.hasBytePrefix("/"), redirects >= site.limitInternalRecursion {
                            // An ErrorDocument page answered by a rewrite ([F]) again and again:
                            // the 11th redirect fails (AH00124); ap_die then finds the chain's
                            // statuses set and sends the first of the run canned, %>s logs 500:
                            // a status an [R] without [L] carried into the chain (recorded:
                            // errordoc-page-forbidden-after-carried-redirect-status).
                            noteErrorRedirectMethod(record)
                            chain.logRecursionLimit(site.limitInternalRecursion)
                            status = runStart ?? firstErrorStatus ?? s
                            loggedStatus = 500
                            // r_1st_err's Location, not the page's: an ErrorDocument 302 page that
                            // a rewrite redirects again keeps the first redirect's (recorded:
                            // errordoc-redirect-page-redirects-again-keeps-first-location).
                            location = firstErrorLocation(or: location)
                        } else if doc.hasBytePrefix("/") {
                            redirectToErrorDocument(doc, status: s, location: loc)
                            continue
                        } else if isAbsoluteURI(doc) {
                            // No internal redirect, so the limit does not matter: a 500 from a
                            // FallbackResource look-up past it still sends the client to the URL
                            // (recorded: errordoc-url-after-fallback-recursion-limit).
                            status = 302
                            location = doc
                        }
                    }
                case .serve:
                    var (s, file) = bodyTooLarge(200) ? (413, nil) : serve(record, chain: chain)
                    if s != 200, carried != 200 {
                        chain.note(.status, "\(carried): the status set by [R] without [L] answers the failing internal redirect (\(s))")
                        status = firstCarried
                        record.status = firstCarried
                        loggedStatus = s
                        served = nil
                        break
                    }
                    if s >= 400, setThisPass {
                        noteRecursiveError(s)
                        status = s
                        record.status = s
                        served = nil
                        break
                    }
                    // The default handler's ap_meets_conditions (Origin+Preconditions): its 304 or 412
                    // is sent as the handler's own answer without a body or ErrorDocument (recorded:
                    // header-if-none-match-any-file).
                    let precondition = s == 200 && file != nil && record.status == 200 && errorDocumentStatus == nil
                        ? failedPrecondition(request, method: record.method, chain: chain) : nil
                    let conditionFailed = precondition != nil
                    if let p = precondition {
                        s = p
                        conditionFailedFile = true
                        file = nil
                        chain.note(.status, "\(s): a precondition (If-Match, If-Unmodified-Since, If-None-Match: *) fails for the file")
                    }
                    // The byte-range filter's 416 is an error bucket: ap_die then redirects to a page or
                    // URL ErrorDocument 416 names (recorded: errordoc-range-not-satisfiable-page).
                    if s == 200, file != nil, record.status == 200, errorDocumentStatus == nil,
                       unsatisfiableRange(record, request),
                       let doc = errorDocument(for: 416, record: record, chain: chain), doc.hasBytePrefix("/") || isAbsoluteURI(doc) {
                        chain.note(.status, "416: every range of the Range header starts past the end of the file")
                        s = 416
                    }
                    handlerPage = (s == 200 && file == nil) || conditionFailed
                    if s == 200, record.status != 200 { s = record.status }
                    // A page that fails inside an ErrorDocument chain is a recursive error: the first
                    // status of the run of non-OK requests goes out (ap_die_r's r_1st_err).
                    // The page goes out with its request's r->status: the error ap_die set, unless a
                    // rewrite in the ErrorDocument request replaced it (a full-URL substitution that a
                    // later rule turned local: 302, no Location; recorded:
                    // errordoc-page-rewrite-carried-redirect-status).
                    status = errorDocumentStatus.map { s >= 400 ? runStart ?? $0 : s != 200 ? s : $0 } ?? s
                    record.status = s
                    served = file
                    // A page that fails sends r_1st_err's Location; one served, its own request's.
                    if errorDocumentStatus != nil { location = s >= 400 ? firstErrorLocation(or: errorDocumentLocation) : errorDocumentLocation }
                    if s >= 400, errorDocumentStatus == nil, !conditionFailed, let doc = errorDocument(for: s, record: record, chain: chain) {
                        if doc.hasBytePrefix("/"), redirects < site.limitInternalRecursion {
                            redirectToErrorDocument(doc, status: s)
                            served = nil
                            continue
                        } else if doc.hasBytePrefix("/") {
                            // The internal redirect to the page exceeds the limit: ap_die(500) on the
                            // failing request, a recursive error sent canned as 500.
                            noteErrorRedirectMethod(record)
                            chain.logRecursionLimit(site.limitInternalRecursion)
                            chain.note(.status, "500: ErrorDocument \(s) \(doc) would be internal redirect #\(redirects + 1) (AH00124)")
                            status = 500
                            served = nil
                        } else if isAbsoluteURI(doc) {
                            // A full URL: the client is sent there with a 302 (core docs, ErrorDocument).
                            status = 302
                            location = doc
                            served = nil
                        }
                    }
                    if errorDocumentStatus != nil, s >= 400 {
                        // A recursive error: the first status goes out, %>s logs the page's own.
                        served = nil
                        loggedStatus = s
                    }
                case .internalRedirect(let url):
                    if redirects >= site.limitInternalRecursion {
                        chain.logRecursionLimit(site.limitInternalRecursion)
                        chain.note(.status, "500: more than \(site.limitInternalRecursion) internal redirects (AH00124)")
                        status = 500
                        location = nil
                        served = nil
                        if let first = errorDocumentStatus {
                            // Inside an ErrorDocument chain every request carries the error status:
                            // ap_die(500) is a recursive error and the first error goes out canned
                            // (the first of the run, which may be a 3xx carried from [R]).
                            status = runStart ?? firstErrorStatus ?? first
                            loggedStatus = 500
                        } else if record.status == 200 {
                            record.status = 500
                            if let doc = errorDocument(for: 500, record: record, chain: chain),
                               let url = redirectAfterRecursionLimit(doc, record, chain) {
                                (status, location, record.status) = (302, url, 302)
                            }
                        } else if let first = runStart {
                            // ap_die(500) on a request whose status is not OK: a recursive error.
                            status = first
                            loggedStatus = 500
                        } else {
                            // The status was set in this very pass ([R] without [L]): r_1st_err is this
                            // request, whose status ap_die has just made 500, and that goes out
                            // (recorded: recursion-limit-r-without-l-in-last-pass).
                            record.status = 500
                        }
                        break
                    }
                    let handedOn = errorDocumentStatus != nil && record.status == 200 ? errorDocumentStatus! : record.status
                    if handedOn == 200 {
                        runStart = nil
                        runStartRecord = nil
                        runStartLocation = nil
                    } else if runStart == nil {
                        runStart = handedOn
                        runStartRecord = record
                        runStartLocation = nil
                    }
                    redirects += 1
                    chain.note(.internalRedirect, "internal redirect #\(redirects) to \(url)")
                    // internal_internal_redirect copies r->method: GET after an ErrorDocument's redirect
                    // (recorded: errordoc-post-becomes-get-through-rewrite).
                    let next = makeRecord(url: url, method: record.method, isSubrequest: false, chain: chain)
                    // An ErrorDocument request keeps its error as r->status, which a later internal redirect
                    // reports as REDIRECT_STATUS (recorded: recursion-errordocument-rewrite-redirect-status).
                    next.0.env = renamedEnvironment(record, status: record.errorStatus ?? record.status)
                    // A status set by `[R]` without `[L]` travels with the internal redirect (§4.9 CT-RW-R-02).
                    next.0.status = record.status
                    next.0.errorStatus = record.errorStatus
                    next.0.inherit(from: record)
                    // mod_rewrite's redirect-keeps-vary note: its internal redirect keeps r->headers_out's Vary.
                    next.0.ifVary = record.ifVary
                    record = next.0
                    early = next.1
                    continue
                }
                break
            }
            var final = state(of: record)
            final.status = loggedStatus ?? status
            var original = originalState ?? final
            if redirects == 0 { original.status = status }
            // A status without a line in httpd's table goes out as 500; %>s logs it, unless it is
            // not a status at all (600 and up: AH01579, and 500 logged).
            var sentStatus = status
            if !StatusLines.known(status) {
                if status >= 600 || status < 100 {
                    chain.log("AH01579", "error", "Invalid response status \(status)")
                    if final.status == status { final.status = 500 }
                    if original.status == status { original.status = 500 }
                }
                sentStatus = 500
            }
            // An ErrorDocument page is sent by its handler like any page, not by ap_send_error_response.
            // A page a handler sends goes out like any page, not by ap_send_error_response, whatever
            // its status: an ErrorDocument page, or a file served with a status an [R=3xx] without
            // [L] left on the request.
            // A 204 has no body: whatever page was meant goes out empty, though its handler sent it
            // with its request's headers (an ErrorDocument page for a 204; recorded:
            // errordoc-204-page-headers).
            let sentEmpty = status == 204 && served != nil
            if status == 204 { served = nil }
            // The default handler sent a file: ap_set_accept_ranges put `Accept-Ranges` in
            // r->headers_out (`none` under MaxRanges none), kept on a 206, gone with a 416's error page.
            // …also before ap_meets_conditions, whose 304 or 412 keeps r->headers_out (recorded:
            // header-if-none-match-304-accept-ranges).
            var acceptsRanges = served != nil || conditionFailedFile
            // The byte-range filter on a file the default handler sends with 200: a satisfiable
            // `Range` makes it 206 (part of the body), one past the end 416 (an error page).
            var contentRange: String? = nil
            // The file went out cut to a range (206): its handler ran all the same.
            var rangedFile = false
            var rangeRefused = false
            // Not the old Request-Range (recorded). An If-Range must equal the ETag or
            // Last-Modified, which htlint does not know: taken as not matching (whole body).
            // The header first: most requests have none, and then no file is looked at.
            if status == 200, loggedStatus == nil, served != nil, request.header("If-Range") == nil,
               let header = request.header("Range"), let f = record.filename,
               case .file(let size)? = site.files.stat(f.hasByteSuffix("/") ? String(f.dropLast()) : f) {
                let maxRanges = (record.config ?? .vhostDefaults(site)).maxRanges
                switch ByteRangeOutcome.evaluate(header, length: size, maxRanges: maxRanges) {
                case .whole: break
                case .partial(let ranges):
                    chain.note(.status, "206: the Range header asks for part of the file")
                    (status, sentStatus, final.status, served) = (206, 206, 206, nil)
                    rangedFile = true
                    if redirects == 0 { original.status = 206 }
                    if ranges.count == 1 { contentRange = "bytes \(ranges[0].lowerBound)-\(ranges[0].upperBound)/\(size)" }
                case .unsatisfiable:
                    chain.note(.status, "416: every range of the Range header starts past the end of the file")
                    (status, sentStatus, final.status, served) = (416, 416, 416, nil)
                    acceptsRanges = false
                    rangeRefused = true
                    if redirects == 0 { original.status = 416 }
                }
            }
            // A listing that is the ErrorDocument page goes out with the error status and its own
            // type (mod_autoindex sends it whatever r->status is); so does mod_status' or mod_info's
            // page (recorded: errordoc-server-info-page-keeps-own-type).
            let generated = record.listed || record.generatedType != nil
            let servedErrorPage = served != nil || sentEmpty || (handlerPage && (status == record.status || (generated && errorDocumentStatus != nil)))
            let headerRecord = loggedStatus != nil ? (runStartRecord ?? errorOrigin ?? record) : record
            // One error table serves the whole chain: a recursive error's Vary has the later requests' tokens.
            headerRecord.negotiationVary = record.negotiationVary
            headerRecord.contentLocation = record.contentLocation
            // …and a later request's challenge (the ErrorDocument page's own 401) is in it too
            // (recorded: errordoc-401-page-rewritten-keeps-challenge).
            if let challenge = record.wwwAuthenticate { headerRecord.wwwAuthenticate = challenge }
            // (An ErrorDocument page's request that ran after the refusal wrote its early lines
            // into the emptied table again, whether or not the page is found; recorded:
            // access-limitrequestbody-missing-page-keeps-later-early.)
            let errorTableLost = bodyRefused && status == 413
            if errorTableLost { chain.cookies = [] }
            var headers = record.traceEcho && status == 200
                ? traceEchoHeaders(record, chain: chain)
                : responseHeaders(headerRecord, status: status, location: location, servedErrorPage: servedErrorPage,
                                  canned: cannedSuccess && !servedErrorPage, errorTableLost: errorTableLost, handlerRan: rangeRefused,
                                  acceptRanges: acceptsRanges ? ((record.config ?? .vhostDefaults(site)).maxRanges == 0 ? "none" : "bytes") : nil,
                                  chain: chain)
            if let contentRange { headers.append(HTTPHeader("Content-Range", contentRange)) }
            if let pageLocationOnError { headers.append(HTTPHeader("Location", pageLocationOnError)) }
            if let bad = headerRefusedByFilter(headers) {
                // The filter clears both header tables (mod_rewrite's cookies too) and answers with
                // ap_die(500), once: refused again, on that answer or its ErrorDocument page, the
                // 500 goes out bare.
                chain.log(bad.code, "error", bad.message)
                chain.note(.status, bad.header.name.isEmpty ? "500: a response header has an empty name"
                           : "500: the response header \(bad.header.name) has a character Apache refuses in its name or value")
                chain.cookies = []
                let firstRefusal = !headersRefused
                headersRefused = true
                // ap_die(500) on a page sent with 200 (r->status OK) looks up ErrorDocument 500: a
                // local page is an internal redirect, served with 500; a URL a 302 to it (recorded:
                // header-refused-errordocument-500).
                var pageURL: String? = nil
                if firstRefusal, status == 200, record.status == 200, firstErrorStatus == nil, !cannedSuccess,
                   let doc = errorDocument(for: 500, record: record, chain: chain) {
                    if doc.hasBytePrefix("/"), redirects < site.limitInternalRecursion {
                        (status, location, served, loggedStatus, handlerPage) = (200, nil, nil, nil, false)
                        redirectToErrorDocument(doc, status: 500)
                        continue answering
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
                let handlerRan = (served != nil || rangedFile) && headerRecord === record && firstErrorStatus == nil
                // A page request's own canned error (a per-directory [R=4xx] there left r->status OK,
                // so ap_die did not treat it as recursive) is refused like a served page: that
                // request is logged 500 and the first request's error goes out canned (recorded:
                // header-refused-errordocument-page-own-canned-error).
                let pageAnswered = served != nil || (firstErrorStatus != nil && loggedStatus == nil)
                let sent = pageURL != nil ? 302 : pageAnswered ? firstErrorStatus ?? 500 : 500
                let onCannedError = firstErrorStatus != nil && !pageAnswered
                (status, sentStatus, location, served) = (sent, sent, pageURL, nil)
                // ap_die_r walks back only through requests whose status is not OK: after a
                // rewrite's internal redirect the first request keeps its 200 in the log (recorded:
                // header-refused-canned-error-after-rewrite-keeps-first-200).
                let firstRequestDies = (runStartRecord ?? errorOrigin ?? record) === firstRecord
                if onCannedError {
                    if firstRequestDies { original.status = 500 }
                } else {
                    final.status = pageURL != nil ? 302 : 500
                    if redirects == 0 { original.status = final.status }
                }
                // mod_headers' error filter runs again on that error: `Header always` lines are sent
                // (recorded: rewrite-flags-cookie-control-character-header-always).
                if !firstRefusal {
                    // The ErrorDocument 500 page refused as well: the 500 goes out bare.
                    headers = []
                } else {
                    // A served page's refusal sends the first request's error canned: ap_send_error_response
                    // runs the insert_error_filter hook for r_1st_err, so mod_headers adds that request's
                    // `Header always` lines, not the page's (recorded: header-refused-errordocument-page-only).
                    let dying = firstErrorStatus != nil && !onCannedError ? (runStartRecord ?? errorOrigin ?? headerRecord) : headerRecord
                    let again = responseHeaders(dying, status: sent, location: pageURL, handlerRan: handlerRan, chain: chain)
                    if let second = headerRefusedByFilter(again) {
                        // A refused `always` line is refused again on the 500, logged again (recorded:
                        // header-empty-or-invalid-name-aborts), and the answer goes out bare: no body,
                        // no Content-Type (recorded: header-refused-twice-sent-without-type). The
                        // status line stays; the request that sends it is logged 500.
                        chain.log(second.code, "error", second.message)
                        location = nil
                        if firstRequestDies { original.status = 500 }
                        headers = []
                    } else {
                        headers = again
                    }
                }
            }
            // The Location the client sees: every Location line sent (a `Header` one too, on any
            // status), joined as one header's values, each without the blanks that follow the
            // colon on the wire (a `Header set Location "  /x"` is `/x`, a tab-led `\t.html` is
            // `.html`; recorded: header-location-leading-blanks-dropped). Dropped by scalars, as
            // the client drops bytes: a space followed by a combining mark is one Character.
            var locations: [String] = []
            for h in headers where equalsIgnoringASCIICase(h.name, "Location") {
                // Rebuilt only when a blank leads (rare; this runs for every answer).
                let lead = h.value.utf8.first
                locations.append(lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t")
                    ? String(String.UnicodeScalarView(h.value.unicodeScalars.drop { $0 == " " || $0 == "\t" })) : h.value)
            }
            if !locations.isEmpty || location != nil {
                headers.removeAll { equalsIgnoringASCIICase($0.name, "Location") }
                location = locations.isEmpty ? nil : locations.count == 1 ? locations[0] : locations.joined(separator: ", ")
            }
            // Status 0: a crashed child closes the connection without a response (AH00052).
            let crashed = chain.childCrashed
            var response = OriginResponse(status: crashed ? 0 : sentStatus, location: crashed ? nil : location, headers: crashed ? [] : headers,
                                          served: crashed ? nil : served, final: final, original: original,
                                          recursionLimitExceeded: !crashed && chain.recursionLimitExceeded,
                                          errors: chain.errors, errorCodes: chain.errorCodes, trace: chain.trace,
                                          internalRedirects: redirects, firedRules: chain.fired, readsClock: chain.readsClock)
            if chain.compressed, !crashed, headers.contains(where: { equalsIgnoringASCIICase($0.name, "Content-Encoding") }) {
                response.compressed = true
            }
            return response
        }
    }

    /// mod_remoteip's post_read_request, before anything reads the client's address: the
    /// address its header names becomes `REMOTE_ADDR`, and the header keeps what was not taken.
    private func applyRemoteIP(_ chain: RequestChain) {
        // (The reader refuses the directives when mod_remoteip is not loaded.)
        guard let settings = site.vhost.block.server?.remoteIP, let name = settings.header else { return }
        let peer = chain.request.remoteAddress
        guard let (address, rest) = settings.resolve(peer: peer, header: chain.request.header(name)) else { return }
        chain.note(.note, "mod_remoteip: \(name) names the client \(address) (the connection is from \(peer))")
        chain.request.remoteAddress = address
        chain.request.connectionAddress = peer
        if let index = chain.request.headers.firstIndex(where: { equalsIgnoringASCIICase($0.name, name) }) {
            if let rest { chain.request.headers[index].value = rest } else { chain.request.headers.remove(at: index) }
        }
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

    /// ap_die_r before its ErrorDocument redirect: the method noted as REQUEST_METHOD in the
    /// failing request's environment (the page sees REDIRECT_REQUEST_METHOD), then r->method
    /// made GET (HEAD too), which that request's own headers see should the redirect fail
    /// (recorded: recursion-errordocument-notes-method, recursion-errordocument-method-becomes-get).
    func noteErrorRedirectMethod(_ record: RequestRecord) {
        record.setEnvValue("REQUEST_METHOD", record.method)
        record.method = "GET"
    }

    /// REDIRECT_ renaming across an internal redirect (apache-semantics §1.3).
    /// A name the table holds twice (see `RequestRecord.envShadowed`) is copied with its later value.
    func renamedEnvironment(_ record: RequestRecord, status: Int) -> EnvTable {
        var out = EnvTable()
        for (k, v) in record.env { out["REDIRECT_" + k] = record.envShadowed[k] ?? v }
        out["REDIRECT_STATUS"] = String(status)
        return out
    }

    /// Creates the record for a URL: split at `?`, drop `#…`, decode and normalise the path.
    /// Returns an early status when decoding fails (400 for `%zz`, 404 for `%2F`/`%00`).
    func makeRecord(url: String, method: String, isSubrequest: Bool, chain: RequestChain,
                    logsBadPath: Bool = true, allowRelative: Bool = false) -> (RequestRecord, Int?) {
        var (text, query) = splitRequestTarget(url)
        let received = text
        var early: Int? = nil
        var path = text
        // ap_normalize_path (decoding `%2e`) refuses a `..` that climbs above `/` before
        // ap_unescape_url runs: 400, logged as AH10244 like a bad escape.
        var aboveRoot = false
        let normalizedEncoded = hasEncodedSlashOrNul(text)
        if normalizedEncoded {
            // ap_normalize_path resolves the segments before ap_unescape_url: `%2F` is no
            // separator there, so `a%2Fb/..` removes the whole `a%2Fb`; `.%00` is no dot
            // segment and `a%00/..` goes whole (`/x/.%00` logs `/x/.`, `/x/a%00/..` is `/x/`;
            // recorded: rewrite-escape-nul-after-dot-segment).
            text = normalizePath(decodingUnreserved(text), aboveRoot: &aboveRoot, mergeSlashes: site.mergeSlashes)
        }
        // Without `%2F` the pass over the decoded path resolves the same segments as
        // ap_normalize_path's; with them it is the second normalisation after decoding `%2F`
        // (AllowEncodedSlashes On), whose failure Apache ignores: `/..%2Fx` serves `/x`.
        var decodedAboveRoot = false
        // ap_normalize_path's own scan finds a `%` without two hex digits in the path as received,
        // even where decoding the unreserved escapes after it made a valid-looking one (`%%41`
        // reads `%A`): 400, before any `%2F` is refused (recorded:
        // rewrite-escape-bad-escape-hidden-by-unreserved-decoding).
        let decoding = normalizedEncoded && hasBadEscape(received)
            ? .failure(.badEscape) : decodeURLPath(text, encodedSlashes: site.encodedSlashes)
        switch decoding {
        // Decoded `%2F`s may make new `//` or `..` segments: Apache normalises again when it allows them.
        case .success(let decoded): path = normalizePath(decoded, aboveRoot: &decodedAboveRoot, mergeSlashes: site.mergeSlashes)
        case .failure(.badEscape):
            early = 400
            // ap_normalize_path finishes its pass before it reports the bad escape: r->uri
            // (what the log shows) has its slashes merged and segments resolved.
            path = normalizedEncoded ? text : normalizePath(decodingUnreserved(text), aboveRoot: &decodedAboveRoot, mergeSlashes: site.mergeSlashes)
        case .failure(.forbiddenByte(let decoded)):
            early = 404
            // r->uri is a C string: a decoded `%00` ends what the log shows.
            let cut = decoded.firstIndex(ofByte: 0).map { String(decoded[..<$0]) } ?? decoded
            // Refused `%2F`s (and `%00`s): no second normalisation, the slashes they make stay in the
            // log (`/x%2F%2Fy` logs `/x//y`; recorded: rewrite-escape-encoded-slash-not-merged).
            path = normalizedEncoded ? cut : normalizePath(cut, aboveRoot: &decodedAboveRoot, mergeSlashes: site.mergeSlashes)
        }
        if !normalizedEncoded && decodedAboveRoot { aboveRoot = true }
        if aboveRoot {
            early = 400
            // The 400 comes before ap_unescape_url: r->uri keeps every escape but those of
            // unreserved characters (`/../a%2Fb%7e` logs `/a%2Fb~`; recorded:
            // rewrite-escape-above-root-logs-encoded-path).
            var ignored = false
            path = normalizedEncoded ? text : normalizePath(decodingUnreserved(text), aboveRoot: &ignored, mergeSlashes: site.mergeSlashes)
        }
        // ap_normalize_path refuses a path without its leading `/` (a per-directory rewrite to
        // `a/y.html`; recorded: rewrite-base-absolute-path-outside-directory), except in a file
        // look-up (AP_NORMALIZE_ALLOW_RELATIVE), whose relative name is parsed as its URI
        // (recorded: rewrite-cond-lookup-file-relative-names).
        if early == nil, !allowRelative, let first = path.utf8.first, first != UInt8(ascii: "/") { early = 400 }
        // A relative name is still refused when a `..` climbs above its start (`../a.html`,
        // `q/../../a.html`, `%2e%2e/a.html`, `..`), as ap_normalize_path's NOT_ABOVE_ROOT reads
        // it from offset 0 (recorded: rewrite-cond-lookup-file-relative-climbing-above-start).
        if early == nil, allowRelative, let first = received.utf8.first, first != UInt8(ascii: "/"),
           relativeNameClimbsAboveStart(decodingUnreserved(received), mergeSlashes: site.mergeSlashes) {
            early = 400
        }
        if early == 400, logsBadPath { chain.log("AH10244", "error", "invalid URI path (\(url))") }
        let r = RequestRecord(method: method, uri: path, query: query, isSubrequest: isSubrequest,
                              documentRoot: site.documentRoot)
        r.receivedURI = received
        return (r, early)
    }

    func state(of r: RequestRecord) -> RecordState {
        RecordState(status: r.status, uri: r.uri, query: r.loggedQuery, filename: r.filename.map(relativeToRoot),
                    handler: r.handler)
    }

    /// Filenames are reported relative to where the files are mounted (the oracle's logs do).
    func relativeToRoot(_ path: String) -> String {
        let root = site.mountedRoot
        if path == root { return "/" }
        // `root + "/"` as a byte prefix, without building it (every logged state asks).
        let n = root.utf8.count
        if path.utf8.count > n, path.hasBytePrefix(root),
           path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: n)] == UInt8(ascii: "/") {
            return dropLeadingBytes(path, n)
        }
        return path
    }

    /// ErrorDocument configured for `status` in the record's directory; a value with
    /// expression syntax is evaluated for the failing request (ap_response_code_string).
    func errorDocument(for answered: Int, record: RequestRecord, chain: RequestChain) -> String? {
        let status = StatusLines.errorDocumentKey(answered)
        func evaluated(_ text: String?, _ expression: ExprWord?) -> String? {
            guard let text else { return nil }
            // set_error_document classifies the configured text once: with a blank, or neither
            // a local path nor a URL, it is a message and gets a leading quote; a URL stays a
            // URL whatever its expansion holds (recorded: errordoc-url-expanding-to-a-blank).
            let isMessage = text.contains(" ") || (!text.hasBytePrefix("/") && !ConfigReader.isFullURL(text))
            let value = expression.map { $0.evaluate(ExpressionContext(origin: self, record: record, chain: chain), []) } ?? text
            return isMessage ? "\"" + value : value
        }
        // Before the directory walk r->per_dir_config is what the location and if walks merged
        // ahead of translate_name: a `<Location>`'s ErrorDocument answers a server rule's [F].
        // Read in place: binding the virtual host's whole block would copy it on every call.
        let server = { evaluated(self.site.vhost.block.errorDocuments[status], self.site.vhost.block.errorDocumentExpressions[status]) }
        let beforeWalk = { () -> String? in
            if let pre = self.preTranslateConfig(record, chain), let text = pre.errorDocuments[status] {
                return evaluated(text, pre.errorDocumentExpressions[status])
            }
            return server()
        }
        // Past map_to_storage the request's own configuration holds: <Files>, <Location> and
        // <If> merged over the walk (ap_response_code_string reads r->per_dir_config).
        if let config = record.config {
            guard let text = config.errorDocuments[status] else { return server() }
            return evaluated(text, config.errorDocumentExpressions[status])
        }
        // A rewrite to a URL keeps the walk's per-directory configuration (r->per_dir_config).
        guard let filename = record.filename, filename.hasBytePrefix("/") else { return beforeWalk() }
        let walk = directoryWalk(filename)
        // A failed walk never installs its per-directory configuration: only the virtual host's
        // ErrorDocument applies, not one from a parent `.htaccess` read before the broken one.
        if walk.fatal != nil { return server() }
        guard let text = walk.config.errorDocuments[status] else { return beforeWalk() }
        return evaluated(text, walk.config.errorDocumentExpressions[status])
    }
}
