/// mod_ssl's server-level handshake settings, which decide whether a request may reach another
/// virtual host than the one its SNI picked (TLSHandshakeSettings).
extension ConfigReader {
    mutating func sslHandshakeDirective(_ line: DirectiveLine, into block: inout ConfigBlock) {
        let words = line.words.map(\.value)
        guard block.server != nil, let first = words.first else { return }
        switch line.info.name {
        case "SSLProtocol": block.server?.tlsHandshake.protocols = TLSHandshakeSettings.protocols(words)
        case "SSLCipherSuite":
            // One argument is the `SSL` (TLSv1.2 and older) list; two name the protocol first.
            if words.count == 1 || words[0] == "SSL" {
                block.server?.tlsHandshake.cipherSuite = words.last
            } else if words[0] == "TLSv1.3" {
                block.server?.tlsHandshake.tls13Ciphers = words[1]
            }
        // `off` and `on` are ssl_cmd_verify_parse's other names for none and require.
        case "SSLVerifyClient":
            let mode = first.asciiLowercased()
            block.server?.tlsHandshake.verifyMode = mode == "off" ? "none" : mode == "on" ? "require" : mode
        case "SSLVerifyDepth": block.server?.tlsHandshake.verifyDepth = atoi(first)
        case "SSLCACertificateFile": block.server?.tlsHandshake.caFile = first
        case "SSLCACertificatePath": block.server?.tlsHandshake.caPath = first
        default: break
        }
    }
}
