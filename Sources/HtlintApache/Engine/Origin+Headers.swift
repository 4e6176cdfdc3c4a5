import HtlintRegex

extension Origin {
    /// Headers the response carries (apache-semantics §13). mod_headers edits two tables:
    /// `Header always` the error table (where mod_rewrite's cookies are too), plain `Header`
    /// the normal one. Redirects and errors Apache generates go out with the error table only;
    /// other responses, an ErrorDocument page included, with both, error table first
    /// (apr_table_overlay).
    func responseHeaders(_ r: RequestRecord, status: Int, servedErrorPage: Bool = false, chain: RequestChain) -> [HTTPHeader] {
        var always = HeaderTable(entries: chain.cookies)
        var onSuccess = HeaderTable()
        // Error responses Apache generates itself drop the onsuccess table; an ErrorDocument
        // page keeps it (its request's fixups filled it and the handler sends it).
        let success = (200...299).contains(status) || servedErrorPage
        if success, let type = r.forcedType ?? r.filename.flatMap(MimeTypes.type(forPath:)) {
            onSuccess.add("Content-Type", type)
        }
        // Answered before the directory walk (a virtual-host redirect): the host's own lines with
        // the <Location>/<If> sections the location and if walks merged before translate_name.
        let directives = r.config?.headers ?? (r.walkFailed ? nil : preTranslateConfig(r, chain)?.headers) ?? site.vhost.block.headers
        let context = ExpressionContext(origin: self, record: r, chain: chain, status: status)
        guard success else {
            // ap_send_error_response moves the error table (mod_rewrite's cookies) into the normal
            // one before mod_headers' error filter runs: `always` starts empty and cannot unset or
            // edit what was there; the sent headers are the error table, then the moved ones.
            var errorTable = HeaderTable()
            for h in directives where h.always { apply(h, to: &errorTable, r, context) }
            if let allow = r.allow { errorTable.set("Allow", allow) }
            if let challenge = r.wwwAuthenticate { errorTable.set("WWW-Authenticate", challenge) }
            return errorTable.entries + chain.cookies
        }
        for h in directives where h.always { apply(h, to: &always, r, context) }
        if let allow = r.allow { always.set("Allow", allow) }
        if let challenge = r.wwwAuthenticate { always.set("WWW-Authenticate", challenge) }
        for h in directives where !h.always { apply(h, to: &onSuccess, r, context) }
        return always.entries + onSuccess.entries
    }

    /// One directive on one table, as mod_headers' do_headers_fixup.
    private func apply(_ h: HeaderDirective, to table: inout HeaderTable, _ r: RequestRecord, _ context: ExpressionContext) {
        if let c = h.envCondition, (r.envValue(c.name) != nil) == c.negated { return }
        var captures: [String] = []
        if let e = h.expression, !e.evaluate(context, captures: &captures) { return }
        switch h.action {
        case "set": table.set(h.name, value(of: h, r, context))
        case "setifempty": if table.first(h.name) == nil { table.set(h.name, value(of: h, r, context)) }
        case "add": table.add(h.name, value(of: h, r, context))
        case "append": table.append(h.name, value(of: h, r, context))
        case "merge":
            let merged = value(of: h, r, context)
            if let old = table.first(h.name) {
                if !headerTokens(old).contains(merged) { table.append(h.name, merged) }
            } else {
                table.add(h.name, merged)
            }
        case "unset": table.unset(h.name)
        case "edit", "edit*":
            guard let regex = h.editPattern, table.first(h.name) != nil else { return }
            let replacement = value(of: h, r, context)
            let edited = table.entries.filter { equalsIgnoringASCIICase($0.name, h.name) }.map {
                HTTPHeader($0.name, editHeaderValue($0.value, regex, replacement, all: h.action == "edit*"))
            }
            // Apache unsets the header and adds the edited values back at the end.
            table.unset(h.name)
            table.entries += edited
        default: return // echo and note do not change response headers from configuration alone
        }
    }

    /// The value a directive writes: its `expr=` string expression, or its format.
    private func value(of h: HeaderDirective, _ r: RequestRecord, _ context: ExpressionContext) -> String {
        if let e = h.valueExpression { return e.evaluate(context, []) }
        return formatHeaderValue(h.value, r, context.chain)
    }

    /// `Header edit`: the first match replaced; `edit*` goes on in the rest, searching it
    /// afresh as Apache's process_regexp recursion does (so `^` matches there again).
    func editHeaderValue(_ value: String, _ regex: Regex, _ replacement: String, all: Bool) -> String {
        var out: [UInt8] = []
        var rest = Array(value.utf8)
        while let m = regex.firstMatch(in: String(decoding: rest, as: UTF8.self)), let whole = m.ranges[0] {
            out += rest[..<whole.lowerBound]
            out += Array(substituteGroups(replacement, m).utf8)
            var next = whole.upperBound
            // An empty match would be found again at the same place: step over one byte.
            if all, whole.isEmpty {
                guard next < rest.count else { rest = []; break }
                out.append(rest[next])
                next += 1
            }
            rest = Array(rest[next...])
            if !all { break }
        }
        return String(decoding: out + rest, as: UTF8.self)
    }

    /// mod_headers format strings: `%{VAR}e` (environment, `(null)` when unset), `%{VAR}s`
    /// (mod_ssl variables), `%%`; worker counts, load and times (`%i %b %l %t %D`) are not
    /// simulated and left empty.
    func formatHeaderValue(_ v: String, _ r: RequestRecord, _ chain: RequestChain) -> String {
        guard v.contains("%"), case .success(let pieces) = parseHeaderFormat(v) else { return v }
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .tag("e", let name): out += r.envValue(name) ?? "(null)"
            case .tag("s", let name): out += sslVariable(name, chain) ?? "(null)"
            case .tag: continue
            }
        }
        return out
    }

    /// The few mod_ssl variables htlint knows: `HTTPS` always, `SSL_TLS_SNI` over TLS (the
    /// host asked for). Others depend on the handshake and read as unset.
    func sslVariable(_ name: String, _ chain: RequestChain) -> String? {
        switch name {
        case "HTTPS": return chain.request.tls ? "on" : "off"
        case "SSL_TLS_SNI":
            guard chain.request.tls, let host = chain.request.header("Host") else { return nil }
            // The client names the host of the URL; the Host header carries the same name.
            let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host
            return name.isEmpty ? nil : name.lowercased()
        default: return nil
        }
    }
}

/// The comma-separated tokens of a header value as `Header merge` compares them: leading
/// blanks skipped, quoted strings kept whole, trailing blanks part of the token.
func headerTokens(_ value: String) -> [String] {
    var tokens: [String] = []
    var b = Array(value.utf8)[...]
    while !b.isEmpty {
        while let f = b.first, f == 0x20 || (f >= 0x09 && f <= 0x0D) { b.removeFirst() }
        var token: [UInt8] = []
        var quoted = false
        while let c = b.first, quoted || c != UInt8(ascii: ",") {
            if c == UInt8(ascii: "\"") { quoted.toggle() }
            token.append(c)
            b.removeFirst()
        }
        tokens.append(String(decoding: token, as: UTF8.self))
        if !b.isEmpty { b.removeFirst() }
    }
    return tokens
}

/// An APR table of response headers: names case-insensitive, duplicates allowed.
struct HeaderTable {
    var entries: [HTTPHeader] = []

    func first(_ name: String) -> String? { entries.first { equalsIgnoringASCIICase($0.name, name) }?.value }

    mutating func add(_ name: String, _ value: String) { entries.append(HTTPHeader(name, value)) }

    /// apr_table_set: the first entry takes the value, the others go.
    mutating func set(_ name: String, _ value: String) {
        guard let i = entries.firstIndex(where: { equalsIgnoringASCIICase($0.name, name) }) else { return add(name, value) }
        entries[i].value = value
        var seen = false
        entries.removeAll { e in
            guard equalsIgnoringASCIICase(e.name, name) else { return false }
            defer { seen = true }
            return seen
        }
    }

    /// apr_table_merge: `, value` joins the first entry.
    mutating func append(_ name: String, _ value: String) {
        guard let i = entries.firstIndex(where: { equalsIgnoringASCIICase($0.name, name) }) else { return add(name, value) }
        entries[i].value += ", " + value
    }

    mutating func unset(_ name: String) { entries.removeAll { equalsIgnoringASCIICase($0.name, name) } }
}
