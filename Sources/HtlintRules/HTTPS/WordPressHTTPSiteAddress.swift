import HtlintDiagnostics

/// `WP_HOME`/`WP_SITEURL` still `http://` while the site is served over https (spec §12.2, §12.6).
struct WordPressHTTPSiteAddress: LintRule {
    let description = RuleDescription(
        id: "HT310", name: "wordpress-http-site-address", family: .https,
        summary: "`WP_HOME` or `WP_SITEURL` in `wp-config.php` is still `http://` while the site is served over https",
        rationale: """
        Found in the document root's `wp-config.php` (read as text) when the site is served over \
        https: a TLS-terminating layer is in front, or the simulator sends `http://HOST/` to https. \
        The constants override WordPress's Site Address and WordPress Address (spec §12.2): with \
        `http://` stored, `FORCE_SSL_ADMIN` stays off, links and asset URLs fall back to http \
        whenever `is_ssl()` is false (behind a proxy without the fix, HT311) — blockable mixed \
        content — and WordPress 5.7+'s https migration, which rewrites `http://` URLs in post \
        content, never starts because it needs both addresses on https (§12.6). Set both to \
        `https://`; the fix is marked unsafe because the database's copies and caches may need the \
        same change.
        """,
        severity: .warning,
        triggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                    pages: ["/wp-config.php": """
                <?php
                define( 'WP_HOME', '↓http://example.com' );
                define( 'WP_SITEURL', "↓http://example.com/wp" );
                // define( 'WP_HOME', 'http://old.example.com' );
                require_once ABSPATH . 'wp-settings.php';
                """]),
        ],
        nonTriggering: [
            Example("RewriteEngine On\nRewriteCond %{HTTPS} !=on\nRewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]",
                    pages: ["/wp-config.php": """
                <?php
                define( 'WP_HOME', 'https://example.com' );
                define( 'WP_SITEURL', 'https://example.com/wp' );
                require_once ABSPATH . 'wp-settings.php';
                """]),
            Example("DirectoryIndex index.php", pages: ["/wp-config.php": """
                <?php
                define( 'WP_HOME', 'http://example.com' );
                require_once ABSPATH . 'wp-settings.php';
                """]),
        ],
        usesSimulation: true)

    func check(_ context: LintContext) -> [Diagnostic] {
        let configs = WordPressConfig.all(in: context)
        guard !configs.isEmpty, context.servesHTTPS else { return [] }
        return configs.flatMap { config in
            config.constants.compactMap { c -> Diagnostic? in
                guard c.value.lowercased().hasPrefix("http://") else { return nil }
                let scheme = SourceRange(file: c.range.file, start: c.range.start, end: c.range.start + 4)
                let fix = FixIt(title: "Use `https://`", edits: [TextEdit(range: scheme, replacement: "https")],
                                applicability: .unsafe)
                return finding("`\(c.name)` is `\(c.value)` while the site is served over https: "
                               + "WordPress keeps building http URLs from it", at: c.range, fixes: [fix])
            }
        }
    }
}
