import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// `HTTPS=on` set from a forwarded-scheme header: the application believes a plain request is secure.
struct ForwardedSchemeSetsHTTPS: LintRule {
    let description = RuleDescription(
        id: "HT408", name: "forwarded-scheme-sets-https", family: .security,
        summary: "`HTTPS=on` set from `X-Forwarded-Proto` (or `CF-Visitor`, `X-Forwarded-SSL`), a header any client can send",
        rationale: """
        `SetEnvIf X-Forwarded-Proto https HTTPS=on` (or `[E=HTTPS:on]` after a condition on the \
        header, `SetEnvIfExpr` on it, or `SetEnv HTTPS on` inside \
        `<If "%{HTTP:X-Forwarded-Proto} == 'https'">`) tells PHP and other applications (`$_SERVER['HTTPS']`, WordPress's `is_ssl()`) that \
        the request arrived over TLS. Apache reads the header from whoever connects, so a client \
        that reaches the origin directly over plain http can claim https: the application then \
        skips its own https redirect, builds https URLs and treats the connection as secure for \
        cookies and login. A warning, unlike HT407: it changes the application's security decisions \
        for every request, not one redirect. It is only safe when the origin accepts connections \
        from the proxy alone; put the directive in `<If "-R '203.0.113.0/24'">` with the proxy's \
        ranges, or use mod_remoteip with trusted proxies and let the application read the header \
        only from them.
        """,
        severity: .warning,
        triggering: [
            Example("↓SetEnvIf X-Forwarded-Proto https HTTPS=on"),
            Example("↓SetEnvIfNoCase X-Forwarded-SSL ^on$ HTTPS"),
            Example("RewriteEngine On\n↓RewriteCond %{HTTP:X-Forwarded-Proto} =https\nRewriteRule ^ - [E=HTTPS:on]"),
            Example("<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\n↓SetEnv HTTPS on\n</If>"),
            Example("↓SetEnvIfExpr \"%{HTTP:X-Forwarded-Proto} == 'https'\" HTTPS=on"),
        ],
        nonTriggering: [
            Example("SetEnvIf X-Forwarded-Proto https FORWARDED_HTTPS=1"),
            Example("<If \"-R '203.0.113.0/24'\">\nSetEnvIf X-Forwarded-Proto https HTTPS=on\n</If>"),
            Example("<If \"-R '203.0.113.0/24' && %{HTTP:X-Forwarded-Proto} == 'https'\">\nSetEnv HTTPS on\n</If>"),
            Example("<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\nSetEnv FORWARDED_HTTPS on\n</If>"),
            Example("RewriteEngine On\nRewriteCond %{REMOTE_ADDR} ^10\\.\nRewriteCond %{HTTP:X-Forwarded-Proto} =https\nRewriteRule ^ - [E=HTTPS:on]"),
        ])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file -> [Diagnostic] in
            var found = setEnvIfs(file.config.block, file: file, guarded: false).map { d in
                finding("`HTTPS` is set from the `\(d.attribute)` header, which a client reaching the origin directly can send "
                        + "over plain http; safe only when the origin accepts connections from the proxy alone", at: d.range)
            }
            for rule in file.rules where setsHTTPS(rule) {
                let variables = Set(rule.conditions.flatMap(\.variables))
                guard variables.isDisjoint(with: ForwardedHeaders.addressVariables) else { continue }
                for c in rule.conditions where c.variables.contains(where: ForwardedHeaders.isForwarded(variable:)) {
                    found.append(finding("`HTTPS` is set when `\(c.rawTestString)` says https, a header a client reaching the "
                                         + "origin directly can send; safe only when the origin accepts connections from the proxy alone",
                                         at: c.range))
                }
            }
            found += ifFindings(file)
            return found
        }
    }

    /// `SetEnv HTTPS on` (or `SetEnvIf … HTTPS=on`) inside an `<If>` that tests a forwarded header,
    /// and `SetEnvIfExpr` on such a header: the same claim as `SetEnvIf X-Forwarded-Proto`.
    private func ifFindings(_ file: LintFile) -> [Diagnostic] {
        var found: [Diagnostic] = []
        let branches = IfBranchContext.all(in: file.config.block)
        for branch in branches {
            guard let test = branch.forwardedTest, let section = file.section(at: branch.range) else { continue }
            // One on the forwarded header itself (`SetEnvIf X-Forwarded-Proto …`, or a
            // `SetEnvIfExpr` that reads it) is reported as such, once, at the directive.
            let setEnvIf = branch.block.setEnvIf.first { d in
                !ForwardedHeaders.names.contains(d.attribute.lowercased()) && !Self.readsForwardedHeader(d)
                    && d.assignments.contains { $0.name.uppercased() == "HTTPS" && !$0.unset && Self.isOn($0.value) }
            }
            let setsEnv = branch.block.setEnv.contains { $0.0.uppercased() == "HTTPS" && Self.isOn($0.1) }
            guard setEnvIf != nil || setsEnv else { continue }
            // The directive itself: the `SetEnvIf`, or a `SetEnv` standing directly in the section.
            let setEnvDirective = !setsEnv ? nil : section.children.lazy.compactMap { node -> DirectiveNode? in
                guard case .directive(let d) = node, d.key == "setenv",
                      d.words.first.map({ $0.value.uppercased() == "HTTPS" }) == true else { return nil }
                return d
            }.first
            let location = [setEnvIf?.range, setEnvDirective?.range].compactMap { $0 }.min { $0.start < $1.start }
            found.append(finding("`HTTPS` is set inside an `<If>` that trusts the `\(test.header)` header, which a client reaching the origin "
                                 + "directly can send over plain http; safe only when the origin accepts connections from the proxy alone",
                                 at: location ?? section.openRange))
        }
        // `SetEnvIfExpr` reading the header, with the expression the reader already parsed.
        for d in Self.allSetEnvIf(file.config.block) {
            guard let e = d.expression, let header = ExpressionReads.forwardedHeaders(e).first, !ExpressionReads.testsAddress(e),
                  d.assignments.contains(where: { $0.name.uppercased() == "HTTPS" && !$0.unset && Self.isOn($0.value) }) else { continue }
            // An enclosing `<If>` on the client's address makes it safe.
            let guarded = branches.contains { b in
                b.range.start < d.range.start && d.range.end <= b.range.end
                    && b.conditions.contains { ExpressionReads.testsAddress($0.expression) }
            }
            guard !guarded else { continue }
            found.append(finding("`HTTPS` is set from the `\(header)` header, which a client reaching the origin directly can send "
                                 + "over plain http; safe only when the origin accepts connections from the proxy alone", at: d.range))
        }
        return found
    }

    /// Whether a `SetEnvIfExpr` reads a forwarded-scheme header.
    static func readsForwardedHeader(_ d: SetEnvIfDirective) -> Bool {
        d.expression.map { !ExpressionReads.forwardedHeaders($0).isEmpty } ?? false
    }

    /// Every `SetEnvIf`/`SetEnvIfExpr` of a block and the sections inside it, in no particular order.
    static func allSetEnvIf(_ b: ConfigBlock) -> [SetEnvIfDirective] {
        var out = b.setEnvIf
        for f in b.files { out += allSetEnvIf(f.block) }
        for chain in b.ifChains { for branch in chain.branches { out += allSetEnvIf(branch.block) } }
        if let server = b.server {
            for d in server.directories { out += allSetEnvIf(d.block) }
            for l in server.locations { out += allSetEnvIf(l.block) }
        }
        return out.sorted { $0.range.start < $1.range.start }
    }

    /// A value that claims https (anything but empty or `off`).
    static func isOn(_ value: String) -> Bool { !["", "off", "0"].contains(value.lowercased()) }

    /// `SetEnvIf` directives on a forwarded header that set `HTTPS`, outside `<If>` sections that
    /// test the client's address.
    private func setEnvIfs(_ block: ConfigBlock, file: LintFile, guarded: Bool) -> [SetEnvIfDirective] {
        var out = guarded ? [] : block.setEnvIf.filter { d in
            ForwardedHeaders.names.contains(d.attribute.lowercased())
                && d.assignments.contains { $0.name.uppercased() == "HTTPS" && !$0.unset && !["", "off"].contains($0.value.lowercased()) }
        }
        for f in block.files { out += setEnvIfs(f.block, file: file, guarded: guarded) }
        for chain in block.ifChains {
            for branch in chain.branches {
                let opening = file.text(branch.range).split(separator: "\n").first.map { $0.lowercased() } ?? ""
                let byAddress = opening.contains("-r ") || opening.contains("remote_addr") || opening.contains("-ipmatch")
                out += setEnvIfs(branch.block, file: file, guarded: guarded || byAddress)
            }
        }
        return out
    }

    /// `[E=HTTPS:…]` with a value other than `off`.
    private func setsHTTPS(_ rule: RewriteRule) -> Bool {
        rule.flags.env.contains { t in
            let text = t.parts.map { if case .literal(let s) = $0 { s } else { "?" } }.joined().lowercased()
            return text.hasPrefix("https:") && text != "https:off" && text != "https:"
        }
    }
}
