/// mod_ssl's check_authn hook (ssl_hook_UserCheck), which runs before mod_auth_basic's and only
/// when a `Require` needs a user.
extension Origin {
    /// 403 from ssl_hook_UserCheck, if it refuses: `SSLOptions +StrictRequire` refuses again a
    /// request that `SSLRequireSSL` or `SSLRequire` refused and `Satisfy Any` let on to
    /// authentication (`sslForbidden`: mod_ssl's `ssl-access-forbidden` note); and in an initial
    /// request, Basic credentials whose user looks like a certificate's DN (`/…`) with the
    /// password `password` are a FakeBasicAuth spoof (AH02035), over http too, whatever the
    /// options (recorded: access-ssl-strictrequire-and-fakebasicauth-spoof).
    func sslUserCheck(_ r: RequestRecord, _ config: MergedConfig, _ chain: RequestChain, sslForbidden: Bool) -> Int? {
        guard site.modules.contains("ssl") else { return nil }
        if sslForbidden, config.sslOptions.options.contains("strictrequire") {
            chain.note(.status, "403: SSLOptions +StrictRequire keeps mod_ssl's refusal although `Satisfy Any` went on to authentication")
            return 403
        }
        // ap_is_initial_req: no subrequest, no internal redirect.
        guard !r.isSubrequest, r.isInitial, let credentials = chain.header("Authorization") else { return nil }
        var rest = Substring(credentials)
        let scheme = rest.prefix { $0 != " " }
        rest = rest.dropFirst(scheme.count).drop { $0 == " " }
        guard scheme.asciiLowercased() == "basic" else { return nil }
        let decoded = base64Decode(String(rest.drop { $0 == " " || $0 == "\t" }))
        let user = decoded.prefix { $0 != UInt8(ascii: ":") }
        let password = decoded.dropFirst(user.count + 1)
        guard user.first == UInt8(ascii: "/"), user.count < decoded.count, Array(password) == Array("password".utf8) else { return nil }
        chain.log("AH02035", "error", "Encountered FakeBasicAuth spoof: \(String(decoding: user, as: UTF8.self))")
        chain.note(.status, "403: Basic credentials with a DN-like user and the password `password` (mod_ssl's FakeBasicAuth spoof check)")
        return 403
    }
}
