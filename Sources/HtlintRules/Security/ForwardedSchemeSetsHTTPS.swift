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
        for branch in IfBranchContext.all(in: file.config.block) {
            guard let test = branch.forwardedTest, let section = file.section(at: branch.range) else { continue }
            let setsHTTPS = branch.block.setEnv.contains { $0.0.uppercased() == "HTTPS" && Self.isOn($0.1) }
                || branch.block.setEnvIf.contains { d in
                    // One on the forwarded header itself is reported as such, above.
                    !ForwardedHeaders.names.contains(d.attribute.lowercased())
                        && d.assignments.contains { $0.name.uppercased() == "HTTPS" && !$0.unset && Self.isOn($0.value) }
                }
            guard setsHTTPS else { continue }
            // The directive itself, when it stands directly in the section.
            let directive = section.children.lazy.compactMap { node -> DirectiveNode? in
                guard case .directive(let d) = node, ["setenv", "setenvif", "setenvifnocase"].contains(d.key),
                      !(d.key != "setenv" && d.words.first.map { ForwardedHeaders.names.contains($0.value.lowercased()) } == true),
                      d.words.contains(where: { $0.value.uppercased() == "HTTPS" || $0.value.uppercased().hasPrefix("HTTPS=") }) else { return nil }
                return d
            }.first
            found.append(finding("`HTTPS` is set inside an `<If>` that trusts the `\(test.header)` header, which a client reaching the origin "
                                 + "directly can send over plain http; safe only when the origin accepts connections from the proxy alone",
                                 at: directive?.range ?? section.openRange))
        }
        for d in file.directives where d.key == "setenvifexpr" {
            let words = d.words
            guard words.count >= 2, let e = try? ApExpression(parsing: words[0].value),
                  let header = ExpressionReads.forwardedHeaders(e).first, !ExpressionReads.testsAddress(e),
                  words.dropFirst().contains(where: { w in
                      let v = w.value, upper = v.uppercased()
                      return upper == "HTTPS" || (upper.hasPrefix("HTTPS=") && Self.isOn(String(v.dropFirst(6))))
                  }) else { continue }
            // An enclosing `<If>` on the client's address makes it safe.
            let guarded = IfBranchContext.all(in: file.config.block).contains { b in
                b.range.start < d.range.start && d.range.end <= b.range.end
                    && b.conditions.contains { ExpressionReads.testsAddress($0.expression) }
            }
            guard !guarded else { continue }
            found.append(finding("`HTTPS` is set from the `\(header)` header, which a client reaching the origin directly can send "
                                 + "over plain http; safe only when the origin accepts connections from the proxy alone", at: d.range))
        }
        return found
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
