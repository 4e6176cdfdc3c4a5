import HtlintApache
import HtlintDiagnostics

/// WordPress behind a TLS-terminating layer without the `$_SERVER['HTTPS']` fix (spec §12.4, §15 H21).
struct WordPressProxySchemeUndetected: LintRule {
    let description = RuleDescription(
        id: "HT311", name: "wordpress-proxy-scheme-undetected", family: .https,
        summary: "WordPress behind a TLS-terminating layer without the `X-Forwarded-Proto` fix in `wp-config.php`",
        rationale: """
        Found when the configured layer in front of Apache ends TLS (Cloudflare Flexible, a load \
        balancer or proxy reaching Apache over http) and the document root's `wp-config.php` never \
        sets `$_SERVER['HTTPS']`, nor does the configuration (`SetEnvIf X-Forwarded-Proto "^https$" \
        HTTPS=on`). WordPress's `is_ssl()` reads only `$_SERVER['HTTPS']` and the port (spec \
        §12.1), so behind such a layer it believes every visit is http: with https addresses the \
        admin and login pages redirect to themselves forever (L09), and scripts and style sheets \
        are built with `http://` — blockable mixed content. The handbook's fix sets \
        `$_SERVER['HTTPS'] = 'on'` from `X-Forwarded-Proto` before `wp-settings.php` is loaded \
        (§12.4, L10). It trusts a request header: make sure Apache is reachable only through the \
        layer (the fix is marked unsafe).
        """,
        severity: .error,
        triggering: [
            Example("DirectoryIndex index.php", edge: "cloudflare-flexible", pages: ["/wp-config.php": """
                <?php
                define( 'WP_HOME', 'https://example.com' );
                ↓require_once ABSPATH . 'wp-settings.php';
                """]),
        ],
        nonTriggering: [
            Example("DirectoryIndex index.php", edge: "cloudflare-flexible", pages: ["/wp-config.php": """
                <?php
                if ( isset( $_SERVER['HTTP_X_FORWARDED_PROTO'] ) && strpos( $_SERVER['HTTP_X_FORWARDED_PROTO'], 'https' ) !== false ) {
                    $_SERVER['HTTPS'] = 'on';
                }
                require_once ABSPATH . 'wp-settings.php';
                """]),
            Example("SetEnvIf X-Forwarded-Proto \"^https$\" HTTPS=on", edge: "cloudflare-flexible", pages: ["/wp-config.php": """
                <?php
                require_once ABSPATH . 'wp-settings.php';
                """]),
            Example("DirectoryIndex index.php", edge: "cloudflare-full", pages: ["/wp-config.php": """
                <?php
                require_once ABSPATH . 'wp-settings.php';
                """]),
        ])

    static let snippet = """
        if ( isset( $_SERVER['HTTP_X_FORWARDED_PROTO'] ) && strpos( $_SERVER['HTTP_X_FORWARDED_PROTO'], 'https' ) !== false ) {
            $_SERVER['HTTPS'] = 'on';
        }

        """

    func check(_ context: LintContext) -> [Diagnostic] {
        guard context.tlsTerminatedInFront, !configurationSetsHTTPS(context) else { return [] }
        return WordPressConfig.all(in: context).compactMap { config in
            guard !config.setsHTTPS else { return nil }
            let at = config.settingsLine ?? 0
            let range = config.file.range(at, at)
            let fix = FixIt(title: "Set `$_SERVER['HTTPS']` from `X-Forwarded-Proto` before `wp-settings.php` is loaded",
                            edits: [TextEdit(range: range, replacement: Self.snippet)], applicability: .unsafe)
            return finding("WordPress runs behind `\(context.edgeName)`, which reaches Apache over http, "
                           + "and nothing sets `$_SERVER['HTTPS']`: `is_ssl()` is false for https visitors", at: range, fixes: [fix])
        }
    }

    /// `SetEnvIf …​ HTTPS=on` or `SetEnv HTTPS on` anywhere in the configuration (spec §12.1's table).
    private func configurationSetsHTTPS(_ context: LintContext) -> Bool {
        func visit(_ b: ConfigBlock) -> Bool {
            if b.setEnvIf.contains(where: { $0.assignments.contains { $0.name.uppercased() == "HTTPS" && !$0.unset && ["on", "1"].contains($0.value.lowercased()) } }) {
                return true
            }
            if b.setEnv.contains(where: { $0.0.uppercased() == "HTTPS" && ["on", "1"].contains($0.1.lowercased()) }) { return true }
            return b.files.contains { visit($0.block) } || b.ifChains.contains { $0.branches.contains { visit($0.block) } }
        }
        return context.files.contains { visit($0.config.block) }
    }
}
