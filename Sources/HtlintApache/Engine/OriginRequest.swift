import HtlintDiagnostics

/// A request as it reaches Apache.
///
/// Its fields live in a box shared by copies until one is changed (copy-on-write, as
/// `OriginResponse`): an answer's request is handed from the chain to Apache's request records
/// and the hop, and copying ten strings and arrays each time was 2% of a replay.
public struct OriginRequest: Sendable, Hashable {
    /// Mutated only through `unique` (a box no other value shares).
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var method: String
        @exclusivity(unchecked) var target: String
        @exclusivity(unchecked) var headers: [HTTPHeader]
        @exclusivity(unchecked) var tls: Bool
        @exclusivity(unchecked) var remoteAddress: String
        @exclusivity(unchecked) var connectionAddress: String? = nil
        @exclusivity(unchecked) var serverAddress: String
        @exclusivity(unchecked) var tlsProtocol = "TLSv1.3"
        @exclusivity(unchecked) var tlsCipher: String? = nil
        @exclusivity(unchecked) var sni: String? = nil
        @exclusivity(unchecked) var misdirectedSNI: String? = nil
        @exclusivity(unchecked) var serverCertificate: ServerCertificate? = nil
        @exclusivity(unchecked) var sessionResumed: String? = nil

        init(method: String, target: String, headers: [HTTPHeader], tls: Bool, remoteAddress: String, serverAddress: String) {
            self.method = method
            self.target = target
            self.headers = headers
            self.tls = tls
            self.remoteAddress = remoteAddress
            self.serverAddress = serverAddress
        }

        func copy() -> Box {
            let b = Box(method: method, target: target, headers: headers, tls: tls, remoteAddress: remoteAddress,
                        serverAddress: serverAddress)
            b.connectionAddress = connectionAddress
            b.tlsProtocol = tlsProtocol
            b.tlsCipher = tlsCipher
            b.sni = sni
            b.misdirectedSNI = misdirectedSNI
            b.serverCertificate = serverCertificate
            b.sessionResumed = sessionResumed
            return b
        }
    }

    private var box: Box

    /// The box, copied first when another value shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    public init(method: String = "GET", target: String, headers: [HTTPHeader] = [], tls: Bool = false,
                remoteAddress: String = "127.0.0.1", serverAddress: String = "127.0.0.1") {
        box = Box(method: method, target: target, headers: headers, tls: tls, remoteAddress: remoteAddress,
                  serverAddress: serverAddress)
    }

    public var method: String {
        get { box.method }
        _modify { yield &unique.method }
    }
    /// The request target as sent: path and query, not decoded (`/a%20b?q=1`).
    public var target: String {
        get { box.target }
        _modify { yield &unique.target }
    }
    /// Request headers in order; `Host` among them.
    public var headers: [HTTPHeader] {
        get { box.headers }
        _modify { yield &unique.headers }
    }
    /// Whether the connection to Apache itself is TLS (what `%{HTTPS}` reports).
    public var tls: Bool {
        get { box.tls }
        _modify { yield &unique.tls }
    }
    /// The client's address as Apache sees it (`REMOTE_ADDR`); mod_remoteip may replace it.
    public var remoteAddress: String {
        get { box.remoteAddress }
        _modify { yield &unique.remoteAddress }
    }
    /// The connection's peer when mod_remoteip replaced `remoteAddress` (`CONN_REMOTE_ADDR`).
    public var connectionAddress: String? {
        get { box.connectionAddress }
        _modify { yield &unique.connectionAddress }
    }
    /// The address the connection reached Apache on (`%{SERVER_ADDR}`).
    public var serverAddress: String {
        get { box.serverAddress }
        _modify { yield &unique.serverAddress }
    }
    /// The TLS version the connection negotiated (`SSL_PROTOCOL`): a browser's TLSv1.3, unless a
    /// proxy in front offers less.
    public var tlsProtocol: String {
        get { box.tlsProtocol }
        _modify { yield &unique.tlsProtocol }
    }
    /// The cipher suite it negotiated (`SSL_CIPHER`), when known; TLS 1.3's does not depend on the
    /// certificate, so without one that version gives the browsers' AES-256-GCM suite.
    public var tlsCipher: String? {
        get { box.tlsCipher }
        _modify { yield &unique.tlsCipher }
    }
    /// The name the TLS client sent as SNI (nil: none known; `SSL_TLS_SNI` then reads `Host`).
    public var sni: String? {
        get { box.sni }
        _modify { yield &unique.sni }
    }
    /// The SNI name, when it picked another virtual host than `Host` did and mod_ssl finds the
    /// two servers' TLS settings incompatible: ssl_hook_ReadReq answers 421 (AH02032).
    public var misdirectedSNI: String? {
        get { box.misdirectedSNI }
        _modify { yield &unique.misdirectedSNI }
    }

    /// The certificate the TLS listener presented (`SSL_SERVER_*`), when known.
    public var serverCertificate: ServerCertificate? {
        get { box.serverCertificate }
        _modify { yield &unique.serverCertificate }
    }
    /// `SSL_SESSION_RESUMED` of the connection (`Initial` after a full handshake), when known.
    public var sessionResumed: String? {
        get { box.sessionResumed }
        _modify { yield &unique.sessionResumed }
    }

    /// First header with this name, case-insensitively.
    public func header(_ name: String) -> String? {
        let headers = box.headers
        return headers.indexOfHeader(name).map { headers[$0].value }
    }

    public static func == (a: OriginRequest, b: OriginRequest) -> Bool {
        if a.box === b.box { return true }
        return a.method == b.method && a.target == b.target && a.headers == b.headers && a.tls == b.tls
            && a.remoteAddress == b.remoteAddress && a.connectionAddress == b.connectionAddress
            && a.serverAddress == b.serverAddress && a.tlsProtocol == b.tlsProtocol && a.tlsCipher == b.tlsCipher && a.sni == b.sni
            && a.misdirectedSNI == b.misdirectedSNI && a.serverCertificate == b.serverCertificate
            && a.sessionResumed == b.sessionResumed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(headers)
        hasher.combine(tls)
        hasher.combine(remoteAddress)
        hasher.combine(connectionAddress)
        hasher.combine(serverAddress)
        hasher.combine(tlsProtocol)
        hasher.combine(tlsCipher)
        hasher.combine(sni)
        hasher.combine(misdirectedSNI)
        hasher.combine(serverCertificate)
        hasher.combine(sessionResumed)
    }
}

extension Array where Element == HTTPHeader {
    /// The index of the first (or `last`) line named `name`, case-insensitively. Over the
    /// buffer, lengths first: indexing the array retained every name it compared, and a hop
    /// looks up some fifty headers, most of them absent (W1 chains: −2%).
    public func indexOfHeader(_ name: String, last: Bool = false) -> Int? {
        let length = name.utf8.count
        return withUnsafeBufferPointer { list in
            func named(_ i: Int) -> Bool { list[i].name.utf8.count == length && equalsIgnoringASCIICase(list[i].name, name) }
            return last ? list.indices.last(where: named) : list.indices.first(where: named)
        }
    }
}

/// One header line.
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// The state of a request record, as Apache's access log shows it with `%<`/`%>` modifiers.
public struct RecordState: Sendable, Hashable, Codable {
    public var status: Int
    /// Decoded URL-path.
    public var uri: String
    /// `""` none, `"?"` empty, `"?a=1"`.
    public var query: String
    /// Relative to the document root when under it; otherwise as Apache had it; nil if unset.
    public var filename: String?
    public var handler: String?
}

/// One step of the engine's reasoning, for `explain`.
public struct TraceEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Codable {
        case request, ruleMatched, ruleSkipped, conditionFailed, internalRedirect, externalRedirect, status
        case alias, directorySlash, directoryIndex, fallback, served, configError, note
    }
    public var kind: Kind
    public var detail: String
    public var range: SourceRange?

    public init(_ kind: Kind, _ detail: String, range: SourceRange? = nil) {
        self.kind = kind
        self.detail = detail
        self.range = range
    }
}

/// Apache's answer to one request. A value, stored in one copy-on-write box: a chain copies
/// each answer several times on its way out through the layers (hop, path, result), and a copy
/// of twelve fields retained every string and array in them.
public struct OriginResponse: Sendable {
    /// Mutated only through `unique` (a box no other value shares), so the runtime's exclusivity
    /// checks on its fields are off: they cost more than reading a field.
    private final class Box: @unchecked Sendable {
        @exclusivity(unchecked) var status: Int
        @exclusivity(unchecked) var location: String?
        @exclusivity(unchecked) var headers: [HTTPHeader]
        @exclusivity(unchecked) var served: String?
        @exclusivity(unchecked) var final: RecordState
        @exclusivity(unchecked) var original: RecordState
        @exclusivity(unchecked) var recursionLimitExceeded: Bool
        @exclusivity(unchecked) var errors: [String]
        @exclusivity(unchecked) var errorCodes: [String]
        @exclusivity(unchecked) var trace: [TraceEvent]
        @exclusivity(unchecked) var internalRedirects: Int
        @exclusivity(unchecked) var firedRules: [SourceRange]
        @exclusivity(unchecked) var readsClock: Bool
        @exclusivity(unchecked) var compressed = false
        @exclusivity(unchecked) var connectionLost = false

        init(status: Int, location: String?, headers: [HTTPHeader], served: String?, final: RecordState,
             original: RecordState, recursionLimitExceeded: Bool, errors: [String], errorCodes: [String],
             trace: [TraceEvent], internalRedirects: Int, firedRules: [SourceRange], readsClock: Bool) {
            self.status = status
            self.location = location
            self.headers = headers
            self.served = served
            self.final = final
            self.original = original
            self.recursionLimitExceeded = recursionLimitExceeded
            self.errors = errors
            self.errorCodes = errorCodes
            self.trace = trace
            self.internalRedirects = internalRedirects
            self.firedRules = firedRules
            self.readsClock = readsClock
        }

        func copy() -> Box {
            let b = Box(status: status, location: location, headers: headers, served: served, final: final, original: original,
                        recursionLimitExceeded: recursionLimitExceeded, errors: errors, errorCodes: errorCodes, trace: trace,
                        internalRedirects: internalRedirects, firedRules: firedRules, readsClock: readsClock)
            b.compressed = compressed
            b.connectionLost = connectionLost
            return b
        }
    }

    private var box: Box

    public init(status: Int, location: String?, headers: [HTTPHeader], served: String?, final: RecordState,
                original: RecordState, recursionLimitExceeded: Bool, errors: [String], errorCodes: [String],
                trace: [TraceEvent], internalRedirects: Int, firedRules: [SourceRange] = [], readsClock: Bool = false) {
        box = Box(status: status, location: location, headers: headers, served: served, final: final, original: original,
                  recursionLimitExceeded: recursionLimitExceeded, errors: errors, errorCodes: errorCodes, trace: trace,
                  internalRedirects: internalRedirects, firedRules: firedRules, readsClock: readsClock)
    }

    /// The box, copied first when another value shares it.
    private var unique: Box {
        mutating get {
            if !isKnownUniquelyReferenced(&box) { box = box.copy() }
            return box
        }
    }

    /// 0: no response at all (the Apache child crashed and the connection closed).
    public var status: Int {
        get { box.status }
        _modify { yield &unique.status }
    }
    public var location: String? {
        get { box.location }
        _modify { yield &unique.location }
    }
    /// Headers Apache adds that matter here (`Header` directives, `Set-Cookie`, `Vary`).
    public var headers: [HTTPHeader] {
        get { box.headers }
        _modify { yield &unique.headers }
    }
    /// mod_deflate sent the body gzip-compressed (`Content-Encoding: gzip`): what goes over the
    /// wire is not the served file's bytes.
    public var compressed: Bool {
        get { box.compressed }
        _modify { yield &unique.compressed }
    }
    /// The TLS connection broke under the answer (a renegotiation the client refused): Apache
    /// logged its answer, but none reached the client, which sees the connection close.
    public var connectionLost: Bool {
        get { box.connectionLost }
        _modify { yield &unique.connectionLost }
    }
    /// The file whose content is served (relative to the document root), nil for none.
    public var served: String? {
        get { box.served }
        _modify { yield &unique.served }
    }
    /// The request record after all internal redirects, and the first one.
    public var final: RecordState {
        get { box.final }
        _modify { yield &unique.final }
    }
    public var original: RecordState {
        get { box.original }
        _modify { yield &unique.original }
    }
    /// AH00124: more than `LimitInternalRecursion` internal redirects.
    public var recursionLimitExceeded: Bool {
        get { box.recursionLimitExceeded }
        _modify { yield &unique.recursionLimitExceeded }
    }
    /// Error-log entries (`AH01630`, …), as `level: message`.
    public var errors: [String] {
        get { box.errors }
        _modify { yield &unique.errors }
    }
    public var errorCodes: [String] {
        get { box.errorCodes }
        _modify { yield &unique.errorCodes }
    }
    public var trace: [TraceEvent] {
        get { box.trace }
        _modify { yield &unique.trace }
    }
    /// Number of internal redirects performed.
    public var internalRedirects: Int {
        get { box.internalRedirects }
        _modify { yield &unique.internalRedirects }
    }
    /// Directives that matched (rewrite rules and `Redirect`s), in order.
    public var firedRules: [SourceRange] {
        get { box.firedRules }
        _modify { yield &unique.firedRules }
    }
    /// The answer read the clock (`%{TIME…}`, a cookie's expiry): the same request may be
    /// answered otherwise a moment later, so it is not to be reused.
    public var readsClock: Bool {
        get { box.readsClock }
        _modify { yield &unique.readsClock }
    }

    public func header(_ name: String) -> String? {
        headers.indexOfHeader(name, last: true).map { headers[$0].value }
    }

    /// Every line of this header joined with ", ", as a client reads repeated lines (and as
    /// the oracle records them); nil when there is none.
    public func combinedHeader(_ name: String) -> String? {
        let values = headers.filter { equalsIgnoringASCIICase($0.name, name) }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
