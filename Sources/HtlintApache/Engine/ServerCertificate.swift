/// The certificate Apache's TLS listener presents, as far as mod_ssl's `SSL_SERVER_*`
/// variables describe it. htlint reads no certificate file: whoever sets up the simulation
/// says what it knows (the conformance harness: the oracle's throw-away certificate). The
/// serial number, the validity dates and the PEM text differ with every certificate made, so
/// they are not part of it and stay unset.
public struct ServerCertificate: Sendable, Hashable {
    /// One attribute of a distinguished name, with mod_ssl's tag for its type (`CN`, `O`, `Email`).
    public struct Attribute: Sendable, Hashable {
        public var tag: String
        public var value: String
        public init(_ tag: String, _ value: String) {
            self.tag = tag
            self.value = value
        }
    }

    /// Subject and issuer in the certificate's order (the most general attribute first).
    public var subject: [Attribute]
    public var issuer: [Attribute]
    /// `SSL_SERVER_M_VERSION`: the X.509 version (3 for any certificate made today).
    public var version: Int
    /// `SSL_SERVER_A_KEY` and `SSL_SERVER_A_SIG`: OpenSSL's names of the key's and the signature's algorithms.
    public var keyAlgorithm: String
    public var signatureAlgorithm: String

    public init(subject: [Attribute], issuer: [Attribute], version: Int = 3, keyAlgorithm: String, signatureAlgorithm: String) {
        self.subject = subject
        self.issuer = issuer
        self.version = version
        self.keyAlgorithm = keyAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
    }

    /// ssl_var_lookup_ssl_cert for `SSL_SERVER_` + `rest`; nil when the name is none of the
    /// certificate's or its value is not known. `rest` keeps its case: mod_ssl compares the
    /// attribute tag (`S_DN_Email`) case-sensitively.
    func variable(_ rest: String) -> String? {
        switch rest.asciiUppercased() {
        case "M_VERSION": return String(version)
        case "S_DN": return ServerCertificate.distinguishedName(subject)
        case "I_DN": return ServerCertificate.distinguishedName(issuer)
        case "A_KEY": return keyAlgorithm
        case "A_SIG": return signatureAlgorithm
        default: break
        }
        let upper = rest.asciiUppercased()
        guard upper.hasBytePrefix("S_DN_") || upper.hasBytePrefix("I_DN_") else { return nil }
        let name = upper.hasBytePrefix("S_DN_") ? subject : issuer
        // ssl_var_lookup_ssl_cert_dn: the first attribute of that type (`SP` is `ST`'s other name).
        var tag = String(rest.dropFirst(5))
        if tag == "SP" { tag = "ST" }
        guard ServerCertificate.tags.contains(tag) else { return nil }
        return name.first { $0.tag == tag }?.value
    }

    /// modssl_var_extract_dns under `SSLOptions +StdEnvVars`: each attribute of the subject and
    /// of the issuer that has a tag, `_n` added to a repeated tag's later ones.
    var componentVariables: [(name: String, value: String)] {
        var out: [(String, String)] = []
        for (prefix, name) in [("SSL_SERVER_S_DN_", subject), ("SSL_SERVER_I_DN_", issuer)] {
            var seen: [String: Int] = [:]
            for a in name where ServerCertificate.tags.contains(a.tag) && a.tag != "SP" {
                let n = seen[a.tag, default: 0]
                seen[a.tag] = n + 1
                out.append((prefix + a.tag + (n == 0 ? "" : "_\(n)"), a.value))
            }
        }
        return out
    }

    /// mod_ssl's attribute tags (ssl_var_lookup_ssl_cert_dn_rec).
    static let tags: Set<String> = ["C", "ST", "SP", "L", "O", "OU", "CN", "T", "I", "G", "S", "D", "UID", "Email"]

    /// The name as mod_ssl prints it (XN_FLAG_RFC2253): the last attribute first, separated
    /// by commas, RFC 2253's special characters escaped with a backslash.
    static func distinguishedName(_ name: [Attribute]) -> String {
        name.reversed().map { a in
            var v = ""
            for (i, c) in a.value.enumerated() {
                if ",+\"\\<>;".contains(c) || (i == 0 && (c == "#" || c == " ")) || (i == a.value.count - 1 && c == " ") { v.append("\\") }
                v.append(c)
            }
            return (a.tag == "Email" ? "emailAddress" : a.tag) + "=" + v
        }.joined(separator: ",")
    }
}
