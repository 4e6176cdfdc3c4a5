import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// Apache's `request_rec` for one pass (the original request, an internal redirect, or a
/// subrequest): what the phases read and change.
final class RequestRecord {
    /// r->method; ap_die_r makes a failing request a GET before its ErrorDocument redirect.
    var method: String
    /// Decoded URL-path (`r->uri`).
    var uri: String
    /// `r->uri` before ap_process_request_internal normalises and decodes it: the path as sent
    /// (or as an internal redirect wrote it), which post_read_request hooks see.
    var receivedURI: String?
    /// Raw query string; nil when the URL had none.
    var query: String?
    /// `r->parsed_uri.query`: the query this record was created with (the request's, or the
    /// URL an internal redirect went to); a server-context rewrite changes `query` only.
    let parsedQuery: String?
    /// `r->filename`: a filesystem path after translation; during a rewrite pass the current
    /// rewrite result.
    var filename: String?
    var pathInfo = ""
    /// The per-directory rule set running on this record: its directory and RewriteBase
    /// (mod_rewrite's ctx->perdir and conf->baseurl, which the look-aheads read).
    var rewriteDirectory: String?
    var rewriteBase: String?
    var handler: String?
    var status = 200
    /// The error an ErrorDocument request (or an internal redirect from one) was made for:
    /// internal_internal_redirect copies r->status, so `%{REQUEST_STATUS}` in its `<If>` and
    /// expressions is that error, not 200.
    var errorStatus: Int? = nil
    /// mod_rewrite answered this pass with a status or a redirect. It resets `r->status` to 200
    /// before returning its code, so inside an ErrorDocument request `ap_die` takes the answer
    /// as a fresh one, not as a recursive error.
    var answeredByRewrite = false
    /// A fixup (mod_rewrite, mod_alias) decided this pass's answer: no handler ran.
    var answeredInFixups = false
    /// `Allow` sent by the default handler (OPTIONS, 405, 501).
    var allow: String?
    /// `WWW-Authenticate` of a 401 (mod_auth_basic puts it in the error table, which an
    /// ErrorDocument request inherits).
    var wwwAuthenticate: String?
    var env = EnvTable()
    /// `SetEnv` values overlaid behind a variable already set: the environment table then holds
    /// the name twice; look-ups see the first, the REDIRECT_ copy of an internal redirect the last.
    var envShadowed = EnvTable()
    var responseHeaders: [HTTPHeader] = []
    let isSubrequest: Bool
    /// `r->main->uri` of a subrequest: mod_rewrite's -U/-F look-ups only run while it differs from `uri`.
    var mainURI: String?
    /// The configuration objects the walk after map_to_storage merged before its `<If>` walk and
    /// the top-level `<If>` branches it matched (keys), and those of the main request for a
    /// subrequest: ap_if_walk's cache compares them.
    var ifMatches: [String] = []
    var mainIfMatches: [String]?
    /// The same for the request this one was internally redirected from (r->prev's cache).
    var previousIfMatches: [String]?
    /// Alias/userdir context (`CONTEXT_PREFIX`, `CONTEXT_DOCUMENT_ROOT`).
    var contextPrefix = ""
    var contextDocumentRoot: String
    /// Internal redirect staged by a per-directory rewrite, performed in the handler phase.
    var stagedRedirect: String?
    /// `[H=…]` of a per-directory rewrite: a note mod_rewrite's last fixup (after mod_dir's)
    /// makes the handler, replacing redirect-handler too, so the staged redirect then never runs.
    var rewriteHandler: String?
    /// mod_dir's fixup_dir dropped a directory's httpd/unix-directory type because another
    /// handler took it over (mod_rewrite's redirect-handler, any under DirectoryCheckHandler On).
    var directoryTypeCleared = false
    /// Set by a rewrite that replaced `r->uri` in place (server `[PT]`, DirectoryIndex).
    var forcedType: String?
    /// The per-directory configuration after the walk (set in map_to_storage).
    var config: MergedConfig?
    /// What the location and if walks before translate_name merged (nil without such sections):
    /// an answer from translate_name goes out with it, its `<If>`s as they were then (no filename yet).
    var preTranslate: MergedConfig?
    var preTranslateWalked = false
    /// mod_autoindex sent a listing of the directory (its own Content-Type).
    var listed = false
    /// A module's handler generated the page (mod_status, mod_info): the type it set.
    var generatedType: String?
    /// mod_alias' `alias-forced-type` note: a ScriptAlias mapped this request (mod_cgi runs it
    /// whatever the Options).
    var scriptAliased = false
    /// A TRACE request echoed by http_core's map_to_storage hook (message/http, no mod_headers).
    var traceEcho = false
    /// mod_negotiation's `Vary` tokens and `Content-Location` (a transparent answer's variant), both
    /// in the error table, which travels with internal redirects: an ErrorDocument request adds to
    /// the tokens.
    var negotiationVary: [String] = []
    /// Request headers `<If>` conditions read, as the `Vary` lines of this request's normal
    /// table: each evaluation merges into the first line, and a fast redirect's overlay puts the
    /// subrequest's lines before the request's (`overlayVary`).
    var ifVary: [[String]] = []
    var contentLocation: String?
    /// r->mtime is no longer the epoch (mod_negotiation read the directory).
    var mtimeSet = false
    /// The chosen variant's coding as the `Accept-Encoding` entry it matched spells it.
    var negotiatedEncoding: String?
    /// Which configuration objects this pass merged (see `Origin.configurationIdentity`).
    var configIdentity: [String]?
    /// `configIdentity` of the request this internal redirect or ErrorDocument request came from.
    var previousConfigIdentity: [String]?
    /// A server-context `Redirect` whose status atoi reads as 0 matched: translate_alias_redir
    /// returned that 0 as OK, so translate_name ended with no filename (core's mapping never ran).
    var translatedWithoutFile = false
    /// No internal redirect led here (ap_is_initial_req, with `isSubrequest`).
    var isInitial = true
    /// The filesystem path the walk found, kept when `filename` becomes `redirect:…`.
    var mappedFilename: String?
    /// DirectoryIndex replaces the original record's path in place (what `%<U` logs).
    var originalURIOverride: String?
    /// directory_walk's cache, inherited from the previous or main request, then this pass's:
    /// the directory cached and the filename its `<DirectoryMatch>` sections were matched against.
    var walkCache: (directory: String, filename: String)?
    /// The last name `Origin.isDirectory(_:for:)` tested for this record and its answer: the
    /// walk's `<DirectoryMatch>` subject, the type checker and mod_dir ask about the same name.
    var lastDirectoryTest: (path: String, isDirectory: Bool)?
    /// file_walk's cache, inherited from the previous request: the sections holding `<Files>`
    /// it tested and the file name it tested them against.
    var fileWalkCache: (sections: [String], base: String)?
    /// What location_walk and file_walk last walked afresh (their caches' `cached`): the URI and
    /// the file name, inherited like the other caches (kept only under mod_allowmethods, the one
    /// reader: Origin.allowMethodsWalksAfresh).
    var locationWalkURI: String?
    /// A look-up by file (ap_sub_req_lookup_file, _dirent): no location walk before translate.
    var fileSubrequest = false
    var fileWalkName: String?

    /// What an internal redirect (an ErrorDocument page, a rewrite's) takes from the request
    /// before it: the walk caches and configuration it compares against, and the error table,
    /// which is the same table after the redirect (mod_negotiation's Vary and Content-Location,
    /// a 401's challenge; recorded: errordoc-401-page-rewritten-keeps-challenge).
    func inherit(from previous: RequestRecord) {
        isInitial = false
        previousConfigIdentity = previous.configIdentity
        walkCache = previous.walkCache
        fileWalkCache = previous.fileWalkCache
        locationWalkURI = previous.locationWalkURI
        fileWalkName = previous.fileWalkName
        previousIfMatches = previous.ifMatches
        wwwAuthenticate = previous.wwwAuthenticate
        negotiationVary = previous.negotiationVary
        contentLocation = previous.contentLocation
    }

    /// This request as post_read_request saw it, which `early` Header lines format: the path and
    /// query as received (not normalised, decoded or rewritten), no file, path info or handler
    /// yet (recorded: header-early-request-uri-as-received).
    func postReadSnapshot() -> RequestRecord {
        let s = RequestRecord(method: method, uri: receivedURI ?? uri, query: query, isSubrequest: isSubrequest,
                              documentRoot: contextDocumentRoot)
        s.receivedURI = receivedURI
        s.env = env
        s.envShadowed = envShadowed
        s.errorStatus = errorStatus
        s.status = status
        return s
    }

    init(method: String, uri: String, query: String?, isSubrequest: Bool, documentRoot: String) {
        self.method = method
        self.uri = uri
        self.query = query
        self.parsedQuery = query
        self.isSubrequest = isSubrequest
        self.contextDocumentRoot = documentRoot
    }

    /// The environment is an APR table: names are case-insensitive.
    func envValue(_ name: String) -> String? {
        envKey(name).flatMap { env[$0] }
    }

    /// How the table spells `name` when it holds it in any case (APR tables ignore case).
    func envKey(_ name: String) -> String? { env.spelling(of: name) }

    /// `apr_table_set` / `apr_table_unset`: a name already there (in any case) keeps its spelling,
    /// and a `SetEnv` value overlaid behind it goes.
    func setEnvValue(_ name: String, _ value: String?) {
        let key = envKey(name) ?? name
        env[key] = value
        if !envShadowed.isEmpty { envShadowed[key] = nil }
    }

    /// `%q` as the access log prints it.
    var loggedQuery: String { query.map { "?" + $0 } ?? "" }
}

/// Facts shared by every record of one client request.
final class RequestChain {
    /// The client's request; `RequestHeader` edits its headers in the fixups (r->headers_in, which
    /// internal redirects share).
    var request: OriginRequest
    /// A `Header edit*` recursed forever: the child crashed and the client gets no response.
    var childCrashed = false
    /// A renegotiation failed in the middle of the request: the answer is logged, never received.
    var connectionLost = false
    /// The requests that ran post_read_request, first to last: internal_internal_redirect shares
    /// r->err_headers_out, so each one's `Header always … early` lines are in the table sent
    /// (kept only where the virtual host has such lines).
    var postReadRecords: [RequestRecord] = []
    /// How many of `postReadRecords` had run when a refused body emptied the error table.
    var errorTableClearedAt: Int?
    /// mod_deflate compressed the answer's body (gzip accepted).
    var compressed = false
    let theRequest: String
    /// `[END]` marker on the request pool (apache-semantics §4.10).
    var endSeen = false
    var trace: [TraceEvent] = []
    var errors: [String] = []
    var errorCodes: [String] = []
    var cookiesSet: Set<String> = []
    /// `Set-Cookie` from `[CO]`: kept on redirects and error responses.
    var cookies: [HTTPHeader] = []
    var subrequestDepth = 0
    /// Internal redirects before the main request of the current pass (its `prev` chain).
    var redirectDepth = 0
    /// Every rule that matched, in order (kept even without tracing: replay counts them).
    var fired: [SourceRange] = []
    /// Work spent so far on this request (weighted rule evaluations, subrequests), against
    /// `Origin.ruleEvaluationBudget`.
    var ruleEvaluations = 0
    /// The budget ran out (reported once).
    var budgetExhausted = false
    /// The answer depends on the clock (`%{TIME…}`, a cookie's expiry): not the same for the same request.
    var readsClock = false
    /// An internal redirect or subrequest went over `LimitInternalRecursion` (AH00124 logged).
    var recursionLimitExceeded = false
    /// `Require host` or an `Allow`/`Deny from` host name looked the client's name up: the
    /// connection keeps it, and later `REMOTE_HOST` reads give it, not the address
    /// (ap_get_remote_host; recorded: access-remote-host-after-host-lookup).
    var remoteHostLookedUp = false
    var remoteHostName: String { remoteHostLookedUp ? clientHostName : request.remoteAddress }

    /// Whether to record trace events (off for bulk replay, where formatting them dominates).
    let tracing: Bool
    /// With tracing: the `ErrorDocument` line of the last look-up that found one.
    var errorDocumentRange: SourceRange?

    /// Adds a fired directive; the first makes room for a usual answer's few (a front
    /// controller's rules fire four times over two passes) instead of growing one by one.
    func recordFired(_ range: SourceRange) {
        if fired.isEmpty { fired.reserveCapacity(4) }
        fired.append(range)
    }

    init(request: OriginRequest, tracing: Bool = true) {
        self.request = request
        self.tracing = tracing
        // Appended, not interpolated: one chain per origin request.
        var line = request.method
        line.reserveCapacity(request.method.utf8.count + request.target.utf8.count + 10)
        line += " "
        line += request.target
        line += " HTTP/1.1"
        self.theRequest = line
    }

    /// A request header (first line of that name, case-insensitively), as the request (with
    /// `RequestHeader` edits) has it now.
    func header(_ name: String) -> String? { request.header(name) }

    /// Records a trace event; the detail is only built when tracing. Raw bytes of a path that
    /// is not UTF-8 are shown `\xE9`.
    func note(_ kind: TraceEvent.Kind, _ detail: @autoclosure () -> String, range: SourceRange? = nil) {
        if tracing { trace.append(TraceEvent(kind, detail().showingRawBytes, range: range)) }
    }

    /// AH00124: one internal redirect more than `limit` allows (ap_is_recursion_limit_exceeded).
    func logRecursionLimit(_ limit: Int) {
        recursionLimitExceeded = true
        log("AH00124", "error", "Request exceeded the limit of \(limit) internal redirects due to probable configuration error. Use 'LimitInternalRecursion' to increase the limit if necessary. Use 'LogLevel debug' to get a backtrace.")
    }

    func log(_ code: String, _ level: String, _ message: String) {
        errorCodes.append(code)
        errors.append(code.isEmpty ? "\(level): \(message)" : "\(level): \(code): \(message)")
    }
}

extension RequestRecord {
    /// apr_table_mergen on the error table's Vary; ap_http_header_filter's fixup_vary then sends
    /// each token once, in the order first written, joined by commas.
    func addNegotiationVary(_ tokens: [String]) { RequestRecord.append(tokens, to: &negotiationVary) }

    /// Request headers read by conditions join r->headers_out's `Vary`, each name once. An empty
    /// name (`req('')`) is kept every time: add_vary and apr_table_merge join it with `, ` all
    /// the same, and fixup_vary leaves a Vary of nothing but separators as it is (recorded:
    /// header-expression-vary-empty-names).
    func addVary<S: Sequence<String>>(_ tokens: S) {
        var first = ifVary.first ?? []
        for t in tokens {
            if t.isEmpty { first.append(t) } else { RequestRecord.append(CollectionOfOne(t), to: &first) }
        }
        if ifVary.isEmpty { if !first.isEmpty { ifVary = [first] } } else { ifVary[0] = first }
    }

    /// ap_internal_fast_redirect's apr_table_overlay(rr->headers_out, r->headers_out): the
    /// subrequest's `Vary` lines, then the request's, each kept apart. Only a Vary without any
    /// name shows it (fixup_vary joins the others): behind nginx, which drops each line's
    /// trailing blanks, two empty lines arrive as two (recorded:
    /// header-expression-vary-empty-names-lines-behind-edge).
    func overlayVary(of sub: RequestRecord) { ifVary = sub.ifVary + ifVary }

    /// Header names are case-insensitive: a token already in `list` in any case is not added again.
    private static func append<S: Sequence<String>>(_ tokens: S, to list: inout [String]) {
        for t in tokens where !list.contains(where: { equalsIgnoringASCIICase($0, t) }) { list.append(t) }
    }

    /// The sent `Vary` of mod_negotiation, nil when it set none.
    var negotiationVaryHeader: String? { negotiationVary.isEmpty ? nil : negotiationVary.joined(separator: ",") }
}

/// A request's environment (an APR table) by name. apr_table compares names with strcasecmp, on
/// bytes: `café` written precomposed and with e and a combining accent are two variables, which
/// a `[String: String]` would merge (recorded: env-names-by-bytes). ASCII case is folded by
/// `RequestRecord.envKey`.
struct EnvTable: Sequence, ExpressibleByDictionaryLiteral {
    private var storage: [PathKey: String] = [:]

    init() {}

    init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { storage[PathKey(name)] = value }
    }

    subscript(_ name: String) -> String? {
        get { storage[PathKey(name)] }
        set { storage[PathKey(name)] = newValue }
    }

    /// How the table spells `name` when it holds it in any ASCII case (one hashed look-up,
    /// then a walk of the names in place: setting a new variable asks this every time).
    func spelling(of name: String) -> String? {
        if storage[PathKey(name)] != nil { return name }
        for key in storage.keys where equalsIgnoringASCIICase(key.path, name) { return key.path }
        return nil
    }

    /// Every variable under `prefix` + its name, with the value `preferred` holds for the name
    /// when it holds one; sized for `room` more. (In place: every internal redirect copies the
    /// table, and iterating it as pairs built an array first.)
    func renamed(prefix: String, preferring preferred: EnvTable, room: Int) -> EnvTable {
        var out = EnvTable()
        out.storage.reserveCapacity(storage.count + room)
        for (key, value) in storage {
            let shadowing = preferred.storage.isEmpty ? nil : preferred.storage[key]
            out.storage[PathKey(prefix + key.path)] = shadowing ?? value
        }
        return out
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    /// The names, in no particular order.
    var keys: [String] { storage.keys.map(\.path) }

    func makeIterator() -> IndexingIterator<[(key: String, value: String)]> {
        storage.map { (key: $0.key.path, value: $0.value) }.makeIterator()
    }

    mutating func merge(_ other: EnvTable, uniquingKeysWith combine: (String, String) -> String) {
        storage.merge(other.storage, uniquingKeysWith: combine)
    }
}
