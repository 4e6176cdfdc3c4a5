extension Origin {
    /// mod_dir in the fixups phase (apache-semantics §9): the trailing-slash redirect,
    /// DirectoryIndex and FallbackResource.
    func modDir(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> PassResult? {
        guard let f = r.filename, f.hasBytePrefix("/") || f.hasBytePrefix("redirect:") else { return nil }
        let mapped = r.stagedRedirect != nil ? stagedFilename(r) : f
        let isDirectory = self.isDirectory(mapped, for: r)
        if isDirectory {
            guard r.pathInfo.isEmpty else { return nil }
            if !r.uri.hasByteSuffix("/") {
                guard config.directorySlash else {
                    // mod_autoindex will list it and first appends the slash to the filename.
                    if autoindexLists(r, config), r.stagedRedirect == nil { r.filename = f + "/" }
                    return nil
                }
                let location = fullyQualify(escapePath(r.uri) + "/", chain, r, subrequest: r.isSubrequest) + (r.query.map { "?" + $0 } ?? "")
                // After a rewrite the trace says "internal redirect follows": say why it does not.
                let staged = r.stagedRedirect.map { "; mod_dir answers first (\(r.uri) is a directory), so the internal redirect to \($0) never runs" } ?? ""
                chain.note(.directorySlash, "DirectorySlash: 301 to \(location)\(staged)")
                return .final(status: 301, location: location)
            }
            // fixup_dir steps aside for mod_rewrite's redirect handler: a staged internal
            // redirect, or `SetHandler redirect-handler` with none, which then declines, and the
            // default handler answers the directory 404 (recorded:
            // dirindex-sethandler-redirect-handler-skips-index). ("Prevent DIR_MAGIC_TYPE from
            // leaking out when someone has taken over.")
            if r.stagedRedirect != nil || r.handler == "redirect-handler" { r.directoryTypeCleared = true; return nil }
            // DirectoryCheckHandler On: a directory given another handler (`SetHandler`) gets no
            // index look-up; the slash redirect above still comes first (recorded:
            // dirindex-check-handler-skips-index).
            if config.directoryCheckHandler, let h = r.handler, h != "httpd/unix-directory" {
                chain.note(.directoryIndex, "DirectoryCheckHandler On: the handler \(h) keeps mod_dir from the index")
                r.directoryTypeCleared = true
                return nil
            }
            // A candidate answering other than 200/404 (a 403 from `<Files>`…) is remembered and
            // returned when no candidate is served, rather than a listing or a 404 (mod_dir).
            var failed: Int? = nil
            for (position, name) in config.directoryIndex.enumerated() {
                // ap_sub_req_lookup_uri re-escapes r->uri's directory before the name is joined
                // and the whole URL decoded again: `/a%2520b/` looks up `/a%20b/index.html`.
                let url = (name.hasBytePrefix("/") ? name : escapePath(r.uri) + name) + (r.query.map { "?" + $0 } ?? "")
                guard let (sub, result) = subrequest(url, chain, parent: r) else {
                    // Past the nesting limit the look-up comes back with status 500: a failed
                    // candidate like any other, so the next one is tried (and logs AH00125 too).
                    failed = 500
                    continue
                }
                if let s = carriedRedirect(sub, result) { return .final(status: s, location: nil) }
                switch result {
                case .final(let status, let location) where (300...399).contains(status):
                    // fixup_dir propagates any 3xx of the look-up, with its Location or without
                    // one (a FallbackResource that carried a rule's 302 in the index's look-up;
                    // recorded: dirindex-fallback-carried-redirect-without-location).
                    takeErrorTable(of: sub, into: r)
                    return .final(status: status, location: location)
                case .final(let status, _) where (status == 406 || status == 401) && position == config.directoryIndex.count - 1:
                    // The last candidate's 406 (or 401; fixup_dir's num_names == 1) is the answer at
                    // once, with its error table (a negotiated `DirectoryIndex index` refusing every
                    // variant keeps its Vary; recorded: dirindex-last-candidate-406-keeps-vary).
                    takeErrorTable(of: sub, into: r)
                    chain.note(.status, "\(status): the last DirectoryIndex candidate answered \(status)")
                    return .final(status: status, location: nil)
                case .serve, .internalRedirect:
                    guard let subFile = sub.filename, site.files.isFile(stagedFilename(sub, fallback: subFile)) else { continue }
                    if config.directoryIndexRedirect != 0 {
                        // DirectoryIndexRedirect: the client is sent to the index's URL-path as it
                        // stands (ap_construct_url, unescaped, without the query).
                        let location = fullyQualify(sub.uri, chain, r)
                        chain.note(.directoryIndex, "DirectoryIndexRedirect: \(config.directoryIndexRedirect) to \(location)")
                        return .final(status: config.directoryIndexRedirect, location: location)
                    }
                    chain.note(.directoryIndex, "DirectoryIndex: \(r.uri) served by \(sub.uri)")
                    adopt(sub, into: r)
                    if case .internalRedirect(let u) = result { r.stagedRedirect = u }
                    return nil
                case .final(let status, _):
                    if status != 200, status != 404 { failed = status }
                    continue
                }
            }
            if let failed {
                chain.note(.status, "\(failed): the DirectoryIndex candidate answered \(failed)")
                return .final(status: failed, location: nil)
            }
            return nil
        }
        if site.files.stat(mapped) == nil, r.handler == nil, r.stagedRedirect == nil,
           let fallback = config.fallbackResource {
            // ap_sub_req_lookup_uri resolves a relative name against the directory of r->uri.
            var target = fallback
            if !fallback.hasBytePrefix("/"), let slash = r.uri.lastIndex(ofByte: UInt8(ascii: "/")) {
                target = escapePath(String(bytesThrough(r.uri, slash))) + fallback
            }
            guard let (sub, result) = subrequest(target + (r.query.map { "?" + $0 } ?? ""), chain, parent: r) else {
                return .final(status: 500, location: nil)
            }
            if let s = carriedRedirect(sub, result) { return .final(status: s, location: nil) }
            switch result {
            case .serve, .internalRedirect:
                guard let subFile = sub.filename, site.files.isFile(stagedFilename(sub, fallback: subFile)) else { return nil }
                chain.note(.fallback, "FallbackResource: served by \(sub.uri)")
                adopt(sub, into: r)
                if case .internalRedirect(let u) = result { r.stagedRedirect = u }
                return nil
            case .final(let status, let location) where (300...399).contains(status):
                // fixup_dflt propagates a redirect of the fallback subrequest (its Location too)…
                return .final(status: status, location: location)
            case .final(let status, _) where status != 404 && status != 200:
                // …and any other failure but 404: [F] on the target answers 403 (AH00125: 500).
                chain.note(.status, "\(status): the FallbackResource subrequest answered \(status)")
                return .final(status: status, location: nil)
            default:
                return nil
            }
        }
        return nil
    }

    /// A subrequest that rewrote to a URL and then, without [L], to a local path keeps the
    /// 3xx in rr->status: mod_dir propagates it (without a Location).
    private func carriedRedirect(_ sub: RequestRecord, _ result: PassResult) -> Int? {
        if case .final = result { return nil }
        return (300...399).contains(sub.status) ? sub.status : nil
    }

    /// The file a record maps to, ignoring a staged internal redirect (`redirect:` filenames).
    private func stagedFilename(_ r: RequestRecord, fallback: String? = nil) -> String {
        if let f = fallback, !f.hasBytePrefix("redirect:") { return f }
        return r.mappedFilename ?? r.filename ?? ""
    }

    /// Replaces the request in place with a successful index subrequest (no REDIRECT_ variables).
    private func adopt(_ sub: RequestRecord, into r: RequestRecord) {
        r.uri = sub.uri
        r.query = sub.query
        r.filename = sub.filename
        r.mappedFilename = sub.mappedFilename
        r.pathInfo = sub.pathInfo
        r.config = sub.config
        r.handler = sub.handler
        r.originalURIOverride = sub.uri
        // ap_internal_fast_redirect overlays the subrequest's environment ([E=] set there counts).
        // apr_table_overlay keeps the request's own entries behind the subrequest's: a name the
        // subrequest changed is then held twice, and an internal redirect's REDIRECT_ copy takes
        // the request's value (recorded: rewrite-flags-env-index-subrequest-shadowed).
        for (k, v) in sub.env where r.env[k] != nil && r.env[k] != v && r.envShadowed[k] == nil {
            r.envShadowed[k] = r.env[k]
        }
        r.env.merge(sub.env) { _, new in new }
        // …and its notes over the request's: a [T=] the subrequest's rules set wins.
        if let t = sub.forcedType { r.forcedType = t }
        // …and its content encoding: a negotiated index's, as Accept-Encoding spelled it.
        r.negotiatedEncoding = sub.negotiatedEncoding
        // …and its error table: a negotiated index (`DirectoryIndex item` finding item.html)
        // answers with the subrequest's Vary and Content-Location.
        takeErrorTable(of: sub, into: r)
        // …and its normal table over the request's: the Vary its conditions made goes out too.
        r.overlayVary(of: sub)
    }

    /// apr_table_overlay(rr->err_headers_out, r->err_headers_out): the subrequest's mod_negotiation
    /// headers in front of the request's own.
    private func takeErrorTable(of sub: RequestRecord, into r: RequestRecord) {
        let ownVary = r.negotiationVary
        r.negotiationVary = []
        r.addNegotiationVary(sub.negotiationVary)
        r.addNegotiationVary(ownVary)
        r.contentLocation = sub.contentLocation ?? r.contentLocation
    }

    /// Work units a subrequest costs (a whole pass up to the fixups; the rules it evaluates are
    /// charged as they run). Apache's own end of an `[N]` loop whose rule looks a URI up every
    /// round, 32,000 rounds, must be reached within the budget (recorded:
    /// recursion-next-with-lookup-condition-reaches-round-limit; 32 units a look-up spent it
    /// in round 29,000).
    static let subrequestCost = 16

    /// A look-up refused by ap_is_recursion_limit_exceeded (AH00124 or AH00125): made by
    /// make_sub_request and parsed, then nothing more.
    func refusedSubrequest(_ url: String, _ chain: RequestChain, parent: RequestRecord?,
                           file: String?, uri: String?) -> RequestRecord {
        let (sub, _) = makeRecord(url: url, method: "GET", isSubrequest: true, chain: chain, logsBadPath: false)
        // Only ap_parse_uri ran: the URI keeps its escapes, `.` segments and `//`
        // (`%{LA-U:REQUEST_URI}` there; recorded: recursion-limit-lookup-skips-path-check).
        sub.uri = uri ?? splitRequestTarget(url).path
        // make_sub_request ran: the look-up has its parent's environment
        // (`%{LA-U:ENV:REDIRECT_STATUS}` is 200 after a redirect; recorded:
        // recursion-limit-lookup-skips-path-check).
        if let parent {
            sub.env = parent.env
            sub.envShadowed = parent.envShadowed
        }
        // No phase ran: a URI look-up has no filename (`%{LA-U:REQUEST_FILENAME}` is empty).
        sub.filename = file ?? ""
        return sub
    }

    /// A subrequest for `url` (phases up to the fixups), bounded by the nesting limit (AH00125)
    /// and by the work budget: nested DirectoryIndex lists make a tree of subrequests that grows
    /// as entries^10 (Apache walks it too; htlint stops and says so).
    /// `file` makes it a file look-up (`ap_sub_req_lookup_file`): no translate_name, the walk
    /// starts at that path.
    func subrequest(_ url: String, _ chain: RequestChain, parent: RequestRecord?,
                    file: String? = nil, uri: String? = nil) -> (RequestRecord, PassResult)? {
        // A subrequest past the nesting limit runs nothing, so it costs nothing: look-up
        // conditions that nest make a tree whose leaves are mostly such failures (each only
        // fails its condition), and charging them spent the budget before Apache's answer
        // (recorded: rewrite-cond-lookup-nesting-limit-fails-condition, 6,144 AH00125).
        if chain.subrequestDepth >= site.limitSubrequestNesting {
            chain.log("AH00125", "error", "Request exceeded the limit of \(site.limitSubrequestNesting) subrequest nesting levels due to probable configuration error. Use 'LimitInternalRecursion' to increase the limit if necessary. Use 'LogLevel debug' to get a backtrace.")
            // The refused look-up was still made: `%{LA-U:THE_REQUEST}` and the environment
            // are its parent's (mod_rewrite reads them whatever its status).
            return (refusedSubrequest(url, chain, parent: parent, file: file, uri: uri), .final(status: 500, location: nil))
        }
        guard spend(Origin.subrequestCost, chain, range: nil) else { return nil }
        if chain.redirectDepth >= site.limitInternalRecursion {
            // ap_is_recursion_limit_exceeded counts the main request's internal redirects too:
            // a subrequest of the 10th redirected request fails with 500 (AH00124).
            chain.logRecursionLimit(site.limitInternalRecursion)
            // The look-up fails before ap_process_request_internal checks its path: a bad
            // escape or a relative file name logs no AH10244 here (recorded:
            // recursion-limit-lookup-skips-path-check).
            return (refusedSubrequest(url, chain, parent: parent, file: file, uri: uri), .final(status: 500, location: nil))
        }
        // A subrequest has its own pool: it neither sees nor sets the [END] marker (§4.10).
        let endSeen = chain.endSeen
        chain.endSeen = false
        chain.subrequestDepth += 1
        defer {
            chain.subrequestDepth -= 1
            chain.endSeen = endSeen
        }
        let (sub, early) = makeRecord(url: url, method: "GET", isSubrequest: true, chain: chain, allowRelative: file != nil)
        sub.mainURI = parent?.uri
        sub.mainIfMatches = parent?.ifMatches
        sub.walkCache = parent?.walkCache
        sub.locationWalkURI = parent?.locationWalkURI
        sub.fileWalkName = parent?.fileWalkName
        // ap_set_sub_req_protocol copies subprocess_env: the subrequest sees REDIRECT_STATUS,
        // [E=] values and the like of its parent.
        if let parent {
            sub.env = parent.env
            sub.envShadowed = parent.envShadowed
            // Authn/authz are skipped when the subrequest has its main request's configuration.
            sub.previousConfigIdentity = parent.configIdentity
        }
        // `uri`: a file look-up whose URI could not be derived from the file (`url` is only parsed).
        if let uri { sub.uri = uri }
        // A file look-up has its filename before the URI is checked; a URI one has none if that fails.
        sub.filename = file
        sub.fileSubrequest = file != nil
        if let early {
            if file == nil { sub.filename = "" }
            return (sub, .final(status: early, location: nil))
        }
        let result = runPass(sub, chain: chain, redirects: 0, translate: file == nil)
        return (sub, result)
    }
}
