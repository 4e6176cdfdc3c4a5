/// mod_negotiation's `Options MultiViews` (type_checker): a request for a file that does not
/// exist is answered with a variant `name.ext…` of the same directory — before the directory's
/// `.htaccess` rewrites run in the fixups, so `RewriteCond %{REQUEST_FILENAME} !-f` already sees
/// the variant (the classic "MultiViews beats my front controller").
extension Origin {
    /// What mod_negotiation's type checker makes of a request.
    enum Negotiation {
        /// Serve this variant (a file name in the directory of the missing file).
        case variant(String)
        /// Files named `name.…` exist but none can be negotiated: 404 at once (AH00687), before
        /// any rewrite runs (`/wp-login` next to `wp-login.php`, which Debian's mod_mime gives no type).
        case notFound
        /// Variants exist but `Accept` takes none of them: 406 (AH00690).
        case notAcceptable
    }

    /// MultiViews for `r`, or nil when it does not apply (off, the file exists, no `name.…`).
    /// Candidates are files whose every extension mod_mime knows (MultiviewsMatch NegotiatedOnly)
    /// and whose own look-up passes its access checks and fixups; the best has the highest
    /// `Accept` quality for its type, then the highest language quality (`Accept-Language`,
    /// `LanguagePriority`), then the smallest size (recorded: without an Accept header `b.txt`
    /// of 3 bytes wins over `b.html` of 13), then the first name.
    /// `ifMatches`: the top-level `<If>` matches of `r`'s own walk (the cache its look-ups inherit).
    func negotiate(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain, ifMatches: [String]? = nil) -> Negotiation? {
        guard let (directory, base) = multiViewsScan(r, config), let filename = r.filename else { return nil }
        let accept = AcceptList(chain.header("Accept"))
        // Transparent negotiation (RFC 2295) is for GET and HEAD without path info only.
        let transparent = (r.method == "GET" || r.method == "HEAD") && r.pathInfo.isEmpty
        // handle_multi "dramatically" prefers scripts for a request with arguments, path info or
        // a body-carrying method: the script variant outranks any typed one.
        let preferScripts = (r.method != "GET" && r.method != "HEAD") || r.query != nil || !r.pathInfo.isEmpty
        var variantTypes: Set<String> = []
        // set_neg_headers compares the variants' media types and charset parameters apart.
        var mediaTypes: Set<String> = [], charsets: Set<String> = [], encodings: Set<String> = []
        let acceptEncoding = chain.header("Accept-Encoding").map { AcceptList($0).entries }
        var anyMatch = false
        // Variants acceptable by type, compared once their languages are known (the quality of
        // a variant without one depends on whether any variant has one).
        var candidates: [(name: String, quality: Double, size: Int, charset: String, languages: [String],
                          encoding: (quality: Double, sent: String?))] = []
        var languageSets: Set<String> = []
        var anyLanguage = false
        let prefix = base + "."
        for name in site.files.entryNames(in: directory).filter({ $0.hasBytePrefix(prefix) }).sorted() {
            let path = directory + "/" + name
            // Directories are never variants; anything else named so counts as a match.
            if site.files.lstat(path) == .directory { continue }
            anyMatch = true
            guard case .file(let size)? = site.files.stat(path) else { continue }
            let extensions = dropLeadingBytes(name, prefix.utf8.count).utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                .map { Substring($0).asciiLowercased() }
            // The variant's own look-up: its directory's mod_mime settings (`AddType`,
            // `RemoveType`) decide its type, and it must pass its access checks (a
            // `<Files "*.bak">` denial), whose refusal is logged as the subrequest's — also for a
            // name whose extensions turn out unrecognised, as read_types_multi looks every file up
            // before it reads the extensions.
            // The look-up is for the variant's file: its `<If>` sections (`-f %{REQUEST_FILENAME}`
            // true: recorded negotiation-variant-lookup-if-sees-variant-file), the `.ht*` and
            // document-root checks see it.
            let missing = r.filename
            r.filename = path
            // The look-up's environment is its own copy: the `MATCH_` names its `<FilesMatch>`
            // sets reach this request only with the chosen variant's fast redirect (recorded:
            // negotiation-variant-lookup-match-env-not-kept).
            let (env, envShadowed) = (r.env, r.envShadowed)
            defer { r.filename = missing; r.env = env; r.envShadowed = envShadowed }
            // …and its URI: a `<Location>` naming the variant applies to the look-up (recorded:
            // negotiation-variant-refused-by-location).
            let variantURI = Origin.variantURI(r, name)
            let requested = r.uri
            var walk = directoryWalk(path)
            let (subject, walked) = directoryMatchSubject(r, walk, remember: false)
            r.uri = variantURI
            applySections(&walk, record: r, chain: chain, regexSubject: subject, matchEnvironment: walked,
                          variantOf: ifMatches ?? r.ifMatches)
            r.uri = requested
            let mime = walk.config.mime
            let lookup = RequestChain(request: chain.request, tracing: false)
            if checkAccess(r, walk.config, lookup) != nil {
                for (code, message) in zip(lookup.errorCodes, lookup.errors) { chain.errorCodes.append(code); chain.errors.append(message) }
                continue
            }
            // The look-up runs the fixups too, before read_types_multi reads the extensions:
            // mod_rewrite refuses it where the engine is on without FollowSymLinks (AH00670, 403,
            // also for a name mod_mime cannot type), and the variant is not available
            // (recorded: negotiation-untyped-candidate-still-looked-up).
            if let rw = walk.config.rewrite, rw.engine, !chain.endSeen,
               !walk.config.linksAllowed {
                chain.log("AH00670", "error", "Options FollowSymLinks and SymLinksIfOwnerMatch are both off, so the RewriteRule directive is also forbidden due to its similar ability to circumvent directory restrictions : \(path)")
                continue
            }
            // The look-up runs its fixups whatever the extensions (read_types_multi reads them
            // from the finished look-up): mod_rewrite's and mod_alias's, whose errors are logged
            // (recorded: negotiation-variant-lookup-logged-for-untyped-name), and mod_headers'
            // `RequestHeader` lines last (an `edit*` may crash the child there).
            // (A one-argument `Redirect` in an `<If>` or `<Files>` counts too: recorded
            // negotiation-variant-refused-by-section-redirect.)
            let redirects = !walk.config.redirects.isEmpty || walk.config.redirectExpression != nil
            let lookedUp = walk.config.requestHeaders.isEmpty && walk.config.rewrite?.engine != true && !redirects ? nil
                : variantLookup(r, walk, filename: path, uri: variantURI, chain,
                                requestHeaders: !walk.config.requestHeaders.isEmpty, logged: true)
            // MultiviewsMatch (the variant's directory): `Handlers` also takes an extension that
            // names an AddHandler handler, `Any` every extension.
            let matching = mime?.multiviewsMatch ?? []
            guard matching.contains("any") || extensions.allSatisfy({ ext in
                MimeTypes.knows(ext, config: mime) || (matching.contains("handlers") && mime?.handlers[PathKey(ext)].flatMap { $0 } != nil)
            }) else { continue }
            // A variant without a type is a script when its look-up has a handler (AddHandler, or
            // SetHandler: a `<FilesMatch "\.php$">` one under `Any`); one with neither cannot be negotiated.
            let handlerOnly = MimeTypes.type(forPath: name, config: mime) == nil
            // An internal rewrite in its look-up leaves redirect-handler, a handler too (under
            // `Any`; recorded: negotiation-variant-handler-from-lookup-rewrite).
            var needsRewriteHandler = false
            if handlerOnly, mime?.handler(forPath: name) == nil, mime?.setHandler == nil {
                guard walk.config.rewrite?.engine == true else { continue }
                needsRewriteHandler = true
            }
            // Its other fixups: a status decided there (a `Redirect`, `[F]`) refuses the variant
            // (recorded: negotiation-variant-refused-by-lookup-answer).
            if let (sub, decided) = lookedUp, decided != nil || (needsRewriteHandler && sub.handler != "redirect-handler") { continue }
            let type = MimeTypes.type(forPath: name, config: mime) ?? MimeTypes.cgiMagicType
            variantTypes.insert(type)
            let (media, charset) = Origin.mediaTypeAndCharset(type)
            mediaTypes.insert(media)
            charsets.insert(charset)
            let languages = mime?.languages(forPath: name) ?? []
            languageSets.insert(languages.joined(separator: ","))
            if !languages.isEmpty { anyLanguage = true }
            let encoding = mime?.encoding(forPath: name)
            encodings.insert(encoding ?? "")
            // mime_match compares the variant's type without its parameters (an AddCharset
            // charset): `Accept: text/html` takes text/html; charset=utf-8 (recorded:
            // negotiation-accept-type-ignores-charset).
            // An AddType type's `qs` (or `q`) is the variant's source quality, multiplied into
            // its type quality (0: never acceptable), and its `level` is matched against the
            // range's (recorded: negotiation-addtype-source-quality).
            let own = AcceptList.variantParameters(type)
            let quality = accept.quality(of: media, level: own.level, preferScripts: preferScripts) * own.sourceQuality
            let encodingQuality = Origin.encodingQuality(encoding, accept: acceptEncoding)
            guard quality > 0, encodingQuality.quality > 0 else { continue }
            candidates.append((name, quality, size, charset, languages, encodingQuality))
        }
        let acceptLanguage = chain.header("Accept-Language").map(AcceptList.init)
        let priority = config.mime?.languagePriority ?? []
        let force = (prefer: config.mime?.preferLanguagePriority ?? true, fallback: config.mime?.fallbackLanguagePriority ?? false)
        var best: (name: String, quality: Double, language: Double, index: Int, size: Int, charset: String,
                   encoding: (quality: Double, sent: String?))? = nil
        for c in candidates {
            let (language, index) = Origin.languageQuality(c.languages, accept: acceptLanguage, priority: priority,
                                                           force: force, anyLanguage: anyLanguage)
            guard language > 0 else { continue }
            // is_variant_better: type quality, language quality, LanguagePriority position, then
            // a variant naming a charset other than iso-8859-1 beats a best naming none (or
            // iso-8859-1), then the higher encoding quality, then the smaller file; otherwise
            // the first name stays.
            if let b = best {
                if c.quality != b.quality {
                    if c.quality < b.quality { continue }
                } else if language != b.language {
                    if language < b.language { continue }
                } else if index != b.index {
                    if b.index != -1 && (index == -1 || index > b.index) { continue }
                } else {
                    let declaresCharset = !c.charset.isEmpty && c.charset != "iso-8859-1"
                    let bestDeclares = !b.charset.isEmpty && b.charset != "iso-8859-1"
                    if !(declaresCharset && !bestDeclares) {
                        if c.encoding.quality != b.encoding.quality {
                            if c.encoding.quality < b.encoding.quality { continue }
                        } else if c.size >= b.size { continue }
                    }
                }
            }
            best = (c.name, c.quality, language, index, c.size, c.charset, c.encoding)
        }
        // mod_negotiation's Vary (set_neg_headers, only once some variant is available; in the
        // error table, so error answers keep it); the variant's name as Content-Location on a
        // transparent answer.
        if !variantTypes.isEmpty {
            r.addNegotiationVary([transparent ? "negotiate" : nil, mediaTypes.count > 1 ? "accept" : nil,
                                  languageSets.count > 1 ? "accept-language" : nil,
                                  charsets.count > 1 ? "accept-charset" : nil,
                                  encodings.count > 1 ? "accept-encoding" : nil].compactMap { $0 })
        }
        if let best {
            chain.note(.note, "MultiViews: \(base) is negotiated to \(best.name)")
            if transparent { r.contentLocation = escapePathSegment(best.name) }
            r.negotiatedEncoding = best.encoding.sent
            return .variant(best.name)
        }
        if !variantTypes.isEmpty {
            chain.log("AH00690", "error", "no acceptable variant: \(filename)")
            chain.note(.status, "406: MultiViews found variants of \(base) but Accept takes none of them")
            return .notAcceptable
        }
        guard anyMatch else { return nil }
        chain.log("AH00687", "error", "Negotiation: discovered file(s) matching request: \(filename) (None could be negotiated).")
        chain.note(.status, "404: MultiViews found files named \(base).… but none it can serve")
        return .notFound
    }

    /// The directory MultiViews reads for `r` and the name it looks for there, or nil when it
    /// does not apply (off, the file exists, no directory).
    func multiViewsScan(_ r: RequestRecord, _ config: MergedConfig) -> (directory: String, base: Substring)? {
        guard negotiation, config.multiViews,
              let filename = r.filename, site.files.stat(filename) == nil,
              let slash = filename.lastIndex(ofByte: UInt8(ascii: "/")) else { return nil }
        let directory = String(filename[..<slash])
        let base = bytesAfter(filename, slash)
        guard !base.isEmpty, site.files.isDirectory(directory) else { return nil }
        return (directory, base)
    }

    /// set_encoding_quality: without `Accept-Encoding` a variant without a coding is worth 1, a
    /// coded one 0.5; with it (even empty), a coding (`x-` prefixes ignored on both sides, as
    /// `identity` for none) takes the quality of the entry naming it, else of the last `*`, else 0 —
    /// 0.0001 for none. The entry's own name (lower case) is the Content-Encoding sent
    /// (recorded: negotiation-encoding-variants).
    static func encodingQuality(_ encoding: String?, accept: [(String, Double)]?) -> (quality: Double, sent: String?) {
        let coding = encoding.map { $0.asciiLowercased() }.flatMap { $0 == "identity" ? nil : $0 }
        let coded = coding != nil
        guard let accept else { return (coded ? 0.5 : 1, nil) }
        func bare(_ name: String) -> Substring { name.hasBytePrefix("x-") ? name.dropFirst(2) : Substring(name) }
        let own = coding.map(bare) ?? "identity"
        var star: Double? = nil
        for (name, quality) in accept {
            if name == "*" { star = quality; continue }
            if bare(name) == own { return (quality, coded ? name : nil) }
        }
        return (star ?? (coded ? 0 : 0.0001), nil)
    }

    /// The URI of the variant `name` of `r` (ap_sub_req_lookup_dirent): the request's directory,
    /// the name, then the request's path info (counted in bytes).
    static func variantURI(_ r: RequestRecord, _ name: String) -> String {
        let stem = r.uri.hasByteSuffix(r.pathInfo) ? dropTrailingBytes(r.uri, r.pathInfo.utf8.count) : r.uri
        return (stem.lastIndex(ofByte: UInt8(ascii: "/")).map { String(bytesThrough(stem, $0)) } ?? "/") + name + r.pathInfo
    }

    /// set_language_quality (ForceLanguagePriority Prefer by default, Fallback on request): the variant's
    /// language quality from `Accept-Language` (the longest range matching a tag or its prefix
    /// up to `-`; `*` for the rest; 0.001 where only a range's own prefix matches) and its best
    /// `LanguagePriority` position (-1: none). Without a language it gets 0.0001 while another
    /// variant has one, 1 otherwise; without `Accept-Language` every language is 1.
    static func languageQuality(_ languages: [String], accept: AcceptList?, priority: [String],
                                force: (prefer: Bool, fallback: Bool) = (true, false), anyLanguage: Bool) -> (Double, Int) {
        guard !languages.isEmpty else { return (anyLanguage ? 0.0001 : 1, -1) }
        var quality = 1.0
        if let accept {
            var best: Double? = nil
            var star: Double? = nil
            var fiddle = 0.0
            var matchedOnStar = false
            for tag in languages {
                var longest = 0
                var thisTag: Double? = nil
                for (range, q) in accept.entries {
                    if range == "*" { if star == nil { star = q }; continue }
                    // Lengths and the `-` after the range are bytes (strncmp, lang[alen]): a
                    // combining mark after `-` keeps it a dash.
                    let length = range.utf8.count
                    if tag.hasBytePrefix(range), tag.utf8.count == length || tag.utf8.dropFirst(length).first == UInt8(ascii: "-"),
                       length > longest {
                        longest = length
                        thisTag = q
                    }
                    if thisTag == nil, let dash = range.firstIndex(ofByte: UInt8(ascii: "-")), tag.hasBytePrefix(range[..<dash]) { fiddle = 0.001 }
                }
                if best == nil || (thisTag != nil && thisTag! > best!) { best = thisTag }
                if thisTag == nil && star != nil { matchedOnStar = true }
            }
            if matchedOnStar, let s = star, best == nil || s > best! { best = s }
            quality = best ?? fiddle
        }
        guard quality > 0 ? force.prefer : force.fallback else { return (quality, -1) }
        var index = -1
        for tag in languages {
            if let i = priority.firstIndex(where: { tag.hasBytePrefix($0) }), index == -1 || i < index { index = i }
        }
        // Fallback: a refused variant with a LanguagePriority language stays, just above nothing.
        if quality == 0 { return index >= 0 ? (0.0001, index) : (0, -1) }
        return (quality, index)
    }

    /// A variant's type as mod_negotiation's set_mime_fields splits it: the media type (lower
    /// case) and its `charset` parameter ("" without one).
    static func mediaTypeAndCharset(_ type: String) -> (String, String) {
        let parts = byteSplit(type[...], UInt8(ascii: ";"))
        let media = parts.first.map { $0.trimmingCharacters(in: .whitespaces).asciiLowercased() } ?? ""
        for part in parts.dropFirst() {
            let p = String(part)
            guard let eq = p.firstIndex(ofByte: UInt8(ascii: "=")) else { continue }
            guard p[..<eq].trimmingCharacters(in: .whitespaces).asciiLowercased() == "charset" else { continue }
            var v = String(p[p.utf8.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
            if v.count >= 2, v.hasBytePrefix("\""), v.hasByteSuffix("\"") { v = String(v.dropFirst().dropLast()) }
            return (media, v)
        }
        return (media, "")
    }
}
