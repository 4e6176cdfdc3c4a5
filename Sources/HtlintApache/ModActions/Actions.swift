import HtlintRegex
import HtlintSyntax

/// mod_actions' `Action type-or-handler script [virtual]` (FileInfo) and `Script method script`
/// (sections only).
public struct ActionTarget: Sendable, Hashable {
    public var script: String
    public var virtual: Bool
}

extension ConfigReader {
    mutating func actionsDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words
        switch line.info.name {
        case "Action":
            guard arity(line, 2...3, "Action takes 2-3 arguments, a media type or handler name followed by a script name") else { return }
            if words.count == 3, words[2].value.asciiLowercased() != "virtual" {
                error(ConfigCode.badArguments, "Action: second argument must be 'virtual' or omitted", words[2].range)
                return
            }
            block.actions[words[0].value.asciiLowercased()] = ActionTarget(script: words[1].value, virtual: words.count == 3)
        default:   // Script
            guard arity(line, 2...2, "Script takes two arguments, a method followed by a script name") else { return }
            let method = words[0].value == "HEAD" ? "GET" : words[0].value
            guard Origin.registeredMethods.contains(method) else {
                error(ConfigCode.badArguments, "Could not register method '\(words[0].value)' for Script", words[0].range)
                return
            }
            block.methodScripts[method] = words[1].value
        }
    }
}

extension Origin {
    /// action_handler (a handler, HOOK_LAST: a module that handles the name itself comes first):
    /// the request's handler name, else its media type without parameters, names an `Action`,
    /// whose script gets the escaped URI and the query as path info by an internal redirect
    /// (ap_internal_redirect_handler); without `virtual` a missing file is a 404 first. `Script`
    /// scripts answer their method (GET only with a query). (Recorded: fallback-action-handlers.)
    func actionRedirect(_ r: RequestRecord, _ chain: RequestChain) -> PassResult? {
        guard site.modules.contains("actions"), let config = r.config,
              !r.isSubrequest, !config.actions.isEmpty || !config.methodScripts.isEmpty, moduleHandler(r) == nil else { return nil }
        let method = r.method == "HEAD" ? "GET" : r.method
        var script = method == "GET" ? (r.query != nil ? config.methodScripts["GET"] : nil) : config.methodScripts[method]
        // "Check for looping, which can happen if the CGI script isn't".
        if script != nil, chain.redirectDepth >= 2 { return nil }
        let type = r.forcedType ?? r.filename.flatMap { MimeTypes.type(forPath: $0, config: config.mime) }
        let name = r.handler ?? type.map { beforeSemicolonByte($0).trimmingCharacters(in: .whitespaces) }
        if let name, let action = config.actions[name.asciiLowercased()] {
            if !action.virtual, let f = r.filename, site.files.stat(f.hasByteSuffix("/") ? String(f.dropLast()) : f) == nil {
                chain.note(.status, "404: Action \(name) needs an existing file (no `virtual`)")
                return .final(status: 404, location: nil)
            }
            script = action.script
            r.env["HANDLER"] = name
        }
        guard let script else { return nil }
        let url = script + escapePath(r.uri) + (r.query.map { "?" + $0 } ?? "")
        chain.note(.internalRedirect, "Action: the handler hands \(r.uri) to \(script)")
        return .internalRedirect(url)
    }
}
