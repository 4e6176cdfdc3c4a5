extension Origin {
    /// A status or redirect decided by mod_rewrite's rules (see `RequestRecord.answeredByRewrite`).
    func rewriteAnswer(_ r: RequestRecord, status: Int, location: String?) -> PassResult {
        r.answeredByRewrite = true
        return .final(status: status, location: location)
    }

    /// A rule set's status: most reset r->status to OK first (`rewriteAnswer`), but the unsafe
    /// `?` refusal (AH10508) leaves its 403 there. ap_internal_redirect hands ap_die the
    /// request's own status, so in an internal redirect that 403 is a recursive error: sent
    /// canned, without ErrorDocument; on an ErrorDocument page it ends the chain instead of
    /// redirecting again (recorded: rewrite-escape-unsafe-3f-in-internal-redirect-no-errordocument).
    func ruleSetAnswer(_ r: RequestRecord, _ result: RuleSetResult, status: Int) -> PassResult {
        guard result.statusKeptInRequest else { return rewriteAnswer(r, status: status, location: nil) }
        r.status = status
        return .final(status: status, location: nil)
    }

    /// mod_rewrite's fixup hook: per-directory rules and what their result means
    /// (apache-semantics §4.6, §4.9, §4.11).
    func perDirectoryRewrite(_ r: RequestRecord, _ walk: WalkResult, _ chain: RequestChain) -> PassResult? {
        guard let rw = walk.config.rewrite, rw.engine, !chain.endSeen else { return nil }
        let d = rw.directory
        // `f + "/" == d`, compared in place (this runs on every pass).
        if let f = r.filename, d.utf8.count == f.utf8.count + 1, d.utf8.last == UInt8(ascii: "/"), d.utf8.starts(with: f.utf8),
           !rw.options.contains("allownoslash") {
            chain.note(.note, "rules of \(relativeToRoot(d)) skipped for the directory without its slash")
            return nil
        }
        if !walk.config.linksAllowed {
            chain.log("AH00670", "error", "Options FollowSymLinks and SymLinksIfOwnerMatch are both off, so the RewriteRule directive is also forbidden due to its similar ability to circumvent directory restrictions : \(r.filename ?? "")")
            chain.note(.status, "403: RewriteEngine On without Options FollowSymLinks")
            return .final(status: 403, location: nil)
        }
        guard !rw.rules.isEmpty else { return nil }
        let f0 = r.filename ?? ""
        let q0 = r.query
        let result = runRuleSet(graph.ruleSet(rw), r, chain, directory: d, base: rw.base)
        if let s = result.status {
            // hook_fixup checks the query an earlier rule (or [N] round) wrote before it answers
            // a status ([F], [G], [R=4xx], the [N] limit's 500): that query's spaces make a 403.
            if let bad = badQuery(r, chain, external: r.filename.flatMap(absoluteURLScheme) != nil, code: "AH10411") { return bad }
            return ruleSetAnswer(r, result, status: s)
        }
        if let t = result.type { r.forcedType = t }
        // [H] is a note that mod_rewrite's last fixup applies, after mod_dir (see runPass).
        if let h = result.handler { r.rewriteHandler = h }
        guard result.changed, let f = r.filename else {
            r.filename = f0
            return nil
        }
        let external = absoluteURLScheme(f) != nil && !f.hasBytePrefix("proxy:")
        // [PT] makes an absolute URL `passthrough:http://…`, no URL to escape later, so its
        // query is checked too: a space there is 403 before the 400 below (recorded:
        // rewrite-flags-pt-absolute-url-query-space).
        if let bad = badQuery(r, chain, external: external && !result.passThrough && !result.noEscape, code: "AH10411") {
            // The rule had already written [PT]'s `passthrough:` prefix (%f logs it).
            if result.passThrough { r.filename = "passthrough:" + f }
            return bad
        }
        if external && result.passThrough {
            // `passthrough:http://…` is no URL; stripped again it is no path.
            chain.note(.status, "400: [PT] on the absolute URL `\(f)` (not a path)", range: result.lastRule?.range)
            return .final(status: 400, location: nil)
        }
        // With [PT] too the filename is `passthrough:proxy:…`: not the proxy's, and stripped of
        // `passthrough:` no path either, a 400 below (recorded: rewrite-flags-proxy-with-passthrough).
        if f.hasBytePrefix("proxy:"), !result.passThrough {
            chain.log("AH10160", "error", "attempt to make remote request from mod_rewrite without proxy enabled: \(f)")
            return .final(status: 403, location: nil)
        }
        if external {
            var url = f
            if let base = rw.base { url = applyBase(url, directory: d, base: base) }
            let location = redirectLocation(url, query: r.query, originalQuery: q0, noEscape: result.noEscape)
            let status = result.redirectStatus.map { (300...399).contains($0) ? $0 : 302 } ?? 302
            chain.note(.externalRedirect, "\(status) to \(location)", range: result.lastRule?.range)
            r.filename = location
            // The redirect leaves r->handler alone: an `AddHandler` one is still logged; only the
            // directory's, which Apache derives from the content type later, is not there yet.
            if r.handler == "httpd/unix-directory" { r.handler = nil }
            return rewriteAnswer(r, status: status, location: location)
        }
        guard f.hasBytePrefix("/") else {
            chain.note(.status, "400: rewrite result `\(f)` is not a path")
            return .final(status: 400, location: nil)
        }
        // strcmp: bytes, not Swift's canonical equivalence, so a precomposed é is a change from
        // e and a combining accent (recorded: rewrite-escape-combining-mark-rewritten-to-precomposed).
        if f.utf8.elementsEqual(f0.utf8) {
            chain.note(.note, "rewritten URL equals the original: \(relativeToRoot(f)) (no internal redirect)")
            return nil
        }
        let url = internalRedirectURL(f, r, rw)
        chain.note(.note, "rewritten to \(url) (internal redirect follows)", range: result.lastRule?.range)
        // r->finfo is still the walked file, also under an adopted `redirect:` name.
        if r.mappedFilename == nil || !f0.hasBytePrefix("redirect:") { r.mappedFilename = f0 }
        r.stagedRedirect = url + (r.query.map { "?" + $0 } ?? "")
        r.filename = "redirect:" + url
        r.handler = "redirect-handler"
        return nil
    }

    /// RewriteBase applied to the path of an external redirect (apache-semantics §4.9 step 5.1).
    private func applyBase(_ url: String, directory: String, base: String) -> String {
        // Byte offsets throughout: Apache compares bytes, and `dropFirst` would count characters.
        let (prefix, path) = splitAbsoluteURL(url)
        // subst_prefix_path compares the path after its `/` with the directory as written: a
        // filesystem directory without its leading `/`, the `*If/` of an <If> section whole.
        // It drops the directory's own trailing `/` and wants one after the match, so the empty
        // match of `<Location />` takes a second slash: `//sub/` becomes `/sub/`.
        // (Compared in place: most redirects leave the directory, and making the strings first
        // cost each one some 3,000 instructions.)
        var match = directory.utf8.dropFirst(directory.hasBytePrefix("/") ? 1 : 0)
        if match.last == UInt8(ascii: "/") { match = match.dropLast() }
        let tail = path.utf8.dropFirst()
        guard tail.starts(with: match), tail.dropFirst(match.count).first == UInt8(ascii: "/") else { return url }
        var b = dropLeadingBytes(base, min(1, base.utf8.count))
        if !b.isEmpty && b.utf8.last != UInt8(ascii: "/") { b += "/" }
        // The path's `/`, the directory and the `/` after it go.
        return prefix + "/" + b + dropLeadingBytes(path, match.count + 2)
    }

    /// The URL of the internal redirect for a local per-directory result (apache-semantics §4.11).
    private func internalRedirectURL(_ f: String, _ r: RequestRecord, _ rw: EffectiveRewrite) -> String {
        let d = rw.directory
        let dNoSlash = d.utf8.last == UInt8(ascii: "/") ? String(d.utf8.dropLast())! : d
        if let base = rw.base, f.utf8.starts(with: (dNoSlash + "/").utf8) {
            let rest = dropLeadingBytes(f, dNoSlash.utf8.count + 1)
            return (base.hasByteSuffix("/") ? base : base + "/") + rest
        }
        let root = site.documentRoot
        if rw.base == nil, f.utf8.starts(with: (root + "/").utf8) { return dropLeadingBytes(f, root.utf8.count) }
        // An Alias's context comes first: its document root is replaced by its URL prefix
        // (hunt 28: fixtures/apache/alias-rewrite-base-outside-directory-context-prefix).
        // (The context's root as a path: without the trailing slash an Alias target may keep.)
        let inContext = !rw.options.contains("ignorecontextinfo") && !r.contextPrefix.isEmpty
        if inContext {
            let contextRoot = SiteFileSystem.normalize(r.contextDocumentRoot)
            if f.hasBytePrefix(contextRoot + "/") {
                let prefix = r.contextPrefix.hasByteSuffix("/") ? String(r.contextPrefix.dropLast()) : r.contextPrefix
                return prefix + "/" + dropLeadingBytes(f, contextRoot.utf8.count + 1)
            }
        }
        // With a RewriteBase, a filesystem path outside the directory but under the document
        // root loses the root and its slash: `a/y.html`, not a path, so 400 (recorded:
        // fixtures/apache/rewrite-base-absolute-path-outside-directory).
        // Under an Alias that root is the context's: a path outside it stays whole (recorded:
        // rewrite-base-absolute-path-outside-alias-context).
        if rw.base != nil, !inContext, f.utf8.starts(with: (root + "/").utf8) { return dropLeadingBytes(f, root.utf8.count + 1) }
        return f
    }
}
