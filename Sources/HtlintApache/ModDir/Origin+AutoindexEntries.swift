import HtlintBytes

/// mod_autoindex's look-up of each entry it lists (recorded: dirindex-autoindex-entry-lookups).
extension Origin {
    /// A GET listing looks every entry up (ap_sub_req_lookup_dirent) to decide whether to show
    /// it: a subrequest up to the fixups with the entry's file, so a denied entry logs AH01630,
    /// and a subdirectory (named with its slash) runs mod_dir's index look-ups, whose denied
    /// candidates log too. `IndexIgnore` names are left out before any look-up; a HEAD answer
    /// is sent before the directory is read (r->header_only, which an ErrorDocument's
    /// internal redirect keeps though its method becomes GET).
    func lookUpListedEntries(_ r: RequestRecord, directory path: String, _ config: MergedConfig, _ chain: RequestChain) {
        guard r.method != "HEAD", chain.request.method != "HEAD" else { return }
        let uriDirectory = r.uri.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesThrough(r.uri, $0)) } ?? "/"
        // opendir follows a link to the directory: the target's entries, under the link's path.
        let listed = site.files.resolve(path) ?? path
        let followsLinks = config.options.contains("followsymlinks") || config.options.contains("symlinksifownermatch")
        for name in site.files.entryNames(in: listed).sorted() where !Origin.indexIgnores(config.indexIgnore, name) {
            if case .symlink? = site.files.lstat(path + "/" + name) {
                // A dangling link fails apr_dir_read's stat: left out, nothing logged.
                guard site.files.stat(path + "/" + name) != nil else { continue }
                // ap_sub_req_lookup_dirent checks a link itself with the listing's options
                // (resolve_symlink) and refuses it without a walk.
                guard followsLinks else {
                    chain.log("AH00032", "error", "Symbolic link not allowed or link target not accessible: \(path)/\(name)")
                    continue
                }
            }
            let isDirectory = site.files.stat(path + "/" + name) == .directory
            let slash = isDirectory ? "/" : ""
            let uri = uriDirectory + name + slash
            _ = subrequest(escapePath(uri), chain, parent: r, file: path + "/" + name + slash, uri: uri)
        }
    }

    /// ignore_entry: an `IndexIgnore` pattern's last path component matched against the name
    /// with ap_strcmp_match (`*` and `?` only, case-sensitive).
    static func indexIgnores(_ patterns: [String], _ name: String) -> Bool {
        patterns.contains { pattern in
            let last = pattern.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesAfter(pattern, $0)) } ?? pattern
            // Bytes: `?` takes one byte, also one that is not UTF-8 (recorded:
            // dirindex-autoindex-ignore-matches-bytes).
            return starQuestionMatch(last.rawBytes, name.rawBytes)
        }
    }

    /// ap_strcmp_match's wildcards, iteratively (one backtrack point per `*`).
    private static func starQuestionMatch(_ p: [UInt8], _ t: [UInt8]) -> Bool {
        var i = 0, j = 0, star = -1, starText = 0
        while j < t.count {
            if i < p.count, p[i] == UInt8(ascii: "*") {
                star = i; starText = j; i += 1
            } else if i < p.count, p[i] == UInt8(ascii: "?") || p[i] == t[j] {
                i += 1; j += 1
            } else if star >= 0 {
                i = star + 1; starText += 1; j = starText
            } else {
                return false
            }
        }
        while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }
}
