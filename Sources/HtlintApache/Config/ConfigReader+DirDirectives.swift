import HtlintSyntax

/// mod_dir (`DirectoryIndex`, `DirectorySlash`, `FallbackResource`, …) and mod_autoindex's
/// options (checked as Apache checks them; the listing's charset changes an answer).
extension ConfigReader {
    mutating func dirDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words
        switch line.info.name {
        case "DirectorySlash":
            guard let on = flag(line) else { return }
            block.directorySlash = on
        case "DirectoryCheckHandler":
            guard let on = flag(line) else { return }
            block.directoryCheckHandler = on
        case "DirectoryIndexRedirect":
            guard arity(line, 1...1, "DirectoryIndexRedirect takes one argument, On, Off, or a 3xx status code.") else { return }
            let w = words[0]
            let named = ["on": 302, "off": 0, "permanent": 301, "temp": 302, "seeother": 303]
            if let s = named[w.value.asciiLowercased()] {
                block.directoryIndexRedirect = s
            } else if let c = w.value.utf8.first, c >= 0x30, c <= 0x39 {
                let code = atoi(w.value)
                guard (300...399).contains(code) else {
                    error(ConfigCode.badArguments, "DirectoryIndexRedirect only accepts values between 300 and 399", w.range); return
                }
                block.directoryIndexRedirect = code
            } else {
                error(ConfigCode.badArguments, "DirectoryIndexRedirect ON|OFF|permanent|temp|seeother|3xx", w.range)
            }
        case "IndexOptions":
            indexOptions(line, into: &block)
        case "IndexOrderDefault":
            indexOrderDefault(line)
        case "IndexIgnore":
            // add_ignore (ITERATE): one pattern per word.
            block.indexIgnore += words.prefix { !$0.value.isEmpty }.map(\.value)
        case "IndexIgnoreReset":
            guard let on = flag(line) else { return }
            block.indexIgnoreReset = on
        case "DirectoryIndex":
            // add_index (RAW_ARGS) appends the words up to the first empty one to this object's
            // list, creating it even for none (`DirectoryIndex` alone: no index); `disabled`
            // alone clears it.
            let names = words.prefix { !$0.value.isEmpty }.map(\.value)
            block.directoryIndex = names.count == 1 && names[0].asciiLowercased() == "disabled"
                ? [] : (block.directoryIndex ?? []) + names
        case "FallbackResource":
            guard arity(line, 1...1, "FallbackResource takes one argument, Set a default handler") else { return }
            block.fallbackResource = words[0].value
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }
}
