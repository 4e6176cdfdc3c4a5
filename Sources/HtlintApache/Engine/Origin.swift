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
        let (record, firstEarly) = makeRecord(url: request.target, method: request.method, isSubrequest: false, chain: chain,
                                              logsBadPath: refusal == nil && request.misdirectedSNI == nil)
        if let refusal {
            chain.note(.status, "\(refusal.status): \(refusal.why)")
            // Refused before the URL is decoded: the log shows the raw path.
            record.uri = record.receivedURI ?? record.uri
        }
        // mod_ssl's post_read_request hook, before the URL is decoded: the raw path is logged
        // (recorded: vhost-sni-host-incompatible-tls-setup-421).
        if refusal == nil, let sni = request.misdirectedSNI {
            chain.log("AH02032", "error", "Hostname \(sni) provided via SNI and hostname \(splitHostHeader(request.header("Host") ?? "").host) provided via HTTP have no compatible SSL setup")
            chain.note(.status, "421: SNI \(sni) picked a virtual host whose TLS settings differ from the Host's")
            record.uri = record.receivedURI ?? record.uri
        }
        let early = refusal?.status ?? (request.misdirectedSNI != nil ? 421 : firstEarly)
        let answer = AnswerState(request: request, chain: chain, refusal: refusal, record: record, early: early)
        // Once more for an ErrorDocument 500 page after the header filter refused the answer.
        while true {
            runRequests(answer)
            if let response = send(answer) { return response }
        }
    }

    /// mod_remoteip's post_read_request, before anything reads the client's address: the
    /// address its header names becomes `REMOTE_ADDR`, and the header keeps what was not taken.
    private func applyRemoteIP(_ chain: RequestChain) {
        // (The reader refuses the directives when mod_remoteip is not loaded.)
        guard let settings = site.vhost.block.server?.remoteIP, let name = settings.header else { return }
        let peer = chain.request.remoteAddress
        guard let (address, rest) = settings.resolve(peer: peer, header: chain.header(name)) else { return }
        chain.note(.note, "mod_remoteip: \(name) names the client \(address) (the connection is from \(peer))")
        chain.request.remoteAddress = address
        chain.request.connectionAddress = peer
        if let index = chain.request.headers.firstIndex(where: { equalsIgnoringASCIICase($0.name, name) }) {
            if let rest { chain.request.headers[index].value = rest } else { chain.request.headers.remove(at: index) }
        }
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
        var out = record.env.renamed(prefix: "REDIRECT_", preferring: record.envShadowed, room: 1)
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
    /// expression syntax is evaluated for the failing request (ap_response_code_string). With
    /// tracing, the line it comes from is left in `chain.errorDocumentRange` for the trace event
    /// of the page's internal redirect (lint's HT320 names the line Apache used for the URL).
    func errorDocument(for answered: Int, record: RequestRecord, chain: RequestChain) -> String? {
        let status = StatusLines.errorDocumentKey(answered)
        func evaluated(_ text: String?, _ expression: ExprWord?, _ range: @autoclosure () -> SourceRange?) -> String? {
            guard let text else { return nil }
            if chain.tracing { chain.errorDocumentRange = range() }
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
        let server = {
            evaluated(self.site.vhost.block.errorDocuments[status], self.site.vhost.block.errorDocumentExpressions[status],
                      self.site.vhost.block.errorDocumentRanges[status])
        }
        let beforeWalk = { () -> String? in
            if let pre = self.preTranslateConfig(record, chain), let text = pre.errorDocuments[status] {
                return evaluated(text, pre.errorDocumentExpressions[status], pre.errorDocumentRanges[status])
            }
            return server()
        }
        // Past map_to_storage the request's own configuration holds: <Files>, <Location> and
        // <If> merged over the walk (ap_response_code_string reads r->per_dir_config).
        if let config = record.config {
            guard let text = config.errorDocuments[status] else { return server() }
            return evaluated(text, config.errorDocumentExpressions[status], config.errorDocumentRanges[status])
        }
        // A rewrite to a URL keeps the walk's per-directory configuration (r->per_dir_config).
        guard let filename = record.filename, filename.hasBytePrefix("/") else { return beforeWalk() }
        let walk = directoryWalk(filename)
        // A failed walk never installs its per-directory configuration: only the virtual host's
        // ErrorDocument applies, not one from a parent `.htaccess` read before the broken one.
        if walk.fatal != nil { return server() }
        guard let text = walk.config.errorDocuments[status] else { return beforeWalk() }
        return evaluated(text, walk.config.errorDocumentExpressions[status], walk.config.errorDocumentRanges[status])
    }
}
