import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// `RewriteRule ^(.*)$ blog/$1 [L]` without a guard: after the internal redirect the same rule
/// matches `blog/…` again, and again, until Apache gives up with 500.
struct SubfolderWithoutGuard: LintRule {
    let description = RuleDescription(
        id: "HT212", name: "subfolder-rewrite-without-guard", family: .semantics,
        summary: "a catch-all rewrite into a subfolder that also matches its own result",
        rationale: """
        In `.htaccess`, `[L]` ends only the current pass: the rewritten URL is redirected internally \
        and the rules run again on `blog/…`, producing `blog/blog/…` until `LimitInternalRecursion` \
        answers **500** (apache-semantics §4.10, §15.4) — unless the subfolder has its own \
        `.htaccess` with rewrite rules. Guard the rule with `RewriteCond %{REQUEST_URI} !^/blog/` \
        (a negated condition on `$1` that excludes the target, as CodeIgniter's, works too), or use \
        `[END]`. When the site can be simulated, the loop must show in a simulated request.
        """,
        severity: .error,
        triggering: [Example("RewriteEngine On\nRewriteRule ^(.*)$ ↓blog/$1 [L]"),
                     Example("RewriteEngine On\nRewriteRule (.*) ↓/public/$1")],
        nonTriggering: [Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/blog/\nRewriteRule ^(.*)$ blog/$1 [L]"),
                        Example("RewriteEngine On\nRewriteRule ^(.*)$ blog/$1 [END]"),
                        Example("RewriteEngine On\nRewriteCond %{ENV:REDIRECT_STATUS} ^$\nRewriteRule ^(.*)$ blog/$1 [L]"),
                        // Stock CodeIgniter: the negated condition on `$1` excludes `index.php/…` (Apache: 404, not 500).
                        Example("""
                                RewriteEngine On
                                RewriteCond $1 !^(index\\.php|assets|robots\\.txt)
                                RewriteRule ^(.*)$ index.php/$1 [L]
                                """)])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file in
            file.rules.compactMap { rule -> Diagnostic? in
                guard isCatchAll(rule.pattern), !rule.negated, !rule.flags.end, !rule.redirects, !rule.targetsURL,
                      rule.flags.statusOverride == nil else { return nil }
                var sub = rule.rawSubstitution
                if sub.hasPrefix("/") { sub.removeFirst() }
                guard let slash = sub.firstIndex(of: "/"), sub[sub.index(after: slash)...].hasPrefix("$"),
                      !sub[..<slash].contains("$"), !sub[..<slash].contains("%") else { return nil }
                let folder = String(sub[..<slash])
                // A condition that looks at the URL, the mapped file or the redirect state counts as a guard.
                let guards = ["REQUEST_URI", "REQUEST_FILENAME", "SCRIPT_FILENAME", "THE_REQUEST", "ENV:REDIRECT_STATUS", "IS_SUBREQ"]
                if rule.conditions.contains(where: { c in c.variables.contains { guards.contains($0) } }) { return nil }
                // A negated condition on a capture (`RewriteCond $1 !^(index\.php|…)`) that matches the
                // rule's own output stops the second pass.
                if rule.conditions.contains(where: { c in
                    guard c.negated, case .regex(let re) = c.test,
                          c.testString.parts.contains(where: { if case .ruleCapture = $0 { true } else { false } }) else { return false }
                    return re.matches(folder + "/x")
                }) { return nil }
                // With a simulated site, report only the loop a request shows.
                if let sim = context.simulator, !Self.simulatedLoop(sim, directory: file.directory ?? "/", hosts: context.hosts) {
                    return nil
                }
                // A subfolder .htaccess with its own rewrite rules replaces these rules there (§4.4).
                if context.files.contains(where: { $0.directory == (file.directory ?? "/") + folder + "/" && $0.config.block.rewrite != nil }) {
                    return nil
                }
                return finding("`\(rule.rawSubstitution)` is matched again by `\(rule.pattern)` after the internal redirect: \(folder)/\(folder)/… until Apache answers 500",
                               at: rule.substitutionRange)
            }
        }
    }

    /// Whether a request into `directory` (the catch-all matches any) exceeds the recursion limit.
    static func simulatedLoop(_ sim: ChainSimulator, directory: String, hosts: [String]) -> Bool {
        let hosts = hosts.isEmpty ? [sim.origin.site.canonicalHost] : Array(hosts.prefix(2))
        return hosts.contains { host in
            ["htlint-probe", "htlint-probe.html", ""].contains { leaf in
                sim.run("http://\(host)\(directory)\(leaf)", method: "GET", headers: []).hops
                    .contains { $0.origin?.recursionLimitExceeded == true }
            }
        }
    }
}
