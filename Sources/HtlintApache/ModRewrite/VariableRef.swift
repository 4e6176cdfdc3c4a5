import HtlintRegex

/// A `%{NAME}` resolved when its template is parsed (apache-semantics §7.2): what it reads,
/// so that expanding it per request is a switch rather than parsing and hashing the name.
enum VariableRef: Sendable, Hashable {
    /// `%{HTTP:Name}` and the `HTTP_*` names mod_rewrite knows: a request header.
    case header(String)
    /// `%{ENV:NAME}`: the request's environment, then the process's.
    case environment(String)
    /// `%{LA-U:NAME}` / `%{LA-F:NAME}`: NAME read from a look-ahead subrequest, URL-based
    /// (LA-U) or file-based (LA-F, `file` true).
    case lookAhead(String, file: Bool)
    /// `%{SSL:NAME}`: mod_ssl's ssl_var_lookup (`Origin.sslVariable`).
    case ssl(String)
    /// Unknown `%{X:…}` prefixes and unknown names: always empty.
    case empty
    /// One of the names in `Origin.variableNames`; `name` in upper case (the `TIME_*` names need it).
    case known(Origin.VariableSource, name: String)

    init(_ rawName: String) {
        if let colon = rawName.firstIndex(ofByte: UInt8(ascii: ":")) {
            let arg = String(rawName[rawName.index(after: colon)...])
            switch rawName[..<colon].asciiUppercased() {
            case "HTTP": self = .header(arg)
            case "ENV": self = .environment(arg)
            case "LA-U": self = .lookAhead(arg, file: false)
            case "LA-F": self = .lookAhead(arg, file: true)
            case "SSL": self = .ssl(arg)
            default: self = .empty
            }
            return
        }
        // Names are case-insensitive.
        let name = rawName.asciiUppercased()
        if let known = Origin.variableNames[name] { self = .known(known, name: name) } else { self = .empty }
    }
}
