/// mod_authz_core's evaluation of `Require` lines and `<RequireAll/Any/None>` containers.
enum AuthzResult {
    case granted, denied
    /// Denied for want of an authenticated user (AUTHZ_DENIED_NO_USER): a user might be granted.
    case deniedNoUser
    /// Neither: a line limited to other methods, a negated line that did not match.
    case neutral
}

extension Origin {
    /// Whether the block's authorization grants the request; nil when it has no `Require` for
    /// this method (nothing to decide here). Top-level lines form an implicit `<RequireAny>`
    /// limited to the union of their methods; anything but a grant is a 403.
    func authorize(_ lines: [AccessDirective], _ r: RequestRecord, _ chain: RequestChain) -> AuthzResult? {
        guard !lines.isEmpty else { return nil }
        // The implicit container covers the methods its lines cover: a method outside them is not checked.
        let covered = lines.contains { methods(of: $0).map { $0.contains(Origin.limitName(r.method)) } ?? true }
        guard covered else { return nil }
        let root = AccessDirective.requireSection(logic: .any, children: lines)
        switch evaluate(root, parent: .all, r, chain) {
        case .granted: return .granted
        case .deniedNoUser: return .deniedNoUser
        case .denied, .neutral: return .denied
        }
    }

    /// The methods a node is checked for; nil for all. A container's are its lines' together
    /// (recorded: access-require-section-methods-from-children).
    private func methods(of a: AccessDirective) -> Set<String>? {
        switch a {
        case .require(_, _, _, let m), .requireExpr(_, _, let m): m
        case .requireSection(_, let children):
            children.filter(\.isAuthorization).reduce(Optional(Set<String>())) { all, child in
                guard let all, let m = methods(of: child) else { return nil }
                return all.union(m)
            }
        case .order, .allow, .deny, .satisfy: nil
        }
    }

    /// One node, as apply_authz_sections does it: a line outside its `<Limit>` is neutral
    /// (granted inside `<RequireAll>`); negation turns a grant into a denial and a denial into
    /// neutral, never into a grant.
    func evaluate(_ a: AccessDirective, parent: AuthzLogic, _ r: RequestRecord, _ chain: RequestChain) -> AuthzResult {
        if let m = methods(of: a), !m.contains(Origin.limitName(r.method)) { return parent == .all ? .granted : .neutral }
        let result: AuthzResult
        let negated: Bool
        switch a {
        case .require(let n, let kind, let values, _):
            negated = n
            // The host provider looks the client's name up first, whatever its words.
            if kind == "host" { chain.remoteHostLookedUp = true }
            // No request here carries credentials: user-based providers never see a user.
            result = Origin.userProviders.contains(kind) ? .deniedNoUser : provider(kind, values, r, chain) ? .granted : .denied
        case .requireExpr(let n, let expression, _):
            negated = n
            var captures: [String] = []
            var env = ExpressionContext(origin: self, record: r, chain: chain)
            env.addsVary = true  // a granted request keeps the headers read in its Vary
            // mod_authz_core notes at parse time whether the expression reads REMOTE_USER: then a
            // false one is "denied for want of a user" and asks for authentication.
            result = expression.evaluate(env, captures: &captures) ? .granted
                : expression.readsVariable("REMOTE_USER") ? .deniedNoUser : .denied
        case .requireSection(let logic, let children):
            negated = logic == .none
            let and = logic == .all
            // apply_authz_sections: a denial for want of a user survives where a user could
            // still change the outcome.
            var combined = AuthzResult.neutral
            for child in children where child.isAuthorization {
                let c = evaluate(child, parent: logic, r, chain)
                if c == .neutral { continue }
                if and {
                    if c == .denied { combined = .denied; break }
                    if (c == .deniedNoUser && combined != .denied) || combined == .neutral { combined = c }
                } else {
                    if c == .granted { combined = .granted; break }
                    if (c == .deniedNoUser && combined == .denied) || combined == .neutral { combined = c }
                }
            }
            result = combined
        case .order, .allow, .deny, .satisfy:
            return .neutral
        }
        guard negated else { return result }
        return result == .granted ? .denied : .neutral
    }

    /// Providers that decide on the authenticated user.
    static let userProviders: Set<String> = ["user", "valid-user", "group", "dbm-group", "dbm-file-group", "file-owner",
                                             "file-group", "dbd-group"]

    /// A `Require` needs a user and the request has none: mod_auth_basic asks the browser for
    /// credentials (401 with a challenge); without a usable `AuthType`, Apache answers 500.
    func authenticationRequired(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> Int {
        guard let type = config.authType, type.asciiLowercased() != "none" else {
            // Without any authn module no check_user_id hook answers: decl_die logs AH00025.
            guard ["authn_core", "auth_basic", "auth_digest", "auth_form"].contains(where: site.modules.contains) else {
                chain.log("AH00025", "crit", "configuration error:  couldn't check user: \(r.uri)")
                chain.note(.status, "500: a `Require` needs an authenticated user, but no authentication module is loaded")
                return 500
            }
            chain.log("AH00027", "error", "No authentication done but request not allowed without authentication for \(r.uri). Authentication not configured?")
            chain.note(.status, "500: a `Require` needs an authenticated user, but no `AuthType` is set")
            return 500
        }
        // mod_auth_digest answers `AuthType Digest` like mod_auth_basic `Basic` (recorded:
        // access-authn-digest-challenge): its own AH01780 without AuthName, else a challenge
        // whose nonce is made from the time (htlint's is a placeholder).
        let digest = type.asciiLowercased() == "digest" && site.modules.contains("auth_digest")
        guard (type.asciiLowercased() == "basic" && site.modules.contains("auth_basic")) || digest else {
            chain.log("AH01796", "error", "AuthType \(type) configured without corresponding module")
            chain.note(.status, "500: no loaded module handles `AuthType \(type)`")
            return 500
        }
        guard let written = config.authName else {
            chain.log(digest ? "AH01780" : "AH01615", "error", "need AuthName: \(r.uri)")
            chain.note(.status, "500: `AuthType \(digest ? "Digest" : "Basic")` without `AuthName`")
            return 500
        }
        // ap_auth_name evaluates the realm's expression for the request.
        let realm = config.authNameExpression.map { $0.evaluate(ExpressionContext(origin: self, record: r, chain: chain), []) } ?? written
        // Basic credentials sent: mod_authn_file opens AuthUserFile before it looks for the user,
        // and a file it cannot open is a 500 for everyone who logs in (AH01620; a cPanel
        // "Directory Privacy" block whose password file stayed behind on the old server)
        // (recorded: access-authn-file-missing-password-file).
        if !digest, let credentials = chain.header("Authorization") {
            let parts = credentials.split(separator: " ", maxSplits: 1)
            if parts.first?.asciiLowercased() != "basic" {
                chain.log("AH01614", "error", "client used wrong authentication scheme: \(r.uri)")
            } else if (config.authBasicProviders ?? ["file"]) != ["file"] {
                // (Other providers are not modelled: the browser is asked, as without credentials.)
            } else if config.authUserFile == nil, site.modules.contains("authn_file") {
                // The default provider, mod_authn_file, without a file is a general error (recorded:
                // access-authn-file-not-specified).
                chain.log("AH01619", "error", "AuthUserFile not specified in the configuration")
                chain.note(.status, "500: the credentials are checked by mod_authn_file, but no `AuthUserFile` is set")
                return 500
            } else if let file = config.authUserFile, site.modules.contains("authn_file") {
                let path = file.hasBytePrefix("/") ? file : "/etc/apache2/" + file
                guard let lines = site.files.isFile(path) ? site.files.contents(path) : nil else {
                    chain.log("AH01620", "error", "Could not open password file: \(path)")
                    chain.note(.status, "500: the credentials are checked against `AuthUserFile \(file)`, which cannot be opened")
                    return 500
                }
                // The user is the decoded credentials up to the first colon; a file without
                // that user is AH01618 (a wrong password, which htlint cannot check, logs nothing).
                let decoded = base64Decode(parts.count > 1 ? String(parts[1].drop { $0 == " " }) : "")
                let user = Array(decoded.prefix { $0 != UInt8(ascii: ":") })
                let listed = lines.split(separator: UInt8(ascii: "\n")).contains { line in
                    line.first != UInt8(ascii: "#") && Array(line.prefix { $0 != UInt8(ascii: ":") }) == user
                }
                if !listed {
                    chain.log("AH01618", "error", "user \(String(decoding: user, as: UTF8.self)) not found: \(r.uri)")
                }
            }
        }
        // get_digest_rec reads the scheme up to the first white space: any other than Digest is
        // AH01781 before the challenge (recorded: access-authn-digest-wrong-scheme). (Digest
        // credentials themselves are not modelled: the browser is asked, as without them.)
        if digest, let credentials = chain.header("Authorization") {
            let scheme = String(credentials.prefix { $0 != " " && $0 != "\t" })
            if scheme.asciiLowercased() != "digest" {
                chain.log("AH01781", "error", "client used wrong authentication scheme `\(scheme)': \(r.uri)")
            }
        }
        if digest {
            chain.readsClock = true
            r.wwwAuthenticate = "Digest realm=\"\(realm)\", nonce=\"(time-based)\", algorithm=MD5, qop=\"auth\""
        } else {
            r.wwwAuthenticate = "Basic realm=\"\(realm)\""
        }
        chain.note(.status, "401: a `Require` needs a user; the browser asks for credentials (realm \(realm))")
        return 401
    }

    /// An authorization provider's answer (mod_authz_core, mod_authz_host).
    private func provider(_ kind: String, _ values: [String], _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        switch kind {
        case "all": values.first?.asciiLowercased() == "granted"
        case "ip": values.contains { ipMatches($0, chain.request.remoteAddress) }
        case "host": values.contains { inDomain($0, clientHostName) }
        // Each name's addresses against the client's; a name that needs DNS resolves to nothing
        // here, as in the oracle's network (recorded: access-require-forward-dns-localhost).
        case "forward-dns": values.contains { name in
            let hosts = name.asciiLowercased() == clientHostName ? clientHostName : name
            guard let a = RemoteIPSettings.address(hosts) else {
                chain.log("AH03356", "warn", "No sockaddr info for \"\(name)\"")
                return false
            }
            return a.text == chain.request.remoteAddress
        }
        // Compared by method number: HEAD is M_GET, so `Require method GET` lets HEAD in too.
        case "method": values.map { Origin.methodNumberName($0.asciiUppercased()) }.contains(Origin.methodNumberName(r.method))
        case "env": values.contains { r.envValue($0) != nil }
        case "local": chain.request.remoteAddress.hasBytePrefix("127.") || chain.request.remoteAddress == "::1"
        // mod_ssl's providers: the connection is TLS; `ssl-verify-client` wants a verified client
        // certificate, which the simulated browser never sends (recorded: access-require-ssl).
        case "ssl": chain.request.tls
        default: false
        }
    }

    /// The name of the method number Apache gives a method (HEAD shares GET's).
    static func methodNumberName(_ method: String) -> String { method == "HEAD" ? "GET" : method }
}
