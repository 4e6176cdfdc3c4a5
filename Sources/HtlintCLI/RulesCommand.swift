import HtlintRules

/// `htlint rules [RULE]`: the catalog, or one rule's page.
struct RulesCommand {
    static func run(_ args: [String], _ out: inout CommandOutput) -> ExitStatus {
        if args.contains("-h") || args.contains("--help") {
            out.out("usage: htlint rules [RULE]\n\nLists the rules, or prints the page of one rule (by id or name).")
            return .clean
        }
        guard let key = args.first else {
            for r in builtInRules {
                let d = r.description
                let sim = (d.usesSimulation ? " (simulation)" : "") + (d.optIn ? " (opt-in)" : "")
                out.out("\(d.id)  \(d.name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(d.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)) \(d.summary)\(sim)")
            }
            return .clean
        }
        guard let r = rule(named: key) else {
            out.err("htlint: unknown rule '\(key)'; `htlint rules` lists them")
            return .failure
        }
        out.stdout += RulePage.markdown(r.description)
        return .clean
    }
}

/// A rule's documentation page (ruff's order: what, why, examples, fix).
enum RulePage {
    static func markdown(_ d: RuleDescription) -> String {
        var s = "# \(d.id) \(d.name)\n\n"
        s += "Family: \(d.family.rawValue) · default severity: \(d.severity.rawValue)"
        s += d.usesSimulation ? " · found by simulation" : ""
        s += d.optIn ? " · opt-in: runs with `--enable \(d.id)` (or `rules: enable: [\(d.id)]` in `.htlint.yml`)\n\n" : "\n\n"
        s += "## What it flags\n\n\(d.summary.prefix(1).uppercased() + d.summary.dropFirst()).\n\n"
        s += "## Why it matters\n\n\(d.rationale)\n\n"
        s += "## Example\n\n"
        for e in d.triggering {
            if let edge = e.edge { s += "With `--edge \(edge)`:\n\n" }
            s += vhost(e)
            if let parent = e.parent { s += "Root `.htaccess`:\n\n```apache\n\(parent)\n```\n\nSubdirectory `.htaccess`:\n\n" }
            if !e.pages.isEmpty, e.parent == nil, e.vhost == nil { s += "`.htaccess`:\n\n" }
            s += "```apache\n\(e.code.replacingOccurrences(of: "↓", with: ""))\n```\n\n"
            s += pages(e)
        }
        s += "## Use instead\n\n"
        for e in d.nonTriggering {
            if let edge = e.edge { s += "With `--edge \(edge)`:\n\n" }
            s += vhost(e)
            // Without its parent a subdirectory example reads like the flagged one.
            if let parent = e.parent { s += "Root `.htaccess`:\n\n```apache\n\(parent)\n```\n\nSubdirectory `.htaccess`:\n\n" }
            if !e.pages.isEmpty, e.parent == nil, e.vhost == nil { s += "`.htaccess`:\n\n" }
            s += "```apache\n\(e.code)\n```\n\n"
            s += pages(e)
        }
        if d.triggering.contains(where: { $0.pages.values.contains { $0.contains("↓") } }) {
            // Findings in pages and wp-config.php follow the configuration's file-wide suppressions (Linter).
            s += "## Suppressing it\n\n`# htlint disable-file=\(d.id)` in the site's `.htaccess` (it also covers the site's "
                + "pages, style sheets and `wp-config.php`), or `--disable \(d.id)`.\n"
            return s
        }
        s += "## Suppressing it\n\n`# htlint disable=\(d.id)` on the line before the directive, or `# htlint disable-file=\(d.id)`.\n"
        return s
    }

    /// The example's virtual host, when it has one, and the heading of the `.htaccess` after it.
    private static func vhost(_ e: Example) -> String {
        guard let v = e.vhost else { return "" }
        let next = e.parent != nil ? "" : "`.htaccess`:\n\n"
        return "Virtual host (document root `/var/www/html`):\n\n```apache\n\(v.replacingOccurrences(of: "${DOCROOT}", with: "/var/www/html"))\n```\n\n" + next
    }

    /// The example's other files (pages, style sheets, `wp-config.php`), each in its own block.
    private static func pages(_ e: Example) -> String {
        var s = ""
        for (path, text) in e.pages.sorted(by: { $0.key < $1.key }) {
            let lower = path.lowercased()
            // Secrets and dumps (HT411) are not markup: plain text.
            let language = lower.hasSuffix(".css") ? "css" : lower.hasSuffix(".php") ? "php"
                : SiteContent.isPage(lower) ? "html" : "text"
            s += "`\(path.drop { $0 == "/" })`:\n\n```\(language)\n\(text.replacingOccurrences(of: "↓", with: ""))\n```\n\n"
        }
        return s
    }
}
