import HtlintApache

extension SiteAnalyzer {
    /// Redirects to this site whose every target is served by nothing.
    func unservedTargets() -> [UnservedTarget] {
        // A fallback resource or an unknown file list makes every path potentially served.
        guard topology.files != nil, !hasFallbackResource else { return [] }
        var out: [UnservedTarget] = []
        var seen = Set<String>()
        for o in contexts.occurrences {
            let rule = semantics.rule(o)
            guard rule.flags.redirect.map({ (300...399).contains($0) }) ?? false || SubstitutionPieces(rule.substitution).schemes != nil,
                  !rule.isDash, seen.insert("\(rule.range.file):\(rule.range.start)").inserted else { continue }
            var targets: [RequestSpace] = []
            for entry in semantics.entrySpaces(o.context) {
                for f in semantics.fire(o, entry) {
                    for c in semantics.continuations(f) { if case .redirect = c.kind, let s = c.space { targets.append(s) } }
                }
            }
            guard !targets.isEmpty, !targets.contains(where: served) else { continue }
            let example = targets.lazy.compactMap { $0.path.shortest() }.first ?? "/"
            out.append(UnservedTarget(rule: reference(o), example: example))
        }
        return out
    }

    private var hasFallbackResource: Bool {
        let site = topology.site
        if site.vhost.block.fallbackResource != nil { return true }
        return site.accessConfigs.values.contains { $0.block.fallbackResource.map { $0.lowercased() != "disabled" } ?? false }
    }

    /// Whether some request of the space gets an answer other than "not found": a file, a
    /// directory with an index, a rule, a `Redirect` or an `Alias`.
    private func served(_ space: RequestSpace) -> Bool {
        guard let files = topology.files, let indexed = topology.indexedDirectories else { return true }
        if !(space.path.intersection(files)?.isEmpty ?? false) { return true }
        if !(space.path.intersection(indexed)?.isEmpty ?? false) { return true }
        for o in contexts.occurrences where !semantics.fire(o, space).isEmpty { return true }
        let site = topology.site
        for alias in site.vhost.block.server?.aliases ?? [] {
            if let regex = alias.regex {
                let lang = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
                if !(space.path.intersection(lang.overApproximation)?.isEmpty ?? false) { return true }
            } else if overlaps(space.path, prefix: alias.url) {
                return true
            }
        }
        var redirects = site.vhost.block.redirects
        for config in site.accessConfigs.values { redirects += config.block.redirects }
        for r in redirects {
            switch r.matcher {
            case .everything: return true
            case .prefix(let p): if overlaps(space.path, prefix: p) { return true }
            case .regex(let regex):
                let lang = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
                if !(space.path.intersection(lang.overApproximation)?.isEmpty ?? false) { return true }
            }
        }
        return false
    }

    private func overlaps(_ paths: DFA, prefix: String) -> Bool {
        let under = DFA.literal(prefix).concatenating(.all()) ?? .all()
        return !(paths.intersection(under)?.isEmpty ?? false)
    }
}
