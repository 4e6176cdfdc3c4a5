import HtlintApache
import HtlintDiagnostics

/// `HTTPS=on` set from a forwarded-scheme header: the application believes a plain request is secure.
struct ForwardedSchemeSetsHTTPS: LintRule {
    let description = RuleDescription(
        id: "HT408", name: "forwarded-scheme-sets-https", family: .security,
        summary: "`HTTPS=on` set from `X-Forwarded-Proto` (or `CF-Visitor`, `X-Forwarded-SSL`), a header any client can send",
        rationale: """
        `SetEnvIf X-Forwarded-Proto https HTTPS=on` (or `[E=HTTPS:on]` after a condition on the \
        header) tells PHP and other applications (`$_SERVER['HTTPS']`, WordPress's `is_ssl()`) that \
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
        ],
        nonTriggering: [
            Example("SetEnvIf X-Forwarded-Proto https FORWARDED_HTTPS=1"),
            Example("<If \"-R '203.0.113.0/24'\">\nSetEnvIf X-Forwarded-Proto https HTTPS=on\n</If>"),
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
            return found
        }
    }

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
