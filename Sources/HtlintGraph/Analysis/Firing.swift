import Foundation
import HtlintApache
import HtlintDiagnostics

/// A rule matching a set of requests: the part of the space it fires on, and the conditions
/// of the alternative that held (for `%N`).
struct Firing: @unchecked Sendable {
    var occurrence: RuleOccurrence
    var space: RequestSpace
    var conditions: [RewriteCondition]
}

/// The rules of a site as functions over request spaces. Caches what is reused across queries
/// (pattern languages moved onto URL-paths, the rules that certainly stop before each rule).
final class RuleSemantics: @unchecked Sendable {
    let topology: Topology
    let contexts: RuleContexts
    private var pathLanguages: [RuleOccurrence: (DFA, exact: Bool)] = [:]
    private var stopperCache: [String: [StopperAlternative]] = [:]
    private var stopperFlagCache: [Int: [Bool]] = [:]
    private var shadowCache: [String: DFA] = [:]
    private var prefixCache: [RuleOccurrence: String] = [:]
    private var spacePrefixCache: [DFA: String] = [:]
    private var captures: [CaptureKey: DFA] = [:]
    private var fireCache: [FireKey: [Firing]] = [:]
    private var continuationCache: [ContinuationKey: [Continuation]] = [:]
    private let lock = NSLock()

    init(topology: Topology, contexts: RuleContexts) {
        self.topology = topology
        self.contexts = contexts
    }

    /// Looks `key` up in one of the caches, computing (outside the lock) and storing it when
    /// missing. Caches are emptied when they grow past `limit`.
    private func memo<K: Hashable, V>(_ cache: ReferenceWritableKeyPath<RuleSemantics, [K: V]>, _ key: K,
                                      limit: Int = 20_000, _ compute: () -> V) -> V {
        lock.lock()
        if let v = self[keyPath: cache][key] { lock.unlock(); return v }
        lock.unlock()
        let v = compute()
        lock.lock()
        if self[keyPath: cache].count >= limit { self[keyPath: cache].removeAll() }
        self[keyPath: cache][key] = v
        lock.unlock()
        return v
    }

    func context(_ o: RuleOccurrence) -> RuleContext { contexts.contexts[o.context] }
    func rule(_ o: RuleOccurrence) -> RewriteRule { contexts.rule(o) }

    /// The pattern's language (as mod_rewrite searches the subject) as a language of URL-paths
    /// for requests in this context; `exact` false when it is a superset.
    func pathLanguage(_ o: RuleOccurrence) -> (DFA, exact: Bool) {
        memo(\.pathLanguages, o) {
            let rule = self.rule(o)
            let ctx = context(o)
            let lang = PatternLanguage.of(rule.pattern, caseInsensitive: rule.flags.noCase)
            var subjects = lang.overApproximation
            var exact = lang.isExact
            if rule.negated {
                if let non = lang.nonMatches { subjects = non } else { subjects = .all(); exact = false }
            }
            guard !ctx.isServer else { return (subjects, exact) }
            if let shifted = DFA.literal(ctx.urlPrefix).concatenating(subjects) { return (shifted, exact) }
            return (DFA.literal(ctx.urlPrefix).concatenating(.all()) ?? .all(), false)
        }
    }

    /// The literal start every path on which `o`'s pattern matches shares (`/old/page-`).
    func pathPrefix(_ o: RuleOccurrence) -> String {
        memo(\.prefixCache, o) { pathLanguage(o).0.forcedPrefix }
    }

    /// `forcedPrefix` of a space's paths, remembered (the same space meets every rule).
    private func forcedPrefix(_ d: DFA) -> String {
        memo(\.spacePrefixCache, d, limit: 5_000) { d.forcedPrefix }
    }

    /// Per-directory subject of a path language (the URL-path without the context's prefix).
    func subjects(_ o: RuleOccurrence, _ paths: DFA) -> DFA {
        let ctx = context(o)
        return ctx.isServer ? paths : paths.removingPrefix(ctx.urlPrefix)
    }

    /// One way an earlier rule certainly matches and ends the pass: on these paths, for every
    /// request whose other components lie in `requirements`.
    struct StopperAlternative {
        var paths: DFA
        var requirements: [(Dimension, DFA)]
    }

    /// Earlier rules that end the pass whenever they match, with nothing able to jump over
    /// them: not in a `[C]` chain, no `[S=n]` skipping past, no `[N]` restart.
    func structuralStoppers(before o: RuleOccurrence) -> [Int] {
        let flags = stopperFlags(o.context)
        return (0..<o.index).filter { flags[$0] }
    }

    /// For each rule of a context, whether it is a structural stopper (computed once).
    private func stopperFlags(_ c: Int) -> [Bool] {
        memo(\.stopperFlagCache, c) {
            let set = contexts.contexts[c].ruleSet
            var flags: [Bool] = []
            var furthestSkip = 0
            for (j, r) in set.rules.enumerated() {
                let free = set.stops[j] && !r.flags.chain && (j == 0 || !set.rules[j - 1].flags.chain) && r.flags.next == nil
                flags.append(free && furthestSkip <= j)
                furthestSkip = max(furthestSkip, set.onMatch[j])
            }
            return flags
        }
    }

    /// The paths that the stoppers before `o` take whatever the rest of the request is
    /// (alternatives without host or query requirements), built up rule by rule.
    private func unconditionalShadow(_ o: RuleOccurrence, scheme: String, internalRedirect: Bool) -> DFA {
        func key(_ i: Int) -> String { "\(o.context):\(i):\(scheme):\(internalRedirect)" }
        lock.lock()
        var i = o.index
        while i > 0, shadowCache[key(i)] == nil { i -= 1 }
        var union = shadowCache[key(i)] ?? .nothing
        lock.unlock()
        let flags = stopperFlags(o.context)
        while i < o.index {
            if flags[i] {
                for alt in stopperAlternatives(RuleOccurrence(context: o.context, index: i), scheme: scheme,
                                               internalRedirect: internalRedirect) where alt.requirements.isEmpty {
                    if let u = union.union(alt.paths) { union = u }
                }
            }
            i += 1
            lock.lock()
            shadowCache[key(i)] = union
            lock.unlock()
        }
        return union
    }

    /// The alternatives of rule `j` that certainly stop, as far as they can be known exactly.
    func stopperAlternatives(_ j: RuleOccurrence, scheme: String, internalRedirect: Bool) -> [StopperAlternative] {
        memo(\.stopperCache, "\(j.context):\(j.index):\(scheme):\(internalRedirect)") {
            var out: [StopperAlternative] = []
            let rule = self.rule(j)
            let (lang, exact) = pathLanguage(j)
            guard exact, rule.conditionAlternativesAreComplete else { return out }
            let server = context(j).isServer
            alternatives: for alternative in rule.conditionAlternatives {
                var alt = StopperAlternative(paths: lang, requirements: [])
                for c in alternative {
                    switch topology.effect(of: c, scheme: scheme, internalRedirect: internalRedirect, serverContext: server) {
                    case .always: continue
                    case .never, .unknown, .expansion: continue alternatives
                    case .constrain(let dim, let l, let exact):
                        guard exact else { continue alternatives }
                        if dim == .path { alt.paths = alt.paths.intersection(l) ?? alt.paths } else { alt.requirements.append((dim, l)) }
                    }
                }
                out.append(alt)
            }
            return out
        }
    }

    /// Paths of `space` that an earlier rule takes for certain (matches and ends the pass).
    /// With `by`, also the indices of the rules that do.
    func shadowingPaths(_ o: RuleOccurrence, _ space: RequestSpace, by: UnsafeMutablePointer<Set<Int>>? = nil) -> DFA {
        var union = unconditionalShadow(o, scheme: space.scheme, internalRedirect: space.internalRedirect)
        func holds(_ alt: StopperAlternative) -> Bool {
            alt.requirements.allSatisfy { dim, l in
                let component: DFA
                switch dim {
                case .host: component = space.host
                case .query: component = space.query
                case .theRequest: component = space.requestLine()
                case .path: component = space.path
                }
                return component.subtracting(l)?.isEmpty ?? false
            }
        }
        for j in structuralStoppers(before: o) {
            let other = RuleOccurrence(context: o.context, index: j)
            for alt in stopperAlternatives(other, scheme: space.scheme, internalRedirect: space.internalRedirect) {
                let conditional = !alt.requirements.isEmpty
                if conditional {
                    guard holds(alt), let u = union.union(alt.paths) else { continue }
                    union = u
                }
                if let by, (!conditional || holds(alt)), !(alt.paths.intersection(space.path)?.isEmpty ?? true) { by.pointee.insert(j) }
            }
        }
        return union
    }

    struct ContinuationKey: Hashable {
        var occurrence: RuleOccurrence
        var space: RequestSpace
        var conditions: [SourceRange]
    }

    /// `continuations` remembered per rule, space and conditions held.
    func continuations(_ key: ContinuationKey, _ compute: () -> [Continuation]) -> [Continuation] {
        memo(\.continuationCache, key, compute)
    }

    private struct FireKey: Hashable {
        var occurrence: RuleOccurrence
        var space: RequestSpace
    }

    /// Where `o` fires within `space` (the requests reaching its rule set); empty when it cannot.
    func fire(_ o: RuleOccurrence, _ space: RequestSpace) -> [Firing] {
        memo(\.fireCache, FireKey(occurrence: o, space: space)) { computeFire(o, space) }
    }

    private func computeFire(_ o: RuleOccurrence, _ space: RequestSpace) -> [Firing] {
        let set = context(o).ruleSet
        guard o.index > 0, set.rules[o.index - 1].flags.chain else { return fireDirectly(o, space) }
        // A chained rule runs only when the rule before it matched, on what that one produced.
        let previous = RuleOccurrence(context: o.context, index: o.index - 1)
        var out: [Firing] = []
        for f in fire(previous, space) {
            if rule(previous).isDash {
                out += fireDirectly(o, f.space)
            } else {
                for c in continuations(f) where c.kind == .samePass { if let s = c.space { out += fireDirectly(o, s) } }
            }
        }
        return out
    }

    private func fireDirectly(_ o: RuleOccurrence, _ space: RequestSpace) -> [Firing] {
        let ctx = context(o)
        let rule = self.rule(o)
        guard !space.isEmpty else { return [] }
        // Quick reject: the literal text every path must start with, on both sides.
        let required = pathPrefix(o), offered = forcedPrefix(space.path)
        guard required.hasPrefix(offered) || offered.hasPrefix(required) else { return [] }
        var paths = space.path
        if !ctx.isServer { paths = paths.intersection(ctx.applies) ?? paths }
        let (pattern, exact) = pathLanguage(o)
        paths = paths.intersection(pattern) ?? paths
        guard !paths.isEmpty else { return [] }
        var restricted = space
        restricted.path = paths
        paths = paths.subtracting(shadowingPaths(o, restricted)) ?? paths
        guard !paths.isEmpty else { return [] }
        var out: [Firing] = []
        alternatives: for alternative in rule.conditionAlternatives {
            var s = space
            s.path = paths
            if !exact { s.noteFree(["`\(rule.pattern)`"]) }
            var held: [RewriteCondition] = []
            for c in alternative {
                switch topology.effect(of: c, scheme: s.scheme, internalRedirect: s.internalRedirect, serverContext: ctx.isServer) {
                case .always: break
                case .never: continue alternatives
                case .unknown(let names): s.noteFree(names)
                case .expansion:
                    switch decide(c, Firing(occurrence: o, space: s, conditions: held)) {
                    case false?: continue alternatives
                    case true?: break
                    case nil: s.noteFree(["`\(c.rawTestString) \(c.rawPattern)`"])
                    }
                case .constrain(let dim, let lang, let exact):
                    if !exact { s.noteFree(["`\(c.rawPattern)`"]) }
                    switch dim {
                    case .host: s.host = s.host.intersection(lang) ?? s.host
                    case .path: s.path = s.path.intersection(lang) ?? s.path
                    case .query: s.query = s.query.intersection(lang) ?? s.query
                    case .theRequest:
                        let line = s.requestLine().intersection(lang) ?? s.requestLine()
                        if line.isEmpty { continue alternatives }
                        s.theRequest = line
                    }
                    if s.isEmpty { continue alternatives }
                }
                held.append(c)
            }
            out.append(Firing(occurrence: o, space: s, conditions: held))
        }
        return out
    }

    /// A condition on an expansion (`%{DOCUMENT_ROOT}/static/$1 -f`), decided on the language
    /// of the expansion when it is all in or all out; nil when it depends on the request.
    func decide(_ c: RewriteCondition, _ f: Firing) -> Bool? {
        let values = language(c.testString.parts, f)
        var result: Bool?
        switch c.test {
        case .regex(let regex):
            let lang = PatternLanguage.of(regex.pattern, caseInsensitive: regex.options.contains(.caseless))
            if values.intersection(lang.overApproximation)?.isEmpty == true { result = false }
            else if let m = lang.matches, lang.isExact, values.subtracting(m)?.isEmpty == true { result = true }
        case .string("=", let operand) where operand.isLiteral && !c.noCase:
            let literal = DFA.literal(operand.literalText)
            if values.intersection(literal)?.isEmpty == true { result = false }
            else if values.singleton == operand.literalText { result = true }
        case .file(let op) where "fsd".contains(op):
            guard let set = op == "d" ? topology.filesystemDirectories : topology.filesystemFiles else { return nil }
            if values.intersection(set)?.isEmpty == true { result = false }
            else if values.subtracting(set)?.isEmpty == true { result = true }
        default: break
        }
        return result.map { c.negated ? !$0 : $0 }
    }

    private struct CaptureKey: Hashable {
        var pattern: String
        var caseless: Bool
        var group: Int
        var domain: DFA
    }

    /// What capture `n` of `lang` can hold for subjects in `domain` (everything when unknown).
    func captureLanguage(_ lang: PatternLanguage, _ n: Int, _ domain: DFA) -> DFA {
        memo(\.captures, CaptureKey(pattern: lang.pattern, caseless: lang.caseInsensitive, group: n, domain: domain)) {
            lang.capture(n, within: domain) ?? .all()
        }
    }

    /// Requests a client can send that reach the rules of a context.
    func entrySpaces(_ c: Int, internalRedirect: Bool = false) -> [RequestSpace] {
        let ctx = contexts.contexts[c]
        let paths = ctx.isServer ? URLShapes.language(.absolutePath) : ctx.applies
        return topology.schemesReachingOrigin.map { scheme in
            RequestSpace(scheme: scheme, host: topology.anyHost, path: paths, query: URLShapes.language(.query),
                         internalRedirect: internalRedirect, theRequest: internalRedirect ? .all() : nil)
        }
    }
}
