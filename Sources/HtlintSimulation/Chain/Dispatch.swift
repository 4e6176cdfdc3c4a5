import HtlintApache
import HtlintBytes

/// One hop: the browser's request through the layers to Apache (and WordPress) and the answer
/// back (layers-and-mixed-content §1.3 `dispatch`).
extension ChainSimulator {
    /// One request from the browser through the layers to the origin and back.
    func exchange(_ url: URLParts, method: String, headers: [HTTPHeader], firstHop: Bool, caches: inout CacheState) -> Hop {
        // The client's Host header overrides the URL's only on the first hop (conformance README).
        let hostOverride = firstHop ? headers.first { equalsIgnoringASCIICase($0.name, "host") }?.value : nil
        var sent: [HTTPHeader] = []
        if !headers.contains(where: { equalsIgnoringASCIICase($0.name, "user-agent") }) {
            sent.append(HTTPHeader("User-Agent", userAgent))
        }
        sent += headers.filter { !equalsIgnoringASCIICase($0.name, "host") }
        // The recording client asks for one exchange per connection (`Connection: close`, which
        // %{HTTP:Connection} shows: recorded in rewrite-cond-connection-header).
        if recordingClient { sent.append(HTTPHeader("Connection", "close")) }
        // The recording client sends a small form body with POST and PUT (tools/apache-oracle).
        if recordingClient, method == "POST" || method == "PUT" {
            sent += [HTTPHeader("Content-Type", "application/x-www-form-urlencoded"), HTTPHeader("Content-Length", "8")]
        }
        // `hostHeader` is lower-case, as a browser writes `Host` (WHATWG URL parsing).
        var request = HopRequest(scheme: url.scheme, port: url.effectivePort, host: hostOverride ?? url.hostHeader,
                                 method: method, target: url.target, headers: sent)
        // TLS clients send no SNI for an address (RFC 6066).
        if url.scheme == "https", !url.isIPLiteral {
            request.sni = url.host.asciiLowercased()
        }
        var path: [PathStep] = []
        let response: HopResponse
        if let failure = frontFailure(request) {
            response = HopResponse(status: 0, answerer: .browser, producer: "browser", error: failure)
        } else {
            response = dispatch(request, 0, &path, &caches)
        }
        return Hop(url: url.text, method: method, status: response.status, location: response.location,
                   answerer: response.answerer, producer: response.producer, headers: response.headers, path: path,
                   served: response.answerer == .edge || method == "HEAD" ? nil : response.origin?.served,
                   origin: response.origin, originRequest: response.originRequest, reason: response.reason,
                   app: response.app, error: response.error, cached: response.cached)
    }

    /// Whether hops keep the layers' path and the request Apache received, which explanations,
    /// lint rules and fixes read (their simulators trace). Bulk replay's simulator (tracing
    /// off) keeps neither: building and freeing them was a tenth of a replayed hop.
    var explains: Bool { origin.tracing }

    /// Why the browser cannot talk to the first component at all, in Chrome's words.
    func frontFailure(_ request: HopRequest) -> String? {
        if let front = layers.first {
            if !front.listens(on: request.port) { return "ERR_CONNECTION_REFUSED: nothing listens on port \(request.port)" }
            if request.scheme == "https", !front.speaksTLS(on: request.port) {
                return "ERR_SSL_PROTOCOL_ERROR: port \(request.port) does not speak TLS"
            }
            return nil
        }
        guard originServer.listens(on: request.port) else {
            return request.scheme == "https" && request.port == originServer.httpsPort
                ? "ERR_CONNECTION_REFUSED: the origin has no HTTPS listener"
                : "ERR_CONNECTION_REFUSED: nothing listens on port \(request.port)"
        }
        switch originServer.failure(scheme: request.scheme, port: request.port, verifying: true) {
        case nil: return nil
        case .refused?: return "ERR_CONNECTION_REFUSED: the origin has no HTTPS listener"
        case .tlsHandshake?: return "ERR_SSL_PROTOCOL_ERROR: TLS handshake with the origin failed"
        case .invalidCertificate(let what)?: return "ERR_CERT_INVALID: \(what)"
        }
    }

    /// Passes a request through `layers[index...]` to the origin, and the answer back.
    func dispatch(_ request: HopRequest, _ index: Int, _ path: inout [PathStep], _ caches: inout CacheState) -> HopResponse {
        guard index < layers.count else { return originAnswer(request, &path) }
        let layer = layers[index]
        if request.scheme == "http", layer.speaksTLS(on: request.port) {
            // Plain HTTP on a TLS port: the layer's own 400 (nginx's 497, which Cloudflare shows too; §5.2, H17).
            if explains { path.append(PathStep(component: layer.label, received: request, notes: ["plain HTTP sent to its TLS port"])) }
            return HopResponse(status: 400, answerer: .edge, producer: layer.label, reason: "The plain HTTP request was sent to HTTPS port")
        }
        switch layer.receive(request) {
        case .answer(let response):
            if explains { path.append(PathStep(component: layer.label, received: request, notes: response.reason.map { [$0] } ?? [])) }
            return response
        case .forward(let next, let notes):
            // The step on the path, for explanations (with which headers the layer set).
            var step: Int? = nil
            if explains {
                var changed = next.headers.filter { request.header($0.name) != $0.value }.map(\.name)
                if next.host != request.host { changed.insert("Host", at: 0) }
                path.append(PathStep(component: layer.label, received: request, forwarded: next, setHeaders: changed, notes: notes))
                step = path.count - 1
            }
            let key = layer.cacheKey(received: request, forwarded: next).map { ByteKey("\(index) \($0)") }
            if let key, let entry = caches.entries[key] {
                // A cache hit: the layer answers with what it stored for an earlier request (§2.8).
                if let step { path[step].forwarded = nil }
                let stored = "a \(entry.status) stored for \(entry.storedFor), kept \(entry.lifetime)"
                var hit = HopResponse(status: entry.status, location: entry.location, headers: entry.headers, answerer: .edge,
                                      producer: layer.label, reason: "cache hit")
                hit.cached = stored
                let (response, notes) = layer.respond(consume hit, received: request, forwarded: next)
                if let step { path[step].responseNotes = ["answers from its cache: \(stored)"] + notes }
                return response
            }
            if let failure = connectionFailure(into: index + 1, next, verifying: layer.verifiesCertificates) {
                return layer.connectionFailed(failure, forwarded: next)
            }
            let answer = dispatch(next, index + 1, &path, &caches)
            if let key, let lifetime = layer.cacheLifetime(answer, received: request) {
                caches.entries[key] = CacheState.Entry(status: answer.status, location: answer.location, headers: answer.headers,
                                                       lifetime: lifetime, storedFor: request.url)
            }
            let (response, responseNotes) = layer.respond(answer, received: request, forwarded: next)
            if let step { path[step].responseNotes = responseNotes }
            return response
        }
    }

    /// Why a layer cannot connect to the component at `index`, if it cannot.
    func connectionFailure(into index: Int, _ request: HopRequest, verifying: Bool) -> ConnectionFailure? {
        guard index < layers.count else {
            return originServer.failure(scheme: request.scheme, port: request.port, verifying: verifying)
        }
        let next = layers[index]
        if !next.listens(on: request.port) { return .refused }
        if request.scheme == "https", !next.speaksTLS(on: request.port) { return .tlsHandshake }
        return nil
    }

    /// Apache's answer to a request sent straight to it, past the layers (a load balancer's
    /// health check), and WordPress's when it reaches one of its entry points.
    public func askOrigin(_ request: HopRequest) -> HopResponse {
        var path: [PathStep] = []
        return originAnswer(request, &path)
    }

    /// Apache's answer, and WordPress's when the request reaches one of its entry points.
    func originAnswer(_ request: HopRequest, _ path: inout [PathStep]) -> HopResponse {
        let tls = request.scheme == "https"
        if explains { path.append(PathStep(component: "Apache", received: request)) }
        if !tls, request.port == originServer.httpsPort, originServer.tls != .none {
            return HopResponse(status: 400, answerer: .origin, producer: "Apache",
                               reason: "plain HTTP sent to the TLS port (\"You're speaking plain HTTP to an SSL-enabled server port\")")
        }
        var originRequest = OriginRequest(method: request.method, target: request.target,
                                          headers: [HTTPHeader("Host", request.host)] + request.headers, tls: tls,
                                          serverAddress: originServerAddress ?? "127.0.0.1")
        if let proto = originTLSProtocol { originRequest.tlsProtocol = proto }
        if let cipher = originTLSCipher { originRequest.tlsCipher = cipher }
        // The browser's SNI reaches Apache itself only without a proxy in front, and so does
        // its new connection's full handshake (a proxy may resume a session it keeps).
        if tls, layers.isEmpty {
            originRequest.sni = request.sni
            originRequest.sessionResumed = "Initial"
        }
        if tls { originRequest.serverCertificate = originServer.certificate }
        let server = virtualHosts?.origin(port: request.port, host: request.host) ?? (tls ? tlsOrigin : origin)
        // mod_ssl picked a server by SNI for the handshake: the browser's URL host, or the
        // Host name a proxy in front forwards (nginx's `proxy_ssl_name $host`). A request whose
        // Host picks a server with other TLS settings is misdirected (ssl_hook_ReadReq).
        if tls, let virtualHosts, let sni = layers.isEmpty ? request.sni : request.hostName, !sni.isEmpty,
           let handshake = virtualHosts.origin(port: request.port, host: sni),
           handshake.site.tlsHandshake != server.site.tlsHandshake {
            originRequest.misdirectedSNI = sni
        }
        let answer = server.respond(to: originRequest)
        var response = HopResponse(status: answer.status, location: answer.location,
                                   headers: answer.headers.filter { !equalsIgnoringASCIICase($0.name, "content-type") },
                                   answerer: .origin, producer: "Apache")
        response.origin = answer
        if explains { response.originRequest = originRequest }
        if answer.status == 0 {
            response.error = "the connection closed without a response: the Apache child crashed"
            return response
        }
        // (Only a client speaking TLS 1.2 to Apache itself meets this: over a browser's TLS 1.3
        // the per-directory SSLVerifyClient is a 403 instead.)
        if answer.connectionLost, layers.isEmpty {
            response.status = 0
            response.error = "the TLS connection broke without a response: a renegotiation failed"
            return response
        }
        if let app, let decided = app.handle(originRequest, answer, site: server.site) {
            if explains { path.append(PathStep(component: "WordPress", received: request)) }
            response.status = decided.status
            response.location = decided.location
            response.answerer = .app
            response.producer = decided.producer
            response.reason = decided.why
            response.app = decided
            // wp_redirect() names itself since WordPress 5.1 (§12.3).
            if decided.location != nil { response.headers.append(HTTPHeader("X-Redirect-By", "WordPress")) }
        }
        return response
    }
}
