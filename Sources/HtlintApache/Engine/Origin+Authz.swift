/// mod_authz_core's evaluation of `Require` lines and `<RequireAll/Any/None>` containers.
enum AuthzResult {
    case granted, denied
    /// Neither: a line limited to other methods, a negated line that did not match.
    case neutral
}

extension Origin {
    /// Whether the block's authorization grants the request; nil when it has no `Require` for
    /// this method (nothing to decide here). Top-level lines form an implicit `<RequireAny>`
    /// limited to the union of their methods; anything but a grant is a 403.
    func authorize(_ lines: [AccessDirective], _ r: RequestRecord, _ chain: RequestChain) -> Bool? {
        guard !lines.isEmpty else { return nil }
        // The implicit container covers the methods its lines cover: a method outside them is not checked.
        let covered = lines.contains { methods(of: $0).map { $0.contains(r.method) } ?? true }
        guard covered else { return nil }
        let root = AccessDirective.requireSection(logic: .any, children: lines, methods: nil)
        return evaluate(root, parent: .all, r, chain) == .granted
    }

    private func methods(of a: AccessDirective) -> Set<String>? {
        switch a {
        case .require(_, _, _, let m), .requireExpr(_, _, let m), .requireSection(_, _, let m): m
        case .order, .allow, .deny: nil
        }
    }

    /// One node, as apply_authz_sections does it: a line outside its `<Limit>` is neutral
    /// (granted inside `<RequireAll>`); negation turns a grant into a denial and a denial into
    /// neutral, never into a grant.
    func evaluate(_ a: AccessDirective, parent: AuthzLogic, _ r: RequestRecord, _ chain: RequestChain) -> AuthzResult {
        if let m = methods(of: a), !m.contains(r.method) { return parent == .all ? .granted : .neutral }
        let result: AuthzResult
        let negated: Bool
        switch a {
        case .require(let n, let kind, let values, _):
            negated = n
            result = provider(kind, values, r, chain) ? .granted : .denied
        case .requireExpr(let n, let expression, _):
            negated = n
            var captures: [String] = []
            let env = ExpressionContext(origin: self, record: r, chain: chain)
            result = expression.evaluate(env, captures: &captures) ? .granted : .denied
        case .requireSection(let logic, let children, _):
            negated = logic == .none
            let and = logic == .all
            var combined = AuthzResult.neutral
            for child in children where child.isAuthorization {
                let c = evaluate(child, parent: logic, r, chain)
                if c == .neutral { continue }
                if and, c == .denied { combined = .denied; break }
                if !and, c == .granted { combined = .granted; break }
                if combined == .neutral { combined = c }
            }
            result = combined
        case .order, .allow, .deny:
            return .neutral
        }
        guard negated else { return result }
        return result == .granted ? .denied : .neutral
    }

    /// An authorization provider's answer (mod_authz_core, mod_authz_host).
    private func provider(_ kind: String, _ values: [String], _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        switch kind {
        case "all": values.first?.lowercased() == "granted"
        case "ip": values.contains { ipMatches($0, chain.request.remoteAddress) }
        case "host": values.contains { "localhost".hasSuffix($0.lowercased()) }
        case "method": values.map { $0.uppercased() }.contains(r.method)
        case "env": values.contains { r.env[$0] != nil }
        case "local": chain.request.remoteAddress.hasPrefix("127.") || chain.request.remoteAddress == "::1"
        default: false
        }
    }
}
