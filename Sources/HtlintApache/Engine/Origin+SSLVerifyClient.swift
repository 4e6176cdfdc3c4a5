/// mod_ssl's per-directory `SSLVerifyClient` (ssl_hook_Access): a directory that asks for more
/// client verification than the handshake did needs a new handshake in the middle of the request.
extension Origin {
    /// 403 (413) when a per-directory `SSLVerifyClient` cannot be had over this connection. Over plain
    /// http mod_ssl's checker has returned before (the directive is ignored). Over TLS 1.3 there
    /// is no renegotiation, only post-handshake authentication, which neither browsers nor the
    /// recording client offer: AH10158 and 403 for `optional`, `optional_no_ca` and `require`
    /// alike (recorded: https-sslverifyclient-per-directory-tls13-forbidden). `none`, or a mode
    /// the handshake's own (`SSLVerifyClient` in the virtual host) already covers, changes nothing.
    func sslVerifyClientRefusal(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain) -> Int? {
        guard chain.request.tls, let needed = config.sslVerifyClient else { return nil }
        let inPlace = site.vhost.block.sslVerifyClientHandshake ?? "none"
        // SSL_VERIFY_PEER for the optional modes, FAIL_IF_NO_PEER_CERT as well for require: only
        // a flag the handshake did not set makes mod_ssl verify again.
        func strictness(_ mode: String) -> Int { mode == "require" ? 2 : mode == "none" ? 0 : 1 }
        guard strictness(needed) > strictness(inPlace) else { return nil }
        // Before the new handshake (TLS 1.3's post-handshake authentication too) mod_ssl reads
        // the request body into a buffer of SSLRenegBufferSize bytes: a larger body (or any with
        // a size of 0) is 413 (recorded: https-sslrenegbuffersize-body-too-large-behind-edge,
        // https-sslverifyclient-satisfy-any-require-decides).
        let tls13 = chain.request.tlsProtocol == "TLSv1.3"
        if let length = chain.header("Content-Length").flatMap({ Int($0) }), length > 0,
           length > config.sslRenegBufferSize || config.sslRenegBufferSize == 0 {
            if config.sslRenegBufferSize > 0 {
                chain.log("AH02018", "error", "request body exceeds maximum size (\(config.sslRenegBufferSize)) for SSL buffer")
            }
            if tls13 {
                chain.log("AH10228", "error", "could not buffer message body to allow TLS Post-Handshake Authentication to proceed")
            } else {
                chain.log("AH02257", "error", "could not buffer message body to allow SSL renegotiation to proceed")
            }
            chain.note(.status, "413: the request body (\(length) bytes) does not fit SSLRenegBufferSize \(config.sslRenegBufferSize) for the new handshake")
            return 413
        }
        if tls13 {
            chain.log("AH10158", "error", "cannot perform post-handshake authentication")
            chain.note(.status, "403: SSLVerifyClient \(needed) needs a client certificate after the TLS 1.3 handshake, which the client cannot send")
            return 403
        }
        // The proxy sends no certificate, which `optional` accepts; `require` fails the handshake
        // (AH02261), and the 403 mod_ssl returns is logged but the connection is gone: the proxy
        // answers 502 (recorded: https-sslverifyclient-per-directory-renegotiation-behind-edge).
        guard needed == "require" else {
            chain.note(.note, "SSLVerifyClient \(needed): the connection is renegotiated; no client certificate is sent")
            return nil
        }
        chain.log("AH02261", "error", "Re-negotiation handshake failed")
        chain.note(.status, "403: SSLVerifyClient require, and the renegotiated handshake brings no client certificate: the connection breaks")
        chain.connectionLost = true
        return 403
    }
}
