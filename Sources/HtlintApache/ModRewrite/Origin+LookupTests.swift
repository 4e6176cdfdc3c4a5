extension Origin {
    /// `RewriteCond … -U`: a URI look-up subrequest (translate_name, the rules, access); true
    /// when it answers below 400. No handler runs, so a missing file still counts (mod_rewrite).
    /// mod_rewrite skips an empty test string; ap_expr's `-U`/`-A` (`expression`) look it up,
    /// and a relative empty URL is the current URI's directory (recorded:
    /// section-if-lookup-empty-string).
    func lookupURI(_ input: String, _ r: RequestRecord, _ chain: RequestChain, expression: Bool = false) -> Bool {
        guard expression || !input.isEmpty, lookupAllowed(r),
              let (_, result) = uriSubrequest(input, r, chain) else { return false }
        return status(of: result) < 400
    }

    /// ap_sub_req_lookup_uri: a relative URL is resolved against the directory of the current URI,
    /// which is escaped again first: `%` in it is no bad escape (recorded:
    /// rewrite-cond-lookup-uri-relative-escaped-directory).
    private func uriSubrequest(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> (RequestRecord, PassResult)? {
        let url = input.hasBytePrefix("/") ? input : escapePath(directoryOf(r.uri)) + input
        return subrequest(url, chain, parent: r)
    }

    /// `RewriteCond … -F`: a file look-up subrequest (no translate_name); true when it answers
    /// below 300 and its filename exists. ap_expr's `-F` (`guarded: false`) has no check against
    /// recursion: a condition that looks itself up nests until the subrequest limit (AH00125).
    /// ap_sub_req_lookup_file merges the name with the current file's directory (up to its last
    /// slash, ap_make_dirstr_parent); apr_filepath_merge refuses the two together over
    /// APR_PATH_MAX (4096, with slashes and NUL) and the look-up is a 403 before any walk, so
    /// nothing is logged and `-F` is false (recorded: rewrite-cond-lookup-file-merge-too-long).
    /// ap_expr's `-F` looks up an empty name too, the current file's directory, which holds the
    /// same `.htaccess` (recorded: section-if-file-lookup-empty-recursion).
    func lookupFile(_ input: String, _ r: RequestRecord, _ chain: RequestChain, guarded: Bool = true) -> Bool {
        guard !guarded || (!input.isEmpty && lookupAllowed(r)) else { return false }
        let fdir = r.filename.map { f in f.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesThrough(f, $0)) } ?? "" } ?? ""
        if fdir.utf8.count + input.utf8.count + 4 > 4096, fdir.rawByteCount + input.rawByteCount + 4 > 4096 { return false }
        guard let (sub, result) = fileSubrequest(input, r, chain),
              status(of: result) < 300, let f = sub.filename else { return false }
        return site.files.stat(f) != nil
    }

    /// ap_sub_req_lookup_file: a relative path is resolved against the directory of the current
    /// file. After an `[R]` without `[L]` that "file" is the URL (`https://host/sub/`): the merge
    /// leaves a relative name, which directory_walk puts under the working directory (`/`), where
    /// `<Directory />` denies the look-up (403, AH01630; recorded:
    /// rewrite-cond-lookup-file-relative-names).
    private func fileSubrequest(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> (RequestRecord, PassResult)? {
        if let f = r.filename, !f.hasBytePrefix("/"), !input.hasBytePrefix("/") {
            // The merge keeps the relative directory as written, so the name is still "beside"
            // it and gets a URI beside the current one.
            let path = Origin.fileLookupPath("/" + directoryOf(f) + input)
            // A name the merge puts back in that directory is looked up beside the current URI
            // too: `../r/x.html` from `http://host/r/` (recorded:
            // rewrite-cond-lookup-file-relative-climbing-above-start).
            if !r.uri.isEmpty, let name = Origin.nameBeside(directoryOf(f), input) {
                return subrequest(directoryOf(r.uri) + name, chain, parent: r, file: path)
            }
            return subrequest(input, chain, parent: r, file: path, uri: "")
        }
        let base = r.filename.flatMap { $0.hasBytePrefix("/") ? directoryOf($0) : nil } ?? site.documentRoot + "/"
        let merged = input.hasBytePrefix("/") ? input : base + input
        // apr_filepath_merge keeps a trailing slash: in the filename of a directory, in the path
        // info past a missing name or a plain file (`old/x/` gives PATH_INFO `/x/`; recorded:
        // rewrite-cond-la-f-path-info-trailing-slash).
        let path = Origin.fileLookupPath(merged)
        if let uri = fileLookupURI(path, base: base, r) { return subrequest(uri, chain, parent: r, file: path) }
        // Elsewhere the path itself is parsed as the URI and unescaped, so a bad escape in it
        // fails the look-up (400, AH10244), and the URI is left empty (recorded:
        // rewrite-cond-la-f-path-info-bad-escape).
        return subrequest(input, chain, parent: r, file: path, uri: "")
    }

    /// The name `input` leaves in the relative directory `dir` when apr_filepath_merge joins
    /// them (`.` and empty segments dropped, `..` taking back the last segment), if the result
    /// is `dir` plus a name without `/`; nil otherwise.
    static func nameBeside(_ dir: String, _ input: String) -> String? {
        guard !input.hasByteSuffix("/") else { return nil }
        var parts = slashSplit(dir)
        if parts.last?.isEmpty == true { parts.removeLast() }
        for seg in slashSplit(input) where !seg.isEmpty && seg != "." {
            if seg == ".." { if !parts.isEmpty { parts.removeLast() } } else { parts.append(seg) }
        }
        let merged = parts.joined(separator: "/")
        guard merged.hasBytePrefix(dir) else { return nil }
        let name = dropLeadingBytes(merged, dir.utf8.count)
        return name.isEmpty || name.containsByte(UInt8(ascii: "/")) ? nil : name
    }

    /// The look-up's filename as apr_filepath_merge leaves it: `//` and `.` dropped, `..` taken
    /// back lexically, a trailing slash kept (one), so a directory named with it is not "the
    /// directory without its slash" and its own `.htaccess` rules run in the look-up
    /// (recorded: rewrite-cond-lookup-file-directory-slash-runs-rules). `%{REQUEST_FILENAME}/x`
    /// on a directory is thereby a file beside the current one (recorded:
    /// rewrite-cond-lookup-file-double-slash-same-directory).
    static func fileLookupPath(_ merged: String) -> String {
        var parts: [Substring] = []
        for c in slashSplit(merged, omittingEmpty: true) where c != "." {
            if c == ".." { _ = parts.popLast() } else { parts.append(c) }
        }
        let path = "/" + parts.joined(separator: "/")
        return merged.hasByteSuffix("/") && path != "/" ? path + "/" : path
    }

    /// The look-up's URI when the file is named beside the current one: the current URI's
    /// directory plus its name. Anything else (a directory's own path, another directory) has
    /// none, which has no trailing slash, so mod_dir answers a directory with 301 and `-F` is
    /// false for it (recorded: rewrite-cond-lookup-file-directory).
    /// A parent without a URI (itself such a look-up) gives none either (recorded:
    /// rewrite-cond-file-lookup-nested-empty-uri).
    private func fileLookupURI(_ merged: String, base: String, _ r: RequestRecord) -> String? {
        guard !r.uri.isEmpty, merged.hasBytePrefix(base) else { return nil }
        let name = dropLeadingBytes(merged, base.utf8.count)
        guard !name.isEmpty, !name.utf8.contains(UInt8(ascii: "/")) else { return nil }
        return directoryOf(r.uri) + name
    }


    /// `%{LA-U:NAME}` / `%{LA-F:NAME}`: NAME read from a look-ahead subrequest, URL-based (LA-U)
    /// or file-based (LA-F), for mod_rewrite's current URI (ctx->uri). In server context that is
    /// r->filename. Per directory it is the rule's match input (filename plus path info, the
    /// directory stripped): LA-U looks it up behind the RewriteBase, or the directory when there
    /// is none (a file path then looked up as a URL); LA-F looks up the directory plus it as a
    /// file; one that still starts with `/` both look up as a URL (recorded:
    /// rewrite-cond-la-u-rewritebase, rewrite-cond-la-f-path-info-bad-escape).
    /// Inside a look-up whose URI equals its parent's it expands to "" (subreq_ok fails).
    func lookAhead(_ name: String, file: Bool, _ r: RequestRecord, _ chain: RequestChain, serverContext: Bool) -> String {
        guard lookupAllowed(r) else { return "" }
        let lookup: (RequestRecord, PassResult)?
        if !serverContext, let d = r.rewriteDirectory {
            let uri = matchInput(r, directory: d, pathInfo: r.pathInfo)
            if uri.hasBytePrefix("/") {
                lookup = uriSubrequest(uri, r, chain)
            } else {
                lookup = file ? fileSubrequest(d + uri, r, chain) : uriSubrequest((r.rewriteBase ?? d) + uri, r, chain)
            }
        } else {
            let current = r.filename ?? r.uri
            guard !current.isEmpty else { return "" }
            lookup = file ? fileSubrequest(current, r, chain) : uriSubrequest(current, r, chain)
        }
        guard let (sub, _) = lookup else { return "" }
        return variable(name, sub, chain, serverContext: serverContext)
    }

    /// mod_rewrite's subreq_ok: not inside a subrequest whose URI equals its parent's, by strcmp
    /// (recorded: rewrite-cond-lookup-subrequest-uri-other-normal-form).
    private func lookupAllowed(_ r: RequestRecord) -> Bool {
        !r.isSubrequest || !sameBytes(r.mainURI, r.uri)
    }

    private func status(of result: PassResult) -> Int {
        if case .final(let status, _) = result { return status }
        return 200
    }

    private func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(ofByte: UInt8(ascii: "/")) else { return "/" }
        return String(bytesThrough(path, slash))
    }
}
