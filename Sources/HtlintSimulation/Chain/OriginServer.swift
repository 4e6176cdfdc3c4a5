import HtlintApache

/// How the origin Apache listens, as far as the layers in front of it care (the §16 notation
/// `tls:none`, `tls:valid`): plain HTTP on one port, and optionally TLS with some certificate.
public struct OriginServer: Sendable, Hashable {
    /// The origin's own HTTPS listener.
    public enum TLS: String, Sendable, CaseIterable {
        /// No HTTPS listener (typical for shared hosting behind Cloudflare Flexible).
        case none
        /// A certificate valid for the requested names.
        case valid
        /// Accepted by Cloudflare Full, refused by Full (strict) (526).
        case selfSigned = "self-signed"
        case expired
        /// A certificate for another host name (shared hosting's default certificate).
        case wrongHost = "wrong-host"
        /// Something answers on the TLS port but the handshake fails (525).
        case broken
    }

    /// What answers on `httpsPort`.
    public var tls: TLS
    /// Port of the plain-HTTP listener.
    public var httpPort: Int
    /// Port of the TLS listener, when there is one.
    public var httpsPort: Int
    /// What its certificate says (mod_ssl's `SSL_SERVER_*`), when known.
    public var certificate: ServerCertificate? = nil

    /// By default: HTTP on 80 and HTTPS on 443 with a valid certificate.
    public init(tls: TLS = .valid, httpPort: Int = 80, httpsPort: Int = 443) {
        self.tls = tls
        self.httpPort = httpPort
        self.httpsPort = httpsPort
    }

    /// Whether a browser connecting directly finds a listener on this port.
    func listens(on port: Int) -> Bool { port == httpPort || (port == httpsPort && tls != .none) }

    /// Whether the listener on this port speaks TLS.
    func speaksTLS(on port: Int) -> Bool { port == httpsPort && tls != .none }

    /// Why a connection with this scheme to this port fails; nil when it works. Layers connect
    /// to whatever HTTP port they are configured with, so any port but the TLS one serves HTTP.
    func failure(scheme: String, port: Int, verifying: Bool) -> ConnectionFailure? {
        guard scheme == "https" else { return nil }
        switch tls {
        case .none: return port == httpPort ? .tlsHandshake : .refused
        case .broken: return .tlsHandshake
        case .valid: return nil
        case .selfSigned: return verifying ? .invalidCertificate("self-signed certificate") : nil
        case .expired: return verifying ? .invalidCertificate("expired certificate") : nil
        case .wrongHost: return verifying ? .invalidCertificate("certificate for another host name") : nil
        }
    }
}
