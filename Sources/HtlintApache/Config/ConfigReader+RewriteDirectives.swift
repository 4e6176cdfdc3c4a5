import HtlintRegex
import HtlintSyntax

/// mod_rewrite's directives, checked as its command handlers check them; `RewriteCond`
/// lines wait in `pending` for the `RewriteRule` they belong to.
extension ConfigReader {
    mutating func rewriteDirective(_ line: DirectiveLine, into block: inout ConfigBlock, pending: inout [RewriteCondition],
                                   inSection: String?) {
        let d = line.node, words = line.words
        switch line.info.name {
        case "RewriteEngine":
            guard let on = flag(line) else { return }
            block.rewrite = block.rewrite ?? RewriteSettings()
            block.rewrite!.engine = on
            block.rewrite!.engineRange = d.range
        case "RewriteOptions":
            guard hasFirstArgument(line, "RewriteOptions requires at least one argument") else { return }
            block.rewrite = block.rewrite ?? RewriteSettings()
            let known: Set<String> = ["inherit", "inheritbefore", "inheritdown", "inheritdownbefore", "ignoreinherit",
                                      "allownoslash", "allowanyuri", "mergebase", "ignorecontextinfo",
                                      "legacyprefixdocroot", "unsafeprefixstat"]
            var set = block.rewrite!.options ?? []
            for w in words {
                let v = w.value.asciiLowercased()
                if known.contains(v) { set.insert(v) } else if v.hasBytePrefix("maxredirects=") {
                    warning(ConfigCode.ignored, "RewriteOptions MaxRedirects is no longer supported and is ignored", w.range)
                } else {
                    error(ConfigCode.badArguments, "RewriteOptions: unknown option '\(w.value)'", w.range); return
                }
            }
            block.rewrite!.options = set
        case "RewriteBase":
            guard arity(line, 1...1, "RewriteBase takes one argument, the base URL of the per-directory context") else { return }
            // Apache rejects it only where cmd->path is NULL: a `<Directory>` (even through
            // `<IfModule>`, which is read inline) is a per-directory context.
            let inDirectory = sectionNames.contains { ["directory", "directorymatch"].contains($0.asciiLowercased()) }
            if context == .server && inSection == nil && !inDirectory {
                error(ConfigCode.notAllowedHere, "RewriteBase: only valid in per-directory config files", d.range); return
            }
            let v = words[0].value
            if v.isEmpty { error(ConfigCode.badArguments, "RewriteBase: empty URL not allowed", words[0].range); return }
            if !v.hasBytePrefix("/") { error(ConfigCode.badArguments, "RewriteBase: argument is not a valid URL", words[0].range); return }
            block.rewrite = block.rewrite ?? RewriteSettings()
            block.rewrite!.base = v
            block.rewrite!.baseRange = d.range
        case "RewriteCond":
            block.rewrite = block.rewrite ?? RewriteSettings()
            if let c = rewriteParser.parseCondition(d) { pending.append(c) }
            flushRewriteDiagnostics()
        case "RewriteRule":
            block.rewrite = block.rewrite ?? RewriteSettings()
            if let r = rewriteParser.parseRule(d, conditions: pending) { block.rewrite!.rules.append(r) }
            pending = []
            flushRewriteDiagnostics()
        case "RewriteMap":
            guard arity(line, 2...3, "RewriteMap takes two or three arguments, a mapname and a filename and options") else { return }
            switch RewriteMapDefinition.parse(words[1].value) {
            case .success(let map):
                if case .unsupported(let type) = map.kind {
                    warning(ConfigCode.ignored, "RewriteMap type \(type): is not simulated: lookups give the default", words[1].range)
                }
                if case .random = map.kind {
                    warning(ConfigCode.ignored, "RewriteMap type rnd: picks one of a value's alternatives at random; the simulation takes the first", words[1].range)
                }
                // cmd_rewritemap stats a txt:/rnd: map's file (ServerRoot-relative) when it reads
                // the line: a missing one stops the server (only the site's files are known).
                switch map.kind {
                case .text(let path), .random(let path):
                    let file = Conditionals.absolutePath(path)
                    if knownFileExists(file) == false {
                        error(ConfigCode.badArguments, "RewriteMap: file for map \(words[0].value) not found:\(file)", words[1].range)
                        return
                    }
                default: break
                }
                block.server?.rewriteMaps[words[0].value] = map
            case .failure(let message): error(ConfigCode.badArguments, message.text, words[1].range)
            }
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    private mutating func flushRewriteDiagnostics() {
        diagnostics += rewriteParser.diagnostics
        rewriteParser.diagnostics = []
    }
}
