extension MergedConfig {
    /// What every directory starts from: per-directory directives written at virtual-host level
    /// outside any section are Apache's `lookup_defaults`, the base that each `<Directory>` and
    /// `.htaccess` merges onto (fixtures/apache/dirindex-vhost-level, fallback-vhost-level,
    /// dirslash-vhost-level). mod_rewrite and mod_alias `Redirect` lines there are server
    /// configuration instead (translate_name), and `SetEnvIf` runs in post_read_request.
    static func vhostDefaults(_ site: Site) -> MergedConfig {
        var config = MergedConfig(directoryIndex: site.defaultDirectoryIndex)
        let vhost = site.vhost.block
        // The virtual host's own `Header` lines are the base every directory merges onto.
        config.headers = vhost.headers
        config.requestHeaders = vhost.requestHeaders.filter { !$0.early }
        var perDirectory = ConfigBlock()
        perDirectory.directorySlash = vhost.directorySlash
        perDirectory.directoryIndexRedirect = vhost.directoryIndexRedirect
        perDirectory.directoryIndex = vhost.directoryIndex
        perDirectory.fallbackResource = vhost.fallbackResource
        perDirectory.redirectRelative = vhost.redirectRelative
        perDirectory.acceptPathInfo = vhost.acceptPathInfo
        perDirectory.limitRequestBody = vhost.limitRequestBody
        perDirectory.maxRanges = vhost.maxRanges
        perDirectory.speling = vhost.speling
        perDirectory.expires = vhost.expires
        perDirectory.actions = vhost.actions
        perDirectory.methodScripts = vhost.methodScripts
        perDirectory.outputFilters = vhost.outputFilters
        perDirectory.outputFiltersByType = vhost.outputFiltersByType
        perDirectory.setEnv = vhost.setEnv
        perDirectory.unsetEnv = vhost.unsetEnv
        perDirectory.mime = vhost.mime
        // `SSLOptions` in the virtual host sets its per-directory defaults (OR_OPTIONS).
        perDirectory.sslOptions = vhost.sslOptions
        config.merge(perDirectory, directory: site.documentRoot + "/", key: "vhost", defaultEngine: false)
        // lookup_defaults is merged once, when the server starts: the directory walk is a walk of its own.
        config.endWalk()
        return config
    }
}
