import HtlintBytes
import HtlintDiagnostics
import HtlintRegex

extension Origin {
    /// Walks from the document root down to `filename`, reading `.htaccess` at every existing
    /// directory, and stops at the first segment that is a file or missing (apache-semantics §3).
    /// `cachedDirectory`: the directory the previous or main request's walk cached (with its
    /// slash), whose existing files directory_walk finds familiar.
    func directoryWalk(_ filename: String, cachedDirectory: String? = nil) -> WalkResult {
        // directory_walk's apr_filepath_merge (no root path) refuses a name that with 4 bytes of
        // slashes and NUL exceeds APR_PATH_MAX (4096): it logs AH00030 at info and returns OK
        // having walked nothing, so r->filename stays whole, no `<Directory>` section or
        // `.htaccess` applies (per_dir_config stays the server's defaults) and the file is not
        // found. core's translate, which merged the URI without its leading slash onto the
        // document root, accepted it (recorded: access-path-max-filename-skips-directory-walk).
        if filename.utf8.count + 4 > 4096, filename.rawByteCount + 4 > 4096 {
            return WalkResult(filename: filename, pathInfo: "", config: .vhostDefaults(site), fatal: nil,
                              sections: vhostSections)
        }
        // directory_walk first canonicalises the name with apr_filepath_merge: a server-context
        // substitution `./b.html` or `/dir/nothing/../x.html` serves the file it names, and
        // `/../a.html` (a filesystem path: `/..` exists) is /a.html, outside the document root
        // (recorded: rewrite-server-dot-segments-merged-slashes).
        let filename = canonicalFilePath(filename)
        let root = site.mountedRoot
        guard filename == root || filename.hasBytePrefix(root + "/") else { return walkOutsideRoot(filename) }
        // One pass over the path's bytes: each directory tried is a prefix of `filename` (a new
        // string only when repeated slashes make it differ), the path info a suffix.
        let rootCount = root.utf8.count
        var bytes = filename
        var nameTooLong: String? = nil
        let (resolved, pathInfo, current, danglingLink) = bytes.withUTF8 { b -> (String, String, String, String?) in
            func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
            func segments(from i: Int) -> [Range<Int>] {
                var out: [Range<Int>] = []
                out.reserveCapacity(8)  // one allocation for a usual depth
                var i = i
                while i < b.count {
                    while i < b.count, b[i] == UInt8(ascii: "/") { i += 1 }
                    var j = i
                    while j < b.count, b[j] != UInt8(ascii: "/") { j += 1 }
                    if j > i { out.append(i..<j) }
                    i = j
                }
                return out
            }
            let n = b.count
            let trailingSlash = n - rootCount > 1 && b[n - 1] == UInt8(ascii: "/")
            let segs = segments(from: rootCount)
            var current = root
            var currentEnd = rootCount  // `current` is `filename`'s first currentEnd bytes while this holds
            var prefixHolds = true
            for (k, seg) in segs.enumerated() {
                let exact = prefixHolds && seg.lowerBound == currentEnd + 1
                let next = exact ? text(0..<seg.upperBound) : current + "/" + text(seg)
                switch site.files.stat(next) {
                case .directory?:
                    current = next
                    currentEnd = seg.upperBound
                    prefixHolds = exact
                    if k == segs.count - 1 { return (trailingSlash ? next + "/" : next, "", current, nil) }
                    continue
                case let node:
                    let dangling: String? = if node == nil, case .symlink? = site.files.lstat(next) { next } else { nil }
                    // lstat of a name over NAME_MAX (255 bytes) fails with ENAMETOOLONG, not ENOENT
                    // (bytes as Apache has them: a Latin-1 byte is one; recorded: rewrite-pattern-latin1-bytes).
                    if node == nil, seg.count > 255, text(seg).rawByteCount > 255 { nameTooLong = next }
                    var info = ""
                    if k + 1 < segs.count {
                        // The rest as written, unless repeated slashes must be merged.
                        let doubled = (seg.upperBound..<(n - 1)).contains { b[$0] == UInt8(ascii: "/") && b[$0 + 1] == UInt8(ascii: "/") }
                        info = doubled ? "/" + segs[(k + 1)...].map(text).joined(separator: "/") + (trailingSlash ? "/" : "")
                            : text(seg.upperBound..<n)
                    } else if trailingSlash {
                        // `/file.txt/` → path info `/`; a missing `/old/` maps to `/old` with `/` too.
                        info = "/"
                    }
                    return (next, info, current, dangling)
                }
            }
            return (filename, "", current, nil)
        }
        var merged = mergedConfiguration(deepest: current)
        // directory_walk stats the whole name first; for an existing file, under FollowSymLinks
        // without SymLinksIfOwnerMatch, it skips the lstat of every segment and takes each for a
        // directory, the file's own name too: a `<Directory>` naming the file applies to it
        // (recorded: section-directory-naming-a-file), and so does a wildcard one covering it,
        // `<Directory /var/www/html/*>` for /var/www/html/t.html. Not for a file of the
        // directory the walk cache holds (a DirectoryIndex look-up of /index.html, an internal
        // redirect to a file beside the last one): the walk reuses the cached directory's
        // (recorded: section-directory-wildcard-covers-file).
        if pathInfo.isEmpty, resolved != current, !(cachedDirectory.map { sameBytes($0, current + "/") } ?? false),
           case .file? = site.files.stat(resolved),
           merged.config.options.contains("followsymlinks"), !merged.config.options.contains("symlinksifownermatch"),
           site.vhost.block.server?.directories.contains(where: { Site.directorySection(directorySectionPath($0.0), covers: resolved) }) == true {
            merged = mergedConfiguration(deepest: resolved)
        }
        var result = WalkResult(filename: resolved, pathInfo: pathInfo, config: merged.config,
                                fatal: merged.fatal, fatalDirectory: merged.fatalDirectory, danglingLink: danglingLink,
                                sections: merged.sections)
        result.nameTooLong = nameTooLong
        return result
    }

    /// A filename outside the document root (an `Alias` target). Its filesystem is not the
    /// site's: the walk assumes a stock Debian system, where the standard directories and the
    /// document root's parents exist and nothing else does, so the first other segment ends the
    /// walk and the rest is path info (`Alias /x /opt/app` maps /x/a to `/opt/app` + `/a`, as
    /// Apache answers for a target that is not there). No `.htaccess` is read; the `<Directory>`
    /// sections covering the name merge, shortest path first, as in Apache's section walk.
    func walkOutsideRoot(_ path: String) -> WalkResult {
        let segments = pathSegments(path)
        var filename = path, pathInfo = "", isDirectory = true
        var current = ""
        for (k, seg) in segments.enumerated() {
            current += "/" + seg
            if Origin.systemDirectories.contains(current) || site.mountedRoot.hasBytePrefix(current + "/") { continue }
            filename = current
            pathInfo = k + 1 < segments.count || path.hasByteSuffix("/")
                ? "/" + segments[(k + 1)...].joined(separator: "/") + (k + 1 < segments.count && path.hasByteSuffix("/") ? "/" : "")
                : ""
            isDirectory = false
            break
        }
        var config = MergedConfig.vhostDefaults(site)
        // Outside the document root only the server's `<Directory />` applies, not its
        // document-root section: another per-directory configuration, so a subrequest or internal
        // redirect from a page of the site that lands here is checked again (a DirectoryIndex
        // look-up rewritten to `/etc` is 403, not the main request's pass).
        config.objectKeys.append("server-dir:/")
        var sections = vhostSections
        let directories = site.vhost.block.server?.directories ?? []
        if !directories.isEmpty {
            let defaultEngine = site.vhost.block.rewrite?.engine ?? false
            // Apache orders the sections by their number of components, then as written.
            let covering = directories.enumerated().compactMap { (i, entry) -> (Int, Int, String, String, ConfigBlock)? in
                let p = directorySectionPath(entry.0)
                let dir = p == "/" ? "/" : p + "/"
                let depth = dir.utf8.count { $0 == UInt8(ascii: "/") }
                // A path with wildcards is matched with apr_fnmatch against the walked directory of
                // its depth, as inside the document root (recorded: alias-outside-docroot-wildcard-directory).
                if ConfigReader.isWildcard(p) {
                    guard let walked = walkedDirectory(filename, isDirectory: isDirectory, depth: depth),
                          wildcardMatch(dir, walked, pathname: true) else { return nil }
                    return (depth, i, walked, byteDistinctKey("dir#\(i):" + dropTrailingBytes(walked, 1)), entry.1)
                }
                // A missing name is no directory: `<Directory /opt/app>` does not cover a missing /opt/app.
                guard filename.hasBytePrefix(dir) || (isDirectory && sameBytes(filename, p)) else { return nil }
                return (depth, i, dir, byteDistinctKey("dir:" + p), entry.1)
            }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            for (_, i, dir, key, block) in covering {
                config.merge(block, directory: dir, key: key, defaultEngine: defaultEngine)
                if !block.files.isEmpty || !block.ifChains.isEmpty { sections.append(SectionSource(key: "dir#\(i)", block: block)) }
            }
        }
        return WalkResult(filename: filename, pathInfo: pathInfo, config: config, fatal: nil, sections: sections)
    }

    /// The directory directory_walk enters with `depth` slashes (its trailing one counted) on the
    /// way to `filename`: a proper prefix ending in a slash, or `filename` itself when it is a
    /// directory; nil when the walk stops before that depth.
    func walkedDirectory(_ filename: String, isDirectory: Bool, depth: Int) -> String? {
        var slashes = 0
        for i in filename.utf8.indices where filename.utf8[i] == UInt8(ascii: "/") {
            slashes += 1
            if slashes == depth { return String(bytesThrough(filename, i)) }
        }
        return isDirectory && slashes + 1 == depth && !filename.hasByteSuffix("/") ? filename + "/" : nil
    }

    /// The server's section for the document root (the set-up every site is read with).
    static let documentRootSection: ConfigBlock = ConfigReader.read(
        SourceFile(path: "document-root-section", text: "Options FollowSymLinks\nRequire all granted\n"), context: .htaccess).block

    /// The directory a `<Directory>` section names, `${DOCROOT}` resolved, normalised.
    func directorySectionPath(_ written: String) -> String {
        SiteFileSystem.normalize(written.replacingOccurrences(of: "${DOCROOT}", with: site.mountedRoot))
    }

    /// A directory of the site, or a standard one outside the document root (an `Alias` target).
    /// `isDirectory(path)`, remembered on the record for its next question (each is a hashed
    /// look-up in the site's tree; a pass asked two or three times about its file name).
    func isDirectory(_ path: String, for r: RequestRecord) -> Bool {
        if let last = r.lastDirectoryTest, sameBytes(last.path, path) { return last.isDirectory }
        let answer = isDirectory(path)
        r.lastDirectoryTest = (path, answer)
        return answer
    }

    func isDirectory(_ path: String) -> Bool {
        if site.files.isDirectory(path) { return true }
        // Inside the root the site's tree is the whole truth (checked without building strings:
        // this runs on every pass).
        let root = site.mountedRoot
        if path.hasBytePrefix(root) {
            let next = path.utf8.dropFirst(root.utf8.count).first
            if next == nil || next == UInt8(ascii: "/") { return false }
        }
        guard path.utf8.first == UInt8(ascii: "/") else { return false }
        let name = path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") ? dropTrailingBytes(path, 1) : path
        // `/` itself (a server-context result `//`; recorded: rewrite-server-filesystem-root-directory-slash).
        return name == "/" || Origin.systemDirectories.contains(name) || root.hasBytePrefix(name + "/")
    }

    /// Directories every Debian system with Apache has (the Filesystem Hierarchy Standard's).
    static let systemDirectories: Set<String> = [
        "/bin", "/boot", "/dev", "/etc", "/etc/apache2", "/home", "/lib", "/media", "/mnt", "/opt",
        "/proc", "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/usr/bin", "/usr/lib",
        "/usr/lib/cgi-bin", "/usr/local", "/usr/sbin", "/usr/share", "/usr/share/doc", "/var",
        "/var/cache", "/var/lib", "/var/log", "/var/tmp", "/var/www",
    ]

    /// The virtual host's own `<Files>`/`<If>` sections: they come first in Apache's merged lists.
    var vhostSections: [SectionSource] {
        // Tested in place: binding the block first would copy all of it on every walk.
        guard !site.vhost.block.files.isEmpty || !site.vhost.block.ifChains.isEmpty else { return [] }
        return [SectionSource(key: "vhost", block: site.vhost.block)]
    }

    /// The configuration merged from the document root down to `deepest` (an existing directory):
    /// the same for every request that reaches it, so it is computed once and cached.
    func mergedConfiguration(deepest: String) -> MergedWalk {
        // Keyed by bytes: `café` precomposed and with a combining accent are two directories
        // (recorded: nested-htaccess-directory-names-in-both-normal-forms).
        let cacheKey = byteDistinctKey(deepest)
        if let cached = walkCache.get(cacheKey) { return cached }
        let root = site.mountedRoot
        var config = MergedConfig.vhostDefaults(site)
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        var fatal: FatalConfig? = nil
        var fatalDirectory: String? = nil
        var sections = vhostSections
        func readLevel(_ dir: String) {
            // <Directory> blocks of the virtual host for this level.
            for (i, (path, block)) in (site.vhost.block.server?.directories ?? []).enumerated() {
                let p = directorySectionPath(path)
                // Each directory entered, in configuration order (wildcard paths with the exact
                // ones of their depth).
                guard Site.directorySection(p, covers: dir) else { continue }
                // A wildcard section is its own object in every directory it covers.
                let key = ConfigReader.isWildcard(p) ? byteDistinctKey("dir#\(i):" + dir) : byteDistinctKey("dir:" + dir)
                config.merge(block, directory: dir + "/", key: key, defaultEngine: defaultEngine)
                if !block.files.isEmpty || !block.ifChains.isEmpty { sections.append(SectionSource(key: "dir#\(i)", block: block)) }
            }
            let key = dir == "/" ? "/" : dir + "/"
            // Apache stops at an access file it cannot open, before any it could read there.
            if fatal == nil, let path = site.unopenableAccessFile(in: key),
               Site.allowedOverrides(forDirectory: dir, documentRoot: root, vhost: site.vhost.block).readsFiles {
                let diagnostic = Diagnostic(code: "AH00529", severity: .error, message: "not a regular file Apache can open",
                                            range: .point(path, 0))
                fatal = FatalConfig(file: ConfigFile(path: path, block: ConfigBlock(), diagnostics: []), diagnostic: diagnostic,
                                    unopenable: true)
                fatalDirectory = key
                return
            }
            // A directory reached through a symbolic link: its `.htaccess` is the target's file,
            // read only where the path walked allows it (AllowOverride is by that path).
            if let file = site.accessConfigsByBytes[PathKey(key)]
                ?? site.files.resolve(dir).flatMap({ target in
                    sameBytes(target, dir) || !Site.allowedOverrides(forDirectory: dir, documentRoot: root, vhost: site.vhost.block).readsFiles
                        ? nil : site.accessConfigsByBytes[PathKey(target + "/")]
                }) {
                // ap_parse_htaccess caches a file by the directory walked: read through a link it
                // is another configuration object (an ErrorDocument page there is checked again;
                // recorded: errordoc-symlinked-htaccess-distinct-object).
                // By bytes: two directories named café, precomposed or not, are two objects, with
                // their own compiled rules (recorded: nested-htaccess-directory-names-in-both-normal-forms).
                let objectKey = byteDistinctKey(file.path.hasBytePrefix(key) ? file.path : key + file.path)
                if !file.block.files.isEmpty || !file.block.ifChains.isEmpty {
                    sections.append(SectionSource(key: objectKey, block: file.block))
                }
                if let f = file.fatal, fatal == nil { fatal = FatalConfig(file: file, diagnostic: f); fatalDirectory = key }
                config.merge(file.block, directory: key, key: objectKey, defaultEngine: defaultEngine)
            }
        }
        // The document root's parents come first in Apache's walk: a `<Directory />` or
        // `<Directory "/v*">` of the virtual host applies below them too, and the server's own
        // document-root section then sets Options and Require again
        // (recorded: section-directory-above-document-root).
        var parents = ["/"], prefix = ""
        for seg in pathSegments(root).dropLast() {
            prefix += "/" + seg
            parents.append(prefix)
        }
        var parentMatched = false
        for parent in parents {
            let dir = parent == "/" ? "/" : parent + "/"
            for (i, (path, block)) in (site.vhost.block.server?.directories ?? []).enumerated() {
                let p = directorySectionPath(path)
                guard Site.directorySection(p, covers: parent) else { continue }
                let key = ConfigReader.isWildcard(p) ? byteDistinctKey("dir#\(i):" + parent) : byteDistinctKey("dir:" + parent)
                config.merge(block, directory: dir, key: key, defaultEngine: defaultEngine)
                if !block.files.isEmpty || !block.ifChains.isEmpty { sections.append(SectionSource(key: "dir#\(i)", block: block)) }
                parentMatched = true
            }
        }
        if parentMatched {
            config.merge(Origin.documentRootSection, directory: root + "/", key: "server-dir:" + root, defaultEngine: defaultEngine)
        }
        readLevel(root)
        var current = root
        for seg in pathSegments(dropLeadingBytes(deepest, root.utf8.count)) {
            current += "/" + seg
            readLevel(current)
        }
        config.mergeRewriteOntoVhost(options: site.vhost.block.rewrite?.options)
        let result = MergedWalk(config: config, fatal: fatal, fatalDirectory: fatalDirectory,
                                sections: sections)
        walkCache.set(cacheKey, result)
        return result
    }

    /// Merges `<Files>`, then the virtual host's `<Location>`, then `<If>` sections over the
    /// directory walk: Apache's order (core docs, "How the sections are merged").
    /// `matchEnvironment: false` when directory_walk reused its cache (no regex was run).
    /// `variantOf`: the walk is a MultiViews variant's look-up of `record`'s own directory, and
    /// these are the top-level `<If>` matches of `record`'s walk (its cache).
    /// `fileWalk: false`: there is no filename, so directory_walk and file_walk returned at once
    /// (no `<DirectoryMatch>`, no `<Files>`).
    func applySections(_ walk: inout WalkResult, record: RequestRecord, chain: RequestChain,
                       regexSubject: String? = nil, matchEnvironment: Bool = true, serverHtFiles: Bool = false,
                       variantOf mainIfMatches: [String]? = nil, fileWalk: Bool = true) {
        let locations = matchingLocations(record.uri)
        setLocationMatchEnvironment(locations, record)
        let directoryMatches = fileWalk ? site.vhost.block.server?.directoryMatches ?? [] : []
        // Most sites have none: skip the work.
        guard !walk.sections.isEmpty || !locations.isEmpty || !directoryMatches.isEmpty || serverHtFiles else { return }
        let base = walk.filename.utf8.last == UInt8(ascii: "/") ? "" : String(lastPathComponent(walk.filename))
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        // <DirectoryMatch>: after the walk's sections and .htaccess files, before <Files>. They
        // are part of ap_directory_walk's own merge, which only then goes onto the virtual host:
        // mod_rewrite's part is merged before the vhost's RewriteOptions apply (recorded:
        // section-directorymatch-merged-before-vhost-inheritdown).
        var reopened = false
        for (k, section) in directoryMatches.enumerated() {
            guard case .regex(let regex) = section.matcher, regex.matches(regexSubject ?? walk.filename) else { continue }
            if matchEnvironment { setMatchEnvironment(regex, walk.filename, record) }
            if section.block.rewrite != nil, !reopened {
                walk.config.reopenWalkRewrite()
                reopened = true
            }
            walk.config.merge(section.block, directory: rewriteDirectory(section.matcher), key: "dirmatch#\(k)", defaultEngine: defaultEngine)
            if !section.block.files.isEmpty || !section.block.ifChains.isEmpty {
                walk.sections.append(SectionSource(key: "dirmatch#\(k)", block: section.block))
            }
        }
        if reopened { walk.config.mergeRewriteOntoVhost(options: site.vhost.block.rewrite?.options) }
        // The keys name the section (file and position): compiled rule sets are cached by key,
        // so two different sections must never share one.
        // <If> sections inside a matching <Files> join the if walk after the directories' ones
        // (core's merge appends the sections' sec_if lists).
        var filesIfBlocks: [ConfigBlock] = []
        // file_walk starts with the server's own <Files> sections (Debian's `^\.ht` denial).
        var filesMatched: [WalkMatch] = serverHtFiles ? [(Origin.serverHtFiles, "files/", "server-files:^.ht")] : []
        // The same name tested against the same sections as the previous request's walk (an
        // internal redirect from /about.html to /wp/about.html) reuses that walk's result, running
        // no regex: no `MATCH_` variables (recorded: section-filesmatch-env-not-set-again-after-redirect).
        // An `.htaccess` merged on one walk and not the other makes it new, even one without
        // `<Files>` (recorded there too); a `<Directory>` section without them does not.
        // (Only walks that test <Files> sections have a cache; most have none and skip the work.)
        var familiar = false
        let filesSections = walk.sections.filter { !$0.block.files.isEmpty }.map(\.key)
        if fileWalk, !filesSections.isEmpty {
            let tested = filesSections + walk.config.objectKeys.filter { $0.hasBytePrefix("/") }
            // strcmp of the names (recorded: section-filesmatch-walk-new-for-other-normal-form).
            familiar = record.fileWalkCache.map { sameBytes($0.base, base) && $0.sections == tested } == true
            // (A variant's look-up keeps its own cache: the fast redirect does not bring it along.)
            if mainIfMatches == nil { record.fileWalkCache = (tested, base) }
        }
        for source in walk.sections where fileWalk {
            for (k, files) in source.block.files.enumerated() {
                let hit: Bool
                switch files.matcher {
                case .wildcard(let pattern): hit = wildcardMatch(pattern, base)
                case .literal(let name): hit = name.utf8.elementsEqual(base.utf8)
                case .regex(let regex):
                    hit = regex.matches(base)
                    if hit, !familiar { setMatchEnvironment(regex, base, record) }
                }
                if hit {
                    filesMatched.append((files.block, filesRewriteDirectory(files.matcher), "files:\(source.key)#\(k)"))
                    if !files.block.ifChains.isEmpty { filesIfBlocks.append(files.block) }
                }
            }
        }
        mergeWalkMatches(filesMatched, into: &walk.config, defaultEngine: defaultEngine)
        for (k, _) in locations {
            chain.note(.note, "<Location> #\(k + 1) applies to \(record.uri)")
        }
        mergeWalkMatches(locations.map { ($0.1.block, rewriteDirectory($0.1.matcher), "loc#\($0.0)") },
                         into: &walk.config, defaultEngine: defaultEngine)
        applyIfChains(walk.sections.map(\.block) + filesIfBlocks + locations.map(\.1.block), to: &walk.config, record: record, chain: chain,
                      topLevelWalk: true, variantOf: mainIfMatches)
    }

    /// The first true branch of every `<If>` chain in `blocks` merges over `config`; the
    /// `<If>` sections nested in the true branches are evaluated after all of this level's
    /// chains (ap_if_walk_sub merges every match of a level, then recurses on the merged
    /// sections' lists), except in a subrequest for the parent's own directory (a
    /// DirectoryIndex look-up) whose top-level matches are the parent's: it inherits the
    /// parent's if-walk cache, finds the level in it and returns before recursing, so nested
    /// sections are skipped. Other matches fall out of sync with the cache and recurse (an
    /// outer `-f %{REQUEST_FILENAME}` false for the directory, true for its index: recorded
    /// nested-if-in-index-lookup-not-cached).
    func applyIfChains(_ blocks: [ConfigBlock], to config: inout MergedConfig, record: RequestRecord, chain: RequestChain,
                       topLevelWalk: Bool = false, variantOf mainIfMatches: [String]? = nil) {
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        var matched: [ConfigBlock] = []
        var level: [WalkMatch] = []
        for block in blocks {
            for chainOfIfs in block.ifChains {
                for branch in chainOfIfs.branches {
                    var captures: [String] = []
                    var env = ExpressionContext(origin: self, record: record, chain: chain)
                    env.addsVary = true
                    if branch.condition?.evaluate(env, captures: &captures) ?? true {
                        level.append((branch.block, "*If/", "if:\(branch.range.file):\(branch.range.start)"))
                        if !branch.block.ifChains.isEmpty { matched.append(branch.block) }
                        break
                    }
                }
            }
        }
        // The cache is used only when the configuration the walk starts from is the parent's
        // too (no <Files> matched the index's name alone: recorded
        // nested-if-in-index-lookup-other-files-section) and the top-level matches are its.
        let keys = config.objectKeys + ["<If>"] + level.map(\.key)
        mergeWalkMatches(level, into: &config, defaultEngine: defaultEngine)
        if topLevelWalk, mainIfMatches == nil { record.ifMatches = keys }
        // An internal redirect (an ErrorDocument page, a rewrite) inherits r->prev's cache the
        // same way: the same configuration and top-level matches skip the nested sections
        // (recorded: section-nested-if-skipped-after-internal-redirect). So does a MultiViews
        // variant's look-up, which the fast redirect then adopts (recorded:
        // negotiation-variant-skips-nested-if).
        let cached: Bool
        if !topLevelWalk {
            cached = false
        } else if let mainIfMatches {
            cached = mainIfMatches == keys
        } else if record.isSubrequest {
            cached = record.mainIfMatches == keys && record.mainURI.map { directoryPart($0).utf8.elementsEqual(directoryPart(record.uri).utf8) } == true
        } else {
            cached = record.previousIfMatches == keys
        }
        if !matched.isEmpty, !cached {
            applyIfChains(matched, to: &config, record: record, chain: chain)
        }
    }

    /// core's section walks put a matching regex section's named groups into the environment,
    /// as `MATCH_` and the name in upper case, from the string the walk matched (r->uri, r->filename
    /// or its last component), in group order; a group that took no part sets nothing.
    func setMatchEnvironment(_ regex: Regex, _ subject: String, _ r: RequestRecord) {
        guard !regex.namedGroups.isEmpty, let m = regex.firstMatch(in: subject) else { return }
        for (group, name) in regex.namedGroups {
            guard group < m.captureBytes.count, m.captureBytes[group] != nil else { continue }
            r.setEnvValue("MATCH_" + name.asciiUppercased(), m[group])
        }
    }

    private func setLocationMatchEnvironment(_ locations: [(Int, LocationBlock)], _ r: RequestRecord) {
        for (_, location) in locations {
            if case .regex(let regex) = location.matcher { setMatchEnvironment(regex, r.uri, r) }
        }
    }

    typealias WalkMatch = (block: ConfigBlock, directory: String, key: String)

    /// Merges the objects one walk matched, in order: mod_rewrite's part as the walk does it
    /// (the matches merged among themselves, then onto the request's configuration, so a later
    /// match's `RewriteOptions Inherit` inherits the rules the request had before the walk; recorded:
    /// nested-if-sections-merge-among-themselves-first), the rest in turn (the same either way).
    func mergeWalkMatches(_ matches: [WalkMatch], into config: inout MergedConfig, defaultEngine: Bool) {
        var group: RewriteOverride? = nil
        config.endWalk()
        defer { config.endWalk() }
        for m in matches {
            var rest = m.block
            if let rw = rest.rewrite {
                let o = RewriteOverride(rw, directory: m.directory, key: m.key)
                group = group.map { $0.then(o) } ?? o
                rest.rewrite = nil
            }
            config.merge(rest, directory: m.directory, key: m.key, defaultEngine: defaultEngine)
        }
        if let group { config.mergeRewrite(group, defaultEngine: defaultEngine) }
    }

    private func directoryPart(_ path: String) -> Substring {
        guard let slash = path.lastIndex(ofByte: UInt8(ascii: "/")) else { return "" }
        return bytesThrough(path, slash)
    }

    /// mod_rewrite's per-directory prefix for rules in a `<Location>`, `<LocationMatch>` or
    /// `<DirectoryMatch>`: the section's argument with a slash (config_perdir_create takes
    /// cmd->path). It is no prefix of the file path, so patterns see the whole path, and a
    /// relative substitution starts with it (`^/lm/x`: 400, not a path). Recorded:
    /// fixtures/apache/vhost-rewrite-in-location-sections.
    private func rewriteDirectory(_ matcher: LocationBlock.Matcher) -> String {
        let text = matcher.text
        return text.hasByteSuffix("/") ? text : text + "/"
    }

    /// The virtual host's `<Location>`/`<LocationMatch>` blocks that match a URL-path, in order.
    func matchingLocations(_ uri: String) -> [(Int, LocationBlock)] {
        guard let all = site.vhost.block.server?.locations, !all.isEmpty else { return [] }
        return all.enumerated().filter { locationMatches($0.element.matcher, uri) }
    }

    /// The configuration Apache's location and if walks give before translate_name: the
    /// virtual host's `<Location>` blocks and `<If>` sections over the server defaults.
    func preTranslateConfig(_ r: RequestRecord, _ chain: RequestChain) -> MergedConfig? {
        let locations = matchingLocations(r.uri)
        setLocationMatchEnvironment(locations, r)
        let ifBlocks = (site.vhost.block.ifChains.isEmpty ? [] : [site.vhost.block]) + locations.map(\.1.block)
        guard !ifBlocks.isEmpty else { return nil }
        var config = MergedConfig.vhostDefaults(site)
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        mergeWalkMatches(locations.map { ($0.1.block, rewriteDirectory($0.1.matcher), "loc#\($0.0)") },
                         into: &config, defaultEngine: defaultEngine)
        applyIfChains(ifBlocks, to: &config, record: r, chain: chain)
        return config
    }
}

/// mod_rewrite's per-directory prefix for rules in a `<Files>`/`<FilesMatch>` section: the
/// section's path (the pattern as written) plus a slash, so a relative substitution gets it
/// (fixtures/apache/section-files-rewrite-directory-is-the-pattern).
func filesRewriteDirectory(_ matcher: FilesBlock.Matcher) -> String {
    let path: String
    switch matcher {
    case .wildcard(let pattern), .literal(let pattern): path = pattern
    case .regex(let regex): path = regex.pattern
    }
    return path.hasByteSuffix("/") ? path : path + "/"
}

/// Whether a `<Location>` applies to `uri`. A plain path is a prefix that must end at a segment
/// boundary unless it ends in `/` (`/old` covers `/old` and `/old/x`, not `/oldish`; apache 2.4
/// location_walk); wildcards are fnmatch with `*` not crossing `/`; regexes search.
func locationMatches(_ matcher: LocationBlock.Matcher, _ uri: String) -> Bool {
    switch matcher {
    case .regex(let regex): return regex.matches(uri)
    case .wildcard(let pattern): return wildcardMatch(pattern, uri, pathname: true)
    case .prefix(let path): return prefixMatch(path, uri) != nil
    }
}

/// Shell-style wildcard match (`*`, `?`, `[...]` with `!`/`^` and ranges, `\` escapes) as
/// `<Files>` uses it (apr_fnmatch). Iterative with one backtrack point per `*`, so the work is
/// at most pattern × name bytes: `*a*a*a…b` cannot make it exponential (issue 9).
/// `caseless` is APR_FNM_CASE_BLIND (ap_expr `-strcmatch`); with `pathname` (APR_FNM_PATHNAME,
/// `-fnmatch`) only a literal `/` matches `/`.
func wildcardMatch(_ pattern: String, _ text: String, caseless: Bool = false, pathname: Bool = false) -> Bool {
    let fold: (UInt8) -> UInt8 = { caseless && $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    // Bytes: `?` is one byte, also one that is not UTF-8 (recorded: conditional-expr-strmatch-bytes).
    let p = pattern.rawBytes.map(fold), t = text.rawBytes.map(fold)
    let slash = UInt8(ascii: "/")
    var i = 0, j = 0
    var star = -1, starText = 0
    /// Matches one pattern element at `i` against `c`; returns the index after the element.
    func single(_ i: Int, _ c: UInt8) -> (Bool, Int) {
        if pathname, c == slash, p[i] != slash, p[i] != UInt8(ascii: "\\") { return (false, i + 1) }
        switch p[i] {
        case UInt8(ascii: "?"): return (true, i + 1)
        case UInt8(ascii: "\\") where i + 1 < p.count: return (p[i + 1] == c, i + 2)
        case UInt8(ascii: "["):
            var k = i + 1
            let negated = k < p.count && (p[k] == UInt8(ascii: "!") || p[k] == UInt8(ascii: "^"))
            if negated { k += 1 }
            var hit = false
            var first = true
            while k < p.count, first || p[k] != UInt8(ascii: "]") {
                first = false
                // APR_FNM_PATHNAME: a bracket that would hold a `/` is no bracket; `[` is literal.
                if pathname, p[k] == slash { return (c == UInt8(ascii: "["), i + 1) }
                var lo = p[k]
                if lo == UInt8(ascii: "\\"), k + 1 < p.count { k += 1; lo = p[k] }
                var hi = lo
                if k + 2 < p.count, p[k + 1] == UInt8(ascii: "-"), p[k + 2] != UInt8(ascii: "]") {
                    hi = p[k + 2]
                    k += 2
                }
                if lo <= c && c <= hi { hit = true }
                k += 1
            }
            // An unclosed `[` is a literal `[`.
            guard k < p.count else { return (c == UInt8(ascii: "["), i + 1) }
            return (hit != negated, k + 1)
        default: return (p[i] == c, i + 1)
        }
    }
    while j < t.count {
        if i < p.count, p[i] == UInt8(ascii: "*") {
            star = i
            starText = j
            i += 1
            continue
        }
        if i < p.count {
            let (ok, next) = single(i, t[j])
            if ok {
                i = next
                j += 1
                continue
            }
        }
        // Mismatch: let the last `*` swallow one more byte, or fail. Under `pathname` a `*`
        // never crosses `/`, and no earlier `*` could either, so that is a failure too.
        guard star >= 0, !(pathname && t[starText] == slash) else { return false }
        starText += 1
        j = starText
        i = star + 1
    }
    while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
    return i == p.count
}
