import Foundation

extension Origin {
    /// `%{NAME}` as mod_rewrite looks it up (apache-semantics §7.2).
    func variable(_ rawName: String, _ r: RequestRecord, _ chain: RequestChain, serverContext: Bool) -> String {
        if rawName.utf8.contains(UInt8(ascii: ":")), let colon = rawName.firstIndex(of: ":") {
            let kind = rawName[..<colon].uppercased()
            let arg = String(rawName[rawName.index(after: colon)...])
            switch kind {
            case "HTTP": return equalsIgnoringASCIICase(arg, "host") ? (chain.request.header("Host") ?? "") : (chain.request.header(arg) ?? "")
            case "ENV": return r.env[arg] ?? site.processEnvironment[arg] ?? ""
            case "SSL": return ""
            case "LA-U", "LA-F": return variable(arg, r, chain, serverContext: serverContext)
            default: return ""
            }
        }
        // Names are case-insensitive; most are written in upper case already.
        let name = rawName.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? rawName.uppercased() : rawName
        guard name.count >= 4 else { return "" }
        let req = chain.request
        switch name {
        case "HTTP_ACCEPT": return req.header("Accept") ?? ""
        case "HTTP_COOKIE": return req.header("Cookie") ?? ""
        case "HTTP_FORWARDED": return req.header("Forwarded") ?? ""
        case "HTTP_HOST": return req.header("Host") ?? ""
        case "HTTP_PROXY_CONNECTION": return req.header("Proxy-Connection") ?? ""
        case "HTTP_REFERER": return req.header("Referer") ?? ""
        case "HTTP_USER_AGENT": return req.header("User-Agent") ?? ""
        case "REQUEST_URI", "DOCUMENT_URI": return r.uri
        case "REQUEST_FILENAME", "SCRIPT_FILENAME": return r.filename ?? r.uri
        case "PATH_INFO": return r.pathInfo
        case "QUERY_STRING": return r.query ?? ""
        case "THE_REQUEST": return chain.theRequest
        case "REQUEST_METHOD": return r.method
        case "SERVER_PROTOCOL": return "HTTP/1.1"
        case "REQUEST_SCHEME": return scheme(chain)
        case "HTTPS": return req.tls ? "on" : "off"
        case "SERVER_NAME": return serverNameAndPort(chain).host
        case "SERVER_PORT": return String(serverNameAndPort(chain).port)
        case "SERVER_ADDR": return "127.0.0.1"
        case "SERVER_ADMIN": return "webmaster@localhost"
        case "SERVER_SOFTWARE": return "Apache/2.4.71 (Debian)"
        case "REMOTE_ADDR", "CONN_REMOTE_ADDR": return req.remoteAddress
        case "REMOTE_HOST": return req.remoteAddress
        case "REMOTE_PORT": return "50000"
        case "REMOTE_USER", "REMOTE_IDENT", "AUTH_TYPE": return ""
        case "DOCUMENT_ROOT": return site.documentRoot
        case "CONTEXT_PREFIX": return r.contextPrefix
        case "CONTEXT_DOCUMENT_ROOT": return r.contextDocumentRoot
        case "IS_SUBREQ": return r.isSubrequest ? "true" : "false"
        case "IPV6": return req.remoteAddress.contains(":") ? "on" : "off"
        case "API_VERSION": return "20120211:142"
        case "SCRIPT_USER", "SCRIPT_GROUP": return r.filename.flatMap { site.files.stat($0) } != nil ? "root" : "<unknown>"
        case "TIME", "TIME_YEAR", "TIME_MON", "TIME_DAY", "TIME_HOUR", "TIME_MIN", "TIME_SEC", "TIME_WDAY":
            return timeVariable(name)
        default: return ""
        }
    }

    private func timeVariable(_ name: String) -> String {
        let c = Calendar(identifier: .gregorian).dateComponents(in: TimeZone.current, from: Date())
        func two(_ v: Int?) -> String { String(format: "%02d", v ?? 0) }
        switch name {
        case "TIME_YEAR": return String(format: "%04d", c.year ?? 0)
        case "TIME_MON": return two(c.month)
        case "TIME_DAY": return two(c.day)
        case "TIME_HOUR": return two(c.hour)
        case "TIME_MIN": return two(c.minute)
        case "TIME_SEC": return two(c.second)
        case "TIME_WDAY": return String((c.weekday ?? 1) - 1)
        default:
            return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + two(c.hour) + two(c.minute) + two(c.second)
        }
    }
}

/// Adapts a request to `ApExpression` evaluation (`<If>`, `expr` conditions).
struct ExpressionContext: ExpressionEnvironment {
    let origin: Origin
    let record: RequestRecord
    let chain: RequestChain

    func expressionVariable(_ name: String) -> String {
        origin.variable(name, record, chain, serverContext: false)
    }

    func requestHeader(_ name: String) -> String { chain.request.header(name) ?? "" }

    func environment(_ name: String) -> String { record.env[name] ?? origin.site.processEnvironment[name] ?? "" }

    func fileTest(_ op: Character, _ path: String) -> Bool {
        let fs = origin.site.files
        switch op {
        case "f": return fs.isFile(path)
        case "d": return fs.isDirectory(path)
        case "e": return fs.stat(path) != nil
        case "s": if case .file(let size)? = fs.stat(path) { return size > 0 } else { return false }
        case "L", "h": if case .symlink? = fs.lstat(path) { return true } else { return false }
        default: return false
        }
    }
}
