import HtlintApache
import HtlintDiagnostics
import HtlintSimulation

/// A secret in the document root (`.env`, a `.git` directory, a database dump, a backup) that
/// Apache serves to anyone who asks.
struct ExposedSensitiveFile: LintRule {
    let description = RuleDescription(
        id: "HT411", name: "exposed-sensitive-file", family: .security,
        summary: "a secret in the document root (`.env`, `.git/`, `*.sql`, `*.bak`, `*~`, `id_rsa`, …) that a plain GET downloads",
        rationale: """
        Found by simulation over the document root's files (`htlint lint --docroot`; nothing is \
        reported for a lone `.htaccess`). Environment files hold database passwords and API keys, \
        `.git/`, `.svn/` and `.hg/` hold the whole source history, dumps (`*.sql`, `*.sql.gz`) hold \
        the data, and editor and backup copies (`*.bak`, `*.old`, `*.orig`, `*.swp`, `*~`) of a \
        `.php` file are served as text, source and credentials included. Scanners request these \
        names on every site. Each candidate is requested through the simulated chain; it is \
        reported when the answer is 200 with that very file. Rules that send every request to \
        `index.php` protect only when they really catch the file (the usual `!-f` condition lets \
        existing files through), and `.ht*` files are refused by Apache's default configuration. \
        Move the file out of the document root, or deny it: \
        `<FilesMatch "(^\\.(env|git|svn|hg)|\\.(sql|bak|old|orig|swp)$|~$)">Require all denied</FilesMatch>` \
        and `RedirectMatch 404 /\\.(git|svn|hg)(/|$)` for the directories.
        """,
        severity: .error,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^ index.php [L]",
                    pages: ["/.env": "↓DB_PASSWORD=secret"]),
            Example("# nothing denies them", pages: ["/.git/config": "↓[core]", "/backup/site.sql": "↓CREATE TABLE users;"]),
        ],
        nonTriggering: [
            Example("<Files \".env\">\nRequire all denied\n</Files>", pages: ["/.env": "DB_PASSWORD=secret"]),
            Example("RedirectMatch 404 /\\.git(/|$)", pages: ["/.git/config": "[core]"]),
            Example("# Apache refuses .ht* files", pages: ["/.htpasswd": "admin:$apr1$x"]),
            Example("RewriteEngine On\nRewriteRule !^index\\.php$ index.php [L]", pages: ["/db.sql": "CREATE TABLE users;"]),
        ],
        usesSimulation: true)

    /// Directories of version control systems: one finding for the directory.
    static let repositories: [String: [String]] = [".git": ["config", "HEAD"], ".svn": ["wc.db", "entries"],
                                                     ".hg": ["hgrc", "requires"]]
    static let suffixes = [".sql", ".sql.gz", ".sql.bz2", ".sql.zip", ".bak", ".old", ".orig", ".swp", "~"]
    static let names: Set<String> = [".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".htpasswd"]

    /// What a name is, when it is a secret: "an environment file", "a database dump", ….
    static func kind(of name: String) -> String? {
        let lower = name.lowercased()
        // Templates committed on purpose hold placeholders, not secrets.
        if [".env.example", ".env.sample", ".env.dist", ".env.template"].contains(lower) { return nil }
        if names.contains(lower) || lower.hasPrefix(".env.") {
            if lower.hasPrefix(".env") { return "an environment file (passwords, API keys)" }
            return lower == ".htpasswd" ? "a password file" : "a private SSH key"
        }
        guard let suffix = suffixes.first(where: { lower.hasSuffix($0) && lower.count > $0.count }) else { return nil }
        return suffix.hasPrefix(".sql") ? "a database dump" : "a backup or editor copy (served as plain text)"
    }

    func check(_ context: LintContext) -> [Diagnostic] {
        guard let sim = context.simulator else { return [] }
        let site = sim.origin.site
        let root = site.documentRoot
        let host = context.hosts.first ?? site.canonicalHost
        var candidates: [(path: String, what: String)] = []
        let files = site.files.nodes.filter { $0.key.hasPrefix(root + "/") }.map { (String($0.key.dropFirst(root.count)), $0.value) }
        let repositoryDirs = files.filter { path, node in
            node == .directory && Self.repositories[String(path.split(separator: "/").last ?? "")] != nil
        }.map(\.0).sorted()
        for dir in repositoryDirs where !repositoryDirs.contains(where: { dir.hasPrefix($0 + "/") }) {
            let name = String(dir.split(separator: "/").last!)
            let inside = files.filter { if case .file = $1 { $0.hasPrefix(dir + "/") } else { false } }.map(\.0).sorted()
            let known = Self.repositories[name]!.map { dir + "/" + $0 }
            guard let probe = known.first(where: inside.contains) ?? inside.first else { continue }
            candidates.append((probe, "the repository `\(dir)/` (the site's source and history)"))
        }
        for (path, node) in files.sorted(by: { $0.0 < $1.0 }) {
            guard case .file = node, !repositoryDirs.contains(where: { path.hasPrefix($0 + "/") }),
                  let what = Self.kind(of: String(path.split(separator: "/").last ?? "")) else { continue }
            candidates.append((path, what))
        }
        return candidates.compactMap { path, what in
            // Either scheme will do for whoever wants the file.
            let served = ["https", "http"].contains { scheme in
                let chain = sim.run("\(scheme)://\(host)\(ProbeSet.encode(path))")
                return chain.outcome == .final && chain.hops.last.map { $0.status == 200 && $0.served == path } == true
            }
            guard served else { return nil }
            return finding("`\(path)` is served to anyone (200): \(what)", at: location(of: path, context))
        }
    }

    /// The file itself, named as the site's other files are shown: next to the root `.htaccess`.
    private func location(of path: String, _ context: LintContext) -> SourceRange {
        let root = context.files.first { $0.context == .htaccess && $0.directory == "/" }?.source.path ?? ".htaccess"
        let shown = root.hasSuffix("/.htaccess") ? String(root.dropLast(".htaccess".count)) + path.dropFirst() : String(path.dropFirst())
        return SourceRange(file: shown, start: 0, end: 0)
    }
}
