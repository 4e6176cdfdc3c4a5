import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// translate_name: server-context rewriting, mod_alias, core's mapping onto the document root.
extension Origin {
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
        // (A `<Location>`'s `Redirect 0` ends translate_alias_redir before the server's list.)
        r.translatedWithoutFile = false
        if let decided = locationRedirect(r, preTranslate, chain)
            ?? (r.translatedWithoutFile ? nil : serverRedirect(r, preTranslate, chain)) {
            r.filename = declinedFilename
            return decided
        }
        // A `Redirect 0` matched: translate_name is over, r->filename is what mod_rewrite's hook
        // left (the URI, read as a filesystem path, when the engine is on; else none). No Alias
        // (recorded: alias-redirect-status-zero-server-context).
        if r.translatedWithoutFile {
            r.filename = declinedFilename
            return nil
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
}
