extension Origin {
    /// `RewriteCond … -U`: a URI look-up subrequest (translate_name, the rules, access); true
    /// when it answers below 400. No handler runs, so a missing file still counts (mod_rewrite).
    func lookupURI(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        guard !input.isEmpty, lookupAllowed(r) else { return false }
        // A relative URL is resolved against the directory of the current URI.
        let url = input.hasPrefix("/") ? input : directoryOf(r.uri) + input
        guard let (_, result) = subrequest(url, chain, parent: r) else { return false }
        return status(of: result) < 400
    }

    /// `RewriteCond … -F`: a file look-up subrequest (no translate_name); true when it answers
    /// below 300 and its filename exists.
    func lookupFile(_ input: String, _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        guard !input.isEmpty, lookupAllowed(r) else { return false }
        let base = r.filename.flatMap { $0.hasPrefix("/") ? directoryOf($0) : nil } ?? site.documentRoot + "/"
        let path = SiteFileSystem.normalize(input.hasPrefix("/") ? input : base + input)
        // The look-up's URI: its path under the document root (Apache derives one only for
        // files beside the current one; what matters here is the trailing-slash check of mod_dir).
        let root = site.documentRoot
        let uri = path == root ? "/" : path.hasPrefix(root + "/") ? String(path.dropFirst(root.count)) : path
        guard let (sub, result) = subrequest(uri, chain, parent: r, file: path), status(of: result) < 300,
              let f = sub.filename else { return false }
        return site.files.stat(f) != nil
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
