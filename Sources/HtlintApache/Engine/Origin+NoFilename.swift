/// A request translate_name left without a filename: a server-context or `<Location>`
/// `Redirect` whose status atoi reads as 0 (`Redirect 0 /old`, `RedirectMatch 0x ^/d/`) returns
/// that 0 from mod_alias's hook, which is OK, so core's mapping onto the document root never runs
/// (recorded: alias-redirect-status-zero-server-context).
extension Origin {
    /// map_to_storage and the later phases with r->filename NULL: directory_walk and file_walk
    /// return OK at once (no `<Directory>`, `.htaccess`, `<DirectoryMatch>` or `<Files>`), the
    /// location and if walks merge over the virtual host's defaults, access, then the fixups
    /// that read no file. The default handler finds no file: 404 for GET, HEAD and POST, while
    /// OPTIONS is answered (200) and other methods refused (405) as for any missing file.
    func runPassWithoutFile(_ r: RequestRecord, _ chain: RequestChain) -> PassResult {
        chain.note(.note, "no filename: no <Directory>, .htaccess or <Files> applies")
        var walk = WalkResult(filename: "", pathInfo: "", config: .vhostDefaults(site), fatal: nil, sections: vhostSections)
        applySections(&walk, record: r, chain: chain, fileWalk: false)
        r.config = walk.config
        r.configIdentity = configurationIdentity(walk)
        if !r.isSubrequest { applySetEnvIf(walk.config.setEnvIf, r, chain) }      // header_parser
        if r.previousConfigIdentity != r.configIdentity {
            applySSLUserName(r, walk.config, chain)
            if let denied = checkAccess(r, walk.config, chain) { return .final(status: denied, location: nil) }
        }
        // fixups: core_override_type, mod_env, mod_ssl, mod_headers (mod_dir has no directory).
        if let h = walk.config.mime?.setHandler { r.handler = h }
        applySetEnv(walk.config.setEnv, r)
        applySSLEnv(r, chain)
        if !walk.config.requestHeaders.isEmpty { applyRequestHeaders(walk.config.requestHeaders, r, chain) }
        return .serve
    }
}
