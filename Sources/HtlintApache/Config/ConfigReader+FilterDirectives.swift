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
            // TAKE_ARGV: every word counts, `""` too, except an empty last one, which ends the
            // list; fewer than two is mod_filter's own message. An empty filter list names no
            // provider to look up (recorded: syntax-error-mime-filter-directive-arguments).
            let count = words.last?.value.isEmpty == true ? words.count - 1 : words.count
            guard count >= 2 else {
                error(ConfigCode.badArguments, "AddOutputFilterByType requires at least two arguments", line.node.argumentsRange)
                return
            }
            // A `;` list, split at bytes as mod_filter's ap_getword splits it.
            provider = words[0]
            names = ConfigReader.filterNames(provider.value)
        case "FilterProvider":
            guard arity(line, 3...3, "FilterProvider takes three arguments, filter-name provider-name match-expression") else { return }
            provider = words[1]
            names = [provider.value]
        case "FilterChain":
            _ = arity(line, 1...Int.max, "FilterChain requires at least one argument, list of filter names with optional [+-=!@]")
            return
        case "FilterDeclare":
            _ = arity(line, 1...2, "FilterDeclare takes 1-2 arguments, filter-name [filter-type]")
            return
        case "FilterProtocol":
            _ = arity(line, 2...3, "FilterProtocol takes two or three arguments, filter-name [provider-name] protocol-args")
            return
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
