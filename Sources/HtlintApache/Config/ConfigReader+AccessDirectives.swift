import HtlintRegex
import HtlintSyntax

/// Access control: mod_authz_core's `Require` and `AuthMerging`, mod_authn_core's `AuthType`
/// and `AuthName`, mod_access_compat's `Order`/`Allow`/`Deny`/`Satisfy`, mod_ssl's `SSLRequireSSL`.
/// `methods` is the enclosing `<Limit>`/`<LimitExcept>` method set.
extension ConfigReader {
    /// `Require` providers and the module registering each. The name is looked up as written:
    /// `Require All granted` is an unknown provider (500), as is `valid-user` without mod_authz_user.
    static let authzProviders: [String: String] = [
        "all": "authz_core", "env": "authz_core", "method": "authz_core", "expr": "authz_core",
        "ip": "authz_host", "host": "authz_host", "local": "authz_host", "forward-dns": "authz_host",
        "user": "authz_user", "valid-user": "authz_user", "group": "authz_groupfile",
        "dbm-group": "authz_dbm", "dbm-file-group": "authz_dbm", "file-owner": "authz_owner", "file-group": "authz_owner",
        "dbd-group": "authz_dbd", "ssl": "ssl", "ssl-verify-client": "ssl",
    ]

    /// APR's looks_like_ip: IPv6 when it has a colon, else only digits and dots (the part before
    /// any `/`).
    static func looksLikeIP(_ word: String) -> Bool {
        // By bytes, as ip_parse_config's strchr finds the `/` and apr's the `:`.
        let ip = byteSplit(word[...], UInt8(ascii: "/"))[0]
        if ip.utf8.contains(UInt8(ascii: ":")) { return true }
        return !ip.isEmpty && ip.utf8.allSatisfy { $0 == UInt8(ascii: ".") || ($0 >= 0x30 && $0 <= 0x39) }
    }

    /// apr_ipsubnet_create's refusals of an IPv4 word that looks like an address: a network that
    /// is no dotted prefix of up to four octets (APR_EBADIP), a mask that is neither 1…32 bits
    /// nor a dotted address (APR_EBADMASK); the same of an IPv6 word (an IPv4-mapped address is
    /// refused, a mask is 1…128 bits).
    static func subnetProblem(_ word: String) -> String? {
        let parts = word.firstIndex(ofByte: UInt8(ascii: "/")).map { [word[..<$0], bytesAfter(word, $0)] } ?? [word[...]]
        if parts[0].utf8.contains(UInt8(ascii: ":")) {
            if !validSubnet(String(parts[0])) { return "The specified IP address is invalid." }
            return validSubnet(word) ? nil : "The specified network mask is invalid."
        }
        // Decimal digits up to 255, leading zeros allowed (`0127`).
        func octet(_ o: Substring) -> Bool {
            !o.isEmpty && o.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && Int(o).map { $0 <= 255 } == true
        }
        // APR's own inet_pton: exactly four octets.
        func address(_ text: Substring) -> Bool {
            let octets = byteSplit(text, UInt8(ascii: "."))
            return octets.count == 4 && octets.allSatisfy(octet)
        }
        // parse_network, for a word without a mask: up to four octets, one trailing dot allowed
        // (`10.1.`), fewer than 16 bytes.
        func network(_ text: Substring) -> Bool {
            let octets = byteSplit(text.hasByteSuffix(".") ? text.dropLast() : text, UInt8(ascii: "."))
            return text.utf8.count < 16 && octets.count <= 4 && octets.allSatisfy(octet)
        }
        // With a mask the network must be a whole address (recorded: access-ip-word-octets).
        guard address(parts[0]) || (parts.count == 1 && network(parts[0])) else { return "The specified IP address is invalid." }
        if parts.count == 2 {
            let mask = parts[1]
            if let bits = Int(mask), (1...32).contains(bits), mask.allSatisfy(\.isASCII) { return nil }
            if address(mask) { return nil }
            return "The specified network mask is invalid."
        }
        return nil
    }

    mutating func accessDirective(_ line: DirectiveLine, into block: inout ConfigBlock, methods: Set<String>?) {
        let d = line.node, words = line.words, info = line.info
        switch info.name {
        case "SSLUserName":
            block.sslUserName = words.first?.value
        case "SSLCipherSuite" where words.count == 2 && words[0].value != "SSL":
            // ssl_cmd_SSLCipherSuite: a protocol named first is SSL or TLSv1.3, and TLSv1.3's
            // list is the server's only (cmd->path set: .htaccess, a directory section).
            let inDirectory = context == .htaccess || sectionNames.contains { ["directory", "directorymatch", "files", "filesmatch", "location", "locationmatch"].contains($0.asciiLowercased()) }
            if words[0].value != "TLSv1.3" {
                error(ConfigCode.badArguments, "protocol '\(words[0].value)' not supported", words[0].range); return
            }
            if inDirectory { error(ConfigCode.badArguments, "TLSv1.3 ciphers cannot be set inside a directory context", words[0].range); return }
        case "SSLVerifyClient":
            // ssl_cmd_verify_parse: one of four modes (off is none, on require), in any case.
            let mode = words[0].value
            guard ["none", "off", "optional", "require", "on", "optional_no_ca"].contains(mode.asciiLowercased()) else {
                error(ConfigCode.badArguments, "SSLVerifyClient: Invalid argument '\(mode)'", words[0].range); return
            }
            let normal = ["off": "none", "on": "require"][mode.asciiLowercased()] ?? mode.asciiLowercased()
            // ssl_cmd_SSLVerifyClient: with cmd->path set (`.htaccess`, a directory section, `<If>`
            // whose path is `*If`) the directory's mode, checked in the access phase; else the
            // handshake's own.
            let inDirectory = context == .htaccess || sectionNames.contains {
                ["directory", "directorymatch", "files", "filesmatch", "location", "locationmatch", "if", "elseif", "else"].contains($0.asciiLowercased())
            }
            if inDirectory { block.sslVerifyClient = normal } else { block.sslVerifyClientHandshake = normal }
        // ssl_cmd_verify_depth_parse and ssl_cmd_SSLRenegBufferSize: atoi below zero is refused.
        case "SSLVerifyDepth" where Self.atolIsNegative(words[0].value):
            error(ConfigCode.badArguments, "SSLVerifyDepth: Invalid argument '\(words[0].value)'", words[0].range)
        case "SSLRenegBufferSize" where Self.atolIsNegative(words[0].value):
            error(ConfigCode.badArguments, "Invalid size for SSLRenegBufferSize: \(words[0].value)", words[0].range)
        case "SSLRenegBufferSize":
            block.sslRenegBufferSize = strtol64(words[0].value.utf8).value
        case "SSLRequireSSL":
            // Apache reads no argument of it and refuses none (`SSLRequireSSL # c` is accepted).
            block.sslRequired = true
        case "SSLRequire":
            // ssl_cmd_SSLRequire (RAW_ARGS): the rest of the line, quotes included, is one ap_expr
            // in mod_ssl's compatibility mode (restricted in `.htaccess`: no `file()`).
            do {
                block.sslRequirements.append(try ApExpression(parsing: d.rawArguments, restricted: context == .htaccess, sslCompat: true))
            } catch {
                self.error(ConfigCode.badExpression, "SSLRequire: \(error.message)", d.argumentsRange)
            }
        case "SSLOptions":
            // ssl_cmd_SSLOptions (RAW_ARGS, read word by word to the end, so an empty `""` is
            // one too): each word, signed or not, must be an option.
            let known = ["stdenvvars", "exportcertdata", "fakebasicauth", "strictrequire", "optrenegotiate", "legacydnstringformat"]
            var setting = block.sslOptions ?? SSLOptionsSetting()
            for w in words {
                var option = Substring(w.value)
                let sign = option.first == "+" || option.first == "-" ? option.first : nil
                if sign != nil { option = option.dropFirst() }
                guard known.contains(option.asciiLowercased()) else {
                    error(ConfigCode.badArguments, "SSLOptions: Illegal option '\(option)'", w.range); return
                }
                setting.apply(option.asciiLowercased(), sign: sign)
            }
            block.sslOptions = setting
        case "AuthType":
            guard arity(line, 1...1, "AuthType takes one argument, an HTTP authorization type (e.g., \"Basic\")") else { return }
            block.authType = words[0].value
        case "AuthName":
            guard arity(line, 1...1, "AuthName takes one argument, the authentication realm (e.g. \"Members Only\")") else { return }
            // set_authname parses the realm as an ap_expr string; a bad one fails the file.
            block.authNameExpression = nil
            if ApExpression.stringHasSyntax(words[0].value) {
                do {
                    block.authNameExpression = try ApExpression.parsingString(words[0].value, restricted: context == .htaccess)
                } catch {
                    self.error(ConfigCode.badExpression, "Cannot parse expression '\(words[0].value)' in AuthName: \(error.message)", words[0].range)
                    return
                }
            }
            block.authName = words[0].value
        case "Require":
            guard !words.isEmpty else { error(ConfigCode.badArguments, "Require requires at least one argument", d.argumentsRange); return }
            var provider = words[0].value
            var negated = false
            var rest = Array(words.dropFirst()).map(\.value)
            if provider.asciiLowercased() == "not", let k = rest.first { negated = true; provider = k; rest.removeFirst() }
            guard let module = Self.authzProviders[provider], modules.contains(module) else {
                error(ConfigCode.badArguments, "Unknown Authz provider: \(provider)", d.argumentsRange)
                return
            }
            let kind = provider
            // all_parse_config compares the whole rest of the line: `Require all granted # c` is refused.
            if kind == "all", rest.count != 1 || !["granted", "denied"].contains(rest[0].asciiLowercased()) {
                error(ConfigCode.badArguments, "Argument for 'Require all' must be 'granted' or 'denied'", d.argumentsRange)
                return
            }
            // mod_ssl's parsers refuse any word after its providers' names (before the negation check).
            if kind == "ssl" || kind == "ssl-verify-client", !rest.isEmpty {
                error(ConfigCode.badArguments, "'Require \(kind)' does not take arguments", d.argumentsRange)
                return
            }
            // A negated line can only deny (or stay neutral): useless where one grant is enough,
            // in `<RequireNone>` too, an OR (recorded: access-require-negation-in-requirenone).
            let parent = authzParents.last ?? .any
            if negated, parent != .all {
                error(ConfigCode.badArguments, "negative Require directive has no effect in <\(parent.rawValue)> directive", d.range)
                return
            }
            // ip_parse_config: apr_ipsubnet_create refuses (EINVAL) a word that looks like no address,
            // neither IPv6 (a colon) nor digits and dots; it stops at an empty word.
            if kind == "ip" {
                guard !rest.isEmpty else {
                    error(ConfigCode.badArguments, "'require ip' requires an argument", d.argumentsRange); return
                }
                for w in rest.prefix(while: { !$0.isEmpty }) {
                    if !Self.looksLikeIP(w) {
                        error(ConfigCode.badArguments, "ip address '\(w)' appears to be invalid", d.argumentsRange); return
                    }
                    if let problem = Self.subnetProblem(w) {
                        error(ConfigCode.badArguments, "ip address '\(w)' appears to be invalid: \(problem)", d.argumentsRange); return
                    }
                }
            }
            // mod_authz_core's method provider looks each name up as written (ap_method_number_of).
            if kind == "method", let bad = rest.first(where: { !Origin.registeredMethods.contains($0) }) {
                error(ConfigCode.badArguments, "Invalid Method '\(bad)'", d.argumentsRange)
                return
            }
            if kind == "expr" {
                guard let e = requireExpression(d, negated: negated) else { return }
                block.access.append(.requireExpr(negated: negated, expression: e, methods: methods))
                return
            }
            block.access.append(.require(negated: negated, kind: kind, values: rest, methods: methods))
        case "Order":
            // TAKE1: `Order allow,deny # c` and `Order Deny, Allow` are refused.
            guard arity(line, 1...1, "order takes one argument, 'allow,deny', 'deny,allow', or 'mutual-failure'") else { return }
            let order = words[0].value.asciiLowercased()
            guard ["allow,deny", "deny,allow", "mutual-failure"].contains(order) else {
                error(ConfigCode.badArguments, "unknown order", words[0].range); return
            }
            block.access.append(.order(order, methods: methods))
        case "Satisfy":
            // TAKE1: `Satisfy any all` fails the file (recorded: access-compat-satisfy-one-argument).
            guard arity(line, 1...1, "Satisfy takes one argument, access policy if both allow and require used ('all' or 'any')") else { return }
            switch words[0].value.asciiLowercased() {
            case "all": block.access.append(.satisfy(any: false, methods: methods))
            case "any": block.access.append(.satisfy(any: true, methods: methods))
            default: error(ConfigCode.badArguments, "Satisfy either 'any' or 'all'.", words[0].range)
            }
        case "AuthMerging":
            guard arity(line, 1...1, "AuthMerging takes one argument, controls how a <Directory>, <Location>, or similar directive's authorization directives are combined with those of its predecessor") else { return }
            switch words[0].value.asciiLowercased() {
            case "off": block.authMerging = nil; block.authMergingOff = true
            case "and": block.authMerging = .all; block.authMergingOff = false
            case "or": block.authMerging = .any; block.authMergingOff = false
            default: error(ConfigCode.badArguments, "AuthMerging must be one of: Off | And | Or", words[0].range)
            }
        case "Allow", "Deny":
            guard words.count >= 2, words[0].value.asciiLowercased() == "from" else {
                error(ConfigCode.badArguments, "\(info.name) must be followed by 'from'", d.argumentsRange); return
            }
            let hosts = words.dropFirst().map(\.value)
            // mod_access_compat refuses a `#` in an address or host name (not in `env=` or `all`):
            // `Deny from all # c` is a 500.
            if let bad = words.dropFirst().first(where: {
                let v = $0.value.asciiLowercased()
                return v.contains("#") && !v.hasBytePrefix("env=") && v != "all"
            }) {
                error(ConfigCode.badArguments, "No comments are allowed here", bad.range); return
            }
            // allow_cmd reads each word through apr_ipsubnet_create: one with a `/` must be an
            // address and mask, one that looks like an address a valid one; anything else is a
            // host name (recorded: access-compat-allow-words).
            for w in words.dropFirst() {
                let v = w.value.asciiLowercased()
                if v.hasBytePrefix("env=") || v == "all" { continue }
                let slash = v.utf8.contains(UInt8(ascii: "/"))
                if slash, !Self.looksLikeIP(w.value) {
                    error(ConfigCode.badArguments, "An IP address was expected", w.range); return
                }
                if slash || Self.looksLikeIP(w.value), let problem = Self.subnetProblem(w.value) {
                    error(ConfigCode.badArguments, problem, w.range); return
                }
            }
            block.access.append(info.name == "Allow" ? .allow(from: Array(hosts), methods: methods)
                                : .deny(from: Array(hosts), methods: methods))
        default:
            break   // Known to Apache, accepted, not simulated.
        }
    }

    /// The expression of `Require [not] expr …`: the rest of the line, without surrounding
    /// double quotes (mod_authz_core strips one pair), parsed with ap_expr.
    private mutating func requireExpression(_ d: DirectiveNode, negated: Bool) -> ApExpression? {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var text = Substring(d.rawArguments).drop(while: blank)
        while let last = text.last, blank(last) { text = text.dropLast() }
        for word in negated ? ["not", "expr"] : ["expr"] {
            text = text.dropFirst(word.count).drop(while: blank)
        }
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        do { return try ApExpression(parsing: String(text), restricted: context == .htaccess) } catch {
            self.error(ConfigCode.badExpression, "Cannot parse expression in require line: \(error.message)", d.argumentsRange)
            return nil
        }
    }
}
