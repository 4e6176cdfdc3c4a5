import HtlintSyntax

/// mod_filter's directives: accepted, not simulated, except the provider check Apache makes
/// when it reads them (recorded: allowoverride-module-directive-classes).
extension ConfigReader {
    /// Output filters a module registers, by upper-cased name: mod_filter looks a provider up
    /// with ap_get_output_filter_handle, so one naming a filter whose module is not loaded is
    /// "Unknown filter provider" (recorded: allowoverride-module-directive-classes).
    static let filterModules: [String: String] = [
        "DEFLATE": "deflate", "INFLATE": "deflate", "INCLUDES": "include", "SUBSTITUTE": "substitute",
        "SED": "sed", "BUFFER": "buffer", "RATE_LIMIT": "ratelimit", "DATA": "data", "XLATEOUT": "charset_lite",
        "BROTLI_COMPRESS": "brotli", "PROXY-HTML": "proxy_html", "XML2ENC": "xml2enc",
        // Core's, the HTTP protocol's and the base modules' own output filters.
        "CORE": "core", "CONTENT_LENGTH": "core", "OLD_WRITE": "core", "SUBREQ_CORE": "core",
        "HTTP_HEADER": "http", "HTTP_OUTERROR": "http", "CHUNK": "http", "BYTERANGE": "http",
        "FIXUP_HEADERS_OUT": "headers", "FIXUP_HEADERS_ERR": "headers", "SSL/TLS FILTER": "ssl",
    ]

    /// Modules registering output filters the table above does not list (mod_ext_filter's are
    /// named by the configuration): with one loaded, an unlisted name is accepted.
    static let unlistedFilterModules = ["ext_filter", "cache", "dumpio", "http2", "lua"]

    /// Whether ap_get_output_filter_handle finds `name`: any other name, an input filter's too,
    /// is "Unknown filter provider" (recorded: allowoverride-filter-unknown-provider).
    func isRegisteredOutputFilter(_ name: Substring) -> Bool {
        if let module = Self.filterModules[name.asciiUppercased()] { return modules.contains(module) }
        return Self.unlistedFilterModules.contains { modules.contains($0) }
    }

    mutating func filterDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words
        let provider: Word
        let names: [String]
        switch line.info.name {
        case "AddOutputFilterByType":
            guard arity(line, 2...Int.max, "AddOutputFilterByType requires at least two arguments") else { return }
            // A `;` list, split at bytes as mod_filter's ap_getword splits it.
            provider = words[0]
            names = ConfigReader.filterNames(provider.value)
        case "FilterProvider":
            guard arity(line, 3...3, "FilterProvider takes three arguments, filter-name provider-name match-expression") else { return }
            provider = words[1]
            names = [provider.value]
        default:
            return
        }
        if let unknown = names.first(where: { !isRegisteredOutputFilter($0[...]) }) {
            error(ConfigCode.badArguments, "Unknown filter provider \(unknown)", provider.range)
            return
        }
        if line.info.name == "AddOutputFilterByType" {
            for t in words.dropFirst() {
                block.outputFiltersByType[t.value.asciiLowercased(), default: []] += ConfigReader.filterNames(words[0].value)
            }
        }
    }
}
