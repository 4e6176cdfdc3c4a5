import Foundation
import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

/// What a pass of a rule set ended in (apache-semantics §4.7).
struct RuleSetResult {
    /// A substituting rule matched; `noEscape` is the `[NE]` of the last one.
    var changed = false
    var noEscape = false
    /// A status decided by a rule ([F], [G], [R=4xx], unsafe `?`, limits).
    var status: Int? = nil
    /// The status stays in r->status (mod_rewrite's ACTION_STATUS_SET, the unsafe `?` refusal),
    /// where [F] and the others reset it to OK before the hook returns it.
    var statusKeptInRequest = false
    /// `[R=3xx]` or an implicit redirect to an absolute URL.
    var redirectStatus: Int? = nil
    var passThrough = false
    var proxy = false
    /// The last rule that substituted.
    var lastRule: RewriteRule? = nil
    /// `[T]`/`[H]` to apply at the end of the fixups.
    var type: String? = nil
    var handler: String? = nil
}

private enum RuleOutcome {
    case noMatch
    case matched(substituted: Bool, unsafeQuestionMark: Bool)
}

extension Origin {
    /// Runs a compiled rule set over `r.filename` (the current URI). `directory` is D for
    /// per-directory rule sets and nil in server context.
    func runRuleSet(_ set: CompiledRuleSet, _ r: RequestRecord, _ chain: RequestChain,
                    directory: String?, base: String?) -> RuleSetResult {
        var result = RuleSetResult()
        r.rewriteDirectory = directory
        r.rewriteBase = base
        let rules = set.rules
        var i = 0
        var round = 1
        var pathInfo = r.pathInfo
        // With an index, only candidate rules run their regex; the others cannot match and, as
        // they are never inside a [C] chain, skipping them is exactly a no-match.
        var candidates: [Int32]? = nil
        var cursor = 0
        // The match input only changes when a rule substitutes (or [DPI] drops the path info).
        var input = matchInput(r, directory: directory, pathInfo: pathInfo)
        // Recomputed when the next rule is tried, not when a rule substitutes: most
        // substituting rules end the set ([L], a redirect), and then nothing reads them again.
        var stale = false
        while i < rules.count {
            if stale {
                stale = false
                input = matchInput(r, directory: directory, pathInfo: pathInfo)
                candidates = nil
            }
            // The look-up waits until the rules every input tries are passed: a force-https or
            // canonical-host rule at the top that ends the set needs none. (The input and query
            // are those of the last substitution either way: only a substituting rule changes
            // them, and that makes the look-up stale.)
            if let index = set.index, i >= index.leadingAlwaysTried {
                if candidates == nil {
                    candidates = index.candidates(for: input, query: r.query)
                    cursor = 0
                }
                let c = candidates!
                while cursor < c.count, Int(c[cursor]) < i { cursor += 1 }
                guard cursor < c.count else { break }
                i = Int(c[cursor])
            }
            let rule = rules[i]
            if r.isSubrequest && (rule.flags.noSubrequest || rule.flags.redirect != nil) {
                i += 1
                continue
            }
            // Bounded work (issue 9): `[N]` rounds over a large rule set, or over a long input,
            // could evaluate rules for minutes. Each rule or condition evaluated costs units by
            // its input's length (`evaluationCost`); past the budget htlint stops and says the
            // real answer is unknown.
            guard spend(Origin.evaluationCost(input), chain, range: rule.range) else {
                result.status = 500
                return result
            }
            // A rule whose input lacks its required literal cannot match: skip its regex.
            if let index = set.index, !index.mayMatch(i, input) {
                i = set.onNoMatch[i]
                continue
            }
            let outcome = applyRule(rule, input, r, chain, directory: directory, pathInfo: &pathInfo, result: &result)
            guard case .matched(let substituted, let unsafe) = outcome else {
                i = set.onNoMatch[i]
                continue
            }
            // No Apache limit bounds the query string (`%{QUERY_STRING}` or [QSA] in an `[N]`
            // loop grows it without end; Apache did not answer within ten seconds): each matched
            // rule is charged its length.
            if let q = r.query, !spend(Origin.growthCost(q), chain, range: rule.range) {
                result.status = 500
                return result
            }
            if let f = r.filename, f.utf8.count > 2 * 8190, f.rawByteCount > 2 * 8190 {
                // Logged without an AH number, naming the request's URI (recorded:
                // recursion-next-growing-uri-length-limit).
                chain.log("", "error", "RewriteRule '\(rule.pattern)' and URI '\(r.uri)' exceeded maximum length (16380)")
                result.status = 500
                return result
            }
            if unsafe {
                chain.log("AH10508", "error", "Unsafe URL with %3f URL rewritten without UnsafeAllow3F")
                chain.note(.status, "403: `?` produced by an expansion (UnsafeAllow3F)", range: rule.range)
                result.status = 403
                result.statusKeptInRequest = true
                return result
            }
            if let s = rule.flags.statusOverride {
                chain.note(.status, "\(s) from line \(rule.line)", range: rule.range)
                result.status = s
                return result
            }
            if substituted {
                result.lastRule = rule
                result.changed = true
                result.noEscape = rule.flags.noEscape
                stale = true
            }
            if rule.flags.passThrough { result.passThrough = true; result.changed = true; break }
            if rule.flags.end {
                chain.endSeen = true
                break
            }
            if rule.flags.proxy { result.proxy = true; break }
            if rule.flags.last { break }
            if let limit = rule.flags.next {
                round += 1
                // Bounded work (issue 9): Apache honours any `[N=n]`, but htlint simulates at most
                // Apache's default of 32000 rounds and says so, rather than run for minutes.
                if limit > Origin.maxSimulatedRounds, round >= Origin.maxSimulatedRounds {
                    chain.log("", "warn", "htlint stopped simulating RewriteRule '\(rule.pattern)' after \(Origin.maxSimulatedRounds) rounds via the [N] flag (its own limit; the rule allows \(limit))")
                    chain.note(.status, "500: htlint's limit of \(Origin.maxSimulatedRounds) [N] rounds reached (the rule allows \(limit)); the real answer is unknown", range: rule.range)
                    result.status = 500
                    return result
                }
                if round >= limit {
                    chain.log("AH02596", "error", "RewriteRule '\(rule.pattern)' and URI '\(r.uri)' exceeded maximum number of rounds (\(limit)) via the [N] flag")
                    result.status = 500
                    return result
                }
                i = 0
                stale = true
                continue
            }
            i = set.onMatch[i]
        }
        return result
    }

    /// What a rule's pattern is matched against (§4.5 step 4, §4.6 step 6): the current URI, in
    /// per-directory context plus the path info, with the directory prefix stripped.
    func matchInput(_ r: RequestRecord, directory: String?, pathInfo: String) -> String {
        let current = r.filename ?? r.uri
        guard let d = directory else { return current }
        let full = pathInfo.isEmpty ? current : current + pathInfo
        return full.hasBytePrefix(d) ? dropLeadingBytes(full, d.utf8.count) : full
    }

    /// Work units one rule or condition evaluation costs: one, plus one per 2,048 bytes of its
    /// input. Apache's own bound on a growing `[N]` loop (the 16,380-byte URI limit) costs
    /// about 82,000 units per rule that reads the growing path, so a rule set with several
    /// such rules still reaches it within the budget (recorded:
    /// recursion-next-growing-uri-length-limit-several-rules); a short evaluation costs about
    /// as much time as 2 KB of copying.
    static func evaluationCost(_ input: String) -> Int { 1 + input.utf8.count / 2048 }

    /// Work units a query string or environment value written by a rule costs: one per 512
    /// bytes (copying it is the work; short ones cost nothing). A long query carried through
    /// every round of a path growing to Apache's 16,380-byte limit must not spend the budget
    /// first: 16,000 rounds with a 4 KB query cost 128,000 units here (recorded:
    /// recursion-next-growing-uri-with-long-query-reaches-length-limit); a query that itself
    /// grows without end still ends the loop within seconds.
    static func growthCost(_ value: String) -> Int { value.utf8.count / 512 }

    /// Charges `units` of work to the request; false once the budget is spent (reported once,
    /// as a warning in the log and a 500 note in the trace: the real answer is unknown).
    func spend(_ units: Int, _ chain: RequestChain, range: SourceRange?) -> Bool {
        chain.ruleEvaluations += units
        guard chain.ruleEvaluations > ruleEvaluationBudget else { return true }
        if !chain.budgetExhausted {
            chain.budgetExhausted = true
            chain.log("", "warn", "htlint stopped after \(ruleEvaluationBudget) units of work for one request (its own work budget)")
            chain.note(.status, "500: htlint's work budget of \(ruleEvaluationBudget) units reached; the real answer is unknown", range: range)
        }
        return false
    }

    /// Most `[N]` rounds htlint simulates for one rule set pass (Apache's default limit).
    static let maxSimulatedRounds = 32000

    /// Searches `subject`. Apache treats a PCRE2 match or depth limit as no match; htlint does
    /// the same but reports it in the error log and the trace, because a limit reached must
    /// never be silent (issue 9, item 2: catastrophic patterns). `what` is only built for that.
    private func regexSearch(_ regex: Regex, _ subject: String, what: @autoclosure () -> String, _ chain: RequestChain,
                             range: SourceRange?) -> RegexMatch? {
        switch regex.search(subject) {
        case .success(let match): return match
        case .failure(let failure):
            reportLimit(failure, subject, what: what(), chain, range: range)
            return nil
        }
    }

    /// Like `regexSearch` when no capture is needed.
    private func regexTest(_ regex: Regex, _ subject: String, what: @autoclosure () -> String, _ chain: RequestChain,
                           range: SourceRange?) -> Bool {
        switch regex.test(subject) {
        case .success(let matched): return matched
        case .failure(let failure):
            reportLimit(failure, subject, what: what(), chain, range: range)
            return false
        }
    }

    private func reportLimit(_ failure: RegexMatchFailure, _ subject: String, what: String, _ chain: RequestChain,
                             range: SourceRange?) {
        let reason = switch failure {
        case .matchLimit: "the PCRE2 match limit (\(Regex.apacheMatchLimit))"
        case .depthLimit: "the PCRE2 depth limit (\(Regex.apacheDepthLimit))"
        case .other(let message): "a PCRE2 error (\(message))"
        }
        chain.log("", "warn", "\(what) reached \(reason) on `\(subject)`; treated as no match")
        chain.note(.note, "\(what) reached \(reason) on `\(subject)`; Apache treats this as no match", range: range)
    }

    /// Applies one rule (apache-semantics §4.8).
    private func applyRule(_ rule: RewriteRule, _ input: String, _ r: RequestRecord, _ chain: RequestChain, directory: String?,
                           pathInfo: inout String, result: inout RuleSetResult) -> RuleOutcome {
        var scope = ExpansionScope()
        if !rule.readsRuleCaptures || rule.negated {
            // Nothing reads `$N`: a match needs no captures built.
            let matched = regexTest(rule.regex, input, what: "RewriteRule pattern `\(rule.pattern)`", chain, range: rule.range)
            if matched == rule.negated { return .noMatch }
        } else if let m = regexSearch(rule.regex, input, what: "RewriteRule pattern `\(rule.pattern)`", chain, range: rule.range) {
            scope.ruleCaptures = (0...9).map { m[$0] }
        } else {
            return .noMatch
        }
        guard conditionsHold(rule, r, chain, &scope, serverContext: directory == nil) else {
            chain.note(.conditionFailed, "line \(rule.line): `\(rule.pattern)` matched `\(input)` but its conditions failed", range: rule.range)
            return .noMatch
        }
        chain.note(.ruleMatched, "line \(rule.line): `\(rule.pattern)` matched `\(input)`", range: rule.range)
        chain.recordFired(rule.range)
        let serverContext = directory == nil
        func sideEffects() {
            for e in rule.flags.env {
                let v = expand(e, scope, r, chain, serverContext: serverContext).text
                // An environment value is not bounded by Apache's URI length check: a value that
                // grows each `[N]` round is charged by its length (`growthCost`).
                chain.ruleEvaluations += Origin.growthCost(v)
                if v.utf8.first == UInt8(ascii: "!") { r.setEnvValue(dropLeadingBytes(v, 1), nil); continue }
                if let colon = v.firstIndex(ofByte: UInt8(ascii: ":")) {
                    r.setEnvValue(String(v[..<colon]), String(v[v.utf8.index(after: colon)...]))
                } else {
                    r.setEnvValue(v, "")
                }
            }
            for c in rule.flags.cookies {
                let v = expand(c, scope, r, chain, serverContext: serverContext).text
                if Origin.cookieCrashesChild(v) {
                    chain.childCrashed = true
                    chain.note(.note, "[CO=\(v)] has no field: mod_rewrite's add_cookie reads apr_strtok's uninitialised position and the child crashes (no response)")
                    continue
                }
                if let cookie = cookieHeader(v), !chain.cookiesSet.contains(cookie.name) {
                    // A lifetime makes an `expires=` date from the clock.
                    if cookie.value.contains("; expires=") { chain.readsClock = true }
                    chain.cookiesSet.insert(cookie.name)
                    chain.cookies.append(HTTPHeader("Set-Cookie", cookie.value))
                }
            }
        }
        // force_type_handler: only for a `-` or status rule and a local result, never for a
        // redirect or proxy ([R,H=…] without [L] leaves the handler to a later rule).
        // An empty expansion sets nothing: an earlier rule's [T=]/[H=] stays.
        func forceTypeAndHandler() {
            if let t = rule.flags.type {
                let value = expand(t, scope, r, chain, escaping: rule.flags.escaping, serverContext: serverContext).text
                if !value.isEmpty { result.type = value.asciiLowercased() }
            }
            if let h = rule.flags.handler {
                let value = expand(h, scope, r, chain, escaping: rule.flags.escaping, serverContext: serverContext).text
                if !value.isEmpty { result.handler = value.asciiLowercased() }
            }
        }
        // A rule that answers a status ([F], [G], [R=4xx]) is NOSUB like `-`: its substitution is
        // never expanded (no look-up made, no unsafe-`?` check; recorded:
        // rewrite-flags-status-rule-substitution-not-expanded, rewrite-escape-unsafe-qmark-status-flag).
        if rule.isDash || rule.flags.statusOverride != nil {
            sideEffects()
            forceTypeAndHandler()
            return .matched(substituted: false, unsafeQuestionMark: false)
        }
        let escaping: BackrefEscaping? = rule.flags.escaping.isActive ? rule.flags.escaping : nil
        let expansion = expand(rule.substitution, scope, r, chain, escaping: escaping, serverContext: serverContext,
                               tracksQuestionMarks: true)
        let unsafe = !rule.flags.unsafeAllow3F
            && (rule.flags.qsLast ? expansion.lastQuestionMarkExpanded : expansion.firstQuestionMarkExpanded)
        if unsafe { return .matched(substituted: true, unsafeQuestionMark: true) }
        sideEffects()

        var uri = expansion.text
        // Query string (apache-semantics §6.5).
        let scheme = absoluteURLScheme(uri)
        if rule.noQuery {
            r.query = nil
        } else if let s = scheme, ["ftp://", "gopher://", "ldap://", "nntp://", "news:"].contains(s) {
            r.query = nil
        } else {
            if rule.flags.qsDiscard { r.query = nil }
            let index = rule.flags.qsLast ? uri.lastIndex(ofByte: UInt8(ascii: "?")) : uri.firstIndex(ofByte: UInt8(ascii: "?"))
            if let q = index {
                let new = String(uri[uri.utf8.index(after: q)...])
                uri = String(uri[..<q])
                if rule.flags.qsAppend {
                    if !new.isEmpty { r.query = new + "&" + (r.query ?? "") }
                } else {
                    r.query = new
                }
                // splitout_queryargs tests for an empty query before it drops one trailing `&`:
                // `?&` leaves an empty query that is still there (`/t?` in a redirect, `?` logged).
                if var query = r.query {
                    if query.isEmpty {
                        r.query = nil
                    } else {
                        if query.hasByteSuffix("&") { query.removeLast() }
                        r.query = query
                    }
                }
            }
        }
        // Prefixing (§4.8 step 7).
        var prefixAdded = false
        if !uri.hasBytePrefix("/") && absoluteURLScheme(uri) == nil {
            if let d = directory {
                uri = d + uri
                prefixAdded = true
            } else if rule.flags.redirect == nil && !rule.flags.proxy {
                uri = "/" + uri
                prefixAdded = true
            }
        }
        if rule.flags.discardPathInfo, directory != nil {
            pathInfo = ""
            r.pathInfo = ""
        }
        if rule.flags.proxy {
            r.filename = "proxy:" + (absoluteURLScheme(uri) != nil ? uri : fullyQualify(uri, chain, r))
            return .matched(substituted: true, unsafeQuestionMark: false)
        }
        if let code = rule.flags.redirect, (300...399).contains(code) {
            r.filename = absoluteURLScheme(uri) != nil ? uri : fullyQualify(uri, chain, r, subrequest: r.isSubrequest)
            result.redirectStatus = code
            r.status = code
            return .matched(substituted: true, unsafeQuestionMark: false)
        }
        // Self-reduction of a URL naming this virtual host (§4.8 step 12).
        // Not for a server-context [PT]: the URL is passed through as it is (400, AH00126).
        if absoluteURLScheme(uri) != nil, !(rule.flags.passThrough && directory == nil),
           let reduced = reduceSelfURL(uri, chain) { uri = reduced }
        if absoluteURLScheme(uri) != nil {
            r.filename = uri
            result.redirectStatus = 302
            // apply_rewrite_rule sets r->status here too: a later local rewrite carries it.
            r.status = 302
            return .matched(substituted: true, unsafeQuestionMark: false)
        }
        result.redirectStatus = nil
        if !rule.flags.unc && !prefixAdded && !rule.rawSubstitution.hasBytePrefix("//") {
            while uri.hasBytePrefix("//") { uri.removeFirst() }
        }
        r.filename = uri
        forceTypeAndHandler()
        return .matched(substituted: true, unsafeQuestionMark: false)
    }

    /// `http://host:port/x` → `/x` when scheme, host and port denote this virtual host
    /// (mod_rewrite's reduce_uri): the host ends at the first `:`, the port is read with atoi
    /// into an unsigned short (no port: the scheme's default), and ap_matches_request_vhost
    /// wants it equal to the port written in `ServerName`, 0 when none is. So with
    /// `ServerName example.org` only an empty or non-numeric port (`example.org:/y.html`)
    /// reduces, while `example.org/y.html` and `example.org:80/y.html` stay external
    /// redirects (recorded: rewrite-flags-self-url-reduced-only-for-port-zero).
    private func reduceSelfURL(_ url: String, _ chain: RequestChain) -> String? {
        let current = scheme(chain) + "://"
        guard url.asciiLowercased().hasBytePrefix(current) else { return nil }
        let (prefix, path) = splitAbsoluteURL(url)
        var host = Substring(dropLeadingBytes(prefix, current.utf8.count))
        var port = scheme(chain) == "https" ? 443 : 80
        if let colon = host.firstIndex(of: ":") {
            port = Origin.atoiPort(host[host.index(after: colon)...])
            host = host[..<colon]
        }
        guard port == Site.parseServerName(site.serverName).port ?? 0, site.isOwnHost(String(host)) else { return nil }
        return path.isEmpty ? "/" : path
    }

    /// C's atoi (leading blanks, a sign, digits up to the first other byte) stored in an
    /// unsigned short, as reduce_uri reads a port.
    static func atoiPort(_ text: Substring) -> Int {
        var bytes = text.utf8.drop { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            negative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        var value = 0
        for b in bytes {
            guard b >= 0x30 && b <= 0x39 else { break }
            value = (value * 10 + Int(b - 0x30)) & 0xFFFF_FFFF
        }
        return (negative ? -value : value) & 0xFFFF
    }

    /// Evaluates the rule's conditions with `[OR]` grouping (apache-semantics §7.5). When they
    /// hold, the request headers the true ones read join r->headers_out's `Vary`
    /// (apply_rewrite_rule: not for `[NV]`, nor a false `[OR]` condition).
    private func conditionsHold(_ rule: RewriteRule, _ r: RequestRecord, _ chain: RequestChain,
                                _ scope: inout ExpansionScope, serverContext: Bool) -> Bool {
        let conds = rule.conditions
        var vary: [String] = []
        var i = 0
        while i < conds.count {
            let c = conds[i]
            let ok = evaluate(c, r, chain, &scope, serverContext: serverContext, readsCaptures: rule.readsConditionCaptures)
            if ok, !c.noVary { varyHeaders(c, r, chain, into: &vary) }
            if c.orNext {
                if !ok { i += 1; continue }
                while i < conds.count, conds[i].orNext { i += 1 }
            } else if !ok {
                return false
            }
            i += 1
        }
        r.addVary(vary)
        return true
    }

    /// The request headers a condition's test string read that the request has (lookup_header
    /// notes only those, and never Host).
    private func varyHeaders(_ c: RewriteCondition, _ r: RequestRecord, _ chain: RequestChain, into out: inout [String]) {
        for v in c.testString.variables {
            let name: String
            switch v {
            case .header(let h), .known(.header(let h), _): name = h
            default: continue
            }
            if equalsIgnoringASCIICase(name, "Host") || (r.isSubrequest && Origin.subrequestDropsHeader(name)) { continue }
            if chain.header(name) != nil { out.append(name) }
        }
    }

    /// `readsCaptures`: some template of the rule reads `%N`, so a match keeps its captures.
    private func evaluate(_ c: RewriteCondition, _ r: RequestRecord, _ chain: RequestChain,
                          _ scope: inout ExpansionScope, serverContext: Bool, readsCaptures: Bool) -> Bool {
        let value = expand(c.testString, scope, r, chain, serverContext: serverContext).text
        // A condition is work too (checked against the budget before the next rule).
        chain.ruleEvaluations += Origin.evaluationCost(value)
        var result: Bool
        switch c.test {
        case .regex(let regex):
            if !c.negated && readsCaptures {
                if let m = regexSearch(regex, value, what: "RewriteCond pattern", chain, range: c.range) {
                    result = true
                    scope.conditionCaptures = (0...9).map { m[$0] }
                } else {
                    result = false
                }
            } else {
                result = regexTest(regex, value, what: "RewriteCond pattern", chain, range: c.range)
            }
        case .file(let op):
            result = fileTest(op, value, r, chain)
        case .integer(let op, let operand):
            result = ConditionComparison.integer(op, value, expand(operand, scope, r, chain, serverContext: serverContext).text)
        case .string(let op, let operand):
            let b = expand(operand, scope, r, chain, serverContext: serverContext).text
            result = ConditionComparison.string(op, value, b, noCase: c.noCase)
        case .expression(let expr):
            if expr.readsGroupWithoutMatch {
                chain.childCrashed = true
                chain.note(.note, "RewriteCond expr reads $1…$9 without a regex match of its own: Apache's child reads match data mod_rewrite never set and crashes (no response)",
                           range: c.range)
            }
            // A true condition hands mod_rewrite the expression's match data: a regex with groups
            // sets it, or clears it when it fails (`!~` that holds too: %1 is then empty). One
            // without such a regex leaves it unset (Apache reads stale stack; the previous stays).
            var captures = scope.conditionCaptures
            var env = ExpressionContext(origin: self, record: r, chain: chain, typeChecked: !serverContext)
            env.addsVary = !c.noVary
            result = expr.evaluate(env, captures: &captures)
            if result && !c.negated { scope.conditionCaptures = captures }
        }
        return c.negated ? !result : result
    }

    func fileTest(_ op: Character, _ testString: String, _ r: RequestRecord, _ chain: RequestChain) -> Bool {
        let fs = site.files
        let path = op == "F" || op == "U" ? testString : Origin.statPath(testString)
        switch op {
        case "d":
            // A URL-path left by a rewrite is stat'ed as is: `/` and `/etc` are directories there.
            return fs.isDirectory(path) || systemNode(path) == .directory
        case "f": return fs.isFile(path) || [.file, .executable].contains(systemNode(path))
        case "s":
            if case .file(let size)? = fs.stat(path) { return size > 0 }
            return [.file, .executable].contains(systemNode(path))
        case "l", "L", "h": if case .symlink? = fs.lstat(path) { return true } else { return false }
        // apr_stat follows links; the site's files have no execute bits, directories have
        // their search bits (recorded: rewrite-cond-x-directory).
        case "x": return fs.isDirectory(path) || [.directory, .executable].contains(systemNode(path))
        case "F": return lookupFile(path, r, chain)
        case "U": return lookupURI(path, r, chain)
        default: return false
        }
    }

    /// The name the kernel stats for a test string: a relative one from httpd's working
    /// directory, `/` (apr_proc_detach changes to it; recorded:
    /// rewrite-cond-relative-path-from-server-root).
    static func statPath(_ path: String) -> String {
        path.isEmpty || path.hasBytePrefix("/") ? path : "/" + path
    }

    /// `Site.systemNode`, answered without its walk for a path inside the mounted root: the
    /// kernel's walk reaches the root, which is no system directory, and then finds nothing of
    /// the system — exactly nil, and every front controller's `!-f` asks.
    func systemNode(_ path: String) -> Site.SystemNode? {
        let root = site.mountedRoot
        if site.mountedRootHoldsNoSystemPath, path.hasBytePrefix(root) {
            let next = path.utf8.dropFirst(root.utf8.count).first
            if next == nil || next == UInt8(ascii: "/") { return nil }
        }
        return Site.systemNode(path)
    }

    /// `Wdy, DD-Mon-YYYY HH:MM:SS GMT`, `minutes` from now.
    private func cookieExpiry(minutes: Int) -> String {
        let date = Date(timeIntervalSinceNow: Double(minutes) * 60)
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd-MMM-yyyy HH:mm:ss 'GMT'"
        return f.string(from: date)
    }

    /// An expanded `[CO=…]` with nothing but separators (empty, `:`, `;` with its `;` opt-in):
    /// add_cookie's first apr_strtok finds no field and returns before it sets the saved
    /// position, which the second call then reads uninitialised — Apache's child crashes
    /// (recorded: rewrite-flags-cookie-without-fields-crashes-child).
    static func cookieCrashesChild(_ spec: String) -> Bool {
        var bytes = Substring(spec).utf8[...]
        var sep = UInt8(ascii: ":")
        if bytes.first == UInt8(ascii: ";") { sep = UInt8(ascii: ";"); bytes = bytes.dropFirst() }
        return bytes.allSatisfy { $0 == sep }
    }

    /// `[CO=NAME:VALUE:DOMAIN[:lifetime[:path[:secure[:httponly[:samesite]]]]]]`.
    private func cookieHeader(_ spec: String) -> (name: String, value: String)? {
        var s = Substring(spec)
        var sep = UInt8(ascii: ":")
        if s.hasBytePrefix(";") { sep = UInt8(ascii: ";"); s = s[s.utf8.index(after: s.startIndex)...] }
        // apr_strtok skips empty fields: `a:1::0:/` has domain `0` and lifetime `/`; it splits
        // at bytes, so `n:\u{301}v` is n and a value starting with the mark.
        let parts = byteSplit(s, sep, omittingEmpty: true).map(String.init)
        guard parts.count >= 3 else { return nil }
        var value = "\(parts[0])=\(parts[1]); path=\(parts.count > 4 ? parts[4] : "/"); domain=\(parts[2])"
        func on(_ i: Int, _ word: String) -> Bool {
            i < parts.count && [word, "true", "1"].contains(parts[i].asciiLowercased())
        }
        // Apache builds the attributes as one concatenation that ends at the first absent piece:
        // no lifetime field → nothing after the domain; secure off → no HttpOnly (seen on 2.4.71).
        if parts.count > 3 {
            // The lifetime is read with atol: `-1` expires a minute ago, `10m` is 10, only 0 is none.
            let minutes = strtol64(parts[3].utf8).value
            if minutes != 0 { value += "; expires=" + cookieExpiry(minutes: minutes) }
            if on(5, "secure") {
                value += "; secure"
                if on(6, "httponly") { value += "; HttpOnly" }
            }
        }
        if parts.count > 7, !["0", "false"].contains(parts[7].asciiLowercased()) { value += "; SameSite=\(parts[7])" }
        return (parts[0], value)
    }
}

