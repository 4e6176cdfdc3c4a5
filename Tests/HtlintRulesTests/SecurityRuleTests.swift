import Testing
import HtlintApache
import HtlintDiagnostics
import HtlintRegex
import HtlintSimulation
@testable import HtlintRules

/// What the HT407–HT413 examples cannot show: a document root with many files, server
/// configuration, and the backtracking analysis against PCRE2 itself.
struct SecurityRuleTests {
    /// A site at `/var/www/html` with these files, its root `.htaccess` shown as `public/.htaccess`.
    static func site(_ htaccess: String, files: [String], directories: [String] = []) -> LintContext {
        let source = SourceFile(path: "public/.htaccess", text: htaccess)
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        for f in files { fs.addFile(f) }
        for d in directories { fs.addDirectory(d) }
        fs.addAccessFile("/", file: source)
        let site = Site(serverName: "example.com", files: fs)
        return LintContext(files: [LintFile(source: source)], simulator: ChainSimulator(origin: Origin(site: site), edge: Edge(mode: .none)),
                           hosts: ["example.com"])
    }

    static func run(_ id: String, _ context: LintContext) -> [Diagnostic] {
        Linter(rules: [rule(named: id)!]).run(context)
    }

    @Test func exposedFilesOfADocumentRoot() {
        let context = Self.site("RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^ index.php [L]\n",
                                files: ["/.env.production", "/wp-config.php.bak", "/wp-config.php~", "/.wp-config.php.swp",
                                        "/dump.sql.gz", "/.git/HEAD", "/.git/objects/ab/cdef", "/.git/old.orig",
                                        "/vendor/pkg/.git/config", "/.ssh/id_rsa", "/.htpasswd", "/composer.json", "/notes.txt", "/.env.example", "/id_rsa.pub"],
                                directories: ["/.svn"])
        let found = Self.run("HT411", context)
        let files = Set(found.map(\.range.file))
        #expect(files == ["public/.env.production", "public/wp-config.php.bak", "public/wp-config.php~",
                          "public/.wp-config.php.swp", "public/dump.sql.gz", "public/.git/HEAD",
                          "public/vendor/pkg/.git/config", "public/.ssh/id_rsa"], "\(found.map(\.message))")
        // One finding for a repository, at the file that was requested; an empty `.svn/` serves nothing.
        #expect(found.first { $0.range.file == "public/.git/HEAD" }?.message.contains("repository `/.git/`") == true)
        #expect(found.allSatisfy { $0.severity == .error && $0.range.start == 0 })
    }

    @Test func deniedFilesAreNotReported() {
        let context = Self.site("""
            <FilesMatch "(^\\.env|\\.(sql|bak)$)">
            Require all denied
            </FilesMatch>
            RedirectMatch 404 /\\.git(/|$)
            """, files: ["/.env", "/db.sql", "/a.bak", "/.git/config"])
        #expect(Self.run("HT411", context).isEmpty)
    }

    @Test func aLoneFileHasNoDocumentRootToReport() {
        // `htlint lint FILE` without --docroot: the site holds the file and `index.html` only.
        let context = LintContext(htaccess: "Options +Indexes\n")
        #expect(Self.run("HT411", context).isEmpty)
        let noSimulator = LintContext(files: [LintFile(source: SourceFile(path: ".htaccess", text: "# x\n"))])
        #expect(Self.run("HT411", noSimulator).isEmpty)
    }

    @Test func directoryListingInServerConfiguration() {
        let conf = SourceFile(path: "site.conf", text: """
            <VirtualHost *:80>
            <Directory /var/www/>
                Options Indexes FollowSymLinks
            </Directory>
            <Directory /var/www/html/private>
                Options All
                Options -Indexes
            </Directory>
            </VirtualHost>
            """)
        let found = Self.run("HT412", LintContext(files: [LintFile(source: conf, context: .server)]))
        #expect(found.map { conf.lines.position(of: $0.range.start).line } == [3])
    }

    @Test func ipLiteralsOnly() {
        for target in ["http://999.1.1.1/x", "https://1.2.3.4.example.com/", "https://v1.2.3.4/", "/1.2.3.4/"] {
            let context = LintContext(htaccess: "RewriteEngine On\nRewriteRule ^a$ \(target) [R=301,L]\n")
            #expect(Self.run("HT409", context).isEmpty, "\(target)")
        }
        #expect(isIPLiteral("127.0.0.1") && isIPLiteral("[::1]") && !isIPLiteral("example.com"))
        #expect(urlHost("https://user@203.0.113.5:8443/x") == "203.0.113.5")
        #expect(urlHost("HTTP://Shop.Example.COM?q=a@b") == "shop.example.com")
        #expect(urlHost("https://[2001:DB8::1]:8443/x") == "[2001:db8::1]")
        #expect(urlHost("https://[2001:db8::1/x") == nil)
        #expect(urlHost("http:///x") == "")
        #expect(urlHost("hxxp://example.com/") == nil)
        #expect(urlHost("/path/http://example.com") == nil)
    }

    @Test func forwardedSchemeWithoutHTTPSRedirectIsNotReported() {
        let context = LintContext(htaccess: """
            RewriteEngine On
            RewriteCond %{HTTP:X-Forwarded-Proto} =https
            RewriteRule ^ - [E=PROXIED:1]
            RewriteCond %{HTTP:X-Forwarded-Proto} !https
            RewriteRule ^old$ /new [R=301,L]
            """)
        #expect(Self.run("HT407", context).isEmpty)
        #expect(Self.run("HT408", context).isEmpty)
    }

    @Test func credentialPaths() {
        #expect(CredentialsRedirectToHTTP.isCredentialPath("http://example.com/blog/wp-admin/options.php"))
        #expect(CredentialsRedirectToHTTP.isCredentialPath("http://example.com/user/login?destination=/"))
        #expect(!CredentialsRedirectToHTTP.isCredentialPath("http://example.com/administration-guide.html"))
        #expect(!CredentialsRedirectToHTTP.isCredentialPath("http://example.com/?page=login"))
    }

    static let hazardous = ["(a+)+$", "^(.*)*x", "^(\\w+\\s?)*$", "^(a|a)*$", "^(.*a){12}$", "^(.*/)+x$", "^([^/]+/?)+$",
                            "^(\\s*\\w+\\s*)*!", "^((ab)+)+$", "^(?:.|\\n)*x", "^(?i:(A+)+)$", "^(\\d+|[0-9])+$"]
    static let safe = ["^(.*)$", "^([^/]+/)*index\\.php$", "^(\\w+\\.)+html$", "^(.*)/(.*)$", "^(a+b)+$", "^(.*a){3}$",
                       "^(?>(a+)+)x", "^(a++)+x", "^(a?)+$", "^(www\\.)?example\\.com$", "^(\\d+\\.){3}\\d+$",
                       "^([a-z]+)-([0-9]+)/?$", "^(ab|cd)*$", "^(a\\1)+$"]

    @Test("hazardous patterns are found", arguments: hazardous)
    func hazardousPattern(_ p: String) {
        #expect(BacktrackingAnalysis.hazards(in: p).count == 1, "\(p)")
    }

    @Test("safe patterns are not reported", arguments: safe)
    func safePattern(_ p: String) {
        #expect(BacktrackingAnalysis.hazards(in: p).isEmpty, "\(p)")
    }

    @Test func negatedClassesFoldCaseBeforeNegating() {
        // Joomla's stock filter: `[^s]` under [NC] excludes `S` as well, so the split is unique.
        #expect(BacktrackingAnalysis.hazards(in: "(<|%3C)([^s]*s)+cript.*(>|%3E)", caseInsensitive: true).isEmpty)
        #expect(BacktrackingAnalysis.hazards(in: "([^s]*S)+x", caseInsensitive: true).isEmpty)
        #expect(BacktrackingAnalysis.hazards(in: "([^s]*S)+x").count == 1)
    }

    @Test func hazardPointsAtTheRepeatedGroup() {
        let h = BacktrackingAnalysis.hazards(in: "^/shop/(\\w+\\s?)*$")
        #expect(h == [BacktrackingAnalysis.Hazard(offset: 7, text: "(\\w+\\s?)*", reason: h.first?.reason ?? "")])
    }

    /// The structural verdict agrees with PCRE2: a near-miss subject exhausts the match limit.
    @Test func reportedPatternsExhaustPCRE2() throws {
        for (pattern, subject) in [("^(\\w+\\s?)*$", String(repeating: "a", count: 40) + "!"),
                                   ("^(.*/)+x$", String(repeating: "a/", count: 40) + "x!"),
                                   ("^(a|a)*$", String(repeating: "a", count: 40) + "!")] {
            #expect(!BacktrackingAnalysis.hazards(in: pattern).isEmpty)
            let result = try HtlintRegex.Regex(pattern).search(subject)
            #expect(result == .failure(.matchLimit), "\(pattern)")
        }
        // The safe rewrite of the second one answers at once.
        #expect(try HtlintRegex.Regex("^([^/]+/)+x$").search(String(repeating: "a/", count: 40) + "y") == .success(nil))
    }

    @Test func redosReportsConditionPatternsAtTheirColumn() {
        let text = "RewriteEngine On\nRewriteCond %{HTTP_USER_AGENT} \"^(.*bot)+$\" [NC]\nRewriteRule ^ - [F]\n"
        let found = Self.run("HT413", LintContext(htaccess: text))
        let file = SourceFile(path: ".htaccess", text: text)
        #expect(found.map { file.lines.position(of: $0.range.start) } == [SourcePosition(line: 2, column: 34)])
        // Not a regular expression: `-f`, comparisons.
        #expect(Self.run("HT413", LintContext(htaccess: "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} -f\nRewriteCond %{HTTP_HOST} =(a+)+\nRewriteRule ^ - [L]\n")).isEmpty)
    }
}
