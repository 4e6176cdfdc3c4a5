import HtlintDiagnostics

extension Origin {
    /// Walks from the document root down to `filename`, reading `.htaccess` at every existing
    /// directory, and stops at the first segment that is a file or missing (apache-semantics §3).
    func directoryWalk(_ filename: String) -> WalkResult {
        let root = site.documentRoot
        guard filename == root || filename.hasPrefix(root + "/") else {
            return WalkResult(filename: filename, pathInfo: "",
                              config: MergedConfig(directoryIndex: site.defaultDirectoryIndex), files: [], fatal: nil)
        }
        let rest = dropLeadingBytes(filename, root.utf8.count)
        let trailingSlash = rest.utf8.count > 1 && rest.utf8.last == UInt8(ascii: "/")
        let segments = rest.split(separator: "/", omittingEmptySubsequences: true)
        var current = root
        var resolved = filename
        var pathInfo = ""
        for (i, seg) in segments.enumerated() {
            let next = current + "/" + seg
            switch site.files.stat(next) {
            case .directory?:
                current = next
                if i == segments.count - 1 { resolved = trailingSlash ? next + "/" : next }
                continue
            case let node:
                resolved = next
                let remaining = segments[(i + 1)...]
                if !remaining.isEmpty {
                    pathInfo = "/" + remaining.joined(separator: "/") + (trailingSlash ? "/" : "")
                } else if trailingSlash {
                    // `/file.txt/` → path info `/`; a missing `/old/` maps to `/old` with `/` too.
                    pathInfo = "/"
                    _ = node
                }
            }
            break
        }
        if segments.isEmpty { resolved = filename }
        let merged = mergedConfiguration(deepest: current)
        return WalkResult(filename: resolved, pathInfo: pathInfo, config: merged.config, files: merged.files,
                          fatal: merged.fatal, fatalDirectory: merged.fatalDirectory)
    }

    /// The configuration merged from the document root down to `deepest` (an existing directory):
    /// the same for every request that reaches it, so it is computed once and cached.
    func mergedConfiguration(deepest: String) -> MergedWalk {
        if let cached = walkCache.get(deepest) { return cached }
        let root = site.documentRoot
        var config = MergedConfig(directoryIndex: site.defaultDirectoryIndex)
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        var files: [ConfigFile] = []
        var fatal: (file: ConfigFile, diagnostic: Diagnostic)? = nil
        var fatalDirectory: String? = nil
        func readLevel(_ dir: String) {
            // <Directory> blocks of the virtual host for this level.
            for (path, block) in site.vhost.block.server?.directories ?? [] {
                let p = SiteFileSystem.normalize(path.replacingOccurrences(of: "${DOCROOT}", with: root))
                if p == dir { config.merge(block, directory: dir + "/", key: "dir:" + dir, defaultEngine: defaultEngine) }
            }
            let key = dir == "/" ? "/" : dir + "/"
            if let file = site.accessConfigs[key] {
                files.append(file)
                if let f = file.fatal, fatal == nil { fatal = (file, f); fatalDirectory = key }
                config.merge(file.block, directory: key, key: file.path, defaultEngine: defaultEngine)
            }
        }
        readLevel(root)
        var current = root
        for seg in dropLeadingBytes(deepest, root.utf8.count).split(separator: "/") {
            current += "/" + seg
            readLevel(current)
        }
        let result = MergedWalk(config: config, files: files, fatal: fatal, fatalDirectory: fatalDirectory)
        walkCache.set(deepest, result)
        return result
    }

    /// Applies `<Files>` and then `<If>` sections found in the walked configuration.
    func applySections(_ walk: inout WalkResult, record: RequestRecord, chain: RequestChain) {
        let base = (walk.filename.hasSuffix("/") ? "" : walk.filename.split(separator: "/").last.map(String.init)) ?? ""
        let defaultEngine = site.vhost.block.rewrite?.engine ?? false
        var blocks: [ConfigBlock] = []
        for file in walk.files { blocks.append(file.block) }
        for block in blocks {
            for files in block.files {
                let hit: Bool
                switch files.matcher {
                case .wildcard(let pattern): hit = wildcardMatch(pattern, base)
                case .regex(let regex): hit = regex.matches(base)
                }
                if hit { walk.config.merge(files.block, directory: "files/", key: "files", defaultEngine: defaultEngine) }
            }
        }
        for block in blocks {
            for chainOfIfs in block.ifChains {
                for branch in chainOfIfs.branches {
                    var captures: [String] = []
                    let env = ExpressionContext(origin: self, record: record, chain: chain)
                    if branch.condition?.evaluate(env, captures: &captures) ?? true {
                        walk.config.merge(branch.block, directory: "*If/", key: "if\(branch.range.start)",
                                          defaultEngine: defaultEngine)
                        break
                    }
                }
            }
        }
    }
}

/// Shell-style wildcard match (`*`, `?`, `[...]`) as `<Files>` uses it.
func wildcardMatch(_ pattern: String, _ text: String) -> Bool {
    let p = Array(pattern.utf8), t = Array(text.utf8)
    func match(_ i: Int, _ j: Int) -> Bool {
        if i == p.count { return j == t.count }
        if p[i] == UInt8(ascii: "*") {
            var k = j
            while true {
                if match(i + 1, k) { return true }
                if k == t.count { return false }
                k += 1
            }
        }
        guard j < t.count else { return false }
        if p[i] == UInt8(ascii: "?") || p[i] == t[j] { return match(i + 1, j + 1) }
        return false
    }
    return match(0, 0)
}
