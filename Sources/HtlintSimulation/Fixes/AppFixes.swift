import HtlintApache

/// Fixes for WordPress's scheme detection and canonical host, and for internal recursion.
extension FixCandidates {
    static func wordpressFixes(_ hop: Hop, _ app: AppAnswer, _ wordpress: WordPress, _ simulator: ChainSimulator) -> [Fix] {
        var out: [Fix] = []
        let visitorHTTPS = hop.url.hasPrefix("https://")
        if visitorHTTPS, !app.environment.isSSL, let request = hop.originRequest {
            if let xfp = request.header("X-Forwarded-Proto"), xfp.contains("https"), wordpress.proxyFixHeader == nil {
                var sim = simulator
                sim.app?.proxyFixHeader = "X-Forwarded-Proto"
                out.append(Fix(.wordpressProxyFix, "Tell WordPress the visitor's scheme in wp-config.php",
                               steps: ["in wp-config.php, before `require_once ABSPATH . 'wp-settings.php';`, add:",
                                       "    if (isset($_SERVER['HTTP_X_FORWARDED_PROTO']) && strpos($_SERVER['HTTP_X_FORWARDED_PROTO'], 'https') !== false) {",
                                       "        $_SERVER['HTTPS'] = 'on';",
                                       "    }"],
                               simulator: sim, preference: 1))
                if let source = simulator.source {
                    let dir = wordpress.directory
                    let existing = source.files.accessFileEntries.first { $0.key == source.files.root + (dir == "/" ? "/" : dir + "/") }?.value
                    let path = existing?.path ?? (dir == "/" ? ".htaccess" : String(dir.dropFirst()) + "/.htaccess")
                    let text = existing.map { String(decoding: $0.bytes, as: UTF8.self) } ?? ""
                    let line = #"SetEnvIf X-Forwarded-Proto "^https$" HTTPS=on"#
                    let changed = source.settingAccessFile(directory: dir, displayPath: path, text: line + "\n" + text)
                    out.append(Fix(.setEnvIfHTTPS, "Set HTTPS=on for PHP with SetEnvIf",
                                   steps: ["at the top of \(path), add:", "    " + line],
                                   simulator: simulator.with(source: changed), preference: 3))
                }
            }
        }
        // Canonical host fights: WordPress's home against an edge rule (L33).
        if app.producer == "redirect_canonical()", let from = URLParts(hop.url), let to = hop.location.flatMap(URLParts.init),
           from.host.lowercased() != to.host.lowercased(), var homeURL = URLParts(wordpress.home) {
            homeURL.host = from.host
            var sim = simulator
            sim.app?.home = homeURL.text.hasSuffix("/") && homeURL.path == "/" ? String(homeURL.text.dropLast()) : homeURL.text
            out.append(Fix(.wordpressHome, "Make WordPress's Site Address agree with the edge's canonical host",
                           steps: ["Settings → General: Site Address (URL) = \(sim.app!.home) (or WP_HOME in wp-config.php)"],
                           simulator: sim, preference: 2))
        }
        return out
    }

    /// `[END]` instead of `[L]`, or a guard excluding the target (apache-semantics §4.10).
    static func recursionFixes(_ hop: Hop, _ simulator: ChainSimulator) -> [Fix] {
        let site = simulator.origin.site
        var counts: [String: (RewriteRule, Int)] = [:]
        var order: [String] = []
        for e in hop.origin?.trace ?? [] where e.kind == .ruleMatched {
            guard let range = e.range, let rule = site.rule(at: range), !rule.isDash else { continue }
            let key = "\(range.file):\(range.start)"
            if counts[key] == nil { order.append(key) }
            counts[key] = (rule, (counts[key]?.1 ?? 0) + 1)
        }
        guard let key = order.max(by: { counts[$0]!.1 < counts[$1]!.1 }), let (rule, _) = counts[key],
              let (file, first, _) = lines(of: rule, simulator), let ruleLine = site.line(of: rule.range),
              let text = site.text(of: rule.range) else { return [] }
        var out: [Fix] = []
        let withEnd: String
        if let open = text.lastIndex(of: "["), text.hasSuffix("]") {
            let flags = text[text.index(after: open)..<text.index(before: text.endIndex)].split(separator: ",").map(String.init)
            let replaced = flags.contains { $0.uppercased() == "L" } ? flags.map { $0.uppercased() == "L" ? "END" : $0 } : flags + ["END"]
            withEnd = String(text[..<open]) + "[" + replaced.joined(separator: ",") + "]"
        } else {
            withEnd = text + " [END]"
        }
        if let (sim, steps) = edited(simulator, ConfigEdit(file: file, action: .replace(ruleLine, with: withEnd))) {
            out.append(Fix(.endFlag, "End rewriting after this rule with [END]", steps: steps, simulator: sim, preference: 2))
        }
        let target = rule.rawSubstitution.hasPrefix("/") ? rule.rawSubstitution : "/" + rule.rawSubstitution
        if let segment = target.split(separator: "/").first, !segment.contains("$"), !segment.contains("%") {
            let guardLine = "RewriteCond %{REQUEST_URI} !^/\(segment)/"
            if let (sim, steps) = edited(simulator, ConfigEdit(file: file, action: .insert(before: first, lines: [guardLine]))) {
                out.append(Fix(.uriGuard, "Skip requests already inside /\(segment)/", steps: steps, simulator: sim, preference: 1))
            }
        }
        return out
    }
}
