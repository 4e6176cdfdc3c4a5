import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// The access phase: mod_allowmethods, host lines, `Require`.
extension Origin {
    /// mod_allowmethods hooks the access checker without AP_AUTH_INTERNAL_PER_CONF, which turns
    /// auth_internal_per_conf off: a directory walk its cache does not find familiar, or a
    /// location or file walk that merges a section for another URI or file name than the one it
    /// cached, then always merges a configuration of its own, and authz runs again (recorded:
    /// access-allowmethods-errordocument-other-directory-rechecked,
    /// access-allowmethods-errordocument-section-rechecked). Updates the walks' caches.
    func allowMethodsWalksAfresh(_ r: RequestRecord, _ walk: WalkResult, familiar: Bool) -> Bool {
        let keys = walk.config.objectKeys
        let base = String(lastPathComponent(walk.filename))
        // strcmp of the URI and the name (recorded: access-allowmethods-errordocument-other-normal-form-rechecked).
        let fresh = !familiar || (keys.contains { $0.hasBytePrefix("loc#") } && !sameBytes(r.locationWalkURI, r.uri))
            || (keys.contains { $0.hasBytePrefix("files:") || $0.hasBytePrefix("server-files:") } && !sameBytes(r.fileWalkName, base))
        if !(site.vhost.block.server?.locations.isEmpty ?? true) { r.locationWalkURI = r.uri }
        r.fileWalkName = base
        return fresh
    }

    /// What authz_core and mod_access_compat name in their denial: r->filename, or `uri ` and
    /// the URI when there is none (recorded: alias-redirect-status-zero-server-context).
    private func deniedName(_ r: RequestRecord) -> String { r.filename ?? "uri " + r.uri }

    /// Access control: `.ht*` files, `Require`, `Order/Allow/Deny` (simplified; apache-semantics §1.1 row 8).
    func checkAccess(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> Int? {
        if let refused = allowMethodsRefuses(r, config, chain) { return refused }
        let base = r.filename.map(lastPathComponent) ?? ""
        func deny(_ why: String, code: String = "AH01630") -> Int {
            chain.log(code, "error", "client denied by server configuration: \(deniedName(r))")
            chain.note(.status, "403: \(why)")
            return 403
        }
        if base.hasBytePrefix(".ht"), !config.access.contains(where: \.isAuthorization) {
            return deny("files named .ht* are denied")
        }
        if let f = r.filename, f.hasBytePrefix("/"), !(f == site.mountedRoot || f.hasBytePrefix(site.mountedRoot + "/")),
           !config.access.contains(where: \.isAuthorization) {
            // Outside the document root the server's `<Directory />` (Require all denied) holds
            // unless a `<Directory>`, `<Location>` or `<If>` covering the file has its own `Require`.
            return deny("outside the document root, and no section grants access")
        }
        var order = "deny,allow", allows: [String] = [], denies: [String] = []
        var compat = false, satisfyAny = false
        for a in config.access {
            switch a {
            case .order(let o, let methods):
                // A method outside the line's `<Limit>` keeps the default (recorded: access-compat-order-per-method).
                if methods?.contains(Origin.limitName(r.method)) ?? true { order = o }
                compat = true
            case .allow(let from, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                allows += from; compat = true
            case .deny(let from, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                denies += from; compat = true
            case .satisfy(let any, let methods):
                if let m = methods, !m.contains(Origin.limitName(r.method)) { continue }
                satisfyAny = any; compat = true
            case .require, .requireExpr, .requireSection: continue
            }
        }
        // mod_ssl's access checker runs first (recorded: access-sslrequiressl-before-host-lines):
        // `SSLRequireSSL` refuses a request that did not arrive over TLS (behind a TLS-terminating
        // edge, every one), and the refusal ends the phase before mod_access_compat looks. Under
        // `Satisfy Any` `Require` then decides (where it needs a user, `SSLOptions +StrictRequire`
        // refuses again in mod_ssl's check_authn hook: `sslUserCheck`).
        var sslRefuses = config.sslRequired && !chain.request.tls
        if sslRefuses {
            chain.log("AH02219", "error", "access to \(r.filename ?? "") failed, reason: SSL connection required")
            guard satisfyAny else {
                chain.note(.status, "403: SSLRequireSSL, and the request did not arrive over TLS")
                return 403
            }
        }
        // Over TLS a per-directory `SSLVerifyClient` next: its refusal (403, or 413 for a body it
        // cannot buffer) ends mod_ssl's checks, and under `Satisfy Any` leaves the decision to
        // `Require` like the others (recorded: https-sslverifyclient-satisfy-any-require-decides).
        // (It sets no `ssl-access-forbidden` note: `+StrictRequire` does not refuse again.)
        let sslForbidden = sslRefuses
        var sslRequireFailed = false
        if !sslRefuses, let refused = sslVerifyClientRefusal(r, config, chain) {
            sslRefuses = true
            guard satisfyAny else { return refused }
        }
        // Then, over TLS only (plain http leaves mod_ssl's checker before them), each `SSLRequire`
        // expression (recorded: access-sslrequire-over-tls-only).
        if chain.request.tls, !sslRefuses, !config.sslRequirements.isEmpty {
            var env = ExpressionContext(origin: self, record: r, chain: chain)
            env.addsVary = true
            var captures: [String] = []
            if !config.sslRequirements.allSatisfy({ $0.evaluate(env, captures: &captures) }) {
                chain.log("AH02229", "error", "access to \(r.filename ?? "") failed, reason: SSL requirement expression not fulfilled")
                sslRefuses = true
                sslRequireFailed = true
                guard satisfyAny else {
                    chain.note(.status, "403: an SSLRequire expression does not hold")
                    return 403
                }
            }
        }
        // mod_access_compat checks in the access_checker phase, before mod_authz_core's
        // `Require` (access_checker_ex) and before any authentication is asked for.
        if compat, !sslRefuses {
            let addr = chain.request.remoteAddress
            // `env=NAME` / `env=!NAME` test the environment (SetEnvIf ran in header_parser).
            func matches(_ from: String) -> Bool {
                if from.asciiLowercased() == "all" { return true }
                if from.asciiLowercased().hasBytePrefix("env=") {
                    var name = dropLeadingBytes(from, 4)
                    let negated = name.hasBytePrefix("!")
                    if negated { name = dropLeadingBytes(name, 1) }
                    return (r.envValue(name) != nil) != negated
                }
                // A word that is no address names a host (allow_cmd's T_HOST).
                if !from.utf8.contains(UInt8(ascii: "/")), !ConfigReader.looksLikeIP(from) {
                    chain.remoteHostLookedUp = true
                    return inDomain(from, clientHostName)
                }
                return ipMatches(from, addr)
            }
            let allowed = allows.contains(where: matches)
            let denied = denies.contains(where: matches)
            // Only deny,allow lets in a request no line names; mutual-failure is allow,deny's test.
            let ok = order == "deny,allow" ? (!denied || allowed) : (allowed && !denied)
            // `Satisfy Any`: the host-based lines letting a request in are enough (no `Require`,
            // no credentials); refusing it leaves the decision to `Require` (request.c).
            if ok, satisfyAny {
                chain.note(.note, "`Satisfy Any`: Order/Allow/Deny let the request in; `Require` is not consulted")
                return nil
            }
            if !ok {
                guard satisfyAny else { return deny("Order/Allow/Deny", code: "AH01797") }
                chain.log("AH01797", "error", "client denied by server configuration: \(deniedName(r))")
            }
        }
        switch authorize(config.access.filter(\.isAuthorization), r, chain) {
        case .denied?: return deny("Require")
        case .deniedNoUser?: return sslUserCheck(r, config, chain, sslForbidden: sslForbidden || sslRequireFailed) ?? authenticationRequired(r, config, chain)
        default: break
        }
        return nil
    }
}
