import Foundation
import HtlintApache

/// The values of mod_rewrite variables for one hop, recomputed from what Apache received, so
/// that `explain` can show the values that made a condition true. It mirrors the engine's
/// lookups for the variables that depend on the layers (connection, headers, host, port) and
/// approximates the path-dependent ones per pass.
public struct OriginVariables: Sendable {
    /// What Apache received.
    public let request: OriginRequest
    /// The site answering.
    public let site: Site
    /// Decoded URL-path and query of the pass the directive ran in.
    public let uri: String
    /// Query of the pass, nil for none.
    public let query: String?
    /// `REQUEST_FILENAME` of the pass, when known; otherwise the document root plus `uri`.
    public let filename: String?

    /// The variables of one pass.
    public init(request: OriginRequest, site: Site, uri: String, query: String?, filename: String? = nil) {
        self.request = request
        self.site = site
        self.uri = uri
        self.query = query
        self.filename = filename
    }

    /// Apache's scheme for self-referential URLs: TLS, or `ServerName https://…`.
    public var requestScheme: String { request.tls || site.serverNameScheme == "https" ? "https" : "http" }

    /// `%{SERVER_PORT}`.
    public var serverPort: Int { PHPEnvironment.serverPort(request, site) }

    /// `%{SERVER_NAME}`: the Host header's name with `UseCanonicalName Off`.
    public var serverName: String {
        if let name = site.canonicalServerName(localAddress: request.serverAddress) { return name }
        guard let host = request.header("Host"), !host.isEmpty else { return site.serverHostName }
        return splitHostHeader(host).host
    }

    /// The value of `%{NAME}`, nil when htlint does not recompute it here.
    public func value(_ rawName: String) -> String? {
        if let colon = rawName.firstIndex(of: ":") {
            let kind = rawName[..<colon].uppercased()
            let arg = String(rawName[rawName.index(after: colon)...])
            switch kind {
            case "HTTP": return request.header(arg) ?? ""
            case "ENV":
                if arg.uppercased() == "HTTPS" { return setEnvHTTPS?.value ?? "" }
                // Anything else may have been set on the way (SetEnvIf, [E], an internal
                // redirect's REDIRECT_ copies): not recomputed, rather than shown wrong.
                return nil
            default: return nil
            }
        }
        switch rawName.uppercased() {
        case "HTTPS": return request.tls ? "on" : "off"
        case "HTTP_HOST": return request.header("Host") ?? ""
        case "HTTP_USER_AGENT": return request.header("User-Agent") ?? ""
        case "HTTP_REFERER": return request.header("Referer") ?? ""
        case "HTTP_COOKIE": return request.header("Cookie") ?? ""
        case "HTTP_ACCEPT": return request.header("Accept") ?? ""
        case "HTTP_FORWARDED": return request.header("Forwarded") ?? ""
        case "SERVER_PORT": return String(serverPort)
        case "SERVER_NAME": return serverName
        case "REQUEST_SCHEME": return requestScheme
        case "REQUEST_URI", "DOCUMENT_URI": return uri
        case "QUERY_STRING": return query ?? ""
        case "REQUEST_METHOD": return request.method
        case "THE_REQUEST": return "\(request.method) \(request.target) HTTP/1.1"
        case "REQUEST_FILENAME", "SCRIPT_FILENAME": return filename ?? site.documentRoot + uri
        case "DOCUMENT_ROOT": return site.documentRoot
        case "REMOTE_ADDR": return request.remoteAddress
        default: return nil
        }
    }

    /// `HTTPS` set in the environment by a header-based `SetEnvIf`.
    var setEnvHTTPS: (value: String, at: String)? {
        var found: (String, String)? = nil
        for list in [site.vhost.block.setEnvIf] + site.accessConfigs.values.map(\.block.setEnvIf) {
            for d in list {
                guard let v = request.header(d.attribute), d.regex.firstMatch(in: v) != nil else { continue }
                for a in d.assignments where a.name.uppercased() == "HTTPS" { found = a.unset ? nil : (a.value, site.location(of: d.range)) }
            }
        }
        return found
    }

    /// Expands a template when every part of it is known here; nil otherwise.
    public func expand(_ t: Template, ruleCaptures: [String], conditionCaptures: [String]) -> String? {
        var out = ""
        for part in t.parts {
            switch part {
            case .literal(let s): out += s
            case .ruleCapture(let i): out += i < ruleCaptures.count ? ruleCaptures[i] : ""
            case .conditionCapture(let i): out += i < conditionCaptures.count ? conditionCaptures[i] : ""
            case .variable(let name):
                guard let v = value(name) else { return nil }
                out += v
            case .map: return nil
            }
        }
        return out
    }
}
