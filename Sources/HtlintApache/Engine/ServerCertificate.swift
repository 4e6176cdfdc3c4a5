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
    /// certificate's or its value is not known. The rest compares case-insensitively except
    /// a name's `S`/`I` and the attribute tag (`S_DN_Email`), which mod_ssl compares as written.
    func variable(_ rest: String) -> String? {
        let upper = rest.asciiUppercased()
        switch upper {
        case "M_VERSION": return String(version)
        case "A_KEY": return keyAlgorithm
        case "A_SIG": return signatureAlgorithm
        default: break
        }
        let name: [Attribute]
        switch rest.first {
        case "S": name = subject
        case "I": name = issuer
        default: return nil
        }
        if upper.dropFirst() == "_DN" { return ServerCertificate.distinguishedName(name) }
        guard upper.count > 5, upper.dropFirst().hasPrefix("_DN_") else { return nil }
        return ServerCertificate.attribute(String(rest.dropFirst(5)), of: name)
    }

    /// ssl_var_lookup_ssl_cert_dn: `TAG`, `TAG_n` (the nth of that type, from 0) or either
    /// with `_RAW` (the value unconverted: the same text here); `SP` is `ST`'s other name.
    static func attribute(_ key: String, of name: [Attribute]) -> String? {
        var key = Substring(key)
        if let last = key.lastIndex(of: "_"), last > key.startIndex, key[key.index(after: last)...] == "RAW" {
            key = key[..<last]
        }
        var index = 0
        if let u = key.firstIndex(of: "_") {
            let digits = key[key.index(after: u)...]
            if digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                // atoi: no digits is 0.
                guard let n = digits.isEmpty ? 0 : Int(digits) else { return nil }
                index = n
                key = key[..<u]
            }
        }
        var tag = String(key)
        if tag == "SP" { tag = "ST" }
        guard tags.contains(tag) else { return nil }
        let values = name.filter { $0.tag == tag }
        return index < values.count ? values[index].value : nil
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

    /// A name written as mod_ssl prints it (`CN=shop.example,O=Shop\\, Inc.,C=DE`) back into
    /// the certificate's order; nil when a part is no `TAG=value` or names a tag mod_ssl lacks.
    public static func attributes(fromDistinguishedName text: String) -> [Attribute]? {
        var parts: [String] = [], current = "", escaped = false
        for c in text {
            if escaped { current.append(c); escaped = false; continue }
            switch c {
            case "\\": escaped = true
            case ",": parts.append(current); current = ""
            default: current.append(c)
            }
        }
        parts.append(current)
        var out: [Attribute] = []
        for part in parts {
            guard let eq = part.firstIndex(of: "=") else { return nil }
            var tag = part[..<eq].trimmingSpaces
            if tag == "emailAddress" { tag = "Email" }
            guard tags.contains(tag) else { return nil }
            out.append(Attribute(tag, String(part[part.index(after: eq)...])))
        }
        return out.reversed()
    }

    /// mod_ssl's attribute tags (ssl_var_lookup_ssl_cert_dn_rec).
    public static let tags: Set<String> = ["C", "ST", "SP", "L", "O", "OU", "CN", "T", "I", "G", "S", "D", "UID", "Email"]

    /// The name as mod_ssl prints it (XN_FLAG_RFC2253): the last attribute first, separated
    /// by commas, RFC 2253's special characters escaped with a backslash.
    static func distinguishedName(_ name: [Attribute]) -> String {
        name.reversed().map { a in
            var v = ""
            let last = a.value.count - 1
            for (i, c) in a.value.enumerated() {
                if ",+\"\\<>;".contains(c) || (i == 0 && (c == "#" || c == " ")) || (i == last && c == " ") { v.append("\\") }
                v.append(c)
            }
            return (a.tag == "Email" ? "emailAddress" : a.tag) + "=" + v
        }.joined(separator: ",")
    }
}

private extension Substring {
    /// Without the spaces around it (`CN = x` is written so too).
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
