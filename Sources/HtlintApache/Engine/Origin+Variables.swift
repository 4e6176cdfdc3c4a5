import HtlintRegex
import Foundation

extension Origin {
    /// `%{NAME}` as mod_rewrite looks it up (apache-semantics §7.2).
    func variable(_ rawName: String, _ r: RequestRecord, _ chain: RequestChain, serverContext: Bool) -> String {
        value(of: VariableRef(rawName), r, chain, serverContext: serverContext)
    }

    /// The value of a resolved `%{NAME}` for this request.
    func value(of ref: VariableRef, _ r: RequestRecord, _ chain: RequestChain, serverContext: Bool) -> String {
        switch ref {
        case .header(let header):
            if r.isSubrequest, Origin.subrequestDropsHeader(header) { return "" }
            return chain.header(header) ?? ""
        case .environment(let name): return r.envValue(name) ?? site.processEnvironment[name] ?? ""
        case .lookAhead(let inner, let file): return lookAhead(inner, file: file, r, chain, serverContext: serverContext)
        case .ssl(let name): return sslVariable(name, r, chain)
        case .empty: return ""
        case .known(let known, let name):
            switch known {
            case .header(let header): return chain.header(header) ?? ""
            case .requestURI: return r.uri
            case .requestFilename: return r.filename ?? r.uri
            case .pathInfo: return r.pathInfo
            case .queryString: return r.query ?? ""
            case .theRequest: return chain.theRequest
            case .requestMethod: return r.method
            // r->protocol: ap_set_sub_req_protocol names every subrequest's "INCLUDED" (the
            // index look-up's rules see it: rewrite-cond-server-protocol-subrequest).
            case .serverProtocol: return r.isSubrequest ? "INCLUDED" : "HTTP/1.1"
            case .constant(let value): return value
            case .requestScheme: return scheme(chain)
            case .https: return chain.request.tls ? "on" : "off"
            case .serverName: return serverNameAndPort(chain, r).host
            // A subrequest parses its URI afresh: the Host header's port is gone (the index
            // look-up's rules see 80; recorded: rewrite-cond-server-port-subrequest).
            case .serverPort: return String(serverNameAndPort(chain, r, subrequest: r.isSubrequest).port)
            case .remoteAddress: return chain.request.remoteAddress
            case .remoteHost: return chain.remoteHostName
            case .connectionAddress: return chain.request.connectionAddress ?? chain.request.remoteAddress
            case .serverAddress: return chain.request.serverAddress
            case .documentRoot: return site.documentRoot
            case .serverAdmin: return site.vhost.block.server?.serverAdmin ?? "[no address given]"
            case .contextPrefix: return r.contextPrefix
            case .contextDocumentRoot: return r.contextDocumentRoot
            case .isSubrequest: return r.isSubrequest ? "true" : "false"
            case .ipv6: return chain.request.remoteAddress.contains(":") ? "on" : "off"
            // r->finfo's owner. Per-directory the walk has filled r->finfo, even for a missing
            // name (the directory it stopped in); in server context it is not valid yet. The
            // recordings' files belong to root (rewrite-cond-script-user-context).
            case .scriptOwner: return !serverContext && r.filename != nil ? "root" : "<unknown>"
            case .time:
                chain.readsClock = true
                return timeVariable(name)
            }
        }
    }

    /// clone_headers_no_body: a subrequest's copy of the request headers has no body headers.
    static func subrequestDropsHeader(_ name: String) -> Bool { bodyHeaders.contains(name.asciiLowercased()) }

    private static let bodyHeaders: Set<String> = [
        "content-encoding", "content-language", "content-length", "content-location", "content-md5",
        "content-range", "content-type", "expires", "last-modified", "transfer-encoding",
    ]

    /// What a `%{NAME}` reads.
    enum VariableSource: Sendable, Hashable {
        case header(String)
        case requestURI, requestFilename, pathInfo, queryString, theRequest, requestMethod, serverProtocol
        case constant(String)
        case requestScheme, https, serverName, serverPort, remoteAddress, remoteHost, connectionAddress, serverAddress, documentRoot, serverAdmin
        case contextPrefix, contextDocumentRoot, isSubrequest, ipv6, scriptOwner, time
    }

    /// The variables mod_rewrite knows (apache-semantics §7.2); any other name expands to "".
    static let variableNames: [String: VariableSource] = {
        var names: [String: VariableSource] = [
            "HTTP_ACCEPT": .header("Accept"), "HTTP_COOKIE": .header("Cookie"), "HTTP_FORWARDED": .header("Forwarded"),
            "HTTP_HOST": .header("Host"), "HTTP_PROXY_CONNECTION": .header("Proxy-Connection"),
            "HTTP_REFERER": .header("Referer"), "HTTP_USER_AGENT": .header("User-Agent"),
            "REQUEST_URI": .requestURI, "DOCUMENT_URI": .requestURI,
            "REQUEST_FILENAME": .requestFilename, "SCRIPT_FILENAME": .requestFilename,
            "PATH_INFO": .pathInfo, "QUERY_STRING": .queryString, "THE_REQUEST": .theRequest,
            "REQUEST_METHOD": .requestMethod, "SERVER_PROTOCOL": .serverProtocol,
            "REQUEST_SCHEME": .requestScheme, "HTTPS": .https, "SERVER_NAME": .serverName, "SERVER_PORT": .serverPort,
            "SERVER_ADDR": .serverAddress, "SERVER_ADMIN": .serverAdmin,
            "SERVER_SOFTWARE": .constant(Conditionals.serverBanner),
            "REMOTE_ADDR": .remoteAddress, "CONN_REMOTE_ADDR": .connectionAddress, "REMOTE_HOST": .remoteHost,
            "REMOTE_PORT": .constant("50000"), "REMOTE_USER": .constant(""), "REMOTE_IDENT": .constant(""),
            "AUTH_TYPE": .constant(""), "DOCUMENT_ROOT": .documentRoot, "CONTEXT_PREFIX": .contextPrefix,
            "CONTEXT_DOCUMENT_ROOT": .contextDocumentRoot, "IS_SUBREQ": .isSubrequest, "IPV6": .ipv6,
            "API_VERSION": .constant("20120211:142"), "SCRIPT_USER": .scriptOwner, "SCRIPT_GROUP": .scriptOwner,
        ]
        for t in ["TIME", "TIME_YEAR", "TIME_MON", "TIME_DAY", "TIME_HOUR", "TIME_MIN", "TIME_SEC", "TIME_WDAY"] { names[t] = .time }
        return names
    }()

    func timeVariable(_ name: String) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone.current, from: Date())
        func two(_ v: Int?) -> String { String(format: "%02d", v ?? 0) }
        switch name {
        case "TIME_YEAR": return String(format: "%04d", c.year ?? 0)
        case "TIME_MON": return two(c.month)
        case "TIME_DAY": return two(c.day)
        case "TIME_HOUR": return two(c.hour)
        case "TIME_MIN": return two(c.minute)
        case "TIME_SEC": return two(c.second)
        case "TIME_WDAY": return String((c.weekday ?? 1) - 1)
        default:
            return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + two(c.hour) + two(c.minute) + two(c.second)
        }
    }
}

/// Adapts a request to `ApExpression` evaluation (`<If>`, `expr` conditions).
struct ExpressionContext: ExpressionEnvironment {
    let origin: Origin
    var record: RequestRecord
    let chain: RequestChain
    /// The status the response goes out with (mod_headers runs in the output filter); `<If>`
    /// sees the request's status so far.
    var status: Int? = nil
    /// r->content_type when the response goes out (`%{CONTENT_TYPE}` in mod_headers' expressions).
    var contentType: String? = nil
    /// r->handler while a handler sends the page: ap_invoke_handler names a handler-less request
    /// after its type without parameters (`%{HANDLER}` in mod_headers' expressions).
    var invokedHandler: String? = nil
    /// Evaluated after mod_mime's type_checker (a per-directory `RewriteCond expr` runs in the
    /// fixups): `%{CONTENT_TYPE}` is then the type of `r->filename`.
    var typeChecked = false
    /// Set for conditions evaluated while the request is processed (`<If>`, `SetEnvIfExpr`,
    /// `RewriteCond expr` without `[NV]`): ap_expr_exec merges the request headers read into
    /// r->headers_out's `Vary` (RequestRecord.ifVary). String expressions never do.
    var addsVary = false
    /// Where a condition evaluated while the response goes out (mod_headers' `expr=`) puts them
    /// instead: the table r->headers_out is by then.
    var varySink: VaryTokens? = nil
    /// Evaluated in mod_headers' fixup, after mod_dir's: a directory's r->handler is then
    /// httpd/unix-directory (recorded: header-requestheader-condition-directory-handler).
    var afterModDir = false
    /// The answer is an ErrorDocument page its handler sent (a file's is r->mtime, whatever the status).
    var sentErrorPage = false
    /// Where mod_setenvif keeps the offsets of the last regex match (its regmatch array).
    var matchSink: MatchOffsets? = nil

    func noteMatch(_ ranges: [Range<Int>?]) { matchSink?.ranges = ranges }

    func noteVary(_ header: String) {
        // RFC 7231 7.1.4: never `Vary: Host` (ap_expr skips it).
        guard !equalsIgnoringASCIICase(header, "Host") else { return }
        if let varySink { varySink.names.append(header); return }
        guard addsVary else { return }
        record.addVary(CollectionOfOne(header))
    }

    func expressionVariable(_ name: String) -> String {
        switch name {
        case "REQUEST_STATUS": return String(status ?? record.errorStatus ?? record.status)
        case "HTTP2": return "off"  // the simulated connections are HTTP/1.1
        case "LAST_MODIFIED":
            // r->mtime, formatted: the default handler sets it to the file it sends (a file as
            // old as the clock here), MultiViews to the directory it read; before that, and on
            // any other answer, it is the epoch.
            if record.mtimeSet {
                chain.readsClock = true
                return origin.timeVariable("TIME")
            }
            // (A served ErrorDocument page too: recorded errordoc-page-last-modified.)
            if let s = status, (200...299).contains(s) || sentErrorPage, record.method != "OPTIONS",
               let f = record.filename, case .file? = origin.site.files.stat(f) {
                chain.readsClock = true
                return origin.timeVariable("TIME")
            }
            return "19700101000000"
        case "HTTP_USER_AGENT", "HTTP_PROXY_CONNECTION", "HTTP_REFERER", "HTTP_COOKIE", "HTTP_FORWARDED", "HTTP_ACCEPT":
            if case .header(let header)? = Origin.variableNames[name] { noteVary(header) }
        // util_expr_eval.c gives the major number only (mod_rewrite's has the minor too).
        case "API_VERSION": return Origin.moduleMagicMajor
        case "CONTENT_TYPE" where contentType != nil: return contentType!
        case "CONTENT_TYPE" where typeChecked && status == nil:
            // find_ct: httpd/unix-directory for a directory, else by extension (existing or not).
            guard let f = record.filename, f.hasBytePrefix("/") else { return "" }
            if origin.site.files.isDirectory(f) { return "httpd/unix-directory" }
            return MimeTypes.type(forPath: f, config: record.config?.mime) ?? ""
        // ap_expr reads r->filename itself: unset (post_read_request, translate_name) is empty.
        case "REQUEST_FILENAME" where record.filename == nil, "SCRIPT_FILENAME" where record.filename == nil: return ""
        case "HANDLER":
            // r->handler: unset before the handler phase; ap_invoke_handler then takes the
            // content type (mod_dir's httpd/unix-directory for a directory), "" when none.
            // Before the output, r->handler is only what a directive or [H=] set: a directory's
            // httpd/unix-directory is its content type until mod_dir's fixup, after which
            // mod_headers' `RequestHeader` conditions see it as the handler too.
            guard let answered = status else {
                return record.handler == "httpd/unix-directory" && !afterModDir ? "" : record.handler ?? ""
            }
            if let h = record.handler { return h }
            if let invokedHandler { return invokedHandler }
            // OPTIONS is answered by the core before any handler runs.
            guard record.method != "OPTIONS", let f = record.filename, f.hasBytePrefix("/") else { return "" }
            switch origin.site.files.stat(f) {
            // The handler phase ran for a directory without index (the 404 comes from it); a
            // Redirect, [F], a fixup's 404 ([R=404], `Redirect 404`) or access answer came before
            // it (recorded: header-expr-handler-directory-fixup-404). mod_dir's 301 sets the handler.
            case .directory? where (answered == 404 && !record.answeredInFixups) || answered == 200: return "httpd/unix-directory"
            case .file? where answered < 300:
                return MimeTypes.type(forPath: f, config: record.config?.mime).map { beforeSemicolonByte($0) } ?? ""
            default: return ""
            }
        // mod_ssl's expression hook takes every `SSL_*` name to ssl_var_lookup.
        case _ where name.hasBytePrefix("SSL_"): return origin.sslVariable(name, record, chain)
        default: break
        }
        return origin.variable(name, record, chain, serverContext: false)
    }

    func requestHeader(_ name: String) -> String {
        if record.isSubrequest, Origin.subrequestDropsHeader(name) { return "" }
        return chain.header(name) ?? ""
    }

    func environment(_ name: String) -> String { record.envValue(name) ?? origin.site.processEnvironment[name] ?? "" }

    func requestEnvironment(_ name: String) -> String? { record.envValue(name) }

    func sslLookup(_ name: String) -> String { origin.sslVariable(name, record, chain) }

    func processEnvironment(_ name: String) -> String? { origin.site.processEnvironment[name] }

    func fileContents(_ path: String) -> [UInt8]? { origin.site.files.contents(path) }

    func fileSize(_ path: String) -> Int? {
        if case .file(let size)? = origin.site.files.stat(path) { return size }
        return nil
    }

    func subrequestTest(_ op: Character, _ argument: String) -> Bool {
        op == "F" ? origin.lookupFile(argument, record, chain, guarded: false) : origin.lookupURI(argument, record, chain, expression: true)
    }

    func fileTest(_ op: Character, _ testString: String) -> Bool {
        let fs = origin.site.files
        let path = Origin.statPath(testString)
        // Paths outside the site are stat'ed on the real system: `/` and the top-level
        // directories exist there, and every directory has its search (x) bits.
        let system = origin.systemNode(path)
        let systemDirectory = system == .directory
        let systemFile = system == .file || system == .executable
        switch op {
        case "f", "s":
            if systemFile { return true }
            if case .file(let size)? = fs.stat(path) { return op == "f" || size > 0 } else { return false }
        case "d": return fs.isDirectory(path) || systemDirectory
        // op_file_xbit stats with APR_FINFO_LINK: a symbolic link has every permission bit.
        case "x": if case .symlink? = fs.lstat(path) { return true } else { return fs.isDirectory(path) || systemDirectory || system == .executable }
        case "e": return fs.stat(path) != nil || systemDirectory || systemFile
        case "L", "h": if case .symlink? = fs.lstat(path) { return true } else { return false }
        default: return false
        }
    }
}

/// Request header names a boolean expression read, in order (fixup_vary drops repeats later).
final class VaryTokens {
    var names: [String] = []
}

/// The offsets of the last successful regex match (an ap_regmatch_t array that outlives it).
final class MatchOffsets {
    var ranges: [Range<Int>?] = []
}
