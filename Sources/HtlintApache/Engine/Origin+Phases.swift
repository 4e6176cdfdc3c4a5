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
        if r.translatedWithoutFile, r.filename == nil { return runPassWithoutFile(r, chain) }
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
                r.overlayVary(of: sub)
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
        if isDirectory(walk.filename, for: r) {
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
        let isDirectory = self.isDirectory(f, for: r)
        let directory: String
        if isDirectory {
            directory = f.hasByteSuffix("/") ? f : f + "/"
        } else {
            // Bytes, not Characters: a grapheme search cost a twentieth of a request.
            directory = f.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesThrough(f, $0)) } ?? f
        }
        // strcmp (recorded: section-directorymatch-walk-new-for-other-normal-form).
        if let cache = r.walkCache, sameBytes(cache.directory, directory),
           isDirectory ? walk.pathInfo.isEmpty : site.files.isFile(f) || isSystemFile(f) {
            return (cache.filename, false)
        }
        if remember { r.walkCache = (isDirectory ? f : directory, f) }
        return (f, true)
    }

    /// A regular file or program of the system (a walk outside the site); `systemNode` answers
    /// a name inside the mounted root without walking the system's tree.
    private func isSystemFile(_ path: String) -> Bool {
        switch systemNode(path) {
        case .file?, .executable?: true
        default: false
        }
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

    /// What makes two passes share one merged configuration: the objects merged (the server's
    /// `<Files ~ "^\.ht">` section among them for a `.ht*` name, merged by applySections).
    func configurationIdentity(_ walk: WalkResult) -> [String] { walk.config.objectKeys }
}
