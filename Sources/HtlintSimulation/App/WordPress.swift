import HtlintApache

/// WordPress behind Apache, for the redirects it issues itself (layers-and-mixed-content §12):
/// `auth_redirect()` for wp-admin, the login page's HTTPS check, and `redirect_canonical()`
/// for front-end pages, all decided on `is_ssl()`.
public struct WordPress: Sendable, Hashable {
    /// The `home` option ("Site Address (URL)") or `WP_HOME`.
    public var home: String
    /// The `siteurl` option ("WordPress Address (URL)") or `WP_SITEURL`.
    public var siteURL: String
    /// Where WordPress's files are, relative to the document root (`/blog`); by default the path
    /// of `siteURL`.
    public var directory: String
    /// The request header the wp-config.php fix keys on (`X-Forwarded-Proto`, `Fastly-SSL`), nil
    /// when wp-config.php has no fix (§12.4).
    public var proxyFixHeader: String?
    /// `FORCE_SSL_ADMIN`; nil means undefined, which WordPress turns into "siteurl is https".
    public var forceSSLAdmin: Bool?
    /// Whether the visitor has a valid login cookie (logged-out visitors of wp-admin are sent to
    /// the login page).
    public var loggedIn: Bool
    /// Permalink structure ends with `/` (the default `/%postname%/`).
    public var trailingSlashPermalinks: Bool

    /// A WordPress install; unset values take WordPress's defaults (siteurl = home, directory = siteurl's path).
    public init(home: String, siteURL: String? = nil, directory: String? = nil, proxyFixHeader: String? = nil,
                forceSSLAdmin: Bool? = nil, loggedIn: Bool = false, trailingSlashPermalinks: Bool = true) {
        self.home = home
        self.siteURL = siteURL ?? home
        let sitePath = URLParts(self.siteURL)?.path ?? "/"
        var dir = directory ?? sitePath
        while dir.count > 1, dir.hasSuffix("/") { dir.removeLast() }
        self.directory = dir.isEmpty ? "/" : dir
        self.proxyFixHeader = proxyFixHeader
        self.forceSSLAdmin = forceSSLAdmin
        self.loggedIn = loggedIn
        self.trailingSlashPermalinks = trailingSlashPermalinks
    }

    /// `force_ssl_admin()`: the constant, or whether siteurl is https (`wp_ssl_constants()`).
    public var forcesSSLAdmin: Bool { forceSSLAdmin ?? siteURL.lowercased().hasPrefix("https://") }

    var forceSSLAdminFact: String {
        "FORCE_SSL_ADMIN = \(forcesSSLAdmin)" + (forceSSLAdmin == nil ? " (siteurl is \(forcesSSLAdmin ? "https" : "http"))" : "")
    }

    /// Which WordPress entry point a served file is, if any.
    enum Script { case front, login, admin }

    func script(for filename: String) -> Script? {
        let prefix = directory == "/" ? "/" : directory + "/"
        guard filename.hasPrefix(prefix) else { return nil }
        let rest = filename.dropFirst(prefix.count)
        if rest == "index.php" { return .front }
        if rest == "wp-login.php" { return .login }
        if rest.hasPrefix("wp-admin/"), rest.hasSuffix(".php") { return .admin }
        return nil
    }

    /// WordPress's answer when Apache hands the request to one of its entry points; nil when
    /// the request is not WordPress's (a static file, another script, an error).
    public func handle(_ request: OriginRequest, _ response: OriginResponse, site: Site) -> AppAnswer? {
        guard response.status == 200, let file = response.final.filename, let script = script(for: file) else { return nil }
        let env = PHPEnvironment(request: request, response: response, site: site, proxyFixHeader: proxyFixHeader)
        var answer = AppAnswer(status: 200, location: nil, producer: "WordPress", environment: env, facts: [])
        answer.facts.append("is_ssl() = \(env.isSSL): \(env.isSSLReason)")
        switch script {
        case .admin: admin(env, &answer)
        case .login: login(env, &answer)
        case .front: front(env, &answer)
        }
        return answer
    }

    /// `auth_redirect()` (pluggable.php): https required but not seen → 302 to the https form of
    /// the same URL; a logged-out visitor → 302 to the login page.
    func admin(_ env: PHPEnvironment, _ answer: inout AppAnswer) {
        let secure = env.isSSL || forcesSSLAdmin
        answer.facts.append(forceSSLAdminFact)
        if secure, !env.isSSL, env.requestURI.contains("wp-admin") {
            answer.redirect(302, "https://\(env.httpHost)\(env.requestURI)", by: "auth_redirect()",
                            why: "https is required for wp-admin but is_ssl() is false")
            return
        }
        guard !loggedIn else { answer.producer = "WordPress (wp-admin)"; return }
        let redirect = (env.isSSL ? "https://" : "http://") + env.httpHost + env.requestURI
        let login = siteURLWithScheme(env.isSSL || forcesSSLAdmin ? "https" : nil, env: env) + "/wp-login.php?redirect_to="
            + WordPress.urlencode(redirect) + "&reauth=1"
        answer.redirect(302, login, by: "auth_redirect()", why: "the visitor is not logged in")
    }

    /// wp-login.php: `force_ssl_admin() && !is_ssl()` → 302 to the https form of the same URL.
    func login(_ env: PHPEnvironment, _ answer: inout AppAnswer) {
        answer.facts.append(forceSSLAdminFact)
        if forcesSSLAdmin, !env.isSSL {
            answer.redirect(302, "https://\(env.httpHost)\(env.requestURI)", by: "wp-login.php",
                            why: "FORCE_SSL_ADMIN is on but is_ssl() is false")
            return
        }
        answer.producer = "WordPress (login page)"
    }

    /// Front end: `redirect_canonical()` for GET and HEAD.
    func front(_ env: PHPEnvironment, _ answer: inout AppAnswer) {
        guard env.method == "GET" || env.method == "HEAD" else { return }
        let requested = (env.isSSL ? "https://" : "http://") + env.httpHost + env.requestURI
        guard let target = canonical(requested, isSSL: env.isSSL) else { return }
        // Chain protection: no redirect when the target would be redirected again (§12.3).
        if canonical(target, isSSL: env.isSSL) != nil { return }
        answer.redirect(301, target, by: "redirect_canonical()",
                        why: "WordPress compares host, port, path and query (not the scheme) of \(requested) with home \(home)")
    }

    /// `siteurl` with its scheme replaced as `set_url_scheme()` does (`nil`: keep it unless is_ssl()).
    func siteURLWithScheme(_ scheme: String?, env: PHPEnvironment) -> String {
        var s = siteURL
        while s.hasSuffix("/") { s.removeLast() }
        guard let r = s.range(of: "://") else { return s }
        let wanted = scheme ?? (env.isSSL ? "https" : String(s[..<r.lowerBound]))
        return wanted + s[r.lowerBound...]
    }

    /// PHP's `urlencode`.
    static func urlencode(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                out.append(Character(UnicodeScalar(b)))
            case UInt8(ascii: " "): out += "+"
            default: out += "%" + String(b, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

/// What WordPress answered, and the facts it decided on.
public struct AppAnswer: Sendable, Hashable {
    /// The status WordPress sends (200 for a page).
    public var status: Int
    /// `Location` of a redirect.
    public var location: String?
    /// "redirect_canonical()", "auth_redirect()", "wp-login.php", "WordPress".
    public var producer: String
    /// What PHP saw.
    public var environment: PHPEnvironment
    /// Lines for explanations: "is_ssl() = false: …", "FORCE_SSL_ADMIN = true …".
    public var facts: [String]
    /// Why it redirected.
    public var why: String?

    mutating func redirect(_ status: Int, _ location: String, by producer: String, why: String) {
        self.status = status
        self.location = location
        self.producer = producer
        self.why = why
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
