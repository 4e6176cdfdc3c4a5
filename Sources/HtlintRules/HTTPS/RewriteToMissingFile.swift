import Foundation
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// An internal rewrite to a fixed file that the site does not have: a front controller
/// (`RewriteRule . /index.php [L]`) left pointing at the document root after WordPress moved into
/// `/blog/`, or a `RewriteBase` that names another directory. Every URL the rule catches
/// answers 404 (recorded: real-wordpress-subdir serves /blog/index.php with `RewriteBase /blog/`).
struct RewriteToMissingFile: LintRule {
    let description = RuleDescription(
        id: "HT322", name: "rewrite-to-missing-file", family: .https,
        summary: "an internal rewrite to a fixed file the site does not have: every URL it catches answers 404",
        rationale: """
        Found by simulation with the site's files. A front controller's rule (`RewriteRule . \
        /index.php [L]`) names its script by a path from the document root, or relative to \
        `RewriteBase`. Copied into a subdirectory (WordPress moved into `/blog/`), the rule \
        still sends every pretty URL to `/index.php` at the top, which the site does not have. \
        Point the rule at the script where it is: `RewriteRule . /blog/index.php [L]`, or for \
        a relative target (`RewriteRule . index.php [L]`) `RewriteBase /blog/`. A site with its \
        own 404 page (`ErrorDocument 404 /404.html`) shows that page for them, still with 404.
        """,
        severity: .warning,
        triggering: [Example("RewriteEngine On\nRewriteRule ^app\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\n↓RewriteRule . /app.php [L]"),
                     Example("RewriteEngine On\nRewriteBase /\nRewriteRule ^index\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\n↓RewriteRule . /index.php [L]",
                             parent: "", pages: ["/sub/index.php": "<?php"]),
                     // The site's own 404 page answers, with 404: the script is still missing.
                     Example("ErrorDocument 404 /404.html\nRewriteEngine On\nRewriteRule ^app\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\n↓RewriteRule . /app.php [L]",
                             pages: ["/404.html": "<p>Not found</p>"])],
        nonTriggering: [Example("RewriteEngine On\nRewriteRule ^index\\.php$ - [L]\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule . /index.php [L]",
                                pages: ["/index.php": "<?php"]),
                        Example("RewriteEngine On\nRewriteRule ^(.*)$ /pages/$1 [L]")],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let site = context.simulator?.origin.site else { return [] }
        var items: [(range: SourceRange, probe: ProbeResult)] = []
        // Per rule: the URL rewritten (the last hop's: a redirect may come first), the target,
        // and the site's own 404 page when an `ErrorDocument` answered.
        var seen: [SourceRange: (url: String, target: String, page: String?)] = [:]
        for probe in context.probes where probe.chain.outcome == .final {
            guard let hop = probe.chain.hops.last, hop.status == 404, let origin = hop.origin,
                  let (target, fired, page) = Self.failedRewrite(origin),
                  target != origin.original.uri, !site.files.isFile(site.documentRoot + target),
                  let rule = Self.fixedRewrite(to: target, fired: fired, context) else { continue }
            items.append((rule.range, probe))
            if seen[rule.range] == nil { seen[rule.range] = (hop.url, target, page) }
        }
        return groupedByDirective(items).compactMap { group in
            guard let (url, target, page) = seen[group.range] else { return nil }
            var message = "\(url) is rewritten to \(target), which the site does not have: the URLs this rule catches answer 404"
                + (page.map { " (with the `ErrorDocument 404` page \($0))" } ?? "")
                + moreRequests(group.count)
            if let dir = context.file(containing: group.range)?.directory, dir != "/", let rule = context.rewriteRule(at: group.range),
               let name = target.split(separator: "/").last, site.files.isFile(site.documentRoot + dir + name) {
                // An absolute target ignores RewriteBase; a relative one is resolved against it.
                message += rule.rawSubstitution.hasPrefix("/")
                    ? "; this directory's own script is \(dir)\(name): write `\(dir)\(name)` as the target"
                    : "; this directory's own script is \(dir)\(name): write `RewriteBase \(dir)`"
            }
            return finding(message, at: group.range)
        }
    }

    /// The URI whose file was missing and the directives fired up to then: the final one, or,
    /// when an `ErrorDocument` page answered the 404 (served or not), the one the page's internal
    /// redirect replaced (the target of the internal redirect before it; nil without one), with
    /// the rules fired before the page's request and the page.
    static func failedRewrite(_ origin: OriginResponse) -> (uri: String, fired: [SourceRange], page: String?)? {
        guard let e = origin.trace.firstIndex(where: { $0.kind == .internalRedirect && $0.detail.hasPrefix("ErrorDocument ") }) else {
            return (origin.final.uri, origin.firedRules, nil)
        }
        // "internal redirect #1 to /app.php?q=x": the URL as the rewrite made it.
        let marker = " to "
        guard let redirect = origin.trace[..<e].last(where: { $0.kind == .internalRedirect && $0.detail.hasPrefix("internal redirect #") }),
              let at = redirect.detail.range(of: marker) else { return nil }
        let url = redirect.detail[at.upperBound...]
        let path = String(url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let fired = origin.trace[..<e].filter { $0.kind == .ruleMatched }.compactMap(\.range)
        let page = origin.trace[e].detail.range(of: "→ ").map { String(origin.trace[e].detail[$0.upperBound...]) }
        return (path.removingPercentEncoding ?? path, fired, page)
    }

    /// The last internal rewrite among the hop's fired directives whose substitution is fixed
    /// (nothing taken from the request) and names the file `uri` ends with.
    static func fixedRewrite(to uri: String, fired: [SourceRange], _ context: LintContext) -> RewriteRule? {
        guard let name = uri.split(separator: "/").last else { return nil }
        for range in fired.reversed() {
            guard let rule = context.rewriteRule(at: range) else { continue }
            // A `-` rule (`^index\.php$ - [L]` on the second round) leaves the URL as it was.
            if rule.isDash { continue }
            guard !rule.redirects, !rule.flags.proxy, !rule.targetsURL else { return nil }
            // The path is fixed when nothing before the query comes from the request
            // (`/index.php?q=$1` names one script).
            var fixed = true
            for part in rule.substitution.parts {
                guard case .literal(let text) = part else { fixed = false; break }
                if text.contains("?") { break }
            }
            let path = rule.rawSubstitution.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return fixed && path.split(separator: "/").last == name ? rule : nil
        }
        return nil
    }
}
