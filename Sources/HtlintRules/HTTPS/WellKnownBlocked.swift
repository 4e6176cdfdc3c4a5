import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
import HtlintSyntax

/// A dotfile block (`RewriteRule (^|/)\. - [F]`, `RedirectMatch 404 /\..*$`) that also refuses
/// `/.well-known/`: Let's Encrypt's HTTP-01 challenge fails and the certificate expires.
struct WellKnownBlocked: LintRule {
    let description = RuleDescription(
        id: "HT313", name: "well-known-blocked", family: .https,
        summary: "a rule meant for dotfiles also blocks `/.well-known/` (ACME certificate renewal, security.txt)",
        rationale: """
        Hiding every path segment that starts with a dot (`.git`, `.env`) is common hardening, but \
        `/.well-known/` starts with a dot too (RFC 8615). Let's Encrypt and other ACME CAs fetch \
        `http://host/.well-known/acme-challenge/TOKEN` to renew a certificate (HTTP-01), and \
        `security.txt`, `apple-app-site-association`, `assetlinks.json` and OpenID configuration live \
        there as well. A rule that answers 403 or 404 there breaks nothing visible today; the renewal \
        fails weeks later and the certificate expires. Exclude the directory: \
        `RewriteCond %{REQUEST_URI} !^/\\.well-known/` before the rule, or a pattern such as \
        `(^|/)\\.(?!well-known/)` (`RedirectMatch 404 /\\.(?!well-known/)`). \
        Found by simulation: the challenge file is placed in the document root as an ACME client \
        does, requested over http (following redirects, as the CA does), and reported when a \
        directive refuses it that does not refuse the same path without the dot. \
        `<FilesMatch "^\\.">` is not reported: it tests the file's own name (the token), not the \
        directories above it.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\n↓RewriteRule (^|/)\\. - [F]"),
            Example("↓RedirectMatch 404 /\\..*$"),
            Example("<If \"%{REQUEST_URI} =~ m#/\\.#\">\n↓Require all denied\n</If>"),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteRule \"/\\.|^\\.(?!well-known/)\" - [F]"),
            Example("RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/\\.well-known/\nRewriteRule (^|/)\\. - [F]"),
            Example("RedirectMatch 404 /\\.(?!well-known/)"),
            // <FilesMatch> tests the token's own name: Apache serves the challenge.
            Example("<FilesMatch \"^\\.\">\nRequire all denied\n</FilesMatch>"),
            Example("RewriteEngine On\nRewriteRule ^\\.(git|svn|env) - [F]"),
        ],
        usesSimulation: true)

    /// What an ACME client writes into the document root for the HTTP-01 challenge.
    static let challenge = "/.well-known/acme-challenge/htlint-acme-token"
    /// The same path without the leading dot: refused too, the block is not about dots.
    static let twin = "/well-known/acme-challenge/htlint-acme-token"

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        let site = sim.origin.site
        let host = context.hosts.first ?? site.canonicalHost
        let blockers = blockingDirectives(context)
        // Nothing that could refuse the path spares rebuilding the site (costly for a large file).
        let denying = denyingSection(context)
        guard blockers.values.contains(where: \.mayMatchChallenge) || denying != nil else { return [] }
        // The challenge file and its twin exist, below the DocumentRoot (which may lie below the mount).
        let placed = sim.with(siteChange: { s in
            let below = s.documentRoot.hasPrefix(s.files.root + "/") ? String(s.documentRoot.dropFirst(s.files.root.count)) : ""
            return s.adding(files: [below + Self.challenge, below + Self.twin])
        })
        let chain = placed.run("http://\(host)\(Self.challenge)")
        guard chain.outcome == .final, let last = chain.hops.last, (400...499).contains(last.status) else { return [] }
        let twin = placed.run("http://\(host)\(Self.twin)")
        let twinFired = Set(twin.hops.last?.origin?.firedRules ?? [])
        let url = "http://\(host)/.well-known/acme-challenge/…"

        // A rewrite rule or a mod_alias redirect that answered the error.
        if let fired = last.origin?.firedRules.last(where: { blockers[$0] != nil }) {
            guard !twinFired.contains(fired) else { return [] }
            let what = blockers[fired]!
            return [finding("\(url) answers \(last.status) because of this \(what.kind), which blocks every path segment starting "
                            + "with a dot: ACME (Let's Encrypt) renewals, security.txt and app links under /.well-known/ fail; "
                            + what.advice, at: fired, fixes: what.fixes)]
        }
        // Access control (`Require all denied` in a section whose test catches the dot).
        guard last.status == 403, twin.hops.last?.status != 403,
              let deny = denying else { return [] }
        return [finding("\(url) answers 403 because of this access control, which blocks every path segment starting with a dot: "
                        + "ACME (Let's Encrypt) renewals, security.txt and app links under /.well-known/ fail; "
                        + "exclude `.well-known` from the section's test", at: deny)]
    }

    private struct Blocker {
        var kind: String
        var advice: String
        var fixes: [FixIt]
        /// Whether its pattern matches the challenge's path in some form (per-directory or URL-path).
        var mayMatchChallenge: Bool
    }

    /// The forms of the challenge's path a pattern may be matched against.
    static let challengeSubjects = [challenge, String(challenge.dropFirst()), "acme-challenge/htlint-acme-token", "htlint-acme-token"]

    /// Directives that answer an error themselves, by range: `[F]`, `[G]`, `[R=4xx]`, and
    /// `Redirect`/`RedirectMatch` with a 4xx status.
    private func blockingDirectives(_ context: LintContext) -> [SourceRange: Blocker] {
        var out: [SourceRange: Blocker] = [:]
        for file in context.files {
            for rule in file.rules where rule.flags.statusOverride.map({ (400...499).contains($0) }) == true {
                let condition = "RewriteCond %{REQUEST_URI} !^/\\.well-known/"
                let matches = Self.challengeSubjects.contains { rule.regex.matches($0) != rule.negated }
                out[rule.range] = Blocker(kind: "`RewriteRule`", advice: "exclude it with `\(condition)` before the rule",
                                          fixes: [file.insertingLine(condition, before: rule.conditions.first?.range ?? rule.range,
                                                                         title: "Exclude /.well-known/ from the rule")],
                                          mayMatchChallenge: matches)
            }
            // Built per call (a dictionary of every directive): once per file, and only when needed.
            let refusing = file.redirects.filter { (400...499).contains($0.status) }
            let nodes = refusing.isEmpty ? [:] : file.directivesByRange
            for r in refusing {
                var advice = "exclude it in the pattern, as in `(^|/)\\.(?!well-known/)`"
                if case .regex = r.matcher, let node = nodes[r.range],
                   let pattern = node.words.dropFirst(node.words.count >= 2 ? 1 : 0).first?.value, pattern.contains("/\\.") {
                    let fixed = pattern.replacingOccurrences(of: "/\\.", with: "/\\.(?!well-known/)")
                    advice = "exclude it in the pattern: `\(fixed)`"
                }
                let name = nodes[r.range]?.name ?? "Redirect"
                let matches: Bool
                switch r.matcher {
                case .regex(let re): matches = Self.challengeSubjects.contains { re.matches($0) }
                case .prefix(let p): matches = Self.challenge.hasPrefix(p) || Self.challenge.hasPrefix("/" + p)
                case .everything: matches = true
                }
                out[r.range] = Blocker(kind: "`\(name)`", advice: advice, fixes: [], mayMatchChallenge: matches)
            }
        }
        return out
    }

    /// The `Require all denied` (or `Deny from all`) of a section whose test is a dotfile pattern.
    private func denyingSection(_ context: LintContext) -> SourceRange? {
        let sections: Set<String> = ["files", "filesmatch", "if", "elseif", "else", "directorymatch", "directory", "location", "locationmatch"]
        func denial(_ nodes: [ConfigNode]) -> SourceRange? {
            for node in nodes {
                switch node {
                case .directive(let d):
                    let words = d.words.map { $0.value.lowercased() }
                    if (d.key == "require" && words == ["all", "denied"]) || (d.key == "deny" && words == ["from", "all"]) { return d.range }
                case .section(let s):
                    if ["requireall", "requireany", "requirenone"].contains(s.key), let r = denial(s.children) { return r }
                case .comment: break
                }
            }
            return nil
        }
        func search(_ nodes: [ConfigNode]) -> SourceRange? {
            for node in nodes {
                guard case .section(let s) = node else { continue }
                // A dotfile test is a pattern with an escaped dot (`^\.`, `m#/\.#`); a name such as
                // `wp-config.php` or a host comparison is not one.
                if sections.contains(s.key), s.argumentText.contains("\\."), let r = denial(s.children) { return r }
                if let r = search(s.children) { return r }
            }
            return nil
        }
        return context.files.lazy.compactMap { search($0.tree.nodes) }.first
    }
}
