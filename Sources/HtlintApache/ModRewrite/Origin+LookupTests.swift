extension Origin {
    /// `RewriteCond … -U`: a URI look-up subrequest (translate_name, the rules, access); true
    /// when it answers below 400. No handler runs, so a missing file still counts (mod_rewrite).
    func lookupURI(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        guard !input.isEmpty, lookupAllowed(r), let (_, result) = uriSubrequest(input, r, chain) else { return false }
        return status(of: result) < 400
    }

    /// ap_sub_req_lookup_uri: a relative URL is resolved against the directory of the current URI.
    private func uriSubrequest(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> (RequestRecord, PassResult)? {
        let url = input.hasPrefix("/") ? input : directoryOf(r.uri) + input
        return subrequest(url, chain, parent: r)
    }

    /// `RewriteCond … -F`: a file look-up subrequest (no translate_name); true when it answers
    /// below 300 and its filename exists. ap_expr's `-F` (`guarded: false`) has no check against
    /// recursion: a condition that looks itself up nests until the subrequest limit (AH00125).
    func lookupFile(_ input: String, _ r: RequestRecord, _ chain: RequestChain, guarded: Bool = true) -> Bool {
        guard !input.isEmpty, !guarded || lookupAllowed(r), let (sub, result) = fileSubrequest(input, r, chain),
              status(of: result) < 300, let f = sub.filename else { return false }
        return site.files.stat(f) != nil
    }

    /// ap_sub_req_lookup_file: a relative path is resolved against the directory of the current file.
    private func fileSubrequest(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> (RequestRecord, PassResult)? {
        let base = r.filename.flatMap { $0.hasPrefix("/") ? directoryOf($0) : nil } ?? site.documentRoot + "/"
        let merged = input.hasPrefix("/") ? input : base + input
        let path = SiteFileSystem.normalize(merged)
        return subrequest(fileLookupURI(merged, base: base, r), chain, parent: r, file: path)
    }

    /// The look-up's URI: a file named beside the current one gets the current URI's directory
    /// plus its name; anything else (a directory's own path, another directory) gets Apache's
    /// placeholder, which has no trailing slash, so mod_dir answers a directory with 301 and
    /// `-F` is false for it (recorded: rewrite-cond-lookup-file-directory).
    private func fileLookupURI(_ merged: String, base: String, _ r: RequestRecord) -> String {
        guard merged.hasPrefix(base) else { return Origin.fileLookupPlaceholderURI }
        let name = merged.dropFirst(base.count)
        guard !name.isEmpty, !name.contains("/") else { return Origin.fileLookupPlaceholderURI }
        return directoryOf(r.uri) + name
    }

    /// What ap_sub_req_lookup_file sets as the URI when it cannot derive one.
    static let fileLookupPlaceholderURI = "INTERNALLY GENERATED file-relative req"


    /// `%{LA-U:NAME}` / `%{LA-F:NAME}`: NAME read from a look-ahead subrequest, URL-based (LA-U)
    /// or file-based (LA-F), for mod_rewrite's current URI (its ctx->uri: r->filename as the rules
    /// see it, so in per-directory context a file path, which LA-U then looks up as a URL).
    /// Inside a look-up whose URI equals its parent's it expands to "" (subreq_ok fails).
    func lookAhead(_ name: String, file: Bool, _ r: RequestRecord, _ chain: RequestChain, serverContext: Bool) -> String {
        let current = r.filename ?? r.uri
        guard !current.isEmpty, lookupAllowed(r),
              let (sub, _) = file ? fileSubrequest(current, r, chain) : uriSubrequest(current, r, chain) else { return "" }
        return variable(name, sub, chain, serverContext: serverContext)
    }

    /// mod_rewrite's subreq_ok: not inside a subrequest whose URI equals its parent's.
    private func lookupAllowed(_ r: RequestRecord) -> Bool {
        !r.isSubrequest || r.mainURI != r.uri
    }

    private func status(of result: PassResult) -> Int {
        if case .final(let status, _) = result { return status }
        return 200
    }

    private func directoryOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        return String(path[...slash])
    }
}
