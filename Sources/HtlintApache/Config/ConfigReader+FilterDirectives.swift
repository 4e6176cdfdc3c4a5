import HtlintSyntax

/// mod_filter's directives: accepted, not simulated, except the provider check Apache makes
/// when it reads them (recorded: allowoverride-module-directive-classes).
extension ConfigReader {
    /// Output filters a module registers, by upper-cased name: a provider naming one whose
    /// module is not loaded is "Unknown filter provider" (a filter htlint does not list is accepted).
    static let filterModules: [String: String] = [
        "DEFLATE": "deflate", "INFLATE": "deflate", "INCLUDES": "include", "SUBSTITUTE": "substitute",
        "SED": "sed", "BUFFER": "buffer", "RATE_LIMIT": "ratelimit", "DATA": "data", "XLATEOUT": "charset_lite",
        "BROTLI_COMPRESS": "brotli", "PROXY-HTML": "proxy_html", "XML2ENC": "xml2enc",
    ]

    mutating func filterDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words
        let providers: [Word]
        switch line.info.name {
        case "AddOutputFilterByType":
            guard arity(line, 2...Int.max, "AddOutputFilterByType requires at least two arguments") else { return }
            providers = [words[0]]
        case "FilterProvider":
            guard arity(line, 3...3, "FilterProvider takes three arguments, filter-name provider-name match-expression") else { return }
            providers = [words[1]]
        default:
            return
        }
        for w in providers {
            for name in w.value.split(separator: ";") {
                if let module = Self.filterModules[name.asciiUppercased()], !modules.contains(module) {
                    error(ConfigCode.badArguments, "Unknown filter provider \(name)", w.range)
                    return
                }
            }
        }
        if line.info.name == "AddOutputFilterByType" {
            for t in words.dropFirst() {
                block.outputFiltersByType[t.value.asciiLowercased(), default: []] += ConfigReader.filterNames(words[0].value)
            }
        }
    }
}
