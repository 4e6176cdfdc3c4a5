import HtlintBytes
import HtlintRegex

extension Origin {
    /// Headers the response carries (apache-semantics §13). mod_headers edits two tables:
    /// `Header always` the error table (where mod_rewrite's cookies are too), plain `Header`
    /// the normal one. Redirects and errors Apache generates go out with the error table only;
    /// other responses, an ErrorDocument page included, with both, error table first
    /// (apr_table_overlay).
    /// `location` is the answer's own Location: kept for a redirect (or 201) Apache writes,
    /// and in the normal table of a page sent with a 3xx, where `Header` may replace it.
    /// `canned`: a 2xx a hook answered, sent by ap_send_error_response like an error.
    /// `errorTableLost`: a refused body emptied the error table (only the early lines of requests
    /// that ran post_read_request after that, ErrorDocument pages, are in it).
    /// `handlerRan`: the error came after the file's handler ran (the byte-range filter's 416,
    /// the header filter's 500), which made the file's type r->handler (`%{HANDLER}`).
    func responseHeaders(_ r: RequestRecord, status: Int, location: String? = nil, servedErrorPage: Bool = false,
                         canned: Bool = false, errorTableLost: Bool = false, handlerRan: Bool = false,
                         acceptRanges: String? = nil, chain: RequestChain) -> [HTTPHeader] {
        var always = HeaderTable(entries: chain.cookies)
        var onSuccess = HeaderTable()
        if let location { onSuccess.add("Location", location) }
        // Set by the default handler before mod_headers' filter runs: `Header unset` removes it.
        if let acceptRanges { onSuccess.set("Accept-Ranges", acceptRanges) }
        // ap_if_walk merged the headers its conditions read into r->headers_out's Vary.
        for line in r.ifVary { onSuccess.add("Vary", line.joined(separator: ", ")) }
        // Error responses Apache generates itself drop the onsuccess table; an ErrorDocument
        // page keeps it (its request's fixups filled it and the handler sends it).
        let success = ((200...299).contains(status) && !canned) || servedErrorPage
        // Answered before the directory walk (a virtual-host redirect): the host's own lines with
        // the <Location>/<If> sections the location and if walks merged before translate_name.
        let config = r.config
        // (Re-walked only for a pass that never reached translate_name.)
        let preTranslate = config != nil ? nil : r.preTranslateWalked ? r.preTranslate : preTranslateConfig(r, chain)
        let directives = config?.headers ?? preTranslate?.headers ?? site.vhost.block.headers
        // r->content_type: mod_mime / ForceType / [T=] for a page a handler sends; the canned page's
        // own type for an answer Apache writes (text/html without charset under
        // suppress-error-charset, which also keeps AddDefaultCharset off).
        let suppressCharset = !success && r.envValue("suppress-error-charset") != nil
        // A 204 goes out without a type (ap_http_header_filter clears r->content_type, after
        // mod_headers' filter: a page's handler set one its expressions see; recorded:
        // errordoc-204-page-headers). A canned 204 never has one. Nor does a 304 (recorded:
        // header-if-none-match-any-file).
        let headerOnly = status == 204 || status == 304
        var contentType: String? = headerOnly && !servedErrorPage ? nil : !success ? (suppressCharset ? "text/html" : MimeTypes.errorPageType)
            // OPTIONS answers a directory before mod_dir: mod_mime's DIR_MAGIC_TYPE (or ForceType).
            // So does `SetHandler default-handler` (recorded: dirindex-options-directory-default-handler-type).
            : r.method == "OPTIONS" && (r.handler == "httpd/unix-directory"
                                        || r.handler == "default-handler" && !r.directoryTypeCleared && typedFilename(r).map(site.files.isDirectory) == true)
                ? r.forcedType ?? config?.mime?.forceType ?? "httpd/unix-directory"
            // mod_autoindex names its listing's type itself, over ForceType; so do mod_status and mod_info.
            : r.generatedType ?? (r.listed ? MimeTypes.listingType(charset: config?.indexCharset)
                : r.forcedType ?? typedFilename(r).flatMap { MimeTypes.type(forPath: mimeName($0, r, config?.mime), config: config?.mime) })
        var context = ExpressionContext(origin: self, record: r, chain: chain, status: status, contentType: contentType)
        context.sentErrorPage = servedErrorPage
        // mod_expires' filter runs before mod_headers' one, on the table the answer goes out with
        // (for an answer Apache writes, the moved error table `Header always` cannot reach).
        // (Module checks first: the configuration argument is a copy of a large struct.)
        let expires = !site.modules.contains("expires") ? []
            : expiresHeaders(r, status: status, contentType: contentType,
                             config: config ?? preTranslate ?? .vhostDefaults(site), chain: chain)
        for h in expires where success {
            if h.name == "Cache-Control" { onSuccess.append(h.name, h.value) } else { onSuccess.set(h.name, h.value) }
        }
        // mod_deflate's filter too (its Vary comes before a `Header append Vary`).
        if success, site.modules.contains("deflate") {
            // (Not `config ?? preTranslate`: that copies the configuration on every answer.)
            let deflate = config != nil ? deflateHeaders(r, status: status, contentType: contentType, config: config, chain: chain)
                : deflateHeaders(r, status: status, contentType: contentType, config: preTranslate, chain: chain)
            for h in deflate {
                onSuccess.append(h.name, h.value)
            }
        }
        if success, r.method != "OPTIONS", let t = contentType {
            context.invokedHandler = beforeSemicolonByte(t)
        } else if handlerRan, let t = r.forcedType
                    ?? typedFilename(r).flatMap({ MimeTypes.type(forPath: mimeName($0, r, config?.mime), config: config?.mime) }) {
            // (recorded: header-expr-handler-after-range-416, header-expr-handler-after-refused-header)
            context.invokedHandler = beforeSemicolonByte(t)
        }
        // ap_http_header_filter writes r->content_type over any Content-Type in the tables; with
        // none (`Header unset Content-Type`) or an empty one what the tables hold goes out.
        func finished(_ sent: [HTTPHeader]) -> [HTTPHeader] {
            let tables = fixupVary(sent)
            guard !headerOnly, let t = contentType, !t.isEmpty else { return tables }
            let type = suppressCharset ? t : MimeTypes.withDefaultCharset(t, config?.mime?.defaultCharset)
            var out: [HTTPHeader] = []
            out.reserveCapacity(tables.count + 1)
            out.append(HTTPHeader("Content-Type", type))
            // Only a directive naming Content-Type (or an echo) puts one in the tables.
            if tables.contains(where: { equalsIgnoringASCIICase($0.name, "Content-Type") }) {
                out += tables.filter { !equalsIgnoringASCIICase($0.name, "Content-Type") }
            } else {
                out += tables
            }
            return out
        }
        // A refused body emptied the error table: only later requests' early lines are in it.
        let earlyLinesAfter = errorTableLost ? chain.errorTableClearedAt : nil
        guard success else {
            // ap_send_error_response moves the error table (mod_rewrite's cookies) into the normal
            // one before mod_headers' error filter runs: `always` starts empty and cannot unset or
            // edit what was there; the sent headers are the error table, then the moved ones.
            var errorTable = HeaderTable()
            // A condition's Vary goes to r->headers_out, which is now the moved table.
            let vary = VaryTokens()
            // (`early` lines filled the error table at post_read_request, each request of the chain.)
            applyEarly(to: &errorTable, &contentType, context, vary: vary, after: earlyLinesAfter)
            for h in directives where h.always && !h.early {
                apply(h, to: &errorTable, &contentType, r, context, vary: vary)
            }
            let conditionVary = vary.names.isEmpty ? [] : [HTTPHeader("Vary", vary.names.joined(separator: ", "))]
            // ap_send_error_response adds Allow by the status it sends: an ErrorDocument URL has
            // made a 405 or 501 a 302 by then (recorded: errordoc-url-405-redirect-no-allow).
            // make_allow lists what handlers registered, none before the handler ran (a rewrite's
            // or Redirect's 405/501), and TRACE unless `TraceEnable Off` (recorded:
            // header-allow-on-rewrite-405-and-501).
            if status == 405 || status == 501 { errorTable.set("Allow", r.allow ?? (site.traceEnabled ? "TRACE" : "")) }
            // (The access phase put the challenge in the error table.)
            if let challenge = r.wwwAuthenticate, !errorTableLost { errorTable.set("WWW-Authenticate", challenge) }
            // ap_send_error_response keeps only a redirect's Location in the moved table.
            let own = location.flatMap { !$0.isEmpty && (StatusLines.isRedirect(status) || status == 201) ? [HTTPHeader("Location", $0)] : nil } ?? []
            return finished(errorTable.entries + chain.cookies + own + negotiationHeaders(r) + conditionVary + expires)
        }
        always.entries += negotiationHeaders(r)
        // A condition's Vary is merged into r->headers_out (the normal table) as it is evaluated.
        let vary = VaryTokens()
        func mergeVary() {
            guard !vary.names.isEmpty else { return }
            onSuccess.append("Vary", vary.names.joined(separator: ", "))
            vary.names = []
        }
        applyEarly(to: &always, &contentType, context, vary: vary, after: earlyLinesAfter)
        mergeVary()
        for h in directives where h.always && !h.early { apply(h, to: &always, &contentType, r, context, vary: vary); mergeVary() }
        if let allow = r.allow { always.set("Allow", allow) }
        if let challenge = r.wwwAuthenticate { always.set("WWW-Authenticate", challenge) }
        for h in directives where !h.always { apply(h, to: &onSuccess, &contentType, r, context, vary: vary); mergeVary() }
        // mod_mime's languages and coding of the file sent (find_ct gives a directory none); a
        // 304 goes out without them (ap_http_header_filter clears both).
        if status != 304, let mime = config?.mime, mime.namesLanguagesOrCodings, let file = r.filename, !r.listed, !site.files.isDirectory(file) {
            return finished(Self.withFileMetadata(always.entries + onSuccess.entries,
                                                  languages: mime.languages(forPath: file),
                                                  encoding: (r.negotiatedEncoding ?? mime.encoding(forPath: file)).map {
                                                      negotiation ? Self.fixEncoding($0, chain.header("Accept-Encoding")) : $0
                                                  }))
        }
        return finished(always.entries + onSuccess.entries)
    }

    /// mod_negotiation's fix_encoding fixup, run for every request: the coding (an `x-` prefix
    /// ignored) is respelled as the first `Accept-Encoding` entry naming it plainly, else as the
    /// last entry naming it with `x-`, whatever their q (recorded: negotiation-fix-encoding-spelling).
    static func fixEncoding(_ encoding: String, _ acceptEncoding: String?) -> String {
        guard !encoding.isEmpty, let acceptEncoding else { return encoding }
        let coding = encoding.hasBytePrefix("x-") ? String(encoding.dropFirst(2)) : encoding
        var prefixed: String? = nil
        for (name, _) in AcceptList(acceptEncoding).entries {
            if name == coding { return name }
            if name.hasBytePrefix("x-"), name.dropFirst(2) == coding { prefixed = name }
        }
        return prefixed ?? encoding
    }

    /// ap_http_header_filter: r->content_encoding replaces every Content-Encoding of the tables;
    /// r->content_languages, followed by the tokens of the first Content-Language line of the
    /// tables (the error table's comes first), replace every line with one (recorded:
    /// header-content-language-merges-table).
    static func withFileMetadata(_ headers: [HTTPHeader], languages: [String], encoding: String?) -> [HTTPHeader] {
        var out = headers
        if let encoding {
            out.removeAll { equalsIgnoringASCIICase($0.name, "Content-Encoding") }
            out.append(HTTPHeader("Content-Encoding", encoding))
        }
        guard !languages.isEmpty else { return out }
        var tokens = languages
        if let first = out.first(where: { equalsIgnoringASCIICase($0.name, "Content-Language") }) {
            // A table token the languages already name (in any case) is not repeated
            // (recorded: header-content-language-table-duplicates).
            // Commas and blanks are bytes: a combining mark after one does not join it.
            for token in byteSplit(first.value[...], UInt8(ascii: ",")).map({ item in
                item.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map { String(Substring($0)) }.joined(separator: " ")
            })
            where !token.isEmpty && !tokens.contains(where: { equalsIgnoringASCIICase($0, token) }) {
                tokens.append(token)
            }
        }
        out.removeAll { equalsIgnoringASCIICase($0.name, "Content-Language") }
        out.append(HTTPHeader("Content-Language", tokens.joined(separator: ",")))
        return out
    }

    /// ap_http_header_filter's fixup_vary: every `Vary` line becomes one, at the first one's
    /// place, its tokens (split at commas and blanks) each once, case-insensitively, joined by commas.
    /// Lines without a token are left as they are.
    private func fixupVary(_ headers: [HTTPHeader]) -> [HTTPHeader] {
        let lines = headers.filter { equalsIgnoringASCIICase($0.name, "Vary") }
        guard !lines.isEmpty else { return headers }
        var tokens: [String] = []
        for line in lines {
            for t in line.value.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map(String.init)
            where !tokens.contains(where: { equalsIgnoringASCIICase($0, t) }) {
                tokens.append(t)
            }
        }
        guard !tokens.isEmpty else { return headers }
        var out: [HTTPHeader] = []
        var placed = false
        for h in headers {
            guard equalsIgnoringASCIICase(h.name, "Vary") else { out.append(h); continue }
            if !placed { out.append(HTTPHeader(h.name, tokens.joined(separator: ","))); placed = true }
        }
        return out
    }

    /// mod_negotiation's `Vary` and a transparent answer's `Content-Location`: both in the error
    /// table, so a redirect or error answer after the negotiation still carries them.
    private func negotiationHeaders(_ r: RequestRecord) -> [HTTPHeader] {
        var out: [HTTPHeader] = []
        if let vary = r.negotiationVaryHeader { out.append(HTTPHeader("Vary", vary)) }
        if let location = r.contentLocation { out.append(HTTPHeader("Content-Location", location)) }
        return out
    }

    /// The headers of a TRACE echo (ap_send_http_trace at map_to_storage, before mod_headers'
    /// output filter exists): what post_read_request's `early` lines of the virtual host put in
    /// the two tables (recorded: header-trace-echo-early-lines), mod_rewrite's cookies, and the
    /// Vary the <If> walk merged (recorded: header-trace-echo-keeps-if-vary); the error table
    /// goes first.
    func traceEchoHeaders(_ r: RequestRecord, chain: RequestChain) -> [HTTPHeader] {
        var always = HeaderTable()
        var onSuccess = HeaderTable()
        var type: String? = "message/http"
        let context = ExpressionContext(origin: self, record: r, chain: chain, status: 200, contentType: type)
        for h in site.vhost.block.headers where h.early {
            if h.always { apply(h, to: &always, &type, r, context) } else { apply(h, to: &onSuccess, &type, r, context) }
        }
        let vary = r.ifVary.map { HTTPHeader("Vary", $0.joined(separator: ", ")) }
        return fixupVary([HTTPHeader("Content-Type", "message/http")] + always.entries + chain.cookies + onSuccess.entries + vary)
    }

    /// The virtual host's `Header always … early` lines as post_read_request left them in the
    /// error table: once for every request of the internal-redirect chain, each formatted with
    /// its own environment, since internal_internal_redirect shares r->err_headers_out (an
    /// ErrorDocument page or an [L] redirect sends `add` lines twice; a recursive error sends the
    /// page request's `set`; recorded: header-early-always-shared-across-internal-redirects).
    /// `after`: only the requests that ran post_read_request after the table was emptied.
    private func applyEarly(to table: inout HeaderTable, _ contentType: inout String?, _ context: ExpressionContext,
                            vary: VaryTokens, after cleared: Int? = nil) {
        let lines = site.vhost.block.headers
        // (Most sites have none: no copy of the list per response.)
        guard lines.contains(where: { $0.always && $0.early }) else { return }
        for record in context.chain.postReadRecords.dropFirst(cleared ?? 0) {
            // Formatted then: no status, type or handler yet (`expr=%{HANDLER}` is empty).
            let c = ExpressionContext(origin: context.origin, record: record, chain: context.chain)
            for h in lines where h.always && h.early { apply(h, to: &table, &contentType, record, c, vary: vary) }
        }
    }

    /// One directive on one table, as mod_headers' do_headers_fixup. The type itself is not in the
    /// tables but in r->content_type: `set` and `setifempty` (when the table has none) change it
    /// too, `edit` edits it, `unset` clears it.
    private func apply(_ h: HeaderDirective, to table: inout HeaderTable, _ contentType: inout String?,
                       _ r: RequestRecord, _ context: ExpressionContext, vary: VaryTokens? = nil, directive: String = "Header") {
        if let c = h.envCondition, (r.envValue(c.name) != nil) == c.negated { return }
        var captures: [String] = []
        // An earlier line that set or unset Content-Type changed r->content_type, which
        // `%{CONTENT_TYPE}` reads from then on (unset: empty).
        var context = context
        if contentType != context.contentType { context.contentType = contentType ?? "" }
        if let e = h.expression {
            var conditionContext = context
            conditionContext.varySink = vary
            if !e.evaluate(conditionContext, captures: &captures) { return }
        }
        let isType = equalsIgnoringASCIICase(h.name, "Content-Type")
        switch h.action {
        case "set":
            let v = value(of: h, r, context)
            if isType { contentType = v }
            table.set(h.name, v)
        case "setifempty":
            guard table.first(h.name) == nil else { return }
            let v = value(of: h, r, context)
            if isType { contentType = v }
            table.set(h.name, v)
        case "unset":
            if isType { contentType = nil }
            table.unset(h.name)
        case "add": table.add(h.name, value(of: h, r, context))
        case "append": table.append(h.name, value(of: h, r, context))
        case "merge":
            let merged = value(of: h, r, context)
            if let old = table.first(h.name) {
                if !headerTokens(old).contains(merged) { table.append(h.name, merged) }
            } else {
                table.add(h.name, merged)
            }
        case "edit", "edit*":
            guard let regex = h.editPattern else { return }
            let replacement = value(of: h, r, context)
            func edit(_ v: String) -> String? {
                guard let out = Origin.editHeaderValue(v, regex, replacement, all: h.action == "edit*") else {
                    context.chain.childCrashed = true
                    context.chain.note(.note, "\(directive) edit* on \(h.name): the pattern matches the empty string, so mod_headers' process_regexp recurses on the same text until the Apache child crashes (no response)",
                                       range: h.range)
                    return nil
                }
                return out
            }
            // Content-Type is edited in r->content_type (then in the table, should it hold one).
            if isType, let t = contentType {
                guard let v = edit(t) else { return }
                contentType = v
            }
            guard table.first(h.name) != nil else { return }
            var edited: [HTTPHeader] = []
            for e in table.entries where equalsIgnoringASCIICase(e.name, h.name) {
                guard let v = edit(e.value) else { return }
                edited.append(HTTPHeader(e.name, v))
            }
            // Apache unsets the header and adds the edited values back at the end.
            table.unset(h.name)
            table.entries += edited
        case "echo":
            // Every request header whose name the pattern matches (r->headers_in as the fixups left it).
            guard let regex = h.editPattern else { return }
            for e in context.chain.request.headers where regex.firstMatch(in: e.name) != nil { table.add(e.name, e.value) }
        default: return // note does not change response headers
        }
    }

    /// mod_headers' fixup for `RequestHeader` (or post_read_request for `early`): edits the
    /// request's headers, which the rest of this request, its internal redirects and the
    /// response's `Header` conditions see. A subrequest (mod_dir's index look-up, `-U`…) runs
    /// the fixup too, on the copy ap_set_sub_req_protocol made without the body's headers:
    /// nothing is kept, but an `edit*` meeting an empty match crashes the child there as well
    /// (recorded: header-requestheader-edit-star-crashes-in-index-lookup).
    /// do_headers_fixup applies the lines one at a time to r->headers_in, so a line's `expr=`
    /// condition (`%{req:…}`, `%{HTTP:…}`) sees what the lines before it did (recorded:
    /// header-requestheader-condition-sees-earlier-lines). `%{CONTENT_TYPE}` there is the type the
    /// type checker and mod_rewrite's `[T=]` gave (recorded: header-requestheader-condition-content-type).
    func applyRequestHeaders(_ list: [HeaderDirective], _ r: RequestRecord, _ chain: RequestChain) {
        guard !list.isEmpty else { return }
        let parentHeaders = r.isSubrequest ? chain.request.headers : nil
        if r.isSubrequest { chain.request.headers.removeAll { Origin.subrequestDropsHeader($0.name) } }
        defer { if let parentHeaders { chain.request.headers = parentHeaders } }
        let type: String? = fixupContentType(r)
        // ap_expr_exec merges the request headers a condition reads into r->headers_out's Vary,
        // whether it holds or not (recorded: header-requestheader-condition-adds-vary).
        let context = ExpressionContext(origin: self, record: r, chain: chain, status: nil, contentType: type,
                                        addsVary: true, afterModDir: true)
        for h in list {
            var table = HeaderTable(entries: chain.request.headers)
            // A `Content-Type` line edits the request header only: r->content_type stays, for
            // the later lines and the response (recorded: header-requestheader-content-type-leaves-type).
            var unchanged = type
            apply(h, to: &table, &unchanged, r, context, directive: "RequestHeader")
            chain.request.headers = table.entries
        }
    }

    /// r->content_type when mod_headers' fixup runs: mod_rewrite's `[T=]` (its last fixup, before
    /// mod_headers'), ForceType, or mod_mime's find_ct (httpd/unix-directory for a directory
    /// mod_dir left alone; the index's type once it adopted one); "" before the type checker.
    func fixupContentType(_ r: RequestRecord) -> String {
        if let t = r.forcedType { return t }
        let mime = r.config?.mime
        if let t = mime?.forceType { return t }
        guard let f = typedFilename(r), f.hasBytePrefix("/") else { return "" }
        // (Empty when mod_dir dropped it for a handler that took the directory over.)
        if site.files.isDirectory(f) { return r.directoryTypeCleared ? "" : "httpd/unix-directory" }
        return MimeTypes.type(forPath: mimeName(f, r, mime), config: mime) ?? ""
    }

    /// The file mod_mime typed: a `redirect:` filename a forced handler kept from its internal
    /// redirect was written in the fixups, after the type checker saw the walked file.
    private func typedFilename(_ r: RequestRecord) -> String? {
        guard let f = r.filename, f.hasBytePrefix("redirect:") else { return r.filename }
        return r.mappedFilename
    }

    /// The value a directive writes: its `expr=` string expression, or its format.
    private func value(of h: HeaderDirective, _ r: RequestRecord, _ context: ExpressionContext) -> String {
        if let e = h.valueExpression { return e.evaluate(context, []) }
        return formatHeaderValue(h.value, r, context.chain, postRead: h.early)
    }

    /// `Header edit`: the first match replaced; `edit*` goes on in the rest, searching it
    /// afresh as Apache's process_regexp recursion does (so `^` matches there again). nil when
    /// `edit*` meets an empty match: process_regexp then recurses on the same text forever and
    /// the child process crashes.
    public static func editHeaderValue(_ value: String, _ regex: Regex, _ replacement: String, all: Bool) -> String? {
        var out: [UInt8] = []
        var rest = value.rawBytes
        while let m = regex.firstMatch(in: String(preservingBytes: rest)), let whole = m.ranges[0] {
            out += rest[..<whole.lowerBound]
            out += Origin.substituteGroups(replacement, m).rawBytes
            if all, whole.isEmpty { return nil }
            rest = Array(rest[whole.upperBound...])
            if !all { break }
        }
        return String(preservingBytes: out + rest)
    }

    /// mod_headers format strings: `%{VAR}e` (environment, `(null)` when unset), `%{VAR}s`
    /// (mod_ssl's ssl_var_lookup), `%%`. Times, load and worker shares (`%t %D %l %i %b`, any
    /// `{arg}` ignored) change with every request: they come out as fixed stand-ins in Apache's
    /// shape (`t=0`, `D=0`, `l=0.00/0.00/0.00`, `i=0`, `b=100`, the one worker busy), so a
    /// value is non-empty where Apache's is and `merge`, `setifempty` and `edit` see what they
    /// would.
    /// `postRead`: an `early` line, formatted at post_read_request, when the environment holds
    /// only what an internal redirect renamed (`REDIRECT_…`; recorded:
    /// header-early-format-sees-post-read-environment).
    func formatHeaderValue(_ v: String, _ r: RequestRecord, _ chain: RequestChain, postRead: Bool = false) -> String {
        // Only a `%` tag or a backslash escape changes the text.
        guard v.containsByte(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") }),
              case .success(let pieces) = parseHeaderFormat(v) else { return v }
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            // unwrap_header: a variable's CR and LF become spaces (a `%0A` in SCRIPT_URL is
            // sent as a blank), where a literal `\n` of the format fails the response.
            case .tag("e", let name):
                let value = postRead && !name.asciiUppercased().hasBytePrefix("REDIRECT_") ? nil : r.envValue(name)
                out += value.map(unwrapHeader) ?? "(null)"
            // header_request_ssl_var: an unset or empty value is written `(null)`.
            case .tag("s", let name):
                let v = sslVariable(name, r, chain)
                out += v.isEmpty ? "(null)" : unwrapHeader(v)
            case .tag("t", _): out += "t=0"
            case .tag("D", _): out += "D=0"
            case .tag("l", _): out += "l=0.00/0.00/0.00"
            case .tag("i", _): out += "i=0"
            case .tag("b", _): out += "b=100"
            case .tag: continue
            }
        }
        return out
    }
}

/// mod_headers' unwrap_header: CR and LF replaced by spaces.
func unwrapHeader(_ value: String) -> String {
    guard value.containsByte(where: { $0 == 0x0A || $0 == 0x0D }) else { return value }
    return String(preservingBytes: value.rawBytes.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 })
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
