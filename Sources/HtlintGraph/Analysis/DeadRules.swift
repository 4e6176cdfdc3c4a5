import HtlintApache
import HtlintDiagnostics

extension SiteAnalyzer {
    /// Rules that fire for no request at all, in any rule set they occur in. File tests are
    /// left open here: a rule that waits for a cache file or an upload is not dead.
    func deadRules() -> [DeadRule] {
        let semantics = RuleSemantics(topology: topology.withoutFileList(), contexts: contexts)
        var byRule: [SourceRange: [RuleOccurrence]] = [:]
        var order: [SourceRange] = []
        for o in contexts.occurrences {
            let range = semantics.rule(o).range
            if byRule[range] == nil { order.append(range) }
            byRule[range, default: []].append(o)
        }
        var out: [DeadRule] = []
        for range in order {
            let occurrences = byRule[range]!
            let dead = occurrences.allSatisfy { o in
                var entries = semantics.entrySpaces(o.context)
                if !contexts.contexts[o.context].isServer { entries += semantics.entrySpaces(o.context, internalRedirect: true) }
                return entries.allSatisfy { semantics.fire(o, $0).isEmpty }
            }
            if dead, let finding = explainDead(occurrences[0], semantics) { out.append(finding) }
        }
        return out
    }

    /// Why `o` never fires; nil when the reason cannot be pinned down (nothing is reported then).
    private func explainDead(_ o: RuleOccurrence, _ semantics: RuleSemantics) -> DeadRule? {
        let topology = semantics.topology
        let ctx = contexts.contexts[o.context]
        let rule = semantics.rule(o)
        let entryPaths = ctx.isServer ? URLShapes.language(.absolutePath) : ctx.applies
        let (pattern, _) = semantics.pathLanguage(o)
        let matched = entryPaths.intersection(pattern) ?? pattern
        let me = reference(o)
        if matched.isEmpty {
            return DeadRule(rule: me, reason: .neverMatches, shadowedBy: [], conditions: [], involvesUnknownVariable: false,
                            explanation: ctx.isServer ? "`\(rule.pattern)` matches no URL-path"
                                : "`\(rule.pattern)` matches no path under \(ctx.urlPrefix) that these rules see")
        }
        // Shadowed when, for every scheme and kind of request, earlier stoppers take it all.
        var stoppers = Set<Int>()
        var shadowedEverywhere = true
        var entries = semantics.entrySpaces(o.context)
        if !ctx.isServer { entries += semantics.entrySpaces(o.context, internalRedirect: true) }
        for var entry in entries {
            entry.path = matched
            let shadow = withUnsafeMutablePointer(to: &stoppers) { semantics.shadowingPaths(o, entry, by: $0) }
            if !(matched.subtracting(shadow)?.isEmpty ?? false) { shadowedEverywhere = false }
        }
        if shadowedEverywhere {
            let by = stoppers.sorted().map { reference(RuleOccurrence(context: o.context, index: $0)) }
            let lines = by.map { "line \($0.line)" }.joined(separator: ", ")
            return DeadRule(rule: me, reason: .shadowed, shadowedBy: by, conditions: [], involvesUnknownVariable: false,
                            explanation: "every request it matches is taken first by \(lines), which end\(by.count == 1 ? "s" : "") the pass")
        }
        // Otherwise the conditions: in each alternative, the one that makes it impossible.
        var involved: [RewriteCondition] = []
        var reasons: [String] = []
        var onlyEdge = edge.mode != .none
        func note(_ conditions: [RewriteCondition], _ reason: String) {
            for c in conditions where !involved.contains(where: { $0.range == c.range }) { involved.append(c) }
            if !reasons.contains(reason) { reasons.append(reason) }
        }
        for alternative in rule.conditionAlternatives {
            for var space in entries {
                space.path = matched
                var held: [RewriteCondition] = []
                conditions: for c in alternative {
                    switch topology.effect(of: c, scheme: space.scheme, internalRedirect: space.internalRedirect,
                                           serverContext: ctx.isServer) {
                    case .never:
                        if !edgeDerived(c, scheme: space.scheme) { onlyEdge = false }
                        note([c], valueExplanation(c))
                        break conditions
                    case .expansion:
                        if semantics.decide(c, Firing(occurrence: o, space: space, conditions: held)) == false {
                            onlyEdge = false
                            note([c], "`\(c.rawTestString) \(c.rawPattern)` never holds for the requests this rule matches")
                            break conditions
                        }
                    case .constrain(let dim, let lang, _):
                        switch dim {
                        case .host: space.host = space.host.intersection(lang) ?? space.host
                        case .path: space.path = space.path.intersection(lang) ?? space.path
                        case .query: space.query = space.query.intersection(lang) ?? space.query
                        case .theRequest: break
                        }
                        if space.isEmpty {
                            onlyEdge = false
                            let same = (held + [c]).filter { sameDimension($0, dim, topology, scheme: space.scheme, server: ctx.isServer) }
                            let what = dim == .host ? "`%{HTTP_HOST}`" : dim == .query ? "`%{QUERY_STRING}`" : "URL-path"
                            note(same, "no \(what) satisfies \(same.count > 1 ? "these conditions together" : "this condition") and the pattern")
                            break conditions
                        }
                    case .always, .unknown: break
                    }
                    held.append(c)
                }
            }
        }
        guard !involved.isEmpty else { return nil }
        var dead = DeadRule(rule: me, reason: .conditions, shadowedBy: [], conditions: involved.map { reference($0) },
                            involvesUnknownVariable: involved.contains { usesUnknownVariable($0) },
                            explanation: reasons.joined(separator: "; "))
        if onlyEdge { dead.redundantBehindEdge = true }
        return dead
    }

    /// Whether every variable of `c` has its value from the edge in front (the connection's
    /// scheme and port, or a header the edge sets): without the edge the condition could hold.
    private func edgeDerived(_ c: RewriteCondition, scheme: String) -> Bool {
        guard edge.mode != .none else { return false }
        let set = Set(edge.forwardedHeaders(scheme: scheme).map { $0.name.lowercased() })
        var names: [String] = []
        for part in c.testString.parts {
            switch part {
            case .variable(let name): names.append(name)
            case .literal: continue
            default: return false
            }
        }
        return !names.isEmpty && names.allSatisfy { name in
            let upper = name.uppercased()
            if ["HTTPS", "SERVER_PORT", "REQUEST_SCHEME"].contains(upper) { return true }
            return upper.hasPrefix("HTTP:") && set.contains(String(name.dropFirst(5)).lowercased())
        }
    }

    /// Whether a condition reads a name mod_rewrite does not know (HT208's finding, not ours).
    private func usesUnknownVariable(_ c: RewriteCondition) -> Bool {
        c.testString.parts.contains { part in
            if case .variable(let name) = part,
               case .unknownName = topology.variable(name, scheme: "http", internalRedirect: false, serverContext: false) {
                return true
            }
            return false
        }
    }

    private func sameDimension(_ c: RewriteCondition, _ dim: Dimension, _ topology: Topology, scheme: String, server: Bool) -> Bool {
        if case .constrain(let d, _, _) = topology.effect(of: c, scheme: scheme, internalRedirect: false, serverContext: server) {
            return d == dim
        }
        return false
    }

    /// "`%{HTTPS}` is always `off` here (behind the cloudflare-flexible edge)".
    private func valueExplanation(_ c: RewriteCondition) -> String {
        var values: [String] = []
        for part in c.testString.parts {
            guard case .variable(let name) = part else { continue }
            var all: [String] = []
            for s in topology.schemesReachingOrigin {
                switch topology.variable(name, scheme: s, internalRedirect: false, serverContext: false) {
                case .values(let v): for x in v where !all.contains(x) { all.append(x) }
                case .unknownName: if !all.contains("") { all.append("") }
                default: break
                }
            }
            values.append("`%{\(name)}` is " + (all.count == 1 ? "always `\(all[0])`" : "one of " + all.map { "`\($0)`" }.joined(separator: ", ")))
        }
        let edgeNote = edge.mode == .none ? "" : " behind the \(edge.mode.rawValue) edge"
        let condition = "`\(c.rawTestString) \(c.rawPattern)`"
        if values.isEmpty { return "\(condition) never holds\(edgeNote)" }
        return "\(values.joined(separator: ", "))\(edgeNote), so \(condition) never holds"
    }
}
