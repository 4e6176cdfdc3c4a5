import HtlintBytes
import HtlintRegex

extension Origin {
    /// mod_alias `Redirect*` (apache-semantics §8.3, §8.4): the expression form first, then the
    /// list (deepest configuration first); the first match wins.
    func aliasRedirect(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain, serverContext: Bool) -> PassResult? {
        aliasRedirect(r, config.redirects, expression: config.redirectExpression, relative: config.redirectRelative,
                      chain, serverContext: serverContext)
    }

    /// The same for a list of redirects (the server's own need no merged configuration).
    func aliasRedirect(_ r: RequestRecord, _ redirects: [AliasRedirect], expression: AliasRedirect?, relative: Bool,
                       _ chain: RequestChain, serverContext: Bool) -> PassResult? {
        if redirects.isEmpty && expression == nil { return nil }
        var candidates = redirects
        if let e = expression { candidates.insert(e, at: 0) }
        for redirect in candidates {
            var target: String? = nil
            switch redirect.matcher {
            case .everything:
                if let t = redirect.target {
                    let expanded = redirect.targetExpression.map { $0.evaluate(ExpressionContext(origin: self, record: r, chain: chain), []) }
                    target = escapeRedirectTarget(expanded ?? t)
                }
            case .prefix(let path):
                guard let rest = prefixMatch(path, r.uri) else { continue }
                // try_alias_list sets the context info of a prefix match, Redirect's too:
                // CONTEXT_PREFIX is the URL-path as written, CONTEXT_DOCUMENT_ROOT the target, which
                // a status-only Redirect (`Redirect 410 /x`) does not have: the root stays (recorded:
                // alias-redirect-status-only-sets-context-prefix).
                r.contextPrefix = path
                if let t = redirect.target {
                    target = t + escapePath(rest)
                    r.contextDocumentRoot = t
                }
            case .regex(let regex):
                guard let m = regex.firstMatch(in: r.uri) else { continue }
                if let t = redirect.target {
                    let found = Origin.substituteGroups(t, m)
                    // ap_pregsub refuses a result of AP_PREGSUB_MAXLEN (65,536) bytes or more
                    // (recorded: alias-redirectmatch-replacement-too-long).
                    guard found.rawByteCount < 65536 else {
                        chain.log("AH00672", "error", "Regex substitution in '\(t)' failed. Replacement too long?")
                        chain.note(.status, "500: RedirectMatch's substitution is 65,536 bytes or longer", range: redirect.range)
                        return .final(status: 500, location: nil)
                    }
                    target = escapeRedirectTarget(found)
                }
            }
            chain.note(.alias, "Redirect at line \(redirect.line) matches \(r.uri)", range: redirect.range)
            chain.recordFired(redirect.range)
            // `Redirect 0` (any status atoi reads as 0): fixup_redir returns it, which is OK, so
            // the request goes on as if nothing matched, later Redirects unread (recorded:
            // alias-redirect-status-zero-in-htaccess-goes-on). In translate_name the OK says the
            // URI is translated: core's mapping onto the document root never runs.
            if redirect.status == 0 {
                if serverContext {
                    r.translatedWithoutFile = true
                    chain.note(.note, "status 0 is OK to translate_name: the request goes on without a filename", range: redirect.range)
                }
                return nil
            }
            guard (300...399).contains(redirect.status), var location = target else {
                return .final(status: redirect.status, location: nil)
            }
            if location.hasBytePrefix("/") && !relative {
                location = fullyQualify(location, chain, r, subrequest: r.isSubrequest)
            }
            if !isAbsoluteURI(location) && !(location.hasBytePrefix("/") && relative) {
                chain.log(serverContext ? "AH00674" : "AH00676", "error",
                          "cannot redirect '\(r.uri)' to '\(location)'; target is not a valid absoluteURI or abs_path")
                return .final(status: 500, location: nil)
            }
            if let q = r.query, !location.containsByte(UInt8(ascii: "?")) { location += "?" + q }
            chain.note(.externalRedirect, "\(redirect.status) to \(location)", range: redirect.range)
            return .final(status: redirect.status, location: location)
        }
        return nil
    }

    /// `$0`–`$9` in a `RedirectMatch` target or a `Header edit` replacement (ap_pregsub); a
    /// backslash makes the next character literal. Read by scalars, as ap_pregsub reads bytes:
    /// `$1` followed by a combining mark is group 1 and the mark (one character to Swift, whose
    /// `wholeNumberValue` also takes digits other than ASCII ones, which apr_isdigit does not).
    static func substituteGroups(_ target: String, _ m: RegexMatch) -> String {
        substituteGroups(target) { m[$0] }
    }

    /// ap_pregsub over `target` with group `n` read from `group(n)` (0…9).
    static func substituteGroups(_ target: String, group: (Int) -> String) -> String {
        var out = ""
        let it = Array(target.unicodeScalars)
        var i = 0
        while i < it.count {
            let c = it[i]
            if c == "\\", i + 1 < it.count { out.unicodeScalars.append(it[i + 1]); i += 2; continue }
            if c == "$", i + 1 < it.count, it[i + 1].value >= 0x30 && it[i + 1].value <= 0x39 {
                out += group(Int(it[i + 1].value - 0x30)); i += 2; continue
            }
            out.unicodeScalars.append(c); i += 1
        }
        // Pieces of a split character join into the character (see `String(preservingBytes:)`).
        return out.mayHoldRawBytes ? String(preservingBytes: out.rawBytes) : out
    }

    /// mod_alias's clean-up of a `RedirectMatch` or expression target: apr_uri_parse (its
    /// status ignored), apr_uri_unparse without the query, ap_escape_uri on the result, then
    /// query and fragment as they are (§8.3). Everything before them is escaped, host included
    /// (`%{HTTP_HOST}` becomes `%25%7bHTTP_HOST%7d`); a default port, port 0 or an empty one
    /// disappears, a password becomes `XXXXXXXX`, and a port strtol does not read whole ends the
    /// parse, so path, query and fragment are gone (see `AprURI`).
    private func escapeRedirectTarget(_ t: String) -> String {
        let uri = AprURI(parsing: t)
        var out = escapePath(uri.unparsedWithoutQuery)
        if let q = uri.query { out += "?" + q }
        if let f = uri.fragment { out += "#" + f }
        return out
    }
}
