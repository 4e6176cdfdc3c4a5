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
                if let t = redirect.target { target = escapeRedirectTarget(expandExpressionString(t, r, chain)) }
            case .prefix(let path):
                guard let rest = prefixMatch(path, r.uri) else { continue }
                if let t = redirect.target {
                    target = t + escapePath(rest)
                    // try_alias_list sets the context info of a prefix match, Redirect's too:
                    // CONTEXT_PREFIX is the URL-path as written, CONTEXT_DOCUMENT_ROOT the target.
                    r.contextPrefix = path
                    r.contextDocumentRoot = t
                }
            case .regex(let regex):
                guard let m = regex.firstMatch(in: r.uri) else { continue }
                if let t = redirect.target { target = escapeRedirectTarget(Origin.substituteGroups(t, m)) }
            }
            chain.note(.alias, "Redirect at line \(redirect.line) matches \(r.uri)", range: redirect.range)
            chain.fired.append(redirect.range)
            guard (300...399).contains(redirect.status), var location = target else {
                return .final(status: redirect.status, location: nil)
            }
            if location.hasPrefix("/") && !relative {
                location = fullyQualify(location, chain, r, subrequest: r.isSubrequest)
            }
            if !isAbsoluteURI(location) && !(location.hasPrefix("/") && relative) {
                chain.log(serverContext ? "AH00674" : "AH00676", "error",
                          "cannot redirect '\(r.uri)' to '\(location)'; target is not a valid absoluteURI or abs_path")
                return .final(status: 500, location: nil)
            }
            if let q = r.query, !location.contains("?") { location += "?" + q }
            chain.note(.externalRedirect, "\(redirect.status) to \(location)", range: redirect.range)
            return .final(status: redirect.status, location: location)
        }
        return nil
    }

    /// `$0`–`$9` in a `RedirectMatch` target or a `Header edit` replacement (ap_pregsub); a
    /// backslash makes the next character literal.
    static func substituteGroups(_ target: String, _ m: RegexMatch) -> String {
        var out = ""
        let it = Array(target)
        var i = 0
        while i < it.count {
            let c = it[i]
            if c == "\\", i + 1 < it.count { out.append(it[i + 1]); i += 2; continue }
            if c == "$", i + 1 < it.count, let d = it[i + 1].wholeNumberValue {
                out += m[d]; i += 2; continue
            }
            out.append(c); i += 1
        }
        // Pieces of a split character join into the character (see `String(preservingBytes:)`).
        return out.mayHoldRawBytes ? String(preservingBytes: out.rawBytes) : out
    }

    /// mod_alias's clean-up of a `RedirectMatch` or expression target (apr_uri_parse, then
    /// apr_uri_unparse without the query, then ap_escape_uri): everything before `?`/`#` is
    /// escaped, host included (`%{HTTP_HOST}` becomes `%25%7bHTTP_HOST%7d`), and a default
    /// port disappears; query and fragment are kept as they are (§8.3).
    private func escapeRedirectTarget(_ t: String) -> String {
        var head = Substring(t)
        var tail = ""
        if let q = head.firstIndex(where: { $0 == "?" || $0 == "#" }) {
            tail = String(head[q...])
            head = head[..<q]
        }
        return escapePath(withoutDefaultPort(String(head))) + tail
    }

    /// `scheme://host:port/…` without `:port` when it is the scheme's default (or empty), as
    /// apr_uri_unparse writes it.
    private func withoutDefaultPort(_ url: String) -> String {
        guard let sep = schemeSeparator(in: url) else { return url }
        let scheme = url[..<sep].lowercased()
        let authorityStart = url.utf8.index(sep, offsetBy: 3)
        let authorityEnd = url[authorityStart...].firstIndex(of: "/") ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        guard let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") else { return url }
        let port = authority[authority.index(after: colon)...]
        guard port.allSatisfy(\.isASCII) && port.allSatisfy(\.isNumber) else { return url }
        let defaults = ["http": 80, "https": 443, "ftp": 21]
        guard port.isEmpty || Int(port) == 0 || Int(port) == defaults[scheme] else { return url }
        return String(url[..<colon]) + url[authorityEnd...]
    }

    /// Expression-form targets are ap_expr strings: `%{VAR}` and functions are expanded, any
    /// other `%` is literal (`a%20b` stays, to be escaped whole as `a%2520b`). mod_rewrite's
    /// `%N` back-references do not exist here.
    private func expandExpressionString(_ t: String, _ r: RequestRecord, _ chain: RequestChain) -> String {
        guard t.contains("%{"), let word = try? ApExpression.parsingString(t, restricted: false) else { return t }
        return word.evaluate(ExpressionContext(origin: self, record: r, chain: chain), [])
    }
}
