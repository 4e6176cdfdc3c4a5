import HtlintApache
import HtlintDiagnostics
import HtlintSyntax

/// An https redirect that compares `X-Forwarded-Proto` with one whole value (`!=https`,
/// `!^https$`, `=http`), while chained proxies send a list (scenario S09).
struct ForwardedProtoExactTest: LintRule {
    let description = RuleDescription(
        id: "HT314", name: "forwarded-proto-exact-test", family: .https,
        summary: "an https redirect compares `X-Forwarded-Proto` with a single value, but chained proxies send a list (`https, http`)",
        rationale: """
        Each proxy that forwards a request may append its own scheme to `X-Forwarded-Proto` instead \
        of replacing it: behind a CDN in front of a load balancer the origin receives \
        `X-Forwarded-Proto: https, http` (or `http,https`), a comma-separated list, as the WordPress \
        handbook warns. A test of the whole value (`RewriteCond %{HTTP:X-Forwarded-Proto} !=https`, \
        `!^https$`, `<If "%{HTTP:X-Forwarded-Proto} != 'https'">`) is then true on every https \
        request and the redirect loops (ERR_TOO_MANY_REDIRECTS); a test for `=http` (or `^http$`) \
        is false for every list, so http visitors are never sent to https. The element the visitor's \
        scheme ends up in is the first one, added by the proxy that ends TLS: test that one, \
        `!^https` instead of `!=https` (`!~ /^https/` in an `<If>`) and `^http\\b` instead of `=http`. \
        The regex forms without anchors (`!https`) and the tests of other rules (`SetEnvIf`, \
        `[E=HTTPS:on]`) are not reported here.
        """,
        severity: .warning,
        triggering: [
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:X-Forwarded-Proto} !=https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:X-Forwarded-Proto} !^https$ [NC]
                RewriteRule ^(.*)$ https://example.com/$1 [R=301,L]
                """),
            Example("""
                RewriteEngine On
                ↓RewriteCond %{HTTP:X-Forwarded-Proto} =http
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                ↓<If "%{HTTP:X-Forwarded-Proto} != 'https'">
                Redirect 301 / https://example.com/
                </If>
                """),
        ],
        nonTriggering: [
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP:X-Forwarded-Proto} !^https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP:X-Forwarded-Proto} !https
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP:X-Forwarded-Proto} ^http\\b
                RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
                """),
            // Not a redirect: HT408's business.
            Example("RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} =https\nRewriteRule ^ - [E=HTTPS:on]"),
            Example("""
                <If "%{HTTP:X-Forwarded-Proto} !~ /^https/">
                Redirect 301 / https://example.com/
                </If>
                """),
        ])

    /// What the exact test asks of the header.
    enum Kind {
        /// Redirect unless the value is exactly `https` (a list loops).
        case notHTTPS
        /// Redirect only when the value is exactly `http` (a list is never redirected).
        case onlyHTTP

        var consequence: String {
            switch self {
            case .notHTTPS: "the test is then true on every https request and the redirect loops"
            case .onlyHTTP: "the test is then false for every list and http visitors are not sent to https"
            }
        }
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.flatMap { file in rewriteFindings(file) + ifFindings(file) }
    }

    private func rewriteFindings(_ file: LintFile) -> [Diagnostic] {
        // Indexing every directive costs a pass over a large file: only once something is found.
        var byRange: [SourceRange: DirectiveNode]? = nil
        var reported = Set<SourceRange>()
        return file.rules.flatMap { rule -> [Diagnostic] in
            // Cheapest tests first: this runs for every rule of a 100,000-rule file.
            guard !rule.conditions.isEmpty, rule.redirects || (rule.targetsURL && !rule.flags.proxy),
                  equalsIgnoringASCIICase(String(rule.rawSubstitution.prefix(8)), "https://") else { return [] }
            return rule.conditions.compactMap { c -> Diagnostic? in
                guard c.variables == ["HTTP:X-FORWARDED-PROTO"], c.rawTestString.uppercased() == "%{HTTP:X-FORWARDED-PROTO}",
                      let kind = Self.kind(of: c), reported.insert(c.range).inserted else { return nil }
                let suggestion = kind == .notHTTPS ? "!^https" : "^http\\b"
                var fixes: [FixIt] = []
                if byRange == nil { byRange = file.directivesByRange }
                if let d = byRange?[c.range], d.words.count >= 2 {
                    fixes.append(FixIt(title: "Test the first element: `\(suggestion)`",
                                       edits: [TextEdit(range: d.words[1].range, replacement: suggestion)], applicability: .unsafe))
                }
                return finding("`\(c.rawTestString) \(c.rawPattern)` compares the whole header, but chained proxies (a CDN in front of a "
                               + "load balancer) send a list such as `https, http`: \(kind.consequence); test the first element with `\(suggestion)`",
                               at: c.range, fixes: fixes)
            }
        }
    }

    /// `=https`/`^https$` negated, or `=http`/`^http$` as is; other tests are not exact.
    static func kind(of c: RewriteCondition) -> Kind? {
        let value: String
        switch c.test {
        case .string("=", let operand):
            guard operand.parts.count == 1, case .literal(let s) = operand.parts[0] else { return nil }
            value = s.lowercased()
        case .regex:
            let pattern = (c.negated ? String(c.rawPattern.drop(while: { $0 == "!" })) : c.rawPattern).lowercased()
            guard pattern.hasPrefix("^"), pattern.hasSuffix("$") else { return nil }
            value = String(pattern.dropFirst().dropLast())
        default: return nil
        }
        return kind(value: value, differs: c.negated)
    }

    /// `<If "%{HTTP:X-Forwarded-Proto} != 'https'">` (or the `<Else>` of `== 'https'`) around an
    /// https redirect.
    private func ifFindings(_ file: LintFile) -> [Diagnostic] {
        var reported = Set<SourceRange>()
        return IfBranchContext.all(in: file.config.block).compactMap { branch -> Diagnostic? in
            guard ForwardedSchemeOnlyTest.redirectsToHTTPS(branch.block) else { return nil }
            for c in branch.conditions {
                guard let kind = Self.kind(of: c.expression, negated: !c.holds), reported.insert(c.range).inserted else { continue }
                let suggestion = kind == .notHTTPS ? "%{HTTP:X-Forwarded-Proto} !~ /^https/" : "%{HTTP:X-Forwarded-Proto} =~ /^http\\b/"
                let opening = file.section(at: c.range)?.openRange ?? SourceRange(file: c.range.file, start: c.range.start, end: c.range.start)
                return finding("this `<If>` compares the whole `X-Forwarded-Proto` header, but chained proxies (a CDN in front of a "
                               + "load balancer) send a list such as `https, http`: \(kind.consequence); test the first element with `\(suggestion)`",
                               at: opening)
            }
            return nil
        }
    }

    /// The first exact comparison of the header in an expression, with `!` and `!=` folded in.
    static func kind(of e: ApExpression, negated: Bool) -> Kind? {
        switch e {
        case .constant, .inList, .unary: return nil
        case .not(let a): return kind(of: a, negated: !negated)
        case .and(let a, let b), .or(let a, let b): return kind(of: a, negated: negated) ?? kind(of: b, negated: negated)
        case .compare(let op, let l, let r):
            guard ["==", "=", "!="].contains(op) else { return nil }
            let value: String
            if isForwardedProto(l), case .literal(let s) = r { value = s } else if isForwardedProto(r), case .literal(let s) = l { value = s } else { return nil }
            return kind(value: value.lowercased(), differs: negated != (op == "!="))
        case .match(let w, let regex, let notMatching):
            let p = regex.pattern.lowercased()
            guard isForwardedProto(w), p.hasPrefix("^"), p.hasSuffix("$") else { return nil }
            return kind(value: String(p.dropFirst().dropLast()), differs: negated != notMatching)
        }
    }

    private static func kind(value: String, differs: Bool) -> Kind? {
        switch (value, differs) {
        case ("https", true): .notHTTPS
        case ("http", false): .onlyHTTP
        default: nil
        }
    }

    private static func isForwardedProto(_ w: ExprWord) -> Bool {
        switch w {
        case .header(let name): return name.lowercased() == "x-forwarded-proto"
        case .variable(let v): return v.uppercased() == "HTTP:X-FORWARDED-PROTO"
        case .function(let fn, .literal(let name)):
            return ["req", "http", "req_novary"].contains(fn.lowercased()) && name.lowercased() == "x-forwarded-proto"
        default: return false
        }
    }
}
