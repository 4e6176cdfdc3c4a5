import HtlintApache
import HtlintDiagnostics
import HtlintGraph

/// `Redirect` lines run after the `RewriteRule`s of the same file, whatever their order.
struct RedirectRunsAfterRewrite: LintRule {
    let description = RuleDescription(
        id: "HT210", name: "alias-and-rewrite-order", family: .semantics,
        summary: "a `Redirect` placed before `RewriteRule`s that also match its URLs still runs after them",
        rationale: """
        mod_alias and mod_rewrite are separate modules: in `.htaccess` all rewrite rules run first \
        and `Redirect`/`RedirectMatch` afterwards, regardless of their order in the file. A rewrite \
        redirect wins over a matching `Redirect`; an internal rewrite lets the `Redirect` win with \
        the rewritten query (apache-semantics §8.6). Express both with `RewriteRule` to control the order. \
        Reported only when some URL the `Redirect` matches is also matched by a later `RewriteRule` \
        that answers differently; without an overlap the order does not matter.
        """,
        severity: .warning,
        triggering: [Example("↓Redirect 301 /old /new\nRewriteEngine On\nRewriteRule ^(.*)$ index.php [L]"),
                     Example("↓Redirect 301 /promo /sale.html\nRewriteEngine On\nRewriteRule ^promo$ /landing.html [R=302,L]")],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^old$ /new [R=301,L]\nRewriteRule ^(.*)$ index.php [L]"),
                        Example("Redirect 301 /old /new"),
                        // No URL is matched by both: the order does not matter.
                        Example("Redirect 302 /r /show.html\nRewriteEngine On\nRewriteRule ^rw$ /show.html [R=302,L]")])

    func check(_ context: LintContext) -> [Diagnostic] {
        context.files.filter { $0.context == .htaccess }.flatMap { file -> [Diagnostic] in
            guard let firstRule = file.rules.first else { return [] }
            let directory = file.directory ?? "/"
            return file.redirects.filter { $0.range.start < firstRule.range.start }.compactMap { r in
                guard let rule = Self.overlappingRule(r, file.rules, directory: directory) else { return nil }
                return finding("this `Redirect` is written before the rewrite rules but runs after them, and line \(rule.line) also matches its URLs",
                               at: r.range, notes: [Note(message: "rewrite rules run first", range: rule.range)])
            }
        }
    }

    /// Whether the `Redirect` applies to a URL-path.
    static func redirectMatches(_ r: AliasRedirect, _ path: String) -> Bool {
        switch r.matcher {
        case .everything: return true
        case .regex(let re): return re.matches(path)
        case .prefix(let p): return prefixMatch(p, path) != nil  // mod_alias's own matching
        }
    }

    /// The first rule that matches a URL the `Redirect` matches and answers differently.
    static func overlappingRule(_ r: AliasRedirect, _ rules: [RewriteRule], directory: String) -> RewriteRule? {
        // URLs of the redirect: its prefix (and below), or witnesses of its pattern.
        var urls: [String] = []
        switch r.matcher {
        case .everything: urls = [directory + "x"]
        case .prefix(let p): urls = [p, p.hasSuffix("/") ? p + "x" : p + "/x"]
        case .regex(let re): urls = RegexWitness.witnesses(for: re, shape: .absolutePath, limit: 3).map(\.text)
        }
        for rule in rules {
            // A rule that does nothing to the request, or redirects where the Redirect does.
            if rule.isDash, !rule.redirects, rule.flags.statusOverride == nil { continue }
            if rule.redirects, let t = r.target, rule.rawSubstitution == t { continue }
            func ruleMatches(_ url: String) -> Bool {
                guard url.hasPrefix(directory) else { return false }
                return rule.regex.matches(String(url.dropFirst(directory.count))) != rule.negated
            }
            if urls.contains(where: ruleMatches) { return rule }
            // URLs of the rule, seen from the Redirect.
            guard !rule.negated else { continue }
            let own = RegexWitness.witnesses(for: rule.regex, shape: .relativePath, limit: 3).map { directory + $0.text }
            if own.contains(where: { redirectMatches(r, $0) }) { return rule }
        }
        return nil
    }
}
