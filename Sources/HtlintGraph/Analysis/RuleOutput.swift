import HtlintApache

/// Where a request goes after a rule matched it.
enum ContinuationKind: Hashable, Sendable {
    /// An external redirect: the browser asks again (the space is the next request).
    case redirect(Int)
    /// A per-directory rewrite to a local path: Apache starts over with an internal redirect.
    case internalRedirect
    /// The same pass goes on with the rewritten path (server rules → directory walk, or a
    /// rule without `[L]` → the next rules).
    case samePass
    /// Nothing changes any more: the mapped file is served (or `[END]` stopped rewriting).
    case served
    case forbidden, gone, proxy
    case status(Int)
    /// A redirect to another site.
    case offsite
}

/// One way a matched request continues, with the requests that follow when the rules can see
/// them again.
struct Continuation: @unchecked Sendable {
    var kind: ContinuationKind
    var space: RequestSpace?

    var reenters: Bool {
        switch kind {
        case .redirect, .internalRedirect, .samePass: return space != nil
        default: return false
        }
    }
}

/// A substitution cut into URL components at its literal `://`, `/` and `?` (an expansion that
/// produces `?` is refused by Apache, so literal text decides where the query starts).
struct SubstitutionPieces {
    /// nil: not an absolute URL. Empty: a scheme the analysis cannot tell.
    var schemes: [String]?
    var schemeFromRequest = false
    var host: [Template.Part] = []
    var path: [Template.Part] = []
    var query: [Template.Part]? = nil

    init(_ template: Template) {
        var parts = template.parts
        var phase = 2  // 1 host, 2 path, 3 query
        // Scheme: a literal `http://`/`https://`, or `%{REQUEST_SCHEME}://`.
        if case .literal(let s)? = parts.first, let r = s.range(of: "://"),
           ["http", "https"].contains(s[..<r.lowerBound].lowercased()) {
            schemes = [s[..<r.lowerBound].lowercased()]
            parts[0] = .literal(String(s[r.upperBound...]))
            phase = 1
        } else if parts.count >= 2, case .variable(let v) = parts[0], case .literal(let s) = parts[1], s.hasPrefix("://") {
            schemes = []
            schemeFromRequest = v.uppercased() == "REQUEST_SCHEME"
            parts.removeFirst()
            parts[0] = .literal(String(s.dropFirst(3)))
            phase = 1
        }
        for part in parts {
            switch part {
            case .literal(let text):
                var rest = Substring(text)
                while !rest.isEmpty {
                    if phase == 1, let cut = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) {
                        if cut > rest.startIndex { host.append(.literal(String(rest[..<cut]))) }
                        phase = rest[cut] == "/" ? 2 : 3
                        if phase == 3 { query = []; rest = rest[rest.index(after: cut)...] } else { rest = rest[cut...] }
                        continue
                    }
                    if phase == 2, let q = rest.firstIndex(of: "?") {
                        if q > rest.startIndex { path.append(.literal(String(rest[..<q]))) }
                        phase = 3
                        query = []
                        rest = rest[rest.index(after: q)...]
                        continue
                    }
                    switch phase {
                    case 1: host.append(.literal(String(rest)))
                    case 2: path.append(.literal(String(rest)))
                    default: query!.append(.literal(String(rest)))
                    }
                    rest = ""
                }
            case .variable(let name) where phase == 1 && ["HTTP_HOST", "SERVER_NAME", "HTTP:HOST"].contains(name.uppercased()):
                host.append(part)
            case .conditionCapture where phase == 1:
                host.append(part)
            default:
                if phase == 1 { phase = 2 }
                if phase == 2 { path.append(part) } else { query!.append(part) }
            }
        }
    }
}

extension SubstitutionPieces {
    /// With `[NE]` a literal `#` starts a fragment, which the browser does not send.
    mutating func dropFragment() {
        func cut(_ parts: inout [Template.Part]) -> Bool {
            for (i, part) in parts.enumerated() {
                if case .literal(let s) = part, let hash = s.firstIndex(of: "#") {
                    parts = Array(parts[..<i]) + (hash > s.startIndex ? [.literal(String(s[..<hash]))] : [])
                    return true
                }
            }
            return false
        }
        if cut(&path) { query = nil; return }
        if var q = query, cut(&q) { query = q }
    }
}

extension RuleSemantics {
    /// How requests continue after `f`'s rule matched them.
    func continuations(_ f: Firing) -> [Continuation] {
        continuations(ContinuationKey(occurrence: f.occurrence, space: f.space, conditions: f.conditions.map(\.range))) {
            computeContinuations(f)
        }
    }

    private func computeContinuations(_ f: Firing) -> [Continuation] {
        let o = f.occurrence
        let rule = self.rule(o)
        let ctx = context(o)
        let flags = rule.flags
        // F, G and R=code share one status, the last one written ([F,R=307] answers 307).
        if let s = flags.statusOverride { return [Continuation(kind: s == 403 ? .forbidden : s == 410 ? .gone : .status(s))] }
        if rule.isDash { return [Continuation(kind: context(o).ruleSet.stops[o.index] ? .served : .samePass, space: nil)] }
        if flags.proxy { return [Continuation(kind: .proxy)] }
        var pieces = SubstitutionPieces(rule.substitution)
        if flags.noEscape { pieces.dropFragment() }
        let query = outputQuery(f, pieces)
        let isRedirect = flags.redirect.map { (300...399).contains($0) } ?? false
        if pieces.schemes != nil || isRedirect {
            return redirect(f, pieces, query: query, status: flags.redirect.flatMap { (300...399).contains($0) ? $0 : nil } ?? 302)
        }
        // A local path.
        var path = language(pieces.path, f)
        let (absolute, relative) = (URLShapes.slashFirst, URLShapes.noSlashFirst)
        if !ctx.isServer {
            let prefix = ctx.base.map { $0.hasSuffix("/") ? $0 : $0 + "/" } ?? ctx.urlPrefix
            let rel = path.intersection(relative).flatMap { DFA.literal(prefix).concatenating($0) } ?? .nothing
            path = path.intersection(absolute)?.union(rel) ?? path
        } else {
            let rel = path.intersection(relative).flatMap { DFA.literal("/").concatenating($0) } ?? .nothing
            path = path.intersection(absolute)?.union(rel) ?? path
        }
        path = path.intersection(URLShapes.language(.absolutePath)) ?? path
        path = withoutExpandedQuestionMark(path, rule)
        var next = f.space
        next.path = path
        next.query = query
        if ctx.isServer { return [Continuation(kind: .samePass, space: next)] }
        var out: [Continuation] = []
        if !context(o).ruleSet.stops[o.index] { out.append(Continuation(kind: .samePass, space: next)) }
        if flags.end { out.append(Continuation(kind: .served)); return out }
        // The same filename again is not redirected ("initial URL equal rewritten URL").
        if let p = path.singleton, f.space.path.subtracting(.literal(p))?.isEmpty == true {
            out.append(Continuation(kind: .served))
            return out
        }
        var redirected = next
        redirected.internalRedirect = true
        if redirected.theRequest == nil { redirected.theRequest = f.space.requestLine() }
        out.append(Continuation(kind: .internalRedirect, space: redirected))
        return out
    }

    private func redirect(_ f: Firing, _ pieces: SubstitutionPieces, query: DFA, status: Int) -> [Continuation] {
        let o = f.occurrence
        let ctx = context(o)
        var schemes: [String]
        var host: DFA
        var path: DFA
        if let s = pieces.schemes {
            schemes = pieces.schemeFromRequest ? [topology.originScheme(f.space.scheme)] : (s.isEmpty ? ["http", "https"] : s)
            host = language(pieces.host, f)
            path = pieces.path.isEmpty ? .literal("/") : language(pieces.path, f)
            // `https://host` + "" is requested as `/`.
            if path.accepts("") { path = path.union(.literal("/")) ?? path }
        } else {
            schemes = [topology.originScheme(f.space.scheme)]
            host = topology.canonicalServerName.map { .literal($0) } ?? f.space.host
            path = language(pieces.path, f)
            let (absolute, relative) = (URLShapes.slashFirst, URLShapes.noSlashFirst)
            if !ctx.isServer {
                // A relative target is prefixed with the directory's filesystem path, which
                // RewriteBase then replaces (apache-semantics §4.9 step 5.1).
                let prefix = ctx.base.map { "/" + String($0.drop { $0 == "/" }) + ($0.hasSuffix("/") ? "" : "/") } ?? ctx.directory
                let rel = path.intersection(relative).flatMap { DFA.literal(prefix).concatenating($0) } ?? .nothing
                path = path.intersection(absolute)?.union(rel) ?? path
            } else {
                let rel = path.intersection(relative).flatMap { DFA.literal("/").concatenating($0) } ?? .nothing
                path = path.intersection(absolute)?.union(rel) ?? path
            }
        }
        path = path.intersection(URLShapes.language(.absolutePath)) ?? path
        path = withoutExpandedQuestionMark(path, self.rule(o))
        let lowered = host.intersection(topology.anyHost) ?? host
        let own = lowered.intersection(topology.ownHosts) ?? lowered
        var out: [Continuation] = []
        // A redirect to the host the request named stays with that host: a request for a
        // foreign name is not a visitor of this site leaving it.
        let requestHost = pieces.schemes == nil || pieces.host.count == 1 && {
            if case .variable(let v) = pieces.host[0] { return ["HTTP_HOST", "HTTP:HOST"].contains(v.uppercased()) }
            return false
        }()
        if !requestHost, !(lowered.subtracting(topology.ownHosts)?.isEmpty ?? true) || own.isEmpty {
            out.append(Continuation(kind: .offsite))
        }
        guard !own.isEmpty, !path.isEmpty else { return out }
        for s in schemes where s == "http" || s == "https" {
            var next = RequestSpace(scheme: topology.visitorScheme(after: s), host: own, path: path, query: query,
                                    internalRedirect: false, theRequest: nil)
            next.noteFree(f.space.freeVariables)
            out.append(Continuation(kind: .redirect(status), space: next))
        }
        return out
    }

    /// A `?` in the path can only come from an expansion, and Apache answers 403 for it
    /// unless `[UnsafeAllow3F]` (apache-semantics §4.9): those requests do not go on.
    private func withoutExpandedQuestionMark(_ path: DFA, _ rule: RewriteRule) -> DFA {
        guard !rule.flags.unsafeAllow3F else { return path }
        let withMark = DFA.all().concatenating(.literal("?"))?.concatenating(.all()) ?? .nothing
        return path.subtracting(withMark) ?? path
    }

    /// The query string after the rule (apache-semantics §6.5).
    private func outputQuery(_ f: Firing, _ pieces: SubstitutionPieces) -> DFA {
        let rule = self.rule(f.occurrence)
        if rule.noQuery { return .literal("") }
        let old = f.space.query
        guard let q = pieces.query else { return rule.flags.qsDiscard ? .literal("") : old }
        let new = language(q, f)
        guard rule.flags.qsAppend, !rule.flags.qsDiscard else { return new }
        let nonEmptyOld = old.subtracting(.literal("")) ?? old
        let appended = new.concatenating(.literal("&"))?.concatenating(nonEmptyOld) ?? .all()
        return new.union(appended) ?? .all()
    }

    /// The language of an expansion of `parts` for the requests of `f`.
    func language(_ parts: [Template.Part], _ f: Firing) -> DFA {
        var result = DFA.literal("")
        for part in parts {
            guard let next = result.concatenating(partLanguage(part, f)) else { return .all() }
            result = next
        }
        return result
    }

    private func partLanguage(_ part: Template.Part, _ f: Firing) -> DFA {
        let o = f.occurrence
        let rule = self.rule(o)
        let server = context(o).isServer
        switch part {
        case .literal(let s): return .literal(s)
        case .ruleCapture(let n):
            if rule.negated { return .literal("") }
            let lang = PatternLanguage.of(rule.pattern, caseInsensitive: rule.flags.noCase)
            if n > (lang.parsed?.groupCount ?? 0) { return lang.parsed == nil ? .all() : .literal("") }
            return captureLanguage(lang, n, subjects(o, f.space.path))
        case .conditionCapture(let n):
            guard let at = f.conditions.lastIndex(where: { if case .regex = $0.test { !$0.negated } else { false } }),
                  case .regex(let regex) = f.conditions[at].test else { return .literal("") }
            let c = f.conditions[at]
            let lang = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
            if n > (lang.parsed?.groupCount ?? 0) { return lang.parsed == nil ? .all() : .literal("") }
            // `%N` in that condition's own test string (`RewriteCond http%1://%{HTTP_HOST} …`)
            // names a condition before it, never itself.
            var before = f
            before.conditions = Array(f.conditions[..<at])
            let domain = language(c.testString.parts, before)
            // A test string with a few known values (`%{HTTPS}`): run PCRE2 on each.
            if !hasCycle(domain) {
                let values = domain.enumerate(limit: 9)
                if values.count <= 8 { return DFA.literals(values.compactMap { regex.firstMatch(in: $0).map { m in m[n] } }) }
            }
            return captureLanguage(lang, n, domain)
        case .variable(let name):
            switch topology.variable(name, scheme: f.space.scheme, internalRedirect: f.space.internalRedirect, serverContext: server) {
            case .host: return f.space.host
            case .path: return f.space.path
            case .query: return f.space.query
            case .filename: return server ? f.space.path : (DFA.literal(topology.site.documentRoot).concatenating(f.space.path) ?? .all())
            case .theRequest: return f.space.requestLine()
            case .values(let v): return .literals(v)
            case .unknownName: return .literal("")
            case .free: return .all()
            }
        case .map: return .all()
        }
    }

    private func hasCycle(_ d: DFA) -> Bool {
        // Depth-first search for a back edge among live states.
        var state = [UInt8](repeating: 0, count: d.count)
        func visit(_ s: Int32) -> Bool {
            state[Int(s)] = 1
            var seen = Set<Int32>()
            for c in 0..<d.classCount {
                let t = d.target(s, class: c)
                guard t >= 0, seen.insert(t).inserted else { continue }
                if state[Int(t)] == 1 { return true }
                if state[Int(t)] == 0, visit(t) { return true }
            }
            state[Int(s)] = 2
            return false
        }
        return d.start >= 0 && visit(d.start)
    }
}
