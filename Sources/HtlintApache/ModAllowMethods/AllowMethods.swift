/// mod_allowmethods: `AllowMethods` in `<Directory>`/`<Location>` sections (ACCESS_CONF, never
/// `.htaccess`), merged by replacement; `reset` (alone) allows everything again.
extension ConfigReader {
    mutating func allowMethodsDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words.map(\.value)
        if words.count == 1, words[0].asciiLowercased() == "reset" {
            block.allowMethods = []
            return
        }
        var set = Set<String>()
        for (i, w) in words.enumerated() {
            // ap_method_number_of: names as registered (case-sensitive); HEAD is M_GET.
            guard Origin.registeredMethods.contains(w) else {
                error(ConfigCode.badArguments, "AllowMethods: Invalid Method '\(w)'", line.words[i].range)
                return
            }
            set.insert(w == "HEAD" ? "GET" : w)
        }
        block.allowMethods = set
    }
}

extension Origin {
    /// am_check_access (access_checker, REALLY_FIRST: before mod_ssl, mod_access_compat and
    /// `Require`): a method outside the list is a 405 whose `Allow` names only TRACE (make_allow
    /// reads r->allowed_methods, which nothing filled). (Recorded: access-allowmethods-405.)
    func allowMethodsRefuses(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> Int? {
        guard let allowed = config.allowMethods, !allowed.isEmpty else { return nil }
        let method = r.method == "HEAD" ? "GET" : r.method
        if allowed.contains(method) { return nil }
        let target = r.filename ?? "uri " + r.uri
        chain.log("AH01623", "error", "client method denied by server configuration: '\(r.method)' to \(target)")
        chain.note(.status, "405: AllowMethods \(allowed.sorted().joined(separator: " ")) refuses \(r.method)")
        r.allow = site.traceEnabled ? "TRACE" : ""
        return 405
    }
}
