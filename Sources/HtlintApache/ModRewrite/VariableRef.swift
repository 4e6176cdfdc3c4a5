/// A `%{NAME}` resolved when its template is parsed (apache-semantics §7.2): what it reads,
/// so that expanding it per request is a switch rather than parsing and hashing the name.
enum VariableRef: Sendable, Hashable {
    /// `%{HTTP:Name}` and the `HTTP_*` names mod_rewrite knows: a request header.
    case header(String)
    /// `%{ENV:NAME}`: the request's environment, then the process's.
    case environment(String)
    /// `%{LA-U:NAME}` / `%{LA-F:NAME}`: htlint reads the variable directly (no lookahead subrequest).
    case lookAhead(String)
    /// `%{SSL:…}`, unknown `%{X:…}` prefixes and unknown names: always empty.
    case empty
    /// One of the names in `Origin.variableNames`; `name` in upper case (the `TIME_*` names need it).
    case known(Origin.VariableSource, name: String)

    init(_ rawName: String) {
        if let colon = rawName.utf8.firstIndex(of: UInt8(ascii: ":")) {
            let arg = String(rawName[rawName.index(after: colon)...])
            switch rawName[..<colon].uppercased() {
            case "HTTP": self = .header(arg)
            case "ENV": self = .environment(arg)
            case "LA-U", "LA-F": self = .lookAhead(arg)
            default: self = .empty
            }
            return
        }
        // Names are case-insensitive.
        let name = rawName.uppercased()
        if let known = Origin.variableNames[name] { self = .known(known, name: name) } else { self = .empty }
    }
}
