import HtlintApache
import HtlintSimulation

extension SiteAnalyzer {
    /// The rule graph with the given paths highlighted.
    public func graph(highlighting highlights: [SiteRuleGraph.Highlight] = []) -> SiteRuleGraph {
        var nodes: [SiteRuleGraph.Node] = [SiteRuleGraph.Node(id: "request", kind: .request, label: "request", context: nil, rule: nil)]
        var edges: [SiteRuleGraph.Edge] = []
        var exits: [String: SiteRuleGraph.Node] = [:]
        var graphContexts: [SiteRuleGraph.Context] = []
        func exit(_ id: String, _ label: String) -> String {
            if exits[id] == nil { exits[id] = SiteRuleGraph.Node(id: id, kind: .exit, label: label, context: nil, rule: nil) }
            return id
        }
        let all = contexts.contexts
        let server = all.firstIndex { $0.isServer }
        let detailed = contexts.occurrences.count <= SiteAnalyzer.ruleLimit
        for (ci, ctx) in all.enumerated() {
            let cid = "c\(ci)"
            let rules = ctx.ruleSet.rules.indices.map { nodeID(RuleOccurrence(context: ci, index: $0)) }
            graphContexts.append(SiteRuleGraph.Context(id: cid, name: ctx.id, files: ctx.files, base: ctx.base, rules: rules))
            let title = ctx.isServer ? "server configuration" : "\(ctx.urlPrefix) — \(ctx.files.joined(separator: ", "))"
            nodes.append(SiteRuleGraph.Node(id: cid, kind: .context, label: title + (ctx.base.map { " (RewriteBase \($0))" } ?? ""),
                                            context: cid, rule: nil))
            let end = cid + "_end"
            nodes.append(SiteRuleGraph.Node(id: end, kind: .end, label: "end of rules", context: cid, rule: nil))
            if ctx.isServer {
                edges.append(.init(from: "request", to: cid, kind: .enter, label: "every request"))
            } else {
                edges.append(.init(from: server.map { "c\($0)_end" } ?? "request", to: cid, kind: .enter,
                                   label: ctx.urlPrefix == "/" ? "paths not claimed below" : "paths under \(ctx.urlPrefix)"))
            }
            edges.append(.init(from: cid, to: rules.first ?? end, kind: .enter, label: nil))
            if !ctx.isServer { edges.append(.init(from: end, to: exit("exit_served", "served: file, index or handler"), kind: .serve, label: nil)) }
            let set = ctx.ruleSet
            for (j, rule) in set.rules.enumerated() {
                let o = RuleOccurrence(context: ci, index: j)
                let id = nodeID(o)
                nodes.append(SiteRuleGraph.Node(id: id, kind: .rule, label: "line \(rule.line)", context: cid, rule: detail(o)))
                func target(_ index: Int) -> String { index < set.rules.count ? rules[index] : end }
                edges.append(.init(from: id, to: target(set.onNoMatch[j]), kind: .noMatch, label: "no match"))
                let flags = rule.flags
                // F, G and R=code share one status, the last one written ([F,R=307] answers 307).
                if let s = flags.statusOverride {
                    switch s {
                    case 403: edges.append(.init(from: id, to: exit("exit_forbidden", "403 Forbidden"), kind: .forbidden,
                                                 label: flags.forbidden ? "F" : "R=403"))
                    case 410: edges.append(.init(from: id, to: exit("exit_gone", "410 Gone"), kind: .gone,
                                                 label: flags.gone ? "G" : "R=410"))
                    default: edges.append(.init(from: id, to: exit("exit_status_\(s)", "\(s)"), kind: .status, label: "R=\(s)"))
                    }
                    continue
                }
                if flags.proxy { edges.append(.init(from: id, to: exit("exit_proxy", "proxy (mod_proxy)"), kind: .proxy, label: "P")); continue }
                let stops = set.stops[j]
                let onward: SiteRuleGraph.Edge.Kind = flags.chain ? .chain : flags.skip > 0 ? .skip : .next
                let onwardLabel = flags.chain ? "C" : flags.skip > 0 ? "S=\(flags.skip)" : rule.isDash ? "matched" : "rewritten"
                if !stops { edges.append(.init(from: id, to: target(set.onMatch[j]), kind: onward, label: onwardLabel)) }
                // Beyond the analysis limit only the control structure is drawn.
                let outs = detailed ? outcomes(o) : (redirect: redirectStatus(rule), redirectContexts: [], offsite: false,
                                                     internalContexts: [])
                if let status = outs.redirect {
                    let rid = id + "_redirect"
                    exits[rid] = SiteRuleGraph.Node(id: rid, kind: .exit, label: "\(status) → \(rule.rawSubstitution)", context: nil, rule: nil)
                    let how = flags.redirect == nil ? "\(status) (absolute URL)" : "R=\(status)"
                    edges.append(.init(from: id, to: rid, kind: .redirect, label: stops ? how : how + ", at the end of the pass"))
                    for c in outs.redirectContexts { edges.append(.init(from: rid, to: "c\(c)", kind: .follow, label: "browser follows")) }
                    if outs.offsite { edges.append(.init(from: rid, to: exit("exit_offsite", "another site"), kind: .offsite, label: nil)) }
                } else if rule.isDash {
                    if stops { edges.append(.init(from: id, to: ctx.isServer ? end : exit("exit_served", "served: file, index or handler"), kind: .stop, label: flags.end ? "END" : "L")) }
                } else if flags.end {
                    edges.append(.init(from: id, to: ctx.isServer ? end : exit("exit_served", "served: file, index or handler"), kind: .stop, label: "END"))
                } else if ctx.isServer {
                    if stops { edges.append(.init(from: id, to: end, kind: .stop, label: flags.passThrough ? "PT" : "L")) }
                } else {
                    for c in outs.internalContexts {
                        edges.append(.init(from: id, to: "c\(c)", kind: .internalRedirect,
                                           label: stops ? "internal redirect" : "internal redirect at the end of the pass"))
                    }
                    if outs.internalContexts.isEmpty, stops {
                        edges.append(.init(from: id, to: exit("exit_served", "served: file, index or handler"), kind: .stop, label: "L"))
                    }
                }
            }
        }
        nodes += exits.values.sorted { $0.id < $1.id }
        var seen = Set<SiteRuleGraph.Edge>()
        edges = edges.filter { seen.insert($0).inserted }
        let site = simulator.origin.site
        return SiteRuleGraph(site: ([site.canonicalHost] + site.serverAliases).joined(separator: ", "), edge: edge.mode.rawValue,
                             contexts: graphContexts, nodes: nodes, edges: edges, highlights: highlights)
    }

    /// Where a rule's matches go: redirect status and the rule sets the browser comes back
    /// to, or the rule sets an internal redirect lands in.
    private func outcomes(_ o: RuleOccurrence) -> (redirect: Int?, redirectContexts: [Int], offsite: Bool, internalContexts: [Int]) {
        let redirect = redirectStatus(semantics.rule(o))
        var redirectContexts = Set<Int>(), internalContexts = Set<Int>()
        var offsite = false
        var entries = semantics.entrySpaces(o.context)
        if !contexts.contexts[o.context].isServer { entries += semantics.entrySpaces(o.context, internalRedirect: true) }
        for entry in entries {
            for f in semantics.fire(o, entry) {
                for c in semantics.continuations(f) {
                    switch c.kind {
                    case .offsite: offsite = true
                    case .redirect:
                        if let s = c.space { redirectContexts.formUnion(contexts.contexts(seeing: s.path, serverToo: true)) }
                    case .internalRedirect:
                        if let s = c.space { internalContexts.formUnion(contexts.contexts(seeing: s.path, serverToo: true)) }
                    default: break
                    }
                }
            }
        }
        return (redirect, redirectContexts.sorted(), offsite, internalContexts.sorted())
    }

    /// The status of the rule's redirect, nil when it does not redirect.
    private func redirectStatus(_ rule: RewriteRule) -> Int? {
        if let r = rule.flags.redirect, (300...399).contains(r) { return r }
        if !rule.isDash, rule.flags.statusOverride == nil, SubstitutionPieces(rule.substitution).schemes != nil { return 302 }
        return nil
    }

    private func detail(_ o: RuleOccurrence) -> SiteRuleGraph.RuleDetail {
        let rule = semantics.rule(o)
        let text = directiveText(rule.range)
        var flags = SiteAnalyzer.flagsText(rule.flags)
        if let text, text.hasSuffix("]"), let open = text.range(of: " [", options: .backwards) {
            flags = String(text[text.index(after: open.lowerBound)...]).trimmingCharacters(in: ["[", "]"])
        }
        let groups = rule.conditionGroups.map { group in
            group.map { c in
                directiveText(c.range).map { String($0.dropFirst("RewriteCond ".count)) } ?? "\(c.rawTestString) \(c.rawPattern)"
            }
        }
        return SiteRuleGraph.RuleDetail(file: rule.range.file, line: rule.line, range: rule.range,
                                        pattern: (rule.negated ? "!" : "") + rule.pattern, substitution: rule.rawSubstitution,
                                        flags: flags, conditionGroups: groups)
    }

    /// `R=301,L` from parsed flags (for rules without source text at hand).
    static func flagsText(_ f: RewriteFlags) -> String {
        var out: [String] = []
        if f.chain { out.append("C") }
        if let r = f.redirect { out.append("R=\(r)") }
        if f.forbidden { out.append("F") }
        if f.gone { out.append("G") }
        if f.proxy { out.append("P") }
        if f.passThrough { out.append("PT") }
        if f.last { out.append("L") }
        if f.end { out.append("END") }
        if let n = f.next { out.append("N=\(n)") }
        if f.noCase { out.append("NC") }
        if f.noEscape { out.append("NE") }
        if f.qsAppend { out.append("QSA") }
        if f.qsDiscard { out.append("QSD") }
        if f.skip > 0 { out.append("S=\(f.skip)") }
        if f.noSubrequest { out.append("NS") }
        if !f.env.isEmpty { out.append("E") }
        if !f.cookies.isEmpty { out.append("CO") }
        return out.joined(separator: ",")
    }

    // MARK: - Highlights

    /// One highlight per loop the analysis confirmed or could not rule out.
    public func loopHighlights() -> [SiteRuleGraph.Highlight] {
        analyze().loops.filter { $0.status != .refuted }.map { loop in
            var nodes: [String] = []
            var edges: [SiteRuleGraph.Edge] = []
            let k = loop.cycle.count
            for (i, rule) in loop.cycle.enumerated() {
                let next = loop.cycle[(i + 1) % k]
                nodes.append(rule.node)
                if loop.via[i].contains("redirect") && !loop.via[i].contains("internal") {
                    let exitID = rule.node + "_redirect"
                    nodes.append(exitID)
                    edges.append(.init(from: rule.node, to: exitID, kind: .redirect, label: nil))
                    edges.append(.init(from: exitID, to: next.node, kind: .fires, label: "loops back"))
                } else {
                    edges.append(.init(from: rule.node, to: next.node, kind: .fires, label: "loops back"))
                }
            }
            let what = loop.kind == .redirect ? "redirect loop" : "internal rewrite loop"
            let title = "\(what) (\(loop.status.rawValue))" + (loop.witness.map { loop.confirmed ? ": \($0)" : "" } ?? "")
            return SiteRuleGraph.Highlight(title: title, isLoop: true, nodes: nodes, edges: edges)
        }
    }

    /// The path one simulated request takes through the graph: the rules that matched on each
    /// hop, in order, and the redirects between hops.
    public func highlight(for chain: ChainResult) -> SiteRuleGraph.Highlight {
        var byRange: [String: [String]] = [:]
        for o in contexts.occurrences {
            let r = semantics.rule(o).range
            byRange["\(r.file):\(r.start)", default: []].append(nodeID(o))
        }
        var path: [String] = ["request"]
        for hop in chain.hops {
            for event in hop.origin?.trace ?? [] {
                guard let r = event.range, let ids = byRange["\(r.file):\(r.start)"] else { continue }
                switch event.kind {
                case .ruleMatched:
                    let id = pick(ids, uri: hop.originRequest?.target ?? "/")
                    if path.last != id { path.append(id) }
                case .externalRedirect:
                    let id = pick(ids, uri: hop.originRequest?.target ?? "/") + "_redirect"
                    if path.last != id { path.append(id) }
                default: break
                }
            }
        }
        if let last = chain.hops.last, last.status < 300 || last.status >= 400 {
            path.append(last.status < 300 ? "exit_served" : last.status == 403 ? "exit_forbidden" : last.status == 410 ? "exit_gone" : "")
        }
        path = path.filter { !$0.isEmpty }
        var edges: [SiteRuleGraph.Edge] = []
        let staticEdges = graph().edges
        for (a, b) in zip(path, path.dropFirst()) {
            if let e = staticEdges.first(where: { $0.from == a && $0.to == b }) { edges.append(e) }
            else { edges.append(.init(from: a, to: b, kind: .trace, label: nil)) }
        }
        let title = "\(chain.request): \(chain.hops.count) hop\(chain.hops.count == 1 ? "" : "s"), \(chain.outcome.rawValue) \(chain.finalStatus)"
        return SiteRuleGraph.Highlight(title: title, isLoop: chain.outcome == .loop, nodes: path, edges: edges)
    }

    /// Of a rule's occurrences, the one in the deepest context that sees `target`'s path.
    private func pick(_ ids: [String], uri: String) -> String {
        let path = String(uri.prefix { $0 != "?" })
        var best = ids[0], depth = -1
        for id in ids {
            guard let ci = Int(id.dropFirst().prefix { $0.isNumber }) else { continue }
            let ctx = contexts.contexts[ci]
            let d = ctx.isServer ? 0 : ctx.urlPrefix.count
            if (ctx.isServer || path.hasPrefix(ctx.urlPrefix)), d > depth { best = id; depth = d }
        }
        return best
    }
}
