import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// post_read_request and the environment hooks: mod_setenvif, mod_env, mod_ssl's variables.
extension Origin {
    /// mod_env's fixup: `SetEnv` values overlaid under the environment, so a variable already set
    /// (`SetEnvIf`, `[E]`) keeps its value. Runs after mod_rewrite's and mod_alias's fixups; an
    /// answer decided there ([R], [F], `Redirect`) never gets these variables.
    func applySetEnv(_ list: [(String, String)], _ r: RequestRecord) {
        for (name, value) in list {
            if let existing = r.envKey(name) {
                r.envShadowed[existing] = value
            } else {
                r.env[name] = value
            }
        }
    }

    /// mod_ssl's fixup (ssl_hook_Fixup) on a TLS connection: `HTTPS=on` in the environment
    /// (`Header … env=HTTPS`), then `SSL_TLS_SNI` with the name the handshake sent, if any
    /// (recorded: https-ssl-tls-sni-environment), set only once the request got past
    /// mod_rewrite's and mod_alias's fixups, so an `[R]` or `Redirect` answer never has them and
    /// `%{ENV:HTTPS}` in a rewrite is empty (until an internal redirect's `REDIRECT_` copies).
    func applySSLEnv(_ r: RequestRecord, _ chain: RequestChain) {
        guard chain.request.tls else { return }
        r.setEnvValue("HTTPS", "on")
        let sni = sslVariable("SSL_TLS_SNI", r, chain)
        if !sni.isEmpty { r.setEnvValue("SSL_TLS_SNI", sni) }
        // `SSLOptions +StdEnvVars` (merged per directory, inherited down): each variable of
        // mod_ssl's list that has a value; `+ExportCertData`: the client's certificate, empty
        // without one, set all the same (recorded: env-ssloptions-stdenvvars-merging). The
        // server's certificate text (SSL_SERVER_CERT), its serial and dates and the session's
        // ID depend on the handshake and are not simulated.
        guard let options = r.config?.sslOptions.options, !options.isEmpty else { return }
        if options.contains("stdenvvars") {
            // modssl_var_extract_dns: the certificate names' attributes (`SSL_SERVER_S_DN_CN`).
            for (name, value) in chain.request.serverCertificate?.componentVariables ?? [] { r.setEnvValue(name, value) }
            for name in Origin.sslFixupVariables {
                let value = sslVariable(name, r, chain)
                if !value.isEmpty { r.setEnvValue(name, value) }
            }
        }
        if options.contains("exportcertdata") { r.setEnvValue("SSL_CLIENT_CERT", "") }
    }

    /// ssl_hook_Fixup_vars: what `SSLOptions +StdEnvVars` exports, in mod_ssl's order.
    static let sslFixupVariables = [
        "SSL_VERSION_INTERFACE", "SSL_VERSION_LIBRARY", "SSL_PROTOCOL", "SSL_SECURE_RENEG", "SSL_COMPRESS_METHOD",
        "SSL_CIPHER", "SSL_CIPHER_EXPORT", "SSL_CIPHER_USEKEYSIZE", "SSL_CIPHER_ALGKEYSIZE",
        "SSL_CLIENT_VERIFY", "SSL_CLIENT_M_VERSION", "SSL_CLIENT_M_SERIAL", "SSL_CLIENT_V_START", "SSL_CLIENT_V_END",
        "SSL_CLIENT_V_REMAIN", "SSL_CLIENT_S_DN", "SSL_CLIENT_I_DN", "SSL_CLIENT_A_KEY", "SSL_CLIENT_A_SIG",
        "SSL_CLIENT_CERT_RFC4523_CEA", "SSL_SERVER_M_VERSION", "SSL_SERVER_M_SERIAL", "SSL_SERVER_V_START",
        "SSL_SERVER_V_END", "SSL_SERVER_S_DN", "SSL_SERVER_I_DN", "SSL_SERVER_A_KEY", "SSL_SERVER_A_SIG",
        "SSL_SESSION_ID", "SSL_SESSION_RESUMED", "SSL_SRP_USER", "SSL_SRP_USERINFO",
    ]

    /// mod_ssl's access checker sets r->user from `SSLUserName` over TLS; a variable that is
    /// empty there (a client certificate's field when none was sent) is logged (AH02227). It
    /// runs with the access checks, so not again in a look-up or internal redirect that keeps
    /// the configuration (recorded: https-sslusername-empty-variable-warns).
    func applySSLUserName(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) {
        guard chain.request.tls, let name = config.sslUserName, sslVariable(name, r, chain).isEmpty else { return }
        chain.log("AH02227", "warn", "Failed to set r->user to '\(name)'")
    }

    /// Runs post_read_request work with `r.uri` as that phase has it: the path as received,
    /// not yet normalised or decoded (`SetEnvIf Request_URI "^/dir"` matches `/dir/../page.html`
    /// but not `/%64ir/`; recorded: env-setenvif-request-uri-raw).
    /// post_read_request (which internal_internal_redirect runs again): mod_headers' `early`
    /// lines (HOOK_FIRST) before mod_setenvif, which runs for main requests only (a subrequest
    /// has its parent's environment already).
    func postReadRequest(_ r: RequestRecord, _ chain: RequestChain) {
        // Only `Header always … early` lines read the snapshot; most sites have none, and a
        // record per request is not free.
        if !r.isSubrequest, site.vhost.block.headers.contains(where: { $0.always && $0.early }) {
            chain.postReadRecords.append(r.postReadSnapshot())
        }
        withReceivedURI(r) {
            let requestHeaders = site.vhost.block.requestHeaders
            // (A subrequest runs no post_read_request: ap_sub_req_lookup_* go to the later hooks.)
            if !requestHeaders.isEmpty, !r.isSubrequest { applyRequestHeaders(requestHeaders.filter(\.early), r, chain) }
            if !r.isSubrequest { applySetEnvIf(site.vhost.block.setEnvIf, r, chain) }
        }
    }

    private func withReceivedURI(_ r: RequestRecord, _ body: () -> Void) {
        guard let received = r.receivedURI, received != r.uri else { return body() }
        let uri = r.uri
        r.uri = received
        body()
        r.uri = uri
    }

    /// `SetEnvIf` / `BrowserMatch` / `SetEnvIfExpr` (apache-semantics §12), in configuration order.
    func applySetEnvIf(_ list: [SetEnvIfDirective], _ r: RequestRecord, _ chain: RequestChain) {
        // match_headers keeps one regmatch array and match source for the whole list: an
        // expression without a regex of its own substitutes the groups an earlier one left.
        guard !list.isEmpty else { return }
        var carried = Array(repeating: "", count: 10)
        let offsets = MatchOffsets()
        for d in list {
            // match_headers turns a NULL source (a failed regex with groups) into "" before each
            // entry: only the entry whose expression failed that regex sets `$1` as written. The
            // regmatch array keeps the last successful match's offsets, so ap_pregsub copies a
            // group that matched from "": from offset 0 that is the terminating NUL, which ends
            // the value there (`v$1w` is `v`; recorded: env-setenvifexpr-stale-group-ends-value).
            // (A group further in reads past "", memory we cannot know; it is cut there too.)
            if carried.isEmpty {
                carried = (0...9).map { n in
                    guard n < offsets.ranges.count, let g = offsets.ranges[n], !g.isEmpty else { return "" }
                    return "\u{0}"
                }
            }
            guard let groups = setEnvIfMatch(d, r, chain, carried: &carried, offsets: offsets) else { continue }
            for a in d.assignments {
                if a.unset { r.setEnvValue(a.name, nil); continue }
                var v = a.value
                // ap_pregsub: `$0`–`$9` from the match, a backslash makes the next byte literal
                // (`\$1` is `$1`), in one pass over the value.
                if !groups.isEmpty, v.containsByte(UInt8(ascii: "$")) || v.containsByte(UInt8(ascii: "\\")) {
                    v = Origin.substituteGroups(v) { $0 < groups.count ? groups[$0] : "" }
                    if let nul = v.firstIndex(of: "\u{0}") { v = String(v[..<nul]) }
                }
                r.setEnvValue(a.name, v)
            }
        }
    }

    /// The groups ($0…$9) when the directive's condition holds, nil when it does not. Empty
    /// for a `SetEnvIfExpr` whose last regex with groups failed: its match source is then
    /// NULL and the values are set as written (`$1` stays `$1`).
    private func setEnvIfMatch(_ d: SetEnvIfDirective, _ r: RequestRecord, _ chain: RequestChain,
                               carried: inout [String], offsets: MatchOffsets) -> [String]? {
        if let e = d.expression {
            var env = ExpressionContext(origin: self, record: r, chain: chain)
            env.addsVary = true
            env.matchSink = offsets
            let holds = e.evaluate(env, captures: &carried)
            return holds ? carried : nil
        }
        let value: String
        switch d.attribute.asciiLowercased() {
        case "request_uri": value = r.uri
        case "request_method": value = r.method
        case "request_protocol": value = "HTTP/1.1"
        case "remote_addr": value = chain.request.remoteAddress
        case "remote_host": value = chain.remoteHostName
        case "server_addr": value = chain.request.serverAddress
        default:
            if let names = d.headerNames {
                // mod_setenvif's loop keeps the value of the last header whose name matches.
                value = chain.request.headers.last { names.matches($0.name) }?.value ?? ""
            } else {
                // Any other name (`Query_String` too: mod_setenvif has no such attribute) is a request
                // header, else a variable set earlier; both tables ignore case. Neither present reads
                // as the empty string, so `^$` matches a missing header.
                value = chain.header(d.attribute) ?? r.envValue(d.attribute) ?? ""
            }
        }
        guard let m = d.regex.firstMatch(in: value) else { return nil }
        // A plain-string pattern is searched with apr_strmatch: no groups, values as written.
        if d.plainString { return [] }
        carried = (0...9).map { m[$0] }
        offsets.ranges = m.ranges
        return carried
    }
}
