import HtlintRegex
import HtlintSyntax

/// core's per-directory directives (`Options`, `ErrorDocument`, `ForceType`, `Define`, …).
extension ConfigReader {
    /// set_error_document's REMOTE_PATH: no blank, not a local path, and ap_is_url (a scheme
    /// of letters, digits, `+`, `-`, `.` before a `:`).
    public static func isFullURL(_ value: String) -> Bool {
        guard !value.containsByte(UInt8(ascii: " ")), !value.hasBytePrefix("/"), let colon = value.firstIndex(ofByte: UInt8(ascii: ":")),
              colon != value.startIndex else { return false }
        return value[..<colon].utf8.allSatisfy { c in
            (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x2B || c == 0x2D || c == 0x2E
        }
    }

    mutating func coreDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words
        switch line.info.name {
        case "Error":
            // generate_message: the raw line, less one pair of surrounding quotes, is the error
            // (recorded: `.htaccess: boom` with 500; the server refuses to start).
            var message = Substring(d.rawArguments)
            if let q = message.first, q == "\"" || q == "'" {
                if message.count > 1, message.last == q { message.removeLast() }
                message.removeFirst()
            }
            error(ConfigCode.errorDirective, d.rawArguments.isEmpty ? "The Error directive was used with no message." : String(message),
                  d.nameRange)
        case "Options":
            if let o = parseOptions(d, words) { block.options.append(o) }
        case "DefaultType":
            // Deprecated and ignored, but still one argument.
            guard arity(line, 1...1, "DefaultType takes one argument, the default media type for otherwise untyped files (DEPRECATED)") else { return }
        case "ForceType":
            guard arity(line, 1...1, "ForceType takes one argument, a mime type that overrides other configured type") else { return }
            block.editMime { $0.forceType = words[0].value.asciiLowercased() }
        case "AddDefaultCharset":
            guard arity(line, 1...1, "AddDefaultCharset takes one argument, The name of the default charset to add to any Content-Type without one or 'Off' to disable") else { return }
            let value = words[0].value
            block.editMime { $0.defaultCharset = ["off": "off", "on": "iso-8859-1"][value.asciiLowercased()] ?? value }
        case "SetHandler":
            guard arity(line, 1...1, "SetHandler takes one argument, a handler name that overrides any other configured handler") else { return }
            block.editMime { $0.setHandler = words[0].value.asciiLowercased() }
        case "ErrorDocument":
            guard arity(line, 2...2, "ErrorDocument takes two arguments, Change responses for HTTP errors") else { return }
            // Any status with a line in httpd's table, 3xx and 2xx too (ap_index_of_response),
            // read with atoi: `404x`, `+404` and `404.0` are 404, `4o4` is 4 (refused).
            let code = atoi(words[0].value)
            guard StatusLines.known(code) else {
                error(ConfigCode.badArguments, "Unsupported HTTP response code \(words[0].value)", words[0].range); return
            }
            // core ignores a full URL for 401 (AH00113: the client would never see the
            // challenge); an earlier or inherited ErrorDocument 401 stays (recorded:
            // errordoc-401-full-url-ignored).
            if code == 401, ConfigReader.isFullURL(words[1].value) { return }
            block.errorDocuments[code] = words[1].value
            block.errorDocumentExpressions[code] = nil
            block.errorDocumentRanges[code] = d.range
            // Every value is an ap_expr string (set_error_document): besides `%{…}`, backslash
            // escapes are read (`\y` is `y`, `\t` a tab) and `$1` is empty; other text is used as it is.
            if ApExpression.stringHasSyntax(words[1].value) {
                do {
                    block.errorDocumentExpressions[code] = try ApExpression.parsingString(words[1].value, restricted: context == .htaccess)
                } catch {
                    self.error(ConfigCode.badExpression, "Cannot parse expression in ErrorDocument: \(error.message)", words[1].range)
                    return
                }
            }
        case "ServerSignature":
            // TAKE1: `ServerSignature Off # c` is refused.
            guard arity(line, 1...1, "ServerSignature takes one argument, En-/disable server signature (on|off|email)") else { return }
            if !["on", "off", "email"].contains(words[0].value.asciiLowercased()) {
                error(ConfigCode.badArguments, "ServerSignature: use one of: off | on | email", words[0].range)
            }
        case "FileETag":
            // set_etag_bits: every word is a keyword (`FileETag None # c` is refused), None and
            // All unsigned.
            for w in words {
                var token = Substring(w.value)
                let signed = token.first == "+" || token.first == "-"
                if signed { token = token.dropFirst() }
                switch token.asciiLowercased() {
                case "none", "all":
                    if signed { error(ConfigCode.badArguments, "FileETag keyword '\(token)' cannot be used with '+' or '-'", w.range); return }
                case "size", "lmtime", "mtime", "lastmodified", "inode", "digest":
                    break
                default:
                    error(ConfigCode.badArguments, "Unknown keyword '\(token)' for FileETag directive", w.range); return
                }
            }
        case "AcceptPathInfo":
            guard arity(line, 1...1, "AcceptPathInfo takes one argument") else { return }
            switch words[0].value.asciiLowercased() {
            case "on": block.acceptPathInfo = true
            case "off": block.acceptPathInfo = false
            case "default": block.acceptPathInfo = .some(nil)
            default: error(ConfigCode.badArguments, "AcceptPathInfo must be set to on, off, or default", words[0].range)
            }
        case "LimitRequestBody":
            guard arity(line, 1...1, "LimitRequestBody takes one argument") else { return }
            let w = words[0].value
            let digits = w.hasBytePrefix("-") || w.hasBytePrefix("+") ? w.dropFirst() : Substring(w)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(w) else {
                error(ConfigCode.badArguments, "LimitRequestBody argument is not parsable.", words[0].range); return
            }
            guard n >= 0 else { error(ConfigCode.badArguments, "LimitRequestBody requires a non-negative integer.", words[0].range); return }
            block.limitRequestBody = n
        case "MaxRanges":
            guard arity(line, 1...1, "MaxRanges takes one argument") else { return }
            let w = words[0].value
            switch w.asciiLowercased() {
            case "none": block.maxRanges = .some(0)
            case "default": block.maxRanges = .some(MergedConfig.defaultMaxRanges)
            case "unlimited": block.maxRanges = .some(nil)
            default:
                // atoi: leading digits count, the rest is ignored; zero or less is refused.
                let digits = w.drop { $0 == " " || $0 == "\t" }.prefix { $0.isASCII && $0.isNumber }
                guard let n = Int(digits.prefix(18)), n > 0 else {
                    error(ConfigCode.badArguments, "MaxRanges requires 'none', 'default', 'unlimited' or a positive integer", words[0].range); return
                }
                block.maxRanges = .some(n)
            }
        case "SetOutputFilter":
            guard arity(line, 1...1, "SetOutputFilter takes one argument, filter (or ; delimited list of filters) to be run on the request content") else { return }
            block.outputFilters = ConfigReader.filterNames(words[0].value)
        case "CGIVar":
            // set_cgi_var: REQUEST_URI is the one variable, with current-uri or original-uri.
            guard arity(line, 2...2, "CGIVar takes two arguments, Controls how some CGI variables are set") else { return }
            if words[0].value != "REQUEST_URI" {
                error(ConfigCode.badArguments, "Unrecognized CGI variable: \"\(words[0].value)\"", words[0].range)
            } else if !["current-uri", "original-uri"].contains(words[1].value.asciiLowercased()) {
                error(ConfigCode.badArguments, "Unrecognized value for CGIVar REQUEST_URI", words[1].range)
            }
        case "Define":
            guard arity(line, 1...2, "Define takes 1-2 arguments") else { return }
            defines.insert(words[0].value)
            if words.count == 2 { variables[words[0].value] = words[1].value }
        case "UnDefine":
            guard arity(line, 1...1, "UnDefine takes one argument") else { return }
            defines.remove(words[0].value)
            variables[words[0].value] = nil
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// `Options`, checked word by word in core.c set_options' order: a signed word after a plain
    /// one (unless that was `All`/`None`) or a plain one after a signed one mixes the forms;
    /// `All`/`None` must come first and unsigned; `RunScripts` is MultiViews plus ExecCGI.
    private mutating func parseOptions(_ d: DirectiveNode, _ words: [Word]) -> OptionsDirective? {
        let known = ["none", "all", "indexes", "includes", "includesnoexec", "followsymlinks", "symlinksifownermatch",
                     "execcgi", "multiviews", "runscripts"]
        var o = OptionsDirective()
        var first = true, merge = false, allNone = false
        var plain = Set<String>()
        for w in words {
            var v = w.value
            var sign: Character? = nil
            if let f = v.first, f == "+" || f == "-" {
                sign = f; v.removeFirst()
                if !merge && !first && !allNone {
                    error(ConfigCode.badArguments, "Either all Options must start with + or -, or no Option may.", w.range)
                    return nil
                }
                merge = true
            } else if merge {
                error(ConfigCode.badArguments, "Either all Options must start with + or -, or no Option may.", w.range)
                return nil
            }
            let k = v.asciiLowercased()
            guard known.contains(k) else {
                error(ConfigCode.badArguments, "Illegal option \(v)", w.range); return nil
            }
            if k == "none" || k == "all" {
                if !first {
                    error(ConfigCode.badArguments, k == "none" ? "'Options None' must be the first Option given."
                                                               : "'Options All' must be the first option given.", w.range)
                    return nil
                }
                if merge {
                    error(ConfigCode.badArguments, k == "none" ? "You may not use 'Options +None' or 'Options -None'."
                                                               : "You may not use 'Options +All' or 'Options -All'.", w.range)
                    return nil
                }
                allNone = true
            }
            // `AllowOverride Options=…`: every bit of the option must be permitted.
            if context == .htaccess, let allowed = overrides?.options, let bits = AllowedOverrides.optionBits(k),
               !bits.isSubset(of: allowed) {
                error(ConfigCode.notAllowedHere, "Option \(v) not allowed here", w.range); return nil
            }
            let names: [String] = k == "runscripts" ? ["multiviews", "execcgi"] : [k]
            switch sign {
            case "+": o.add.formUnion(names); o.remove.subtract(names)
            case "-": o.remove.formUnion(names); o.add.subtract(names)
            default: plain.formUnion(names)
            }
            first = false
        }
        if !plain.isEmpty { o.replace = plain }
        return o
    }
}
