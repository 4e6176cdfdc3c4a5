import HtlintRegex
import HtlintSyntax

/// mod_mime's extension tables (`AddType`, `AddCharset`, `AddLanguage`, `AddEncoding`,
/// `AddHandler` and their `Remove…` counterparts) and `DefaultLanguage`; mod_negotiation's
/// `LanguagePriority` and `ForceLanguagePriority`, kept with them for the variants' choice.
extension ConfigReader {
    mutating func mimeDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let d = line.node, words = line.words, info = line.info
        // Any mod_mime line gives the object a mod_mime configuration of its own
        // (ap_set_config_vectors), which the walk then merges.
        if info.module == "mime" { block.editMime { $0.modMimeObject = true } }
        switch info.name {
        case "AddOutputFilter", "AddInputFilter":
            // ITERATE2: a non-empty filter list and at least one word after it, even `""`
            // (recorded: syntax-error-mime-filter-directive-arguments).
            guard words.count >= 2, !words[0].value.isEmpty else {
                let what = info.name == "AddOutputFilter" ? "output" : "input"
                error(ConfigCode.badArguments,
                      "\(info.name) requires at least two arguments, \(what) filter name (or ; delimited names) followed by one or more file extensions",
                      d.argumentsRange)
                return
            }
            guard info.name == "AddOutputFilter" else { return }
            let filters = ConfigReader.filterNames(words[0].value)
            block.editMime { m in
                for w in words.dropFirst() {
                    if w.value.isEmpty { break }   // ITERATE2 stops at an empty word
                    let ext = w.value.hasBytePrefix(".") ? String(w.value.dropFirst()) : w.value
                    m.outputFilters.insert((ext.asciiLowercased(), filters), at: m.outputFilters.firstIndex { $0.filters == nil } ?? m.outputFilters.count)
                }
            }
        case "RemoveOutputFilter":
            // The argument count was checked with the directives read no further (argumentChecks).
            block.editMime { m in
                for w in words {
                    if w.value.isEmpty { break }   // ITERATE stops at an empty word
                    m.outputFilters.append((Self.mimeExtension(w.value), nil))
                }
            }
        case "AddType", "AddCharset", "AddLanguage", "AddEncoding", "AddHandler":
            guard words.count >= 2, !words[0].value.isEmpty else {
                let what: String
                switch info.name {
                case "AddType": what = "a mime type"
                case "AddCharset": what = "a charset (e.g., iso-2022-jp),"
                case "AddLanguage": what = "a language (e.g., fr),"
                case "AddEncoding": what = "an encoding (e.g., gzip),"
                default: what = "a handler name"
                }
                error(ConfigCode.badArguments,
                      "\(info.name) requires at least two arguments, \(what) followed by one or more file extensions", d.argumentsRange)
                return
            }
            var m = block.mime ?? MimeDirectives()
            let value = words[0].value.asciiLowercased()
            for w in words.dropFirst() {
                if w.value.isEmpty { break }   // ITERATE2 stops at an empty word
                let ext = Self.mimeExtension(w.value)
                // Remove… lines of this object apply after its Add… lines, except RemoveType,
                // which stores an empty type in the table as it is read (remove_extension_type):
                // AddType and RemoveType take turns in order (recorded: header-mime-removetype-in-order).
                switch info.name {
                case "AddType": m.types.append((ext, value))
                case "AddCharset": m.charsets.insert((ext, value), at: m.charsets.firstIndex { $0.charset == nil } ?? m.charsets.count)
                case "AddLanguage": m.languages.insert((ext, value), at: m.languages.firstIndex { $0.language == nil } ?? m.languages.count)
                case "AddEncoding": m.encodings.insert((ext, value), at: m.encodings.firstIndex { $0.encoding == nil } ?? m.encodings.count)
                default: m.handlers.insert((ext, value), at: m.handlers.firstIndex { $0.handler == nil } ?? m.handlers.count)
                }
            }
            block.mime = m
        case "RemoveType", "RemoveCharset", "RemoveLanguage", "RemoveEncoding", "RemoveHandler":
            guard hasFirstArgument(line, "\(info.name) requires at least one argument, one or more file extensions") else { return }
            var m = block.mime ?? MimeDirectives()
            for w in words {
                let ext = Self.mimeExtension(w.value)
                switch info.name {
                case "RemoveType": m.types.append((ext, nil))
                case "RemoveCharset": m.charsets.append((ext, nil))
                case "RemoveLanguage": m.languages.append((ext, nil))
                case "RemoveEncoding": m.encodings.append((ext, nil))
                default: m.handlers.append((ext, nil))
                }
            }
            block.mime = m
        case "ForceLanguagePriority":
            guard hasFirstArgument(line, "ForceLanguagePriority requires at least one argument, Force LanguagePriority elections, either None, or Fallback and/or Prefer") else { return }
            var prefer = false, fallback = false
            for w in words {
                switch w.value.asciiLowercased() {
                case "none": break
                case "prefer": prefer = true
                case "fallback": fallback = true
                default: error(ConfigCode.badArguments, "Invalid ForceLanguagePriority option \(w.value)", w.range); return
                }
            }
            block.editMime { $0.forceLanguagePriority = (prefer, fallback) }
        case "LanguagePriority":
            guard hasFirstArgument(line, "LanguagePriority requires at least one argument, space-delimited list of MIME language abbreviations") else { return }
            block.editMime { $0.languagePriority = ($0.languagePriority ?? []) + words.map(\.value) }
        case "ModMimeUsePathInfo":
            guard let on = flag(line) else { return }
            block.editMime { $0.usePathInfo = on }
        case "MultiviewsMatch":
            guard hasFirstArgument(line, "MultiviewsMatch requires at least one argument, NegotiatedOnly (default), Handlers and/or Filters, or Any") else { return }
            // Each option with the ones it cannot be combined with, and Apache's message. The
            // options accumulate in the object (m->multimatch |= …), across lines too (recorded:
            // negotiation-multiviewsmatch-accumulates).
            let clash: [String: (Set<String>, String)] = [
                "any": (["negotiatedonly", "filters", "handlers"], "Any is incompatible with NegotiatedOnly, Filters and Handlers"),
                "negotiatedonly": (["any", "filters", "handlers"], "NegotiatedOnly is incompatible with Any, Filters and Handlers"),
                "filters": (["any", "negotiatedonly"], "Filters is incompatible with Any and NegotiatedOnly"),
                "handlers": (["any", "negotiatedonly"], "Handlers is incompatible with Any and NegotiatedOnly")]
            var options: Set<String> = block.mime?.multiviewsMatch ?? []
            for w in words {
                let o = w.value.asciiLowercased()
                guard let (others, message) = clash[o] else {
                    error(ConfigCode.badArguments, "Unrecognized option '\(w.value)'", w.range); return
                }
                guard options.isDisjoint(with: others) else { error(ConfigCode.badArguments, message, w.range); return }
                options.insert(o)
            }
            block.editMime { $0.multiviewsMatch = options }
        case "DefaultLanguage":
            guard arity(line, 1...1, "DefaultLanguage takes one argument, language to use for documents with no other language file extension") else { return }
            block.editMime { $0.defaultLanguage = words[0].value }
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// A mod_mime extension argument: without its leading dot, ASCII letters lower-cased
    /// (ap_str_tolower; a request's extension is folded the same way).
    static func mimeExtension(_ word: String) -> String {
        (word.hasBytePrefix(".") ? dropLeadingBytes(word, 1) : word).asciiLowercased()
    }
}

extension MimeDirectives {
    /// Forgets the Remove… lines that wait for a merge (all but RemoveType's).
    mutating func dropPendingRemovals() {
        charsets.removeAll { $0.charset == nil }
        languages.removeAll { $0.language == nil }
        encodings.removeAll { $0.encoding == nil }
        handlers.removeAll { $0.handler == nil }
        outputFilters.removeAll { $0.filters == nil }
    }
}

extension ConfigBlock {
    /// Changes the block's mod_mime settings, made on first use.
    mutating func editMime(_ change: (inout MimeDirectives) -> Void) {
        var m = mime ?? MimeDirectives()
        change(&m)
        mime = m
    }
}
