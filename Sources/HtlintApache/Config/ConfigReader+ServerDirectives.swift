import HtlintSyntax

/// Server-level settings (`ServerName`, `DocumentRoot`, `AllowOverride`, `TraceEnable`,
/// mod_remoteip, …): allowed in the server configuration only.
extension ConfigReader {
    mutating func serverDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words, info = line.info
        switch info.name {
        case "ServerName":
            guard arity(line, 1...1, "ServerName takes one argument, The hostname and port of the server") else { return }
            if let problem = ConfigReader.serverNameProblem(words[0].value) {
                error(ConfigCode.badArguments, problem, words[0].range); return
            }
            // A later ServerName without a scheme replaces host and port but keeps the scheme an
            // earlier one gave (server_hostname_port sets server_scheme only when one is written).
            var name = words[0].value
            if !name.contains("://"), let old = block.server?.serverName, let r = old.range(of: "://") {
                name = old[..<r.upperBound] + name
            }
            block.server?.serverName = name
            serverNamesRead += 1
        case "ServerAdmin":
            guard arity(line, 1...1, "ServerAdmin takes one argument, The email address of the server administrator") else { return }
            block.server?.serverAdmin = words[0].value
        case "ServerAlias":
            // The main server has no name list: Apache refuses to start (recorded in hunt 38).
            if context == .server, !readingVirtualHost {
                error(ConfigCode.notAllowedHere, "ServerAlias only used in <VirtualHost>", d.nameRange); return
            }
            block.server?.serverAliases += words.map(\.value)
        case "DocumentRoot":
            guard arity(line, 1...1, "DocumentRoot takes one argument") else { return }
            block.server?.documentRoot = words[0].value
        case "UseCanonicalName":
            guard arity(line, 1...1, "UseCanonicalName takes one argument") else { return }
            guard let value = CanonicalName(rawValue: words[0].value.asciiLowercased()) else {
                error(ConfigCode.badArguments, "parameter must be 'on', 'off', or 'dns'", words[0].range); return
            }
            // RSRC_CONF|ACCESS_CONF: a `<Directory>`/`<Location>` may set it for its requests.
            if block.server != nil { block.server?.useCanonicalName = value } else { block.canonicalName = value }
        case "UseCanonicalPhysicalPort":
            guard arity(line, 1...1, "UseCanonicalPhysicalPort takes one argument, Whether to use the physical Port when constructing URLs") else { return }
            // RSRC_CONF|ACCESS_CONF like UseCanonicalName: a section's counts for its requests.
            switch words[0].value.asciiLowercased() {
            case "on": if block.server != nil { block.server?.useCanonicalPhysicalPort = true } else { block.canonicalPhysicalPort = true }
            case "off": if block.server != nil { block.server?.useCanonicalPhysicalPort = false } else { block.canonicalPhysicalPort = false }
            default: error(ConfigCode.badArguments, "parameter must be 'on' or 'off'", words[0].range)
            }
        case "LimitInternalRecursion":
            guard arity(line, 1...2, "LimitInternalRecursion takes 1-2 arguments") else { return }
            // set_recursion_limit reads each number with atoi: `3abc` is 3, `0x5` is 0 (refused)
            // (recorded: recursion-limit-read-with-atoi).
            let n = atoi(words[0].value)
            guard n > 0 else {
                error(ConfigCode.badArguments, "The recursion limit must be greater than zero.", words[0].range); return
            }
            block.server?.limitInternalRecursion = n
            // One number limits both internal redirects and subrequest nesting.
            if words.count == 2 {
                let m = atoi(words[1].value)
                guard m > 0 else {
                    error(ConfigCode.badArguments, "The recursion limit must be greater than zero.", words[1].range); return
                }
                block.server?.limitSubrequestNesting = m
            } else {
                block.server?.limitSubrequestNesting = n
            }
        case "RemoteIPHeader":
            guard arity(line, 1...1, "RemoteIPHeader takes one argument") else { return }
            block.server?.remoteIP.header = words[0].value
        case "RemoteIPInternalProxy", "RemoteIPTrustedProxy":
            guard arity(line, 1...Int.max, "\(info.name) requires at least 1 argument") else { return }
            let isInternal = info.name == "RemoteIPInternalProxy"
            block.server?.remoteIP.proxies += words.map { ($0.value, isInternal) }
        case "AllowEncodedSlashes":
            guard arity(line, 1...1, "AllowEncodedSlashes takes one argument") else { return }
            switch words[0].value.asciiLowercased() {
            case "on": block.server?.encodedSlashes = .decode
            case "off": block.server?.encodedSlashes = .forbid
            case "nodecode": block.server?.encodedSlashes = .keep
            default: error(ConfigCode.badArguments, "AllowEncodedSlashes must be On, Off, or NoDecode", words[0].range)
            }
        case "MergeSlashes":
            guard arity(line, 1...1, "MergeSlashes must be On or Off"), let on = flag(line) else { return }
            block.server?.mergeSlashes = on
        case "HttpProtocolOptions":
            // set_http_protocol_options: one option a word (ITERATE), each case-insensitive.
            var strict = false, unsafe = false
            for w in words {
                switch w.value.asciiLowercased() {
                case "strict": strict = true
                case "unsafe": unsafe = true
                case "allow0.9", "require1.0", "registeredmethods", "lenientmethods": break
                default:
                    error(ConfigCode.badArguments, "HttpProtocolOptions accepts 'Unsafe' or 'Strict' (default), 'RegisteredMethods' or 'LenientMethods' (default), and 'Require1.0' or 'Allow0.9' (default)", w.range)
                    return
                }
                if strict && unsafe {
                    error(ConfigCode.badArguments, "HttpProtocolOptions 'Strict' and 'Unsafe' are mutually exclusive", w.range)
                    return
                }
            }
            if strict || unsafe { block.server?.httpProtocolUnsafe = unsafe }
        case "LimitRequestLine":
            guard let limit = requestLimit(line, usage: "Limit on maximum size of an HTTP request line",
                                           refusal: "must be a non-negative integer") else { return }
            block.server?.limitRequestLine = limit
        case "LimitRequestFieldsize":
            guard let limit = requestLimit(line, usage: "Limit on maximum size of an HTTP request header field",
                                           refusal: "must be a non-negative integer") else { return }
            block.server?.limitRequestFieldSize = limit
        case "LimitRequestFields":
            guard let limit = requestLimit(line, usage: "Limit (0 = unlimited) on max number of header fields in a request message",
                                           refusal: "must be a non-negative integer (0 = no limit)") else { return }
            block.server?.limitRequestFields = limit
        case "TraceEnable":
            guard arity(line, 1...1, "TraceEnable takes one argument, 'on' (default), 'off' or 'extended' to trace request body content") else { return }
            switch words[0].value.asciiLowercased() {
            case "on", "extended": block.server?.traceEnable = true
            case "off": block.server?.traceEnable = false
            default: error(ConfigCode.badArguments, "TraceEnable must be one of 'on', 'off', or 'extended'", words[0].range)
            }
        case "AllowOverride":
            switch AllowedOverrides.parse(words.map(\.value)) {
            case .success(let setting): block.allowOverride = setting
            case .failure(let bad): error(ConfigCode.badArguments, bad.message, d.argumentsRange)
            }
        case "AllowOverrideList":
            let names = words.map { $0.value.asciiLowercased() }
            block.allowOverrideList = names == ["none"] ? [] : Set(names)
        case "AccessFileName":
            guard !words.isEmpty else {
                error(ConfigCode.badArguments, "AccessFileName requires at least one argument", d.argumentsRange); return
            }
            block.server?.accessFileNames = words.map(\.value)
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }
}

extension ConfigReader {
    /// server_hostname_port's refusals (`apache2 -t`): a wildcard name, or a port after the first
    /// `:` (past any `scheme://`) that atoi reads as outside 1–65535 (`host:abc`, `host:`, `a:b:c`;
    /// `host:80x` is port 80).
    static func serverNameProblem(_ arg: String) -> String? {
        if isWildcard(arg) {
            return "Invalid ServerName \"\(arg)\" use ServerAlias to set multiple server names."
        }
        let afterScheme = arg.range(of: "://").map { arg[$0.upperBound...] } ?? arg[...]
        // By bytes: a `:` a combining mark follows is still the delimiter, and the mark ends atoi.
        guard let colon = afterScheme.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let port = atoi(String(decoding: afterScheme.utf8[afterScheme.utf8.index(after: colon)...], as: UTF8.self))
        guard port <= 0 || port >= 65536 else { return nil }
        return "The port number \"\(arg)\" is outside the appropriate range (i.e., 1..65535)."
    }

    /// apr_fnmatch_test: `*` or `?`, or a `[` with a `]` after it (`[::1]` counts too); a backslash
    /// escapes the next byte.
    static func isWildcard(_ s: String) -> Bool {
        var bytes = s.utf8.makeIterator()
        var open = false
        while let c = bytes.next() {
            switch c {
            case UInt8(ascii: "*"), UInt8(ascii: "?"): return true
            case UInt8(ascii: "\\"): if bytes.next() == nil { return false }
            case UInt8(ascii: "["): open = true
            case UInt8(ascii: "]"): if open { return true }
            default: break
            }
        }
        return false
    }

    /// LimitRequestLine, LimitRequestFieldsize, LimitRequestFields: one number read with atoi,
    /// refused below 0. glibc's atoi is (int)strtol: the value saturates at 64 bits and keeps
    /// its low 32 (apache2 -t: 3000000000 and 9223372036854775807 are negative, 5000000000 is
    /// 705032704).
    mutating func requestLimit(_ line: DirectiveLine, usage: String, refusal: String) -> Int? {
        let name = line.info.name
        guard arity(line, 1...1, "\(name) takes one argument, \(usage)") else { return nil }
        let word = line.words[0]
        let limit = Int(Int32(truncatingIfNeeded: atoi64(word.value)))
        guard limit >= 0 else {
            error(ConfigCode.badArguments, "\(name) \"\(word.value)\" \(refusal)", word.range)
            return nil
        }
        return limit
    }
}
