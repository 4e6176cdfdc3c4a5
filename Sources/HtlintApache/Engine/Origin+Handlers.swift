import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// The handler phase: the default handler, TRACE, generated pages, CGI.
extension Origin {
    /// What the core's default handler sends with `Allow` (405, 501 and OPTIONS answers):
    /// make_allow adds TRACE unless `TraceEnable Off`. (Apache lists the other methods in its
    /// method registry's hash order, which changes from one server start to the next.)
    var defaultHandlerAllow: String { site.traceEnabled ? "GET,POST,OPTIONS,HEAD,TRACE" : "GET,POST,OPTIONS,HEAD" }

    static let unknownMethod = "*M_INVALID*"

    /// Methods httpd knows (`ap_method_number_of`); any other is `M_INVALID`.
    static let registeredMethods: Set<String> = [
        "GET", "HEAD", "PUT", "POST", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PROPFIND", "PROPPATCH",
        "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "VERSION-CONTROL", "CHECKOUT", "UNCHECKOUT", "CHECKIN", "UPDATE",
        "LABEL", "REPORT", "MKWORKSPACE", "MKACTIVITY", "BASELINE-CONTROL", "MERGE",
    ]

    enum ModuleHandler { case cgi, status, info }

    /// mod_autoindex is loaded and `Options Indexes` is on: a directory without index is listed
    /// (for GET and HEAD).
    func autoindexLists(_ r: RequestRecord, _ config: MergedConfig) -> Bool {
        // handle_autoindex declines any method but GET (HEAD included) before anything else.
        site.modules.contains("autoindex") && r.handler == "httpd/unix-directory" && config.options.contains("indexes")
            && (r.method == "GET" || r.method == "HEAD")
    }

    /// The handler phase for a record that was not redirected: serve the file, or 404/403.
    func serve(_ r: RequestRecord, chain: RequestChain) -> (Int, String?) {
        if let generated = generatedPage(r, chain) { return generated }
        if let decided = defaultHandlerMethod(r, chain) { return (decided, nil) }
        if let f = r.filename, f.hasBytePrefix("redirect:") { return serveUnredirected(r, f, chain) }
        guard let f = r.filename, f.hasBytePrefix("/") else { return (404, nil) }
        let path = f.hasByteSuffix("/") ? String(f.dropLast()) : f
        switch site.files.stat(path) {
        case .file?:
            if !r.pathInfo.isEmpty && r.config?.acceptPathInfo != true {
                chain.note(.status, "404: path info `\(r.pathInfo)` after a static file")
                return (404, nil)
            }
            // A symbolic link serves its target's content.
            let content = relativeToRoot(site.files.resolve(path) ?? path)
            chain.note(.served, "serves \(content)")
            return (200, content)
        case .directory?:
            // mod_autoindex handles what mod_dir left (no index found, or DirectorySlash Off):
            // a listing with `Options Indexes` (the filename gains its slash), else 403 (AH01276).
            // It serves GET (and HEAD) only; for POST and the rest the default handler's 404.
            if site.modules.contains("autoindex"), r.handler == "httpd/unix-directory", r.method == "GET" || r.method == "HEAD" {
                if let config = r.config, autoindexLists(r, config) {
                    // Each entry is looked up; the `.ht*` ones are denied (logged, left out).
                    lookUpListedEntries(r, directory: path, config, chain)
                    chain.note(.status, "200: mod_autoindex lists the directory (Options Indexes)")
                    r.listed = true
                    return (200, nil)
                }
                let names = (r.config?.directoryIndex ?? []).joined(separator: ",")
                chain.log("AH01276", "error", "Cannot serve directory \(f): No matching DirectoryIndex (\(names.isEmpty ? "none" : names)) found, and server-generated directory index forbidden by Options directive")
                chain.note(.status, "403: no index file and Options without Indexes (mod_autoindex, AH01276)")
                return (403, nil)
            }
            chain.note(.status, "404: directory without an index file")
            return (404, nil)
        default:
            chain.note(.status, "404: \(relativeToRoot(f)) does not exist")
            return (404, nil)
        }
    }

    /// The default handler for a `redirect:` filename whose redirect a forced handler stopped:
    /// r->finfo is still the walked path's, so a file there makes it open `redirect:…`, which
    /// fails (403, AH00132); a directory or nothing is 404.
    private func serveUnredirected(_ r: RequestRecord, _ f: String, _ chain: RequestChain) -> (Int, String?) {
        guard let walked = r.mappedFilename, site.files.isFile(walked),
              r.pathInfo.isEmpty || r.config?.acceptPathInfo == true else {
            chain.note(.status, "404: the default handler has no file for \(f)")
            return (404, nil)
        }
        chain.log("AH00132", "error", "file permissions deny server access: \(f)")
        chain.note(.status, "403: the default handler cannot open \(f)")
        return (403, nil)
    }

    /// What a `<Limit>` method set holds for a request method: its own name when httpd knows it,
    /// else the one method number every unknown method shares (M_INVALID), which only
    /// `<LimitExcept>` covers.
    static func limitName(_ method: String) -> String {
        registeredMethods.contains(method) ? method : unknownMethod
    }

    /// ap_send_http_trace: with `TraceEnable On` (the default) the request goes back as a
    /// message/http body, sent before any output filter of mod_headers is added; with `Off` a 405
    /// whose `Allow` is empty (no handler registered a method yet, and TRACE is left out).
    func answerTrace(_ r: RequestRecord, _ chain: RequestChain) -> PassResult {
        // map_to_storage starts from the server's defaults: no ErrorDocument or Header of a
        // `.htaccess` or `<Directory>` applies to the answer.
        r.config = .vhostDefaults(site)
        if site.traceEnabled {
            r.traceEcho = true
            chain.note(.status, "200: TRACE is echoed (TraceEnable On)")
            return .final(status: 200, location: nil)
        }
        r.allow = ""
        chain.note(.status, "405: TraceEnable Off refuses TRACE")
        return .final(status: 405, location: nil)
    }

    /// The default handler serves files for GET, HEAD and POST only: OPTIONS is answered with
    /// `Allow`, other methods get 405 (a missing file too), unknown ones 501 (core.c default_handler).
    func defaultHandlerMethod(_ r: RequestRecord, _ chain: RequestChain) -> Int? {
        switch r.method {
        case "GET", "HEAD", "POST": return nil
        case "OPTIONS":
            r.allow = defaultHandlerAllow
            chain.note(.status, "200: OPTIONS is answered with the allowed methods")
            return 200
        case let m where Origin.registeredMethods.contains(m):
            r.allow = defaultHandlerAllow
            chain.note(.status, "405: the default handler does not accept \(m)")
            return 405
        case let m:
            r.allow = defaultHandlerAllow
            chain.log("AH00135", "error", "Invalid method in request \(chain.theRequest)")
            chain.note(.status, "501: \(m) is not a method Apache knows")
            return 501
        }
    }

    /// Handlers that make their page whatever the filename (recorded:
    /// dirindex-server-status-and-info-handlers): mod_status's `server-status` (and its old
    /// `application/x-httpd-status` type) and mod_info's `server-info`, when loaded, answer GET
    /// and HEAD with 200 and their own type (`?auto` anywhere in the query: mod_status' plain
    /// text); other methods fall to the default handler.
    func generatedPage(_ r: RequestRecord, _ chain: RequestChain) -> (Int, String?)? {
        switch moduleHandler(r) {
        case .cgi?:
            return runCGI(r, chain)
        case .status?:
            r.generatedType = (r.query ?? "").contains("auto") ? "text/plain; charset=ISO-8859-1" : "text/html; charset=ISO-8859-1"
            chain.note(.status, "200: mod_status answers with the server's status page")
            return (200, nil)
        case .info?:
            r.generatedType = "text/html; charset=ISO-8859-1"
            chain.note(.status, "200: mod_info answers with the server's configuration page")
            return (200, nil)
        case nil:
            return nil
        }
    }

    /// The loaded module whose handler answers `r` itself (mod_cgi for every method, mod_status
    /// and mod_info for GET and HEAD), if any.
    func moduleHandler(_ r: RequestRecord) -> ModuleHandler? {
        guard let h = r.handler else { return nil }
        if site.modules.contains("cgi") || site.modules.contains("cgid"), h == "cgi-script" || h == "application/x-httpd-cgi" { return .cgi }
        guard r.method == "GET" || r.method == "HEAD" else { return nil }
        if site.modules.contains("status"), h == "server-status" || h == "application/x-httpd-status" { return .status }
        if site.modules.contains("info"), h == "server-info" { return .info }
        return nil
    }

    /// mod_cgi's handler (every method): 403 where `Options ExecCGI` is off and no ScriptAlias
    /// mapped the request (AH02809), 404 for a missing script (AH02811), 403 for a directory
    /// (AH02812), 404 for path info under `AcceptPathInfo Off`; else the script runs, which
    /// htlint cannot do: the recordings' files are not executable, so exec fails and Apache
    /// answers 500 (AH01215). (Recorded: alias-cgi-handler-checks.)
    func runCGI(_ r: RequestRecord, _ chain: RequestChain) -> (Int, String?) {
        let f = r.filename ?? ""
        func fail(_ status: Int, _ code: String, _ why: String) -> (Int, String?) {
            chain.log(code, "error", "stderr from \(f): \(why)")
            chain.note(.status, "\(status): mod_cgi: \(why)")
            return (status, nil)
        }
        if !(r.config?.options.contains("execcgi") ?? false), !r.scriptAliased {
            return fail(403, "AH02809", "Options ExecCGI is off in this directory")
        }
        let path = f.hasByteSuffix("/") ? String(f.dropLast()) : f
        switch site.files.stat(path) {
        case nil: return fail(404, "AH02811", "script not found or unable to stat")
        case .directory?: return fail(403, "AH02812", "attempt to invoke directory as script")
        default: break
        }
        if !r.pathInfo.isEmpty, r.config?.acceptPathInfo == false {
            return fail(404, "AH02813", "AcceptPathInfo off disallows user's path")
        }
        chain.log("AH01215", "error", "stderr from \(f): (13)Permission denied: exec of '\(f)' failed")
        chain.log("", "error", "End of script output before headers: \(lastPathComponent(f))")
        chain.note(.status, "500: mod_cgi runs \(relativeToRoot(f)); a file that is not an executable program fails (htlint does not run scripts)")
        return (500, nil)
    }
}
