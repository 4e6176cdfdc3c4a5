import HtlintRegex
import HtlintSyntax

/// mod_headers (`Header`, `RequestHeader`), mod_setenvif and mod_env.
extension ConfigReader {
    mutating func environmentDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words, info = line.info
        switch info.name {
        case "Header":
            if let h = parseHeader(d, words) { block.headers.append(h) }
        case "RequestHeader":
            if let h = parseHeader(d, words, request: true) { block.requestHeaders.append(h) }
        case "SetEnvIf", "SetEnvIfNoCase", "BrowserMatch", "BrowserMatchNoCase":
            parseSetEnvIf(info.name, d, words, into: &block)
        case "SetEnvIfExpr":
            parseSetEnvIfExpr(d, words, into: &block)
        case "SetEnv":
            guard arity(line, 1...2, "SetEnv takes 1-2 arguments, an environment variable name and optional value to pass to CGI") else { return }
            block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, words[0].value) }
            block.setEnv.append((words[0].value, words.count > 1 ? words[1].value : ""))
        case "PassEnv":
            guard hasFirstArgument(line, "PassEnv requires at least one argument, a list of environment variables to pass to CGI.") else { return }
            // The process's value, copied when the line is read, into the same table as SetEnv's
            // (an undefined one is only logged, AH01506).
            for w in words {
                guard let value = processEnvironment[w.value] else { continue }
                block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, w.value) }
                block.setEnv.append((w.value, value))
            }
        case "UnsetEnv":
            guard hasFirstArgument(line, "UnsetEnv requires at least one argument") else { return }
            for w in words {
                block.unsetEnv.append(w.value)
                block.setEnv.removeAll { equalsIgnoringASCIICase($0.0, w.value) }
            }
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// `Header [always|onsuccess] action name [value [replacement]] [condition]`, read as
    /// mod_headers' header_cmd/header_inout_cmd do (apache-semantics §13).
    private mutating func parseHeader(_ d: DirectiveNode, _ words: [Word], request: Bool = false) -> HeaderDirective? {
        var w = words[...]
        var always = false
        if !request, let f = w.first?.value.asciiLowercased(), f == "always" || f == "onsuccess" { always = f == "always"; w.removeFirst() }
        let actions = ["add", "set", "setifempty", "append", "merge", "unset", "echo", "edit", "edit*", "note"]
        guard let actionWord = w.popFirst() else {
            error(ConfigCode.badArguments,
                  "first argument must be 'add', 'set', 'setifempty', 'append', 'merge', 'unset', 'echo', 'note', 'edit', or 'edit*'.",
                  d.argumentsRange)
            return nil
        }
        // ap_getword_conf gives an empty word past the end: a missing header name is "" (so a
        // bare `Header unset` is accepted), and the value check below reports the rest.
        let name = w.popFirst()?.value ?? ""
        let action = actionWord.value.asciiLowercased()
        if request, action == "echo" || action == "note" {
            error(ConfigCode.badArguments, "\(action) not valid for RequestHeader", actionWord.range)
            return nil
        }
        guard actions.contains(action) else {
            error(ConfigCode.badArguments,
                  "first argument must be 'add', 'set', 'setifempty', 'append', 'merge', 'unset', 'echo', 'note', 'edit', or 'edit*'.",
                  actionWord.range)
            return nil
        }
        guard w.count <= 3 else { error(ConfigCode.badArguments, "Header has too many arguments", d.argumentsRange); return nil }
        var value = w.popFirst()
        let replacement = w.popFirst()
        var clause = w.popFirst()
        var editPattern: Regex? = nil
        if action.hasBytePrefix("edit") {
            guard let pattern = value, replacement != nil else {
                error(ConfigCode.badArguments, "Header edit requires a match and a substitution", d.argumentsRange); return nil
            }
            guard let regex = try? Regex(pattern.value) else {
                error(ConfigCode.badRegex, "Header edit regex could not be compiled", pattern.range); return nil
            }
            editPattern = regex
            value = replacement
        } else {
            // Without a replacement the third word is the condition.
            if clause != nil { error(ConfigCode.badArguments, "Too many arguments to directive", d.argumentsRange); return nil }
            clause = replacement
        }
        if action == "unset" || action == "echo" {
            // These take no value: a third word is the condition.
            if let v = value {
                guard clause == nil else {
                    let message = action == "unset" ? "header unset takes two arguments" : "Header echo takes two arguments"
                    error(ConfigCode.badArguments, message, d.argumentsRange); return nil
                }
                clause = v
                value = nil
            }
        } else if value == nil {
            error(ConfigCode.badArguments, "Header requires three arguments", d.argumentsRange); return nil
        }
        var condition: (String, Bool)? = nil
        var expression: ApExpression? = nil
        let early = clause?.value.asciiLowercased() == "early"
        if let c = clause {
            let text = c.value, lower = text.asciiLowercased()
            if lower.hasBytePrefix("env=") {
                var n = dropLeadingBytes(text, 4)
                let neg = n.hasBytePrefix("!")
                if neg { n = dropLeadingBytes(n, 1) }
                guard !n.isEmpty else {
                    error(ConfigCode.badArguments,
                          "error: missing environment variable name. envclause should be in the form env=envar ", c.range)
                    return nil
                }
                condition = (n, neg)
            } else if lower.hasBytePrefix("expr=") {
                do { expression = try ApExpression(parsing: dropLeadingBytes(text, 5), restricted: context == .htaccess) } catch {
                    self.error(ConfigCode.badExpression, "Can't parse envclause/expression: \(error.message)", c.range)
                    return nil
                }
            } else if lower != "early" {
                error(ConfigCode.badArguments, "Unknown parameter: \(text)", c.range); return nil
            }
        }
        // Checked last, as mod_headers parses the format after the condition. `expr=` (case
        // as written) makes the value a string expression instead of a format.
        var valueExpression: ExprWord? = nil
        if let v = value, v.value.hasBytePrefix("expr=") {
            do { valueExpression = try ApExpression.parsingString(dropLeadingBytes(v.value, 5), restricted: context == .htaccess) } catch {
                self.error(ConfigCode.badExpression, "Can't parse value expression : \(error.message)", v.range)
                return nil
            }
        } else if let v = value, case .failure(let e) = parseHeaderFormat(v.value) {
            error(ConfigCode.badArguments, e.message, v.range); return nil
        }
        if action == "echo" {
            // The header name is a regular expression matched against the request's header names.
            guard let regex = try? Regex(name) else {
                error(ConfigCode.badRegex, "Header echo regex could not be compiled", d.argumentsRange); return nil
            }
            editPattern = regex
        }
        // mod_headers cuts the name at its first colon (after compiling an echo regex from the
        // whole word): `Header set Strict-Transport-Security: "…"` sets Strict-Transport-Security
        // (recorded: header-name-trailing-colon-dropped).
        let headerName = name.firstIndex(ofByte: UInt8(ascii: ":")).map { String(name[..<$0]) } ?? name
        var header = HeaderDirective(always: always, action: action, name: headerName, value: value?.value ?? "", editPattern: editPattern,
                                     envCondition: condition, expression: expression, early: early, range: d.range)
        header.valueExpression = valueExpression
        return header
    }

    private mutating func parseSetEnvIf(_ name: String, _ d: DirectiveNode, _ words: [Word], into block: inout ConfigBlock) {
        var w = words.map(\.value)
        let browser = name.hasBytePrefix("BrowserMatch")
        if browser { w.insert("User-Agent", at: 0) }
        // add_setenvif_core reads word by word: an empty word ends each list (`SetEnvIf "" x V`
        // has no header, `SetEnvIf Host x ""` no variable).
        guard let first = w.first, !first.isEmpty else {
            error(ConfigCode.badArguments, "Missing header-field name for \(name)", d.argumentsRange); return
        }
        guard w.count >= 2, !w[1].isEmpty else {
            error(ConfigCode.badArguments, "Missing regular expression for \(name)", d.argumentsRange); return
        }
        let attribute = w[0]
        let pattern = w[1]
        var options = RegexOptions.apacheDefault
        if name.hasByteSuffix("NoCase") { options.insert(.caseless) }
        guard let regex = try? Regex(pattern, options: options) else {
            error(ConfigCode.badRegex, "\(name) regex could not be compiled.", d.argumentsRange); return
        }
        let features = w.dropFirst(2).prefix { !$0.isEmpty }
        guard !features.isEmpty else {
            error(ConfigCode.badArguments, "Missing envariable expression for \(name)", d.argumentsRange); return
        }
        var headerNames: Regex? = nil
        if SetEnvIfDirective.namesHeadersByPattern(attribute) {
            // Header names compare without case, whichever form (recorded: env-setenvif-last-header-and-missing).
            guard let names = try? Regex(attribute, options: RegexOptions.apacheDefault.union(.caseless)) else {
                error(ConfigCode.badRegex, "Header name regex could not be compiled.", d.argumentsRange); return
            }
            headerNames = names
        }
        var directive = SetEnvIfDirective(attribute: attribute, regex: regex, assignments: Self.envAssignments(features),
                                          range: d.range, headerNames: headerNames)
        directive.plainString = SetEnvIfDirective.isPlainString(pattern)
        block.setEnvIf.append(directive)
    }

    /// `SetEnvIfExpr "expression" [!]VAR[=value]...`: the expression is one argument.
    private mutating func parseSetEnvIfExpr(_ d: DirectiveNode, _ words: [Word], into block: inout ConfigBlock) {
        guard words.count >= 2 else {
            error(ConfigCode.badArguments, "SetEnvIfExpr requires at least two arguments", d.argumentsRange); return
        }
        let expression: ApExpression
        do { expression = try ApExpression(parsing: words[0].value, restricted: context == .htaccess) } catch {
            self.error(ConfigCode.badExpression, "Could not parse expression \"\(words[0].value)\": \(error.message)", words[0].range)
            return
        }
        block.setEnvIf.append(SetEnvIfDirective(attribute: "", regex: Self.emptyPattern, assignments: Self.envAssignments(words.dropFirst().map(\.value)),
                                                range: d.range, expression: expression))
    }

    private static let emptyPattern = try! Regex("")

    /// `!VAR` unsets, `VAR=value` sets, `VAR` and `VAR=` set to 1. The name ends at the first
    /// `=` byte, even one a combining mark follows (`v=\u{301}b` sets v). mod_setenvif keeps
    /// `!VAR` as the value `!` and unsets for any value starting with `!`: `VAR=!x` unsets too
    /// (recorded: env-setenvif-empty-value-and-bang-value).
    private static func envAssignments(_ items: some Sequence<String>) -> [(name: String, value: String, unset: Bool)] {
        items.map { item in
            if item.hasBytePrefix("!") { return (dropLeadingBytes(item, 1), "", true) }
            if let eq = item.firstIndex(ofByte: UInt8(ascii: "=")) {
                let value = String(item[item.utf8.index(after: eq)...])
                if value.hasBytePrefix("!") { return (String(item[..<eq]), "", true) }
                return (String(item[..<eq]), value.isEmpty ? "1" : value, false)
            }
            return (item, "1", false)
        }
    }
}
