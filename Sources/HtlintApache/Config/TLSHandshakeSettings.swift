import HtlintBytes

/// The server-level mod_ssl settings ssl_server_compatible compares when a request's `Host`
/// picks another virtual host than its SNI did: different ones make ssl_hook_ReadReq answer
/// 421 (AH02032). Values as the server has them after ssl_init_ctx: an unset verify mode is
/// `none`, an unset depth 1; cipher strings compare as written, an unset one with none but
/// itself (recorded: vhost-sni-host-incompatible-tls-setup-421).
public struct TLSHandshakeSettings: Sendable, Hashable {
    /// `SSLProtocol`'s TLS versions (no SSLv3: Debian's OpenSSL has none). Unset: all of them,
    /// as the recordings' main server (`SSLProtocol all`) and Debian's ssl.conf set.
    public var protocols: Set<String> = TLSHandshakeSettings.allProtocols
    /// `SSLCipherSuite [SSL] …` and `SSLCipherSuite TLSv1.3 …`.
    public var cipherSuite: String? = nil
    public var tls13Ciphers: String? = nil
    /// `SSLVerifyClient` (lower case) and `SSLVerifyDepth` (atoi).
    public var verifyMode = "none"
    public var verifyDepth = 1
    /// `SSLCACertificateFile`, `SSLCACertificatePath`.
    public var caFile: String? = nil
    public var caPath: String? = nil

    public init() {}

    static let allProtocols: Set<String> = ["tlsv1", "tlsv1.1", "tlsv1.2", "tlsv1.3"]

    /// ssl_cmd_protocol_parse: each word adds (`+`), removes (`-`) or, unsigned, replaces the
    /// set built from nothing; `all` is every version. Unknown words are left to Apache's check.
    static func protocols(_ words: [String]) -> Set<String> {
        var set: Set<String> = []
        for word in words {
            var w = Substring(word.asciiLowercased())
            let action = w.first == "+" || w.first == "-" ? w.removeFirst() : nil
            let these: Set<String> = w == "all" ? allProtocols : allProtocols.contains(String(w)) ? [String(w)] : []
            switch action {
            case "+": set.formUnion(these)
            case "-": set.subtract(these)
            default: set = these
            }
        }
        return set
    }
}
