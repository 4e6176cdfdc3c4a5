import HtlintBytes

extension Origin {
    /// The walk stopped at the directory whose access file failed: what it had not walked yet
    /// stays in r->path_info (PATH_INFO of the 500 is /page.html for a broken root file).
    func stopAtFatalDirectory(_ r: RequestRecord, _ walk: WalkResult) {
        let full = walk.filename + walk.pathInfo
        let dir = walk.fatalDirectory.map { $0.hasByteSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        r.filename = walk.fatalDirectory
        r.pathInfo = !dir.isEmpty && full.hasBytePrefix(dir + "/") ? dropLeadingBytes(full, dir.utf8.count) : ""
    }

    /// An access file Apache cannot open (a directory, a link cycle): ap_parse_htaccess logs
    /// AH00529 and answers 403 "to be safe", with the virtual host's configuration only, as for
    /// a file that fails to parse (recorded: allowoverride-unopenable-htaccess-forbids).
    func refuseUnopenable(_ fatal: FatalConfig, _ r: RequestRecord, _ walk: WalkResult, _ chain: RequestChain) -> PassResult {
        stopAtFatalDirectory(r, walk)
        let dir = walk.fatalDirectory ?? ""
        chain.log("AH00529", "crit", "\(fatal.file.path) pcfg_openfile: unable to check htaccess file, ensure it is readable and that '\(dir)' is executable")
        chain.note(.status, "403: Apache cannot open \(relativeToRoot(fatal.file.path)) (not a regular file, or a link cycle)")
        r.config = .vhostDefaults(site)
        return .final(status: 403, location: nil)
    }
}
