extension Origin {
    /// mod_ssl's ssl_var_lookup, behind mod_headers' `%{NAME}s`, mod_rewrite's `%{SSL:NAME}` and
    /// ap_expr's `SSL_*` variables. Names compare case-insensitively (mod_ssl's strcEQ is
    /// strcasecmp): a fixed set of request variables,
    /// `HTTPS`, `SSL_*` over TLS, then the server's banner and module API (only the major
    /// number, unlike mod_rewrite's `API_VERSION`). "" when unset (every caller reads NULL
    /// and "" alike).
    func sslVariable(_ rawName: String, _ r: RequestRecord, _ chain: RequestChain) -> String {
        let name = rawName.asciiUppercased()
        if let source = Origin.sslRequestVariables[name] {
            // ssl_var_lookup reads r->filename itself: none before translate_name (an `early`
            // line's), where mod_rewrite's look-up would fall back to the URI (recorded:
            // header-early-request-uri-as-received).
            if case .requestFilename = source, r.filename == nil { return "" }
            return value(of: .known(source, name: name), r, chain, serverContext: false)
        }
        if name.hasBytePrefix("HTTP:"), name.count > 5 { return value(of: .header(String(rawName.dropFirst(5))), r, chain, serverContext: false) }
        // r->notes, then the request's environment, then the httpd process's.
        if name.hasBytePrefix("ENV:"), name.count > 4 { return value(of: .environment(String(rawName.dropFirst(4))), r, chain, serverContext: false) }
        if name == "HTTPS" { return chain.request.tls ? "on" : "off" }
        if name.hasBytePrefix("SSL_VERSION_") { return Origin.sslVersions[String(name.dropFirst(12))] ?? "" }
        if name.hasBytePrefix("SSL_") {
            guard chain.request.tls else { return "" }
            switch name {
            // What the simulated browser (and the recording client) negotiates, or the proxy in front.
            case "SSL_PROTOCOL": return chain.request.tlsProtocol
            case "SSL_TLS_SNI":
                // The name the handshake sent: the URL's host, whatever `Host` says (recorded:
                // https-ssl-tls-sni-is-the-handshake-name); without one known, the Host's.
                if let sni = chain.request.sni { return sni }
                guard let host = chain.header("Host") else { return "" }
                return (host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? host).asciiLowercased()
            // No client certificate is ever sent (ssl_var_lookup_ssl_cert_verify: no verification
            // done at all); OpenSSL 3 compresses nothing, has no export cipher, and every client
            // signals secure renegotiation (recorded: https-ssl-variables-without-client-certificate).
            case "SSL_CLIENT_VERIFY": return "NONE"
            case "SSL_COMPRESS_METHOD": return "NULL"
            case "SSL_CIPHER_EXPORT": return "false"
            case "SSL_SECURE_RENEG": return "true"
            // The recordings' handshakes (directly and behind the edge) use AES-256-GCM: a browser
            // may get AES-128, but `SSLRequire %{SSL_CIPHER_USEKEYSIZE} >= 128` holds either way.
            case "SSL_CIPHER_USEKEYSIZE", "SSL_CIPHER_ALGKEYSIZE": return "256"
            // Over TLS 1.3 its name does not depend on the certificate (recorded:
            // env-ssloptions-stdenvvars-merging); TLS 1.2's (a proxy's) names the key's type, so
            // only the one who set up the link knows it.
            case "SSL_CIPHER":
                if let cipher = chain.request.tlsCipher { return cipher }
                return chain.request.tlsProtocol == "TLSv1.3" ? "TLS_AES_256_GCM_SHA384" : ""
            // A new connection's full handshake; behind a proxy its session cache decides (the
            // recordings' nginx resumes from its second connection on), so unknown there.
            case "SSL_SESSION_RESUMED": return chain.request.sessionResumed ?? ""
            // The server's certificate, when the simulation was told it (recorded:
            // https-ssl-server-certificate-and-session-variables); its serial, dates and PEM
            // text, the session's ID and the client's certificate are not simulated.
            case _ where name.hasBytePrefix("SSL_SERVER_"):
                return chain.request.serverCertificate?.variable(String(rawName.dropFirst(11))) ?? ""
            default: return ""
            }
        }
        switch name {
        case "SERVER_SOFTWARE": return Conditionals.serverBanner
        case "API_VERSION": return Origin.moduleMagicMajor
        default: return ""
        }
    }

    /// MODULE_MAGIC_NUMBER_MAJOR of httpd 2.4 (mod_rewrite adds the minor, 142 in 2.4.71).
    static let moduleMagicMajor = "20120211"

    /// The request variables ssl_var_lookup reads itself (TIME_* come after the connection's).
    private static let sslRequestVariables: [String: VariableSource] = {
        var names: [String: VariableSource] = [
            "HTTP_USER_AGENT": .header("User-Agent"), "HTTP_REFERER": .header("Referer"), "HTTP_COOKIE": .header("Cookie"),
            "HTTP_FORWARDED": .header("Forwarded"), "HTTP_HOST": .header("Host"),
            "HTTP_PROXY_CONNECTION": .header("Proxy-Connection"), "HTTP_ACCEPT": .header("Accept"),
            "REQUEST_METHOD": .requestMethod, "REQUEST_SCHEME": .requestScheme, "REQUEST_URI": .requestURI,
            "REQUEST_FILENAME": .requestFilename, "REMOTE_ADDR": .remoteAddress, "REMOTE_HOST": .remoteHost,
            "REMOTE_IDENT": .constant(""), "REMOTE_USER": .constant(""), "SERVER_ADMIN": .serverAdmin,
            "SERVER_NAME": .serverName, "SERVER_PORT": .serverPort, "SERVER_PROTOCOL": .serverProtocol,
            "SCRIPT_FILENAME": .requestFilename, "PATH_INFO": .pathInfo, "QUERY_STRING": .queryString,
            "IS_SUBREQ": .isSubrequest, "DOCUMENT_ROOT": .documentRoot, "AUTH_TYPE": .constant(""),
            "THE_REQUEST": .theRequest,
        ]
        for t in ["TIME", "TIME_YEAR", "TIME_MON", "TIME_DAY", "TIME_HOUR", "TIME_MIN", "TIME_SEC", "TIME_WDAY"] { names[t] = .time }
        return names
    }()

    /// ssl_var_lookup_ssl_version: the module and library mod_ssl was built with.
    private static let sslVersions: [String: String] = [
        "INTERFACE": "mod_ssl/2.4.71", "LIBRARY": "OpenSSL/3.0.19",
    ]
}
