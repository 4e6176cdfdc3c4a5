import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

extension Origin {
    /// One pass over a request record: translate_name, map_to_storage, access, fixups
    /// (apache-semantics §1.1). The handler phase is left to the caller.
    /// `translate: false` is a file look-up whose `r.filename` is already set.
    func runPass(_ r: RequestRecord, chain: RequestChain, redirects: Int, translate: Bool = true) -> PassResult {
        if !r.isSubrequest { chain.redirectDepth = redirects }
        postReadRequest(r, chain)
        if translate, let decided = translateName(r, chain) { return decided }  // translate_name
        // map_to_storage: http_core's TRACE hook runs before the core's directory walk, so no
        // `.htaccess` is read for TRACE.
        if r.method == "TRACE", !r.isSubrequest { return answerTrace(r, chain) }
        var walk = directoryWalk(r.filename ?? site.documentRoot, cachedDirectory: r.walkCache?.directory)    // map_to_storage
        r.filename = walk.filename
        r.pathInfo = walk.pathInfo
        // directory_walk refuses a link (without FollowSymLinks/SymLinksIfOwnerMatch) when it
        // reaches it, before it opens the .htaccess of the directory the link names.
        let refusedLink = site.files.hasSymlinks ? refusedSymlink(walk.filename) : nil
        if let fatal = walk.fatal, !(refusedLink.map { (walk.fatalDirectory ?? "").hasBytePrefix($0 + "/") } ?? false) {
            if fatal.unopenable { return refuseUnopenable(fatal, r, walk, chain) }
            if ApExpression.ParseError.crashesChild(fatal.diagnostic) {
                chain.childCrashed = true
                chain.note(.note, "reading \(fatal.file.path): \(fatal.diagnostic.message)", range: fatal.diagnostic.range)
                return .final(status: 500, location: nil)
            }
            stopAtFatalDirectory(r, walk)
            chain.log("", "alert", "\(fatal.file.path): \(fatal.diagnostic.message)")
            chain.note(.configError, "Apache cannot read \(fatal.file.path): \(fatal.diagnostic.message)",
                                          range: fatal.diagnostic.range)
            // A failed walk never installs its per-directory configuration (per_dir_config was
            // reset to the server's defaults before map_to_storage, and directory_walk sets it
            // only when it completes): this 500, like the 403s below, carries the virtual host's
            // headers and ErrorDocuments only, none from a parent `.htaccess` or `<Directory>`,
            // nor from the `<If>`/`<Location>` walks.
            r.config = .vhostDefaults(site)
            return .final(status: 500, location: nil)
        }
        if let long = walk.nameTooLong {
            chain.log("AH00036", "error", "access to \(r.uri) failed (filesystem path '\(long)')")
            chain.note(.status, "403: a path component is longer than 255 bytes (ENAMETOOLONG)")
            r.config = .vhostDefaults(site)
            return .final(status: 403, location: nil)
        }
        if let link = walk.danglingLink {
            // map_to_storage follows the link and cannot stat its target (FollowSymLinks is on by default).
            chain.log("AH00037", "error", "Symbolic link not allowed or link target not accessible: \(link)")
            chain.note(.status, "403: the symbolic link \(relativeToRoot(link)) points to nothing")
            r.config = .vhostDefaults(site)
            return .final(status: 403, location: nil)
        }
        if let link = refusedLink {
            // directory_walk lstat()s each segment when the options merged so far lack
            // FollowSymLinks and SymLinksIfOwnerMatch: a link there is refused.
            chain.log("AH00037", "error", "Symbolic link not allowed or link target not accessible: \(link)")
            chain.note(.status, "403: \(relativeToRoot(link)) is a symbolic link and Options FollowSymLinks is off")
            r.filename = link
            r.pathInfo = ""
            r.config = .vhostDefaults(site)
            return .final(status: 403, location: nil)
        }
        // (The walk cache is kept either way: mod_allowmethods reads its familiarity below.)
        let cacheSubject = directoryMatchSubject(r, walk)
        let (regexSubject, walked) = site.vhost.block.server?.directoryMatches.isEmpty ?? true
            ? (walk.filename, true) : cacheSubject
        // The server's `<FilesMatch "^\.ht"> Require all denied` is the first <Files> section
        // merged, after every <DirectoryMatch>: a later <Files>, <Location> or <If> with its
        // own Require wins (recorded: section-ht-files-denied-after-directorymatch).
        applySections(&walk, record: r, chain: chain, regexSubject: regexSubject, matchEnvironment: walked,
                      serverHtFiles: lastPathComponent(walk.filename).hasBytePrefix(".ht"))
        r.config = walk.config
        r.configIdentity = configurationIdentity(walk)
        if !r.isSubrequest { applySetEnvIf(walk.config.setEnvIf, r, chain) }  // header_parser
        // Authn/authz are skipped when an internal redirect lands on the configuration of the
        // request it came from (r->prev->per_dir_config == r->per_dir_config): an ErrorDocument
        // 403 page under the same `Require` is served.
        let freshWalk = site.modules.contains("allowmethods") && allowMethodsWalksAfresh(r, walk, familiar: !cacheSubject.walked)
        // A look-up by file skips the location walk before translate_name: its one location walk
        // is compared with the main request's first, whose base was the server defaults, so a
        // matching `<Location>` always merges afresh and authz runs again (recorded:
        // dirindex-autoindex-entry-location-rechecked).
        let freshLocation = r.fileSubrequest && walk.config.objectKeys.contains { $0.hasBytePrefix("loc#") }
        if r.previousConfigIdentity != r.configIdentity || freshWalk || freshLocation {
            applySSLUserName(r, walk.config, chain)
            if let denied = checkAccess(r, walk.config, chain) { return .final(status: denied, location: nil) }
        }
        // type_checker: mod_negotiation's MultiViews answers a missing file with a variant
        // (a fast internal redirect to its look-up: URI, file and configuration become the variant's).
        let ifMatches = r.ifMatches
        // Reading the directory sets r->mtime, variants or not: %{LAST_MODIFIED} is no longer the
        // epoch once the type checker is done (recorded: negotiation-scan-sets-last-modified).
        var scansDirectory = multiViewsScan(r, walk.config) != nil
        defer { if scansDirectory { r.mtimeSet = true } }
        switch negotiate(r, walk.config, chain, ifMatches: ifMatches) {
        case .notFound?:
            // read_types_multi gives up (AH00687) before set_vlist_validator updates r->mtime: a
            // name with files but none negotiable keeps the epoch (recorded:
            // negotiation-none-negotiable-last-modified-epoch).
            scansDirectory = false
            return .final(status: 404, location: nil)
        case .notAcceptable?:
            return .final(status: 406, location: nil)
        case .variant(let variant)?:
            // ap_internal_fast_redirect copies the look-up's r->mtime, the epoch: only a handler
            // that sends the file sets it again (an OPTIONS answer keeps it; recorded:
            // negotiation-variant-options-last-modified-epoch).
            scansDirectory = false
            guard let file = r.filename, let slash = file.lastIndex(ofByte: UInt8(ascii: "/")) else { break }
            r.uri = Origin.variantURI(r, variant)
            walk = directoryWalk(String(file[..<slash]) + "/" + variant)
            // The variant's subrequest walked its own file: its `<If>` sections saw that
            // REQUEST_FILENAME (`-f` true), and ap_internal_fast_redirect adopts its configuration.
            r.filename = walk.filename
            // (Its <DirectoryMatch> sections see the filename this request's walk cached, when
            // familiar: recorded negotiation-variant-directorymatch-cached-subject.)
            let (subject, walked) = directoryMatchSubject(r, walk, remember: false)
            applySections(&walk, record: r, chain: chain, regexSubject: subject, matchEnvironment: walked, variantOf: ifMatches)
            r.filename = walk.filename
            r.config = walk.config
            r.configIdentity = configurationIdentity(walk)
            // A script variant (a handler, no type) goes out with the CGI magic type it was chosen as.
            if MimeTypes.type(forPath: walk.filename, config: walk.config.mime) == nil,
               walk.config.mime?.handler(forPath: walk.filename) != nil || walk.config.mime?.setHandler != nil {
                r.forcedType = MimeTypes.cgiMagicType
            }
            // The look-up's last fixup, mod_headers', read request headers in its `RequestHeader`
            // conditions: the fast redirect overlays the look-up's Vary over this request's
            // (recorded: header-requestheader-condition-vary-from-variant-lookup).
            if !walk.config.requestHeaders.isEmpty, !chain.childCrashed {
                let (sub, _) = variantLookup(r, walk, filename: walk.filename, uri: r.uri, chain, requestHeaders: true)
                let own = r.ifVary
                r.ifVary = []
                r.addVary(sub.ifVary)
                r.addVary(own)
            }
            // The look-up ran its fixups too (its redirects skipped in a subrequest) in their
            // order: mod_rewrite's (which sees neither SetEnv nor HTTPS yet: recorded
            // negotiation-variant-lookup-rewrite-before-env), mod_env's, mod_ssl's; the fast
            // redirect adopts that environment before this request's own rewrite answers
            // (recorded: negotiation-variant-subrequest-env-https).
            adoptVariantRewrite(r, walk, chain)
            applySetEnv(walk.config.setEnv, r)
            applySSLEnv(r, chain)
        case nil:
            break
        }
        // type_checker: a directory without a handler gets its own name (what `%R` logs); any
        // other name mod_mime's `AddHandler` one, over ScriptAlias's cgi-script too (recorded:
        // cms-addhandler-php-html-skips-fallback, alias-scriptalias-addhandler-replaces-handler).
        if isDirectory(walk.filename) {
            if r.handler == nil { r.handler = "httpd/unix-directory" }
        } else if r.handler != "redirect-handler", let mime = walk.config.mime, let h = mime.handler(forPath: mimeName(walk.filename, r, mime)) {
            // (mod_negotiation's type_checker runs first and, having adopted a variant whose
            // look-up was rewritten, ends the phase: its redirect-handler stays; recorded:
            // negotiation-variant-rewritten-keeps-redirect-handler.)
            r.handler = h
        }
        // fixups: core_override_type (REALLY_FIRST) puts `SetHandler` over it.
        if let h = walk.config.mime?.setHandler { r.handler = h }
        // fixups; an answer decided here is sent without running a handler (`%R` logs none).
        if let decided = perDirectoryRewrite(r, walk, chain) ?? aliasRedirect(r, walk.config, chain, serverContext: false) {
            if r.handler == "httpd/unix-directory" { r.handler = nil }
            if decided.finalStatus != nil { r.answeredInFixups = true }
            // A per-dir internal rewrite returns OK: the later fixups (mod_env) still run.
            if case .internalRedirect = decided {
                applySetEnv(walk.config.setEnv, r)
                applySSLEnv(r, chain)
                applyRequestHeaders(walk.config.requestHeaders, r, chain)
            }
            return decided
        }
        applySetEnv(walk.config.setEnv, r)                           // fixups: mod_env (MIDDLE)
        applySSLEnv(r, chain)                                        // fixups: mod_ssl (MIDDLE)
        // The LAST fixups run in the order the modules were loaded: mod_dir, mod_rewrite,
        // mod_headers, then any extra module (mod_speling).
        if let decided = modDir(r, walk.config, chain) { return decided }  // fixups: mod_dir (LAST)
        // fixups: mod_rewrite's hook_mimetype (LAST, after mod_dir) applies [H]
        // (recorded: rewrite-flags-handler-blocks-internal-redirect, rewrite-flags-handler-after-mod-dir),
        // before mod_headers' fixup, whose `%{HANDLER}` sees it (recorded:
        // header-requestheader-condition-sees-rewrite-handler).
        if let forced = r.rewriteHandler { r.handler = forced }
        // fixups: mod_headers (LAST, after mod_dir and mod_rewrite), unless mod_dir answered.
        if let list = r.config?.requestHeaders, !list.isEmpty { applyRequestHeaders(list, r, chain) }
        // fixups: mod_speling (LAST, after mod_dir: a FallbackResource answers first).
        if let decided = checkSpeling(r, walk.config, chain) { return decided }
        if let staged = r.stagedRedirect {
            guard r.handler != "redirect-handler" else { return .internalRedirect(staged) }
            chain.note(.note, "[H=\(r.handler ?? "")] replaces redirect-handler: the internal redirect to \(staged) never runs")
        }
        // handler: mod_actions (HOOK_LAST, before the default handler).
        if let action = actionRedirect(r, chain) { return action }
        return .serve
    }

    /// The variant's look-up ran the directory's rules as a subrequest (redirect rules skipped):
    /// an internal rewrite there leaves `redirect:/target` and redirect-handler, which the fast
    /// redirect adopts, with the look-up's environment. This request's own rules then match
    /// against that `redirect:` name (recorded: negotiation-variant-rewritten-by-lookup,
    /// negotiation-variant-lookup-env-adopted).
    private func adoptVariantRewrite(_ r: RequestRecord, _ walk: WalkResult, _ chain: RequestChain) {
        guard let rw = walk.config.rewrite, rw.engine, !rw.rules.isEmpty else { return }
        let (sub, _) = variantLookup(r, walk, filename: r.filename ?? "", uri: r.uri, chain)
        // Its [E=] values come along too (the look-up started from a copy of this environment).
        r.env = sub.env
        r.envShadowed = sub.envShadowed
        // And its r->path_info: a [DPI] rule there leaves none for this request's own rules to
        // append again (recorded: negotiation-variant-rewrite-dpi-drops-path-info).
        r.pathInfo = sub.pathInfo
        guard sub.handler == "redirect-handler", let staged = sub.stagedRedirect else { return }
        // ap_internal_fast_redirect copies its r->args as well: a query the look-up's rule
        // wrote is the one this request's own rules see and `[QSA]` appends (recorded:
        // negotiation-variant-lookup-query-adopted).
        r.query = sub.query
        chain.note(.note, "the variant's look-up was rewritten to \(staged): this request adopts `\(sub.filename ?? "")`")
        // r->finfo stays the variant's file: mod_dir takes such an index look-up as a file.
        r.mappedFilename = r.filename
        r.filename = sub.filename
        r.handler = "redirect-handler"
        r.stagedRedirect = staged
    }

    /// A MultiViews variant's look-up (ap_sub_req_lookup_dirent) through its fixups: mod_rewrite's
    /// per-directory rules, then mod_alias's `Redirect`s. A status decided there (`[F]`, a
    /// `Redirect`) makes the variant unavailable. Like every subrequest it is a GET
    /// (ap_set_sub_req_protocol): a POST's `%{REQUEST_METHOD} POST` condition fails there
    /// (recorded: negotiation-variant-lookup-is-get). With `requestHeaders` the look-up goes on
    /// to mod_headers' fixup unless a status was decided: its `RequestHeader` lines edit the
    /// look-up's copy of the headers, and an `edit*` meeting an empty match crashes the child
    /// (recorded: header-requestheader-edit-star-crashes-in-variant-lookup).
    /// `logged`: the look-up is negotiate's own (not a re-run htlint makes of a chosen
    /// variant's), so what it logs goes to the error log.
    func variantLookup(_ r: RequestRecord, _ walk: WalkResult, filename: String, uri: String,
                       _ chain: RequestChain, requestHeaders: Bool = false, logged: Bool = false) -> (RequestRecord, PassResult?) {
        let sub = RequestRecord(method: "GET", uri: uri, query: r.query, isSubrequest: true, documentRoot: site.documentRoot)
        sub.mainURI = r.uri
        sub.env = r.env
        sub.envShadowed = r.envShadowed
        sub.filename = filename
        sub.pathInfo = r.pathInfo
        sub.config = walk.config
        let lookup = RequestChain(request: chain.request, tracing: false)
        // A subrequest one level down: the look-ups its rules make nest from there.
        lookup.subrequestDepth = chain.subrequestDepth + 1
        lookup.redirectDepth = chain.redirectDepth
        var decided = perDirectoryRewrite(sub, walk, lookup)
        if decided == nil { decided = aliasRedirect(sub, walk.config, lookup, serverContext: false) }
        if requestHeaders, decided?.finalStatus == nil {
            // (mod_env's and mod_ssl's fixups come before it.)
            applySetEnv(walk.config.setEnv, sub)
            applySSLEnv(sub, lookup)
            applyRequestHeaders(walk.config.requestHeaders, sub, lookup)
            if lookup.childCrashed {
                chain.childCrashed = true
                chain.note(.note, "the MultiViews look-up of \(filename) ran RequestHeader edit* on an empty match: the Apache child crashes (no response)")
            }
        }
        if logged {
            chain.errorCodes += lookup.errorCodes
            chain.errors += lookup.errors
        }
        return (sub, decided)
    }

    /// mod_env's fixup: `SetEnv` values overlaid under the environment, so a variable already set
    /// (`SetEnvIf`, `[E]`) keeps its value. Runs after mod_rewrite's and mod_alias's fixups; an
    /// answer decided there ([R], [F], `Redirect`) never gets these variables.
    func applySetEnv(_ list: [(String, String)], _ r: RequestRecord) {
        for (name, value) in list {
            if let existing = r.envKey(name) {
                r.envShadowed[existing] = value
            } else {
                r.env[name] = value
            }
        }
    }

    /// mod_ssl's fixup (ssl_hook_Fixup) on a TLS connection: `HTTPS=on` in the environment
    /// (`Header … env=HTTPS`), set only once the request got past mod_rewrite's and mod_alias's
    /// fixups, so an `[R]` or `Redirect` answer never has it and `%{ENV:HTTPS}` in a rewrite is empty.
    func applySSLEnv(_ r: RequestRecord, _ chain: RequestChain) {
        if chain.request.tls { r.setEnvValue("HTTPS", "on") }
    }

    /// mod_ssl's access checker sets r->user from `SSLUserName` over TLS; a variable that is
    /// empty there (a client certificate's field when none was sent) is logged (AH02227). It
    /// runs with the access checks, so not again in a look-up or internal redirect that keeps
    /// the configuration (recorded: https-sslusername-empty-variable-warns).
    func applySSLUserName(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) {
        guard chain.request.tls, let name = config.sslUserName, sslVariable(name, r, chain).isEmpty else { return }
        chain.log("AH02227", "warn", "Failed to set r->user to '\(name)'")
    }

    /// Runs post_read_request work with `r.uri` as that phase has it: the path as received,
    /// not yet normalised or decoded (`SetEnvIf Request_URI "^/dir"` matches `/dir/../page.html`
    /// but not `/%64ir/`; recorded: env-setenvif-request-uri-raw).
    /// post_read_request (which internal_internal_redirect runs again): mod_headers' `early`
    /// lines (HOOK_FIRST) before mod_setenvif, which runs for main requests only (a subrequest
    /// has its parent's environment already).
    func postReadRequest(_ r: RequestRecord, _ chain: RequestChain) {
        if !r.isSubrequest { chain.postReadRecords.append(r.postReadSnapshot()) }
        withReceivedURI(r) {
            let requestHeaders = site.vhost.block.requestHeaders
            // (A subrequest runs no post_read_request: ap_sub_req_lookup_* go to the later hooks.)
            if !requestHeaders.isEmpty, !r.isSubrequest { applyRequestHeaders(requestHeaders.filter(\.early), r, chain) }
            if !r.isSubrequest { applySetEnvIf(site.vhost.block.setEnvIf, r, chain) }
        }
    }

    private func withReceivedURI(_ r: RequestRecord, _ body: () -> Void) {
        guard let received = r.receivedURI, received != r.uri else { return body() }
        let uri = r.uri
        r.uri = received
        body()
        r.uri = uri
    }

    /// `SetEnvIf` / `BrowserMatch` / `SetEnvIfExpr` (apache-semantics §12), in configuration order.
    func applySetEnvIf(_ list: [SetEnvIfDirective], _ r: RequestRecord, _ chain: RequestChain) {
        // match_headers keeps one regmatch array and match source for the whole list: an
        // expression without a regex of its own substitutes the groups an earlier one left.
        guard !list.isEmpty else { return }
        var carried = Array(repeating: "", count: 10)
        let offsets = MatchOffsets()
        for d in list {
            // match_headers turns a NULL source (a failed regex with groups) into "" before each
            // entry: only the entry whose expression failed that regex sets `$1` as written. The
            // regmatch array keeps the last successful match's offsets, so ap_pregsub copies a
            // group that matched from "": from offset 0 that is the terminating NUL, which ends
            // the value there (`v$1w` is `v`; recorded: env-setenvifexpr-stale-group-ends-value).
            // (A group further in reads past "", memory we cannot know; it is cut there too.)
            if carried.isEmpty {
                carried = (0...9).map { n in
                    guard n < offsets.ranges.count, let g = offsets.ranges[n], !g.isEmpty else { return "" }
                    return "\u{0}"
                }
            }
            guard let groups = setEnvIfMatch(d, r, chain, carried: &carried, offsets: offsets) else { continue }
            for a in d.assignments {
                if a.unset { r.setEnvValue(a.name, nil); continue }
                var v = a.value
                // ap_pregsub: `$0`–`$9` from the match, a backslash makes the next byte literal
                // (`\$1` is `$1`), in one pass over the value.
                if !groups.isEmpty, v.containsByte(UInt8(ascii: "$")) || v.containsByte(UInt8(ascii: "\\")) {
                    v = Origin.substituteGroups(v) { $0 < groups.count ? groups[$0] : "" }
                    if let nul = v.firstIndex(of: "\u{0}") { v = String(v[..<nul]) }
                }
                r.setEnvValue(a.name, v)
            }
        }
    }

    /// The groups ($0…$9) when the directive's condition holds, nil when it does not. Empty
    /// for a `SetEnvIfExpr` whose last regex with groups failed: its match source is then
    /// NULL and the values are set as written (`$1` stays `$1`).
    private func setEnvIfMatch(_ d: SetEnvIfDirective, _ r: RequestRecord, _ chain: RequestChain,
                               carried: inout [String], offsets: MatchOffsets) -> [String]? {
        if let e = d.expression {
            var env = ExpressionContext(origin: self, record: r, chain: chain)
            env.addsVary = true
            env.matchSink = offsets
            let holds = e.evaluate(env, captures: &carried)
            return holds ? carried : nil
        }
        let value: String
        switch d.attribute.asciiLowercased() {
        case "request_uri": value = r.uri
        case "request_method": value = r.method
        case "request_protocol": value = "HTTP/1.1"
        case "remote_addr": value = chain.request.remoteAddress
        case "remote_host": value = chain.remoteHostName
        case "server_addr": value = chain.request.serverAddress
        default:
            if let names = d.headerNames {
                // mod_setenvif's loop keeps the value of the last header whose name matches.
                value = chain.request.headers.last { names.matches($0.name) }?.value ?? ""
            } else {
                // Any other name (`Query_String` too: mod_setenvif has no such attribute) is a request
                // header, else a variable set earlier; both tables ignore case. Neither present reads
                // as the empty string, so `^$` matches a missing header.
                value = chain.request.header(d.attribute) ?? r.envValue(d.attribute) ?? ""
            }
        }
        guard let m = d.regex.firstMatch(in: value) else { return nil }
        // A plain-string pattern is searched with apr_strmatch: no groups, values as written.
        if d.plainString { return [] }
        carried = (0...9).map { m[$0] }
        offsets.ranges = m.ranges
        return carried
    }


    /// translate_name: server-context rewrite, then server `Redirect`, `Alias`, DocumentRoot
    /// (apache-semantics §4.5, §8.5). Sets `r.filename`; returns a result when the response is decided.
    func translateName(_ r: RequestRecord, _ chain: RequestChain) -> PassResult? {
        // Only the rewrite part of the virtual host is read here (binding the whole block would
        // copy it on every pass).
        let vhostRewrite = site.vhost.block.rewrite
        // What `%f` logs if a server `Redirect` answers: mod_rewrite's hook leaves the URI in
        // r->filename when its rules decline; without server rules it stays unset.
        var declinedFilename: String? = nil
        // hook_uri2file runs whenever the engine is on, rules or none: SCRIPT_URL/SCRIPT_URI, and
        // without rules r->filename is left as for rules that decline (`%f` of a server `Redirect`).
        // The location and if walks run first; hook_uri2file checks their merged engine, not the
        // server's: a `<Location>` turns the virtual host's rules off or on under it
        // (fixtures/apache/section-location-rewriteengine-off-server-rules, -on-server-rules).
        let preTranslate = preTranslateConfig(r, chain)
        r.preTranslate = preTranslate
        r.preTranslateWalked = true
        let engineOn = preTranslate?.rewrite?.engine ?? vhostRewrite?.engine ?? false
        let serverRewrite = vhostRewrite.flatMap {
            engineOn && $0.serverHookRuns && !chain.endSeen && r.uri.hasBytePrefix("/") ? $0 : nil
        }
        // A subrequest (mod_dir's index look-up, -U) takes its main request's values instead,
        // which its environment already holds: SCRIPT_URL stays the URL the client asked for.
        // SCRIPT_URI is built afresh there, with the subrequest's own port (the scheme's default,
        // not the Host header's: recorded rewrite-script-uri-index-subrequest-port).
        // A main request whose own URL had the engine off has none: the subrequest's SCRIPT_URL
        // is then unset, and apr_pstrcat stops SCRIPT_URI at that NULL, after the host (recorded:
        // rewrite-script-url-subrequest-without-main-value).
        if serverRewrite != nil {
            if !r.isSubrequest { r.env["SCRIPT_URL"] = r.env["REDIRECT_SCRIPT_URL"] ?? r.uri }
            r.env["SCRIPT_URI"] = r.env["SCRIPT_URL"].map { fullyQualify($0, chain, r, subrequest: r.isSubrequest) }
                ?? String(fullyQualify("/", chain, r, subrequest: r.isSubrequest).dropLast())
        }
        if let rw = serverRewrite, rw.rules.isEmpty {
            declinedFilename = r.uri
        } else if serverRewrite != nil {
            let q0 = r.query
            r.filename = r.uri
            let result = runRuleSet(graph.server, r, chain, directory: nil, base: nil)
            if let s = result.status {
                // The query an earlier rule wrote is checked before the status is answered.
                if let bad = badQuery(r, chain, external: r.filename.flatMap(absoluteURLScheme) != nil, code: "AH10410") { return bad }
                return ruleSetAnswer(r, result, status: s)
            }
            // [T=]/[H=] are notes on the request that hook_mimetype applies in the last fixup,
            // after mod_dir's index look-up (recorded: rewrite-flags-server-type-and-handler).
            if let t = result.type { r.forcedType = t }
            if let h = result.handler { r.rewriteHandler = h }
            if result.changed, let f = r.filename {
                // `passthrough:http://…` is no absolute URL: its query is checked as well
                // (recorded: rewrite-flags-pt-absolute-url-query-space).
                let escapedLater = absoluteURLScheme(f) != nil && !result.passThrough && !result.noEscape
                if let bad = badQuery(r, chain, external: escapedLater, code: "AH10410") {
                    // The rule had already written [PT]'s `passthrough:` prefix (%f logs it).
                    if result.passThrough { r.filename = "passthrough:" + f }
                    return bad
                }
                // [P] with [PT] writes `passthrough:proxy:…`: not the proxy's filename, and the
                // `proxy:…` left is no URL-path, which core refuses like an absolute URL below
                // (recorded: rewrite-flags-proxy-with-passthrough).
                let proxied = f.hasBytePrefix("proxy:")
                if proxied, !result.passThrough {
                    chain.log("AH00669", "error", "attempt to make remote request from mod_rewrite without proxy enabled: \(f)")
                    return .final(status: 403, location: nil)
                }
                if result.passThrough, proxied || absoluteURLScheme(f) != nil {
                    // [PT] prefixes `passthrough:` before hook_uri2file looks for an absolute URL:
                    // the URL (not reduced to this host) becomes r->uri, which core refuses.
                    r.uri = f
                    r.filename = "passthrough:" + f
                    chain.log("AH00126", "error", "Invalid URI in request '\(f)' '\(chain.theRequest)'")
                    chain.note(.status, "400: [PT] passes the absolute URL \(f) on as the URL-path", range: result.lastRule?.range)
                    return .final(status: 400, location: nil)
                }
                if absoluteURLScheme(f) != nil {
                    let location = redirectLocation(f, query: r.query, originalQuery: q0, noEscape: result.noEscape)
                    chain.note(.externalRedirect, "server rules redirect to \(location)", range: result.lastRule?.range)
                    r.filename = location
                    return rewriteAnswer(r, status: result.redirectStatus ?? 302, location: location)
                }
                if result.passThrough {
                    // hook_uri2file declines with `passthrough:` still in r->filename: a server
                    // `Redirect` matching the new URI answers with that as `%f`.
                    r.uri = f
                    r.filename = nil
                    declinedFilename = "passthrough:" + f
                } else {
                    guard f.hasBytePrefix("/") else { return .final(status: 400, location: nil) }
                    if isFilesystemPath(f, rule: result.lastRule) {
                        r.filename = f
                        return nil
                    }
                    return coreTranslate(f, r, chain, failedFilename: f)
                }
            } else {
                r.filename = nil
                declinedFilename = r.uri
            }
        }
        // mod_alias tries a one-argument `Redirect` from `<Location>`/`<If>` (merged by the
        // location and if walks that run before translate_name) ahead of the server's list.
        if let decided = locationRedirect(r, preTranslate, chain) ?? serverRedirect(r, preTranslate, chain) {
            r.filename = declinedFilename
            return decided
        }
        // try_alias: a `<Location>`'s one-argument Alias comes before the server's list.
        if let alias = preTranslate?.locationAlias {
            var found = alias.target.evaluate(ExpressionContext(origin: self, record: r, chain: chain), [])
                .replacingOccurrences(of: "${DOCROOT}", with: site.mountedRoot)
            // AliasPreservePath keeps what follows the `<Location>` path (not for <LocationMatch>).
            if preTranslate?.aliasPreservePath == true, let path = alias.locationPath, r.uri.hasBytePrefix(path) {
                // Only then is the context set: the `<Location>` path and the target as evaluated.
                r.contextPrefix = path
                r.contextDocumentRoot = found
                found += dropLeadingBytes(r.uri, path.utf8.count)
            }
            // ap_server_root_relative: a relative target is under the ServerRoot.
            r.filename = found.hasBytePrefix("/") ? found : "/etc/apache2/" + found
            if let h = alias.handler { r.handler = h; r.scriptAliased = true }
            chain.note(.alias, "\(alias.handler == nil ? "Alias" : "ScriptAlias") in <Location> → \(r.filename!)")
            return nil
        }
        for alias in site.vhost.block.server?.aliases ?? [] {
            if let regex = alias.regex {
                guard let m = regex.firstMatch(in: r.uri) else { continue }
                // AliasMatch sets no context (CONTEXT_DOCUMENT_ROOT stays the document root).
                let written = alias.path.replacingOccurrences(of: "${DOCROOT}", with: site.mountedRoot)
                let found = Origin.substituteGroups(written, m)
                // ap_pregsub refuses a result of 65,536 bytes or more, before the path is checked;
                // translate_alias_redir tests for its error marker after redirects only, so an
                // AliasMatch maps the request to the marker's empty string, which directory_walk
                // merges onto the server's working directory, `/`: the server's `<Directory />`
                // denies it (recorded: alias-aliasmatch-replacement-too-long).
                guard found.rawByteCount < 65536 else {
                    chain.log("AH00672", "error", "Regex substitution in '\(written)' failed. Replacement too long?")
                    chain.note(.alias, "AliasMatch's substitution is 65,536 bytes or longer: the filename is empty, read as /")
                    r.filename = "/"
                    return nil
                }
                guard !Origin.aliasTargetTooLong(found) else { continue }
                r.filename = found
                if let h = alias.handler { r.handler = h; r.scriptAliased = true }
                chain.note(.alias, "\(alias.handler == nil ? "AliasMatch" : "ScriptAliasMatch") \(alias.url) → \(r.filename!)")
                return nil
            }
            if let rest = prefixMatch(alias.url, r.uri) {
                // The target is used as written: `Alias /assets/ /srv/ext/` maps /assets/a.css to /srv/ext/a.css.
                let written = alias.path.replacingOccurrences(of: "${DOCROOT}", with: site.mountedRoot)
                guard !Origin.aliasTargetTooLong(written + rest) else { continue }
                r.filename = written + rest
                r.contextPrefix = alias.url
                // …and so is the context: CONTEXT_DOCUMENT_ROOT keeps its slashes and dots
                // (recorded: alias-context-document-root-as-written).
                r.contextDocumentRoot = written
                // ScriptAlias forces the cgi-script handler; without mod_cgi the file is served as is.
                if let h = alias.handler { r.handler = h; r.scriptAliased = true }
                chain.note(.alias, "\(alias.handler == nil ? "Alias" : "ScriptAlias") \(alias.url) → \(written)")
                return nil
            }
        }
        return coreTranslate(r.uri, r, chain, failedFilename: declinedFilename)
    }

    /// mod_allowmethods hooks the access checker without AP_AUTH_INTERNAL_PER_CONF, which turns
    /// auth_internal_per_conf off: a directory walk its cache does not find familiar, or a
    /// location or file walk that merges a section for another URI or file name than the one it
    /// cached, then always merges a configuration of its own, and authz runs again (recorded:
    /// access-allowmethods-errordocument-other-directory-rechecked,
    /// access-allowmethods-errordocument-section-rechecked). Updates the walks' caches.
    func allowMethodsWalksAfresh(_ r: RequestRecord, _ walk: WalkResult, familiar: Bool) -> Bool {
        let keys = walk.config.objectKeys
        let base = String(lastPathComponent(walk.filename))
        // strcmp of the URI and the name (recorded: access-allowmethods-errordocument-other-normal-form-rechecked).
        let fresh = !familiar || (keys.contains { $0.hasBytePrefix("loc#") } && !sameBytes(r.locationWalkURI, r.uri))
            || (keys.contains { $0.hasBytePrefix("files:") || $0.hasBytePrefix("server-files:") } && !sameBytes(r.fileWalkName, base))
        if !(site.vhost.block.server?.locations.isEmpty ?? true) { r.locationWalkURI = r.uri }
        r.fileWalkName = base
        return fresh
    }

    /// try_alias_list passes the mapped path through ap_server_root_relative, whose
    /// apr_filepath_merge counts the ServerRoot (`/etc/apache2`, 12 bytes) even for an absolute
    /// path, plus 4 bytes of slashes and NUL, against APR_PATH_MAX (4096): over it the Alias does
    /// not apply, and core's translate maps the URI itself (AH00127 if that is too long as well;
    /// recorded: alias-target-longer-than-path-max, alias-target-length-counts-server-root).
    static func aliasTargetTooLong(_ found: String) -> Bool { 12 + found.utf8.count + 4 > 4096 && 12 + found.rawByteCount + 4 > 4096 }

    /// ap_core_translate: `path` (the URI, or a server rule's result that is no filesystem path)
    /// less its leading slashes, merged onto the document root by apr_filepath_merge with
    /// APR_FILEPATH_SECUREROOT. Sets `r.filename`; returns the 403 (AH00127) it can answer, with
    /// `r.filename` left as mod_rewrite had it (`failedFilename`, `passthrough:…` after [PT]).
    func coreTranslate(_ path: String, _ r: RequestRecord, _ chain: RequestChain, failedFilename: String?) -> PassResult? {
        // apr_filepath_merge refuses more than APR_PATH_MAX (4096) bytes of document root,
        // URI (less its leading slashes) and 4 bytes of slashes and NUL (AH00127).
        if site.documentRoot.utf8.count + path.utf8.count + 4 > 4096 {
            let leading = path.utf8.prefix { $0 == UInt8(ascii: "/") }.count
            if site.documentRoot.rawByteCount + path.rawByteCount - leading + 4 > 4096 {
                chain.log("AH00127", "error", "Cannot map \(chain.theRequest) to file")
                chain.note(.status, "403: the path is longer than APR_PATH_MAX (AH00127)")
                if let failedFilename { r.filename = failedFilename }
                return .final(status: 403, location: nil)
            }
        }
        // A `.`/`..` segment needs "/." or a leading "." (byte work: this runs every pass).
        let rest = dropLeadingBytes(path, path.utf8.prefix { $0 == UInt8(ascii: "/") }.count)
        guard rest.containsBytes("//") || ((rest.containsBytes("/.") || rest.utf8.first == UInt8(ascii: "."))
            && slashSplit(rest).contains(where: { $0 == "." || $0 == ".." })) else {
            r.filename = site.documentRoot + path
            return nil
        }
        // A server rule's result is not normalised like a request's URI: the merge drops `.` and
        // empty segments and lets `..` take back the segment before it, lexically; climbing
        // above the document root fails the merge (recorded: rewrite-server-dot-segments,
        // `x/../y.html` serves /y.html, `../y.html` is 403 AH00127 with r->filename unchanged).
        var kept: [Substring] = []
        var trailingSlash = false
        let segments = slashSplit(rest)
        for (i, segment) in segments.enumerated() {
            let last = i == segments.count - 1
            if segment.isEmpty || segment == "." {
                if last { trailingSlash = !kept.isEmpty }
                continue
            }
            if segment == ".." {
                guard !kept.isEmpty else {
                    chain.log("AH00127", "error", "Cannot map \(chain.theRequest) to file")
                    chain.note(.status, "403: \(path) climbs above the document root (AH00127)")
                    if let failedFilename { r.filename = failedFilename }
                    return .final(status: 403, location: nil)
                }
                kept.removeLast()
                if last { trailingSlash = true }
                continue
            }
            kept.append(segment)
            trailingSlash = false
        }
        r.filename = site.documentRoot + "/" + kept.joined(separator: "/") + (trailingSlash && !kept.isEmpty ? "/" : "")
        return nil
    }

    /// What `<DirectoryMatch>` patterns are matched against: the walked filename, unless
    /// directory_walk finds its cache "familiar" (an existing file in, or the very directory,
    /// that the previous or main request's walk cached) and reuses that walk's result, running
    /// no regex (`walked` false: no `MATCH_` variables are set). The cache holds a walked
    /// directory's filename as it was (`/d`, no slash added) but is looked up with a slash
    /// appended, so a walk of `/d` is never familiar: its ErrorDocument page `/d/e.html` is
    /// walked again and checked again (recorded: errordoc-directory-without-slash-walked-again).
    /// `remember: false` for a look-up of `r` (a MultiViews variant's), which reads `r`'s cache
    /// and keeps its own.
    func directoryMatchSubject(_ r: RequestRecord, _ walk: WalkResult, remember: Bool = true) -> (subject: String, walked: Bool) {
        let f = walk.filename
        // (A server-context rewrite can walk outside the site: `/` is a directory there too.)
        let isDirectory = self.isDirectory(f)
        let directory: String
        if isDirectory {
            directory = f.hasByteSuffix("/") ? f : f + "/"
        } else {
            // Bytes, not Characters: a grapheme search cost a twentieth of a request.
            directory = f.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesThrough(f, $0)) } ?? f
        }
        // strcmp (recorded: section-directorymatch-walk-new-for-other-normal-form).
        if let cache = r.walkCache, sameBytes(cache.directory, directory),
           isDirectory ? walk.pathInfo.isEmpty : site.files.isFile(f) || [.file, .executable].contains(Site.systemNode(f)) {
            return (cache.filename, false)
        }
        if remember { r.walkCache = (isDirectory ? f : directory, f) }
        return (f, true)
    }

    /// The name mod_mime types: with `ModMimeUsePathInfo On` the path info is part of it
    /// (`/p.php/x.html` is text/html, `/d.txt/noext` has no type).
    func mimeName(_ filename: String, _ r: RequestRecord, _ mime: MimeConfig?) -> String {
        mime?.usePathInfo == true && !r.pathInfo.isEmpty ? filename + r.pathInfo : filename
    }

    /// The server configuration's `<FilesMatch "^\.ht">` body.
    static let serverHtFiles: ConfigBlock = {
        var block = ConfigBlock()
        block.access = [.require(negated: false, kind: "all", values: ["denied"], methods: nil)]
        return block
    }()

    /// The first symbolic link on `filename`'s path under the document root whose parent
    /// directory's merged options allow neither FollowSymLinks nor SymLinksIfOwnerMatch.
    func refusedSymlink(_ filename: String) -> String? {
        let root = site.mountedRoot
        guard filename.hasBytePrefix(root + "/") else { return nil }
        var parent = root
        for seg in pathSegments(dropLeadingBytes(filename, root.utf8.count)) {
            let p = parent + "/" + seg
            guard let node = site.files.lstat(p) else { return nil }
            if case .symlink = node {
                if !mergedConfiguration(deepest: parent).config.linksAllowed { return p }
            }
            parent = p
        }
        return nil
    }

    /// Whether a server-context result is a filesystem path rather than a URL-path (§4.5 step 6):
    /// its first segment exists on disk and the rule's literal text starts with it, or it is
    /// under the document root.
    func isFilesystemPath(_ f: String, rule: RewriteRule?) -> Bool {
        for root in [site.documentRoot, site.mountedRoot] where f == root || f.hasBytePrefix(root + "/") { return true }
        // prefix_stat("/") stats the filesystem root itself, which always exists; since 2.4.60 only
        // for a substitution that writes the slash itself. `$1/`, or an empty result that got its
        // slash from mod_rewrite, is the document root (recorded: rewrite-server-empty-result).
        if f == "/" {
            guard let rule, !rule.flags.unsafePrefixStat else { return true }
            return rule.rawSubstitution.hasBytePrefix("/")
        }
        guard let segment = slashSplit(f, omittingEmpty: true).first.map({ "/" + $0 }) else { return false }
        // `/.` and `/..` are the filesystem root itself (rewrite-server-dot-segments-merged-slashes),
        // and are checked as `/` is: the substitution need only write its leading slash, whatever
        // expanded into the segment (`/$1/` giving `/../about/`, `/%{ENV:X}./a.html`; recorded:
        // rewrite-server-dot-segment-from-expansion).
        if segment == "/." || segment == "/.." {
            guard let rule, !rule.flags.unsafePrefixStat else { return true }
            return rule.rawSubstitution.hasBytePrefix("/")
        }
        let exists = site.files.stat(segment) != nil || Site.systemDirectories.contains(segment)
        guard exists else { return false }
        if rule?.flags.unsafePrefixStat == true { return true }
        let literal = rule?.rawSubstitution ?? ""
        return literal == segment || literal.hasBytePrefix(segment + "/")
    }

    /// The one-argument `Redirect` of a matching `<Location>` or vhost `<If>` (translate_name).
    private func locationRedirect(_ r: RequestRecord, _ config: MergedConfig?, _ chain: RequestChain) -> PassResult? {
        guard let config, let expression = config.redirectExpression else { return nil }
        return aliasRedirect(r, [], expression: expression, relative: config.redirectRelative, chain, serverContext: true)
    }

    /// Server-level `Redirect`/`RedirectMatch` (translate_name).
    private func serverRedirect(_ r: RequestRecord, _ preTranslate: MergedConfig?, _ chain: RequestChain) -> PassResult? {
        // translate_name reads RedirectRelative from the per-directory configuration of that
        // moment: the vhost defaults with <Location>/<If> merged, never a <Directory> or .htaccess.
        let redirects = site.vhost.block.redirects
        let relative = redirects.isEmpty ? false
            : preTranslate?.redirectRelative ?? site.vhost.block.redirectRelative ?? false
        return aliasRedirect(r, redirects, expression: nil, relative: relative, chain, serverContext: true)
    }

    /// 403 for a rewritten query with spaces or control characters that will not be escaped (§4.9).
    func badQuery(_ r: RequestRecord, _ chain: RequestChain, external: Bool, code: String) -> PassResult? {
        guard !external, let q = r.query, q.containsByte(where: { $0 <= 0x20 || $0 == 0x7F }) else { return nil }
        chain.log(code, "error", "Rewritten query string contains control characters or spaces")
        chain.note(.status, "403: rewritten query string contains spaces or control characters")
        return .final(status: 403, location: nil)
    }

    /// Builds the `Location` of a rewrite redirect: path escaped unless `[NE]`, query appended
    /// verbatim when unchanged in this pass (apache-semantics §6.6).
    func redirectLocation(_ url: String, query: String?, originalQuery: String?, noEscape: Bool) -> String {
        let (prefix, path) = splitAbsoluteURL(url)
        var location = prefix + (noEscape ? path : escapePath(path))
        if absoluteURLScheme(url) == nil { location = noEscape ? url : escapePath(url) }
        if let q = query {
            location += "?" + (noEscape || q == originalQuery ? q : escapePath(q))
        }
        return location
    }

    /// What makes two passes share one merged configuration: the objects merged (the server's
    /// `<Files ~ "^\.ht">` section among them for a `.ht*` name, merged by applySections).
    func configurationIdentity(_ walk: WalkResult) -> [String] { walk.config.objectKeys }

    /// Access control: `.ht*` files, `Require`, `Order/Allow/Deny` (simplified; apache-semantics §1.1 row 8).
    func checkAccess(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> Int? {
        if let refused = allowMethodsRefuses(r, config, chain) { return refused }
        let base = r.filename.map(lastPathComponent) ?? ""
        func deny(_ why: String, code: String = "AH01630") -> Int {
            chain.log(code, "error", "client denied by server configuration: \(r.filename ?? "")")
            chain.note(.status, "403: \(why)")
            return 403
        }
        if base.hasBytePrefix(".ht"), !config.access.contains(where: \.isAuthorization) {
            return deny("files named .ht* are denied")
        }
        if let f = r.filename, f.hasBytePrefix("/"), !(f == site.mountedRoot || f.hasBytePrefix(site.mountedRoot + "/")),
           !config.access.contains(where: \.isAuthorization) {
            // Outside the document root the server's `<Directory />` (Require all denied) holds
            // unless a `<Directory>`, `<Location>` or `<If>` covering the file has its own `Require`.
            return deny("outside the document root, and no section grants access")
        }
        var order = "deny,allow", allows: [String] = [], denies: [String] = []
        var compat = false, satisfyAny = false
        for a in config.access {
            switch a {
            case .order(let o, let methods):
                // A method outside the line's `<Limit>` keeps the default (recorded: access-compat-order-per-method).
                if methods?.contains(Origin.limitName(r.method)) ?? true { order = o }
                compat = true
            case .allow(let from, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                allows += from; compat = true
            case .deny(let from, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                denies += from; compat = true
            case .satisfy(let any, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                satisfyAny = any; compat = true
            case .require, .requireExpr, .requireSection: continue
            }
        }
        // mod_ssl's access checker runs first (recorded: access-sslrequiressl-before-host-lines):
        // `SSLRequireSSL` refuses a request that did not arrive over TLS (behind a TLS-terminating
        // edge, every one), and the refusal ends the phase before mod_access_compat looks. Under
        // `Satisfy Any` `Require` then decides (`SSLOptions StrictRequire` acts only where a user
        // is authenticated, which the simulated browser never is).
        let sslRefuses = config.sslRequired && !chain.request.tls
        if sslRefuses {
            chain.log("AH02219", "error", "access to \(r.filename ?? "") failed, reason: SSL connection required")
            guard satisfyAny else {
                chain.note(.status, "403: SSLRequireSSL, and the request did not arrive over TLS")
                return 403
            }
        }
        // mod_access_compat checks in the access_checker phase, before mod_authz_core's
        // `Require` (access_checker_ex) and before any authentication is asked for.
        if compat, !sslRefuses {
            let addr = chain.request.remoteAddress
            // `env=NAME` / `env=!NAME` test the environment (SetEnvIf ran in header_parser).
            func matches(_ from: String) -> Bool {
                if from.asciiLowercased() == "all" { return true }
                if from.asciiLowercased().hasBytePrefix("env=") {
                    var name = dropLeadingBytes(from, 4)
                    let negated = name.hasBytePrefix("!")
                    if negated { name = dropLeadingBytes(name, 1) }
                    return (r.envValue(name) != nil) != negated
                }
                // A word that is no address names a host (allow_cmd's T_HOST).
                if !from.utf8.contains(UInt8(ascii: "/")), !ConfigReader.looksLikeIP(from) {
                    chain.remoteHostLookedUp = true
                    return inDomain(from, clientHostName)
                }
                return ipMatches(from, addr)
            }
            let allowed = allows.contains(where: matches)
            let denied = denies.contains(where: matches)
            // Only deny,allow lets in a request no line names; mutual-failure is allow,deny's test.
            let ok = order == "deny,allow" ? (!denied || allowed) : (allowed && !denied)
            // `Satisfy Any`: the host-based lines letting a request in are enough (no `Require`,
            // no credentials); refusing it leaves the decision to `Require` (request.c).
            if ok, satisfyAny {
                chain.note(.note, "`Satisfy Any`: Order/Allow/Deny let the request in; `Require` is not consulted")
                return nil
            }
            if !ok {
                guard satisfyAny else { return deny("Order/Allow/Deny", code: "AH01797") }
                chain.log("AH01797", "error", "client denied by server configuration: \(r.filename ?? "")")
            }
        }
        switch authorize(config.access.filter(\.isAuthorization), r, chain) {
        case .denied?: return deny("Require")
        case .deniedNoUser?: return authenticationRequired(r, config, chain)
        default: break
        }
        return nil
    }

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
}

extension Origin {
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

    /// What the core's default handler sends with `Allow` (405, 501 and OPTIONS answers):
    /// make_allow adds TRACE unless `TraceEnable Off`. (Apache lists the other methods in its
    /// method registry's hash order, which changes from one server start to the next.)
    var defaultHandlerAllow: String { site.traceEnabled ? "GET,POST,OPTIONS,HEAD,TRACE" : "GET,POST,OPTIONS,HEAD" }

    /// What a `<Limit>` method set holds for a request method: its own name when httpd knows it,
    /// else the one method number every unknown method shares (M_INVALID), which only
    /// `<LimitExcept>` covers.
    static func limitName(_ method: String) -> String {
        registeredMethods.contains(method) ? method : unknownMethod
    }
    static let unknownMethod = "*M_INVALID*"

    /// Methods httpd knows (`ap_method_number_of`); any other is `M_INVALID`.
    static let registeredMethods: Set<String> = [
        "GET", "HEAD", "PUT", "POST", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "PROPFIND", "PROPPATCH",
        "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "VERSION-CONTROL", "CHECKOUT", "UNCHECKOUT", "CHECKIN", "UPDATE",
        "LABEL", "REPORT", "MKWORKSPACE", "MKACTIVITY", "BASELINE-CONTROL", "MERGE",
    ]

    /// ap_send_http_trace: with `TraceEnable On` (the default) the request goes back as a
    /// message/http body, sent before any output filter of mod_headers is added; with `Off` a 405
    /// whose `Allow` is empty (no handler registered a method yet, and TRACE is left out).
    private func answerTrace(_ r: RequestRecord, _ chain: RequestChain) -> PassResult {
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
}

/// Segment-aware prefix match used by `Redirect` and `Alias` (apache-semantics §8.3): each `/`
/// in the configured path matches one or more `/`; the match ends at a segment boundary.
/// Returns the unmatched rest of the URI.
public func prefixMatch(_ configured: String, _ uri: String) -> String? {
    var configured = configured, uri = uri
    let rest: Int? = configured.withUTF8 { c in uri.withUTF8 { u in prefixMatchLength(c, u) } }
    guard let rest else { return nil }
    return rest == uri.utf8.count ? "" : String(decoding: uri.utf8.dropFirst(rest), as: UTF8.self)
}

/// The number of URI bytes `prefixMatch` consumes, or nil. Runs of `/` on either side match
/// each other as long as both have at least one (mod_alias's alias_matches). An empty
/// configured path consumes nothing, and mod_alias applies only a match of at least one byte:
/// `Redirect 301 "" /b.html` never applies (recorded: alias-empty-path-never-matches).
private func prefixMatchLength(_ c: UnsafeBufferPointer<UInt8>, _ u: UnsafeBufferPointer<UInt8>) -> Int? {
    let slash = UInt8(ascii: "/")
    guard !c.isEmpty else { return nil }
    var i = 0, j = 0
    while i < c.count {
        if c[i] == slash {
            guard j < u.count, u[j] == slash else { return nil }
            while i < c.count, c[i] == slash { i += 1 }
            while j < u.count, u[j] == slash { j += 1 }
            continue
        }
        guard j < u.count, u[j] == c[i] else { return nil }
        i += 1; j += 1
    }
    // A configured path ending in `/` consumed the slashes already.
    if c.last == slash || j == u.count || u[j] == slash { return j }
    return nil
}

extension Origin {
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

    enum ModuleHandler { case cgi, status, info }

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
