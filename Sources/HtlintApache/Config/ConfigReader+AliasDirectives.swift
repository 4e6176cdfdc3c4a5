import HtlintRegex
import HtlintSyntax

/// mod_alias: `Redirect` and its variants, `RedirectRelative`, `Alias` and `ScriptAlias`.
extension ConfigReader {
    mutating func aliasDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words, info = line.info
        switch info.name {
        case "Redirect", "RedirectMatch", "RedirectTemp", "RedirectPermanent":
            if let r = parseRedirect(info.name, d, words) { block.redirects.append(r) }
        case "RedirectRelative":
            guard let on = flag(line) else { return }
            block.redirectRelative = on
        case "Alias" where words.count == 1, "ScriptAlias" where words.count == 1:
            // The one-argument form names what the enclosing `<Location>` maps to, as an ap_expr string.
            guard let section = sectionNames.last?.asciiLowercased(), section == "location" || section == "locationmatch" else {
                error(ConfigCode.badArguments, "\(info.name) must have two arguments when used globally", d.argumentsRange)
                return
            }
            do {
                let target = try ApExpression.parsingString(words[0].value, restricted: false)
                block.locationAlias = LocationAlias(target: target, handler: info.name == "ScriptAlias" ? "cgi-script" : nil)
            } catch {
                self.error(ConfigCode.badArguments, "Cannot parse alias expression '\(words[0].value)': \(error.message)", words[0].range)
            }
        case "AliasPreservePath":
            guard let on = flag(line) else { return }
            block.aliasPreservePath = on
        case "Alias", "AliasMatch", "ScriptAlias", "ScriptAliasMatch":
            guard arity(line, 2...2, "\(info.name) takes two arguments, a fakename and a realname") else { return }
            var regex: Regex? = nil
            if info.name.hasByteSuffix("Match") {
                do { regex = try Regex(words[0].value) } catch {
                    self.error(ConfigCode.badRegex, "Regular expression could not be compiled.", words[0].range); return
                }
            }
            block.server?.aliases.append(AliasEntry(url: words[0].value, path: words[1].value, regex: regex,
                                                    handler: info.name.hasBytePrefix("Script") ? "cgi-script" : nil))
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// Status keyword or number (apache-semantics §8.2); nil when the word is not a status.
    private func redirectStatus(_ w: String) -> Int? {
        switch w.asciiLowercased() {
        case "permanent": return 301
        case "temp": return 302
        case "seeother": return 303
        case "gone": return 410
        default:
            guard let f = w.utf8.first, f >= 0x30, f <= 0x39 else { return nil }
            return atoi(w)
        }
    }

    private mutating func parseRedirect(_ name: String, _ d: DirectiveNode, _ words: [Word]) -> AliasRedirect? {
        let values = words.map(\.value)
        var status = name == "RedirectPermanent" ? 301 : 302
        var path: String? = nil
        var target: String? = nil
        let inDirectory = context == .htaccess || objectDepth > 0
        switch name {
        case "RedirectTemp", "RedirectPermanent":
            guard values.count == 2 else {
                error(ConfigCode.badArguments, "\(name) takes two arguments, a document to be redirected, then the destination URL", d.argumentsRange)
                return nil
            }
            path = values[0]; target = values[1]
        default:
            let isMatch = name == "RedirectMatch"
            // TAKE23 (RedirectMatch) needs its first two words non-empty, TAKE123 its first.
            guard (isMatch ? 2...3 : 1...3).contains(values.count), values.first?.isEmpty == false,
                  !isMatch || !values[1].isEmpty else {
                error(ConfigCode.badArguments, isMatch
                      ? "RedirectMatch takes two or three arguments, an optional status, then a regular expression and destination URL"
                      : "Redirect takes one, two or three arguments, an optional status, then document to be redirected and destination URL",
                      d.argumentsRange)
                return nil
            }
            if values.count == 3 {
                guard let s = redirectStatus(values[0]) else {
                    error(ConfigCode.badArguments, "\(name): invalid first argument (of three)", words[0].range); return nil
                }
                status = s; path = values[1]; target = values[2]
            } else if values.count == 2 {
                if let s = redirectStatus(values[0]) {
                    status = s
                    if (300...399).contains(s) {
                        // `Redirect 301 /target` in a directory context: the expression form.
                        target = values[1]
                    } else {
                        path = values[1]
                    }
                } else {
                    path = values[0]; target = values[1]
                }
            } else {
                if let s = redirectStatus(values[0]) { status = s } else { target = values[0] }
            }
        }
        if (300...399).contains(status) {
            guard target != nil else {
                error(ConfigCode.badArguments, "URL to redirect to is missing", d.argumentsRange); return nil
            }
        } else if target != nil && path != nil {
            error(ConfigCode.badArguments, "Redirect URL not valid for this status", d.argumentsRange); return nil
        }
        if path == nil && !inDirectory {
            error(ConfigCode.badArguments, "URL to redirect to is missing", d.argumentsRange); return nil
        }
        if name != "RedirectMatch", path != nil, let t = target, !(t.hasBytePrefix("/") || isAbsoluteURI(t)) {
            error(ConfigCode.badArguments, "Redirect to non-URL", words.last!.range); return nil
        }
        var targetExpression: ExprWord? = nil
        if path == nil, let t = target {
            // The directory-context form's URL is an ap_expr string, parsed with the file: a bad
            // one fails it (`expr=` is no prefix here, just text).
            do {
                let parsed = try ApExpression.parsingString(t, restricted: context == .htaccess)
                // Kept where it can change the text (variables, backslash escapes, `$1`, which
                // is empty: no match data reaches ap_expr_str_exec); plain text, raw bytes
                // included, is used as written.
                if ApExpression.stringHasSyntax(t) { targetExpression = parsed }
            } catch {
                self.error(ConfigCode.badArguments, "Cannot parse redirect expression '\(t)': \(error.message)", words.last!.range)
                return nil
            }
        }
        let matcher: AliasRedirect.Matcher
        if let p = path {
            if name == "RedirectMatch" {
                do { matcher = .regex(try Regex(p)) } catch {
                    let w = words[words.count == 3 ? 1 : 0]
                    self.error(ConfigCode.badRegex, "Regular expression could not be compiled.", w.range)
                    return nil
                }
            } else {
                matcher = .prefix(p)
            }
        } else {
            matcher = .everything
        }
        let isRedirect = (300...399).contains(status)
        return AliasRedirect(matcher: matcher, status: status, target: isRedirect ? target : nil,
                             range: d.range, line: d.line.line, targetExpression: isRedirect ? targetExpression : nil)
    }
}
