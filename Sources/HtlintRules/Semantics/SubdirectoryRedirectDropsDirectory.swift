import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// `/blog/.htaccess` with `RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]`: in a
/// subdirectory `$1` lacks `blog/`, so the canonical-host or https redirect leaves the directory.
struct SubdirectoryRedirectDropsDirectory: LintRule {
    let description = RuleDescription(
        id: "HT216", name: "subdirectory-redirect-drops-directory", family: .semantics,
        summary: "a host or https redirect in a subdirectory's `.htaccess` builds its target from `$1`, which lacks the directory",
        rationale: """
        In per-directory context the pattern sees the path with the directory's prefix removed: \
        in `/blog/.htaccess`, `/blog/2024/post` is matched as `2024/post` (apache-semantics §4.2). \
        A host canonicalisation or https redirect copied from the document root's `.htaccess` — \
        `RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]` — therefore sends \
        `/blog/2024/post` to `https://www.example.com/2024/post`: every deep link lands outside the \
        directory, usually on a 404 or the wrong page, and the permanent redirect is cached. Build \
        the target from `%{REQUEST_URI}` (`https://www.example.com%{REQUEST_URI}`), which always \
        holds the whole path, or write the directory back (`https://www.example.com/blog/$1`). \
        Found by simulation: a request into the directory that the rule redirects must land, on \
        the same site, outside the directory with the rest of its path. Only rules with a \
        condition on the host or the scheme (`%{HTTP_HOST}`, `%{HTTPS}`, `%{SERVER_PORT}`, \
        `X-Forwarded-Proto`, …) are checked: an unconditional redirect out of a directory is \
        usually a deliberate move.
        """,
        severity: .warning,
        triggering: [
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP_HOST} !^www\\. [NC]
                RewriteRule ^(.*)$ ↓https://www.example.com/$1 [R=301,L]
                """, parent: "# the document root's .htaccess"),
            Example("""
                RewriteEngine On
                RewriteCond %{HTTPS} off
                RewriteRule (.*) ↓https://%{HTTP_HOST}/$1 [R=301,L]
                """, parent: "RewriteEngine On"),
        ],
        nonTriggering: [
            // The fix: REQUEST_URI holds the whole path.
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP_HOST} !^www\\. [NC]
                RewriteRule ^ https://www.example.com%{REQUEST_URI} [R=301,L]
                """, parent: "# the document root's .htaccess"),
            // The directory is written back.
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP_HOST} !^www\\. [NC]
                RewriteRule ^(.*)$ https://www.example.com/sub/$1 [R=301,L]
                """, parent: "# the document root's .htaccess"),
            // In the document root `$1` is the whole path.
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP_HOST} !^www\\. [NC]
                RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
                """),
            // A deliberate move of the directory to another site.
            Example("""
                RewriteEngine On
                RewriteCond %{HTTP_HOST} ^(www\\.)?example\\.com$ [NC]
                RewriteRule ^(.*)$ https://blog.example.org/$1 [R=301,L]
                """, parent: "# the document root's .htaccess"),
            // A relative target gets the directory back through RewriteBase.
            Example("""
                RewriteEngine On
                RewriteBase /sub/
                RewriteCond %{HTTPS} on
                RewriteRule ^(.*)\\.html$ $1 [R=301,L]
                """, parent: "# the document root's .htaccess"),
        ],
        usesSimulation: true)

    /// Variables whose test makes a rule a host canonicalisation or https redirect.
    static let hostOrScheme: Set<String> = ["HTTP_HOST", "SERVER_NAME", "HTTPS", "SERVER_PORT", "REQUEST_SCHEME"]

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        let hosts = context.hosts.isEmpty ? [sim.origin.site.canonicalHost] : Array(context.hosts.prefix(2))
        return context.files.filter { $0.context == .htaccess && ($0.directory ?? "/") != "/" }.flatMap { file in
            let directory = file.directory!
            return file.rules.compactMap { rule -> Diagnostic? in
                guard rule.redirects || rule.targetsURL, !rule.negated, !rule.usedCaptures.isEmpty,
                      rule.conditions.contains(where: { c in
                          c.variables.contains { Self.hostOrScheme.contains($0) || ForwardedHeaders.isForwarded(variable: $0) }
                      }) else { return nil }
                // Leaves with a segment of their own, so that what is kept of the path shows.
                var leaves = RegexWitness.witnesses(for: rule.regex, shape: .relativePath, limit: 3).map(\.text)
                leaves.insert("htlint-probe/page", at: 0)
                for leaf in leaves where !leaf.isEmpty && rule.regex.matches(leaf) {
                    for host in hosts {
                        for scheme in ["http", "https"] {
                            let url = "\(scheme)://\(host)\(ProbeSet.encode(directory + leaf))"
                            guard let hop = sim.run(url).hops.first, hop.redirectSource == rule.range,
                                  let location = hop.location, let target = URLParts(location),
                                  sim.isOnSite(target) || Self.sameSite(target.host, host) else { continue }
                            let path = String(target.target.prefix { $0 != "?" })
                            guard !path.hasPrefix(directory), path.hasSuffix("/" + ProbeSet.encode(leaf)) else { continue }
                            return finding("in `\(directory)` the path this rule captures lacks `\(directory.dropFirst())`: "
                                           + "\(url) is redirected to \(location), outside the directory; "
                                           + "use `%{REQUEST_URI}` for the path", at: rule.substitutionRange, fixes: fix(rule, file))
                        }
                    }
                }
                return nil
            }
        }
    }

    /// The same site under its other canonical name (`www.` added or removed), for a site whose
    /// aliases the linter was not told.
    static func sameSite(_ a: String, _ b: String) -> Bool {
        func bare(_ h: String) -> Substring { let l = h.lowercased(); return l.hasPrefix("www.") ? l.dropFirst(4) : Substring(l) }
        return bare(a) == bare(b)
    }

    /// `…/$1` after a catch-all becomes `…%{REQUEST_URI}` (the same path, directory included).
    private func fix(_ rule: RewriteRule, _ file: LintFile) -> [FixIt] {
        let range = rule.substitutionRange
        guard isCatchAll(rule.pattern), rule.rawSubstitution.hasSuffix("/$1"), range.end - range.start >= 3,
              file.source.text(range.end - 3..<range.end) == "/$1" else { return [] }
        return [FixIt(title: "Use `%{REQUEST_URI}` for the path",
                      edits: [TextEdit(range: SourceRange(file: range.file, start: range.end - 3, end: range.end),
                                       replacement: "%{REQUEST_URI}")],
                      applicability: .safe)]
    }
}
