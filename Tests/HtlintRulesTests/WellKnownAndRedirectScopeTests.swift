import Testing
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Messages, positions and fix-its of HT313 (a dotfile block that also refuses /.well-known/),
/// HT216 (a subdirectory's host/https redirect that drops the directory) and the `<If>` forms of
/// HT407/HT408, which the examples (codes and positions only) cannot show.
struct WellKnownAndRedirectScopeTests {
    static func run(_ id: String, _ code: String, parent: String? = nil, host: String = "example.com",
                    aliases: [String] = ["www.example.com"]) -> [Diagnostic] {
        Linter(rules: [rule(named: id)!]).run(LintContext(htaccess: code, parent: parent, host: host, aliases: aliases))
    }

    static func position(_ d: Diagnostic?, in code: String) -> SourcePosition? {
        d.map { SourceFile(path: "", text: code).lines.position(of: $0.range.start) }
    }

    /// Applies one diagnostic's first fix-it to the text it was found in.
    static func applyingFix(_ d: Diagnostic?, to code: String) -> String? {
        guard let edit = d?.fixIts.first?.edits.first else { return nil }
        var bytes = Array(code.utf8)
        bytes.replaceSubrange(edit.range.start..<edit.range.end, with: Array(edit.replacement.utf8))
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: HT313

    static let wordPressWithDotBlock = """
        # BEGIN security
        RewriteEngine On
            RewriteCond %{HTTPS} off
            RewriteRule ^ https://%{HTTP_HOST}%{REQUEST_URI} [R=301,L]
            RewriteRule (^|/)\\. - [F]
        # END security
        RewriteCond %{REQUEST_FILENAME} !-f
        RewriteCond %{REQUEST_FILENAME} !-d
        RewriteRule . /index.php [L]
        """

    /// Behind the site's own http→https redirect, the CA follows it and meets the `[F]`.
    @Test func dotBlockAfterHTTPSRedirectIsFoundOnItsLine() throws {
        let found = Self.run("HT313", Self.wordPressWithDotBlock)
        #expect(found.count == 1)
        let d = try #require(found.first)
        #expect(Self.position(d, in: Self.wordPressWithDotBlock) == SourcePosition(line: 5, column: 5))
        #expect(d.severity == .warning)
        #expect(d.message.hasPrefix("http://example.com/.well-known/acme-challenge/… answers 403 because of this `RewriteRule`"))
        #expect(d.message.contains("exclude it with `RewriteCond %{REQUEST_URI} !^/\\.well-known/` before the rule"))
    }

    /// The fix-it puts the condition before the rule with its indentation, and then the challenge is served.
    @Test func wellKnownFixLetsTheChallengeThrough() throws {
        let d = try #require(Self.run("HT313", Self.wordPressWithDotBlock).first)
        #expect(d.fixIts.first?.applicability == .safe)
        let fixed = try #require(Self.applyingFix(d, to: Self.wordPressWithDotBlock))
        #expect(fixed.contains("    RewriteCond %{REQUEST_URI} !^/\\.well-known/\n    RewriteRule (^|/)\\. - [F]"))
        #expect(Self.run("HT313", fixed).isEmpty)
        // Dotfiles stay blocked after the fix.
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/.env")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", text: fixed))
        let sim = ChainSimulator(origin: Origin(site: Site(serverName: "example.com", files: fs)), edge: Edge(mode: .none))
        #expect(sim.run("https://example.com/.env").hops.last?.status == 403)
    }

    /// A rule with conditions gets the exclusion before its first condition (an `[OR]` group stays intact).
    @Test func exclusionGoesBeforeTheFirstCondition() throws {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} GET [OR]\nRewriteCond %{REQUEST_METHOD} HEAD\nRewriteRule (^|/)\\. - [F]"
        let d = try #require(Self.run("HT313", code).first)
        #expect(Self.position(d, in: code) == SourcePosition(line: 4, column: 1))
        #expect(Self.applyingFix(d, to: code)?.contains("RewriteEngine On\nRewriteCond %{REQUEST_URI} !^/\\.well-known/\nRewriteCond %{REQUEST_METHOD} GET [OR]") == true)
    }

    /// `RedirectMatch 404` names the directive and suggests the pattern with the exclusion.
    @Test func redirectMatchSuggestsTheExcludingPattern() throws {
        let code = "Options -Indexes\nRedirectMatch 404 /\\..*$"
        let d = try #require(Self.run("HT313", code).first)
        #expect(Self.position(d, in: code) == SourcePosition(line: 2, column: 1))
        #expect(d.message.contains("answers 404 because of this `RedirectMatch`"))
        #expect(d.message.hasSuffix("exclude it in the pattern: `/\\.(?!well-known/).*$`"))
        #expect(d.fixIts.isEmpty)
    }

    /// An `.htaccess` that refuses everything in /.well-known/ itself is deliberate, and so is a
    /// site closed to all; a dotfile rule in a subdirectory does not reach /.well-known/.
    @Test func blocksThatAreNotAboutDotsAreQuiet() {
        #expect(Self.run("HT313", "RewriteEngine On\nRewriteRule ^ - [F]").isEmpty)
        #expect(Self.run("HT313", "RedirectMatch 404 ^/").isEmpty)
        #expect(Self.run("HT313", "RewriteEngine On\nRewriteRule (^|/)\\. - [F]", parent: "# root").isEmpty)
        // The subdirectory version still triggers from the root.
        #expect(Self.run("HT313", "# sub", parent: "RewriteEngine On\nRewriteRule (^|/)\\. - [F]").count == 1)
    }

    /// A block of existing dotfiles only (`-f`) refuses the challenge file once the ACME client wrote it.
    @Test func blockOfExistingDotfilesIsFoundWithTheChallengeInPlace() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} -f\nRewriteRule (^|/)\\. - [F]"
        #expect(Self.run("HT313", code).map { Self.position($0, in: code) } == [SourcePosition(line: 3, column: 1)])
    }

    /// `<FilesMatch "^\.">` with a top-level `Require` for the rest: the token is served (as real Apache does).
    @Test func filesMatchOnNamesDoesNotReachTheToken() {
        #expect(Self.run("HT313", "<FilesMatch \"^\\.\">\n  Require all denied\n</FilesMatch>\n<Files \".env\">\nDeny from all\n</Files>").isEmpty)
        // Not about dots: the whole site is closed, the dot-less twin path too.
        #expect(Self.run("HT313", "Require all denied").isEmpty)
        let denyIf = "<If \"%{REQUEST_URI} =~ m#/\\.#\">\n  Deny from all\n</If>"
        let found = Self.run("HT313", denyIf)
        #expect(found.map { Self.position($0, in: denyIf) } == [SourcePosition(line: 2, column: 3)])
        #expect(found.first?.message.contains("answers 403 because of this access control") == true)
        // A section naming a file (`.env`, `wp-config.php`) is no dotfile test: the finding
        // points at the `<If>` that refuses, even when such a section comes first.
        let namedFirst = "<Files \".env\">\nRequire all denied\n</Files>\n<Files wp-config.php>\nRequire all denied\n</Files>\n" + denyIf
        let pinned = Self.run("HT313", namedFirst)
        #expect(pinned.map { Self.position($0, in: namedFirst) } == [SourcePosition(line: 8, column: 3)])
    }

    // MARK: HT216

    static let subdirectoryRedirect = """
        RewriteEngine On
        RewriteCond %{HTTP_HOST} !^www\\. [NC]
        RewriteRule ^(.*)$ https://www.example.com/$1 [R=301,L]
        """

    @Test func subdirectoryRedirectNamesTheLostDirectory() throws {
        let found = Self.run("HT216", Self.subdirectoryRedirect, parent: "# root")
        #expect(found.count == 1)
        let d = try #require(found.first)
        #expect(d.range.file == "sub/.htaccess")
        #expect(Self.position(d, in: Self.subdirectoryRedirect) == SourcePosition(line: 3, column: 20))
        #expect(d.severity == .warning)
        #expect(d.message == "in `/sub/` the path this rule captures lacks `sub/`: http://example.com/sub/htlint-probe/page is "
                + "redirected to https://www.example.com/htlint-probe/page, outside the directory; use `%{REQUEST_URI}` for the path")
    }

    /// The fix-it swaps `/$1` for `%{REQUEST_URI}`; the fixed file is silent and keeps the directory.
    @Test func subdirectoryFixKeepsTheDirectory() throws {
        let d = try #require(Self.run("HT216", Self.subdirectoryRedirect, parent: "# root").first)
        let fixed = try #require(Self.applyingFix(d, to: Self.subdirectoryRedirect))
        #expect(fixed.hasSuffix("RewriteRule ^(.*)$ https://www.example.com%{REQUEST_URI} [R=301,L]"))
        #expect(Self.run("HT216", fixed, parent: "# root").isEmpty)
        let context = LintContext(htaccess: fixed, parent: "# root")
        let hop = context.simulator?.run("http://example.com/sub/a/b").hops.first
        #expect(hop?.location == "https://www.example.com/sub/a/b")
    }

    /// A site whose aliases were not given: the `www.` form of the request's host is the same site.
    @Test func wwwFormCountsAsTheSameSite() {
        #expect(Self.run("HT216", Self.subdirectoryRedirect, parent: "# root", host: "example.com", aliases: []).count == 1)
        // An https redirect through a forwarded header, with %{HTTP_HOST}.
        let forwarded = "RewriteEngine On\nRewriteCond %{HTTP:X-Forwarded-Proto} !https\nRewriteRule ^(.*)$ https://%{HTTP_HOST}/$1 [R=301,L]"
        #expect(Self.run("HT216", forwarded, parent: "# root").count == 1)
        // Unconditional: a deliberate move of the directory to the root.
        #expect(Self.run("HT216", "RewriteEngine On\nRewriteRule ^(.*)$ https://example.com/$1 [R=301,L]", parent: "# root").isEmpty)
    }

    // MARK: HT407 / HT408 <If> forms

    @Test func ifRedirectIsReportedAtTheIf() throws {
        let code = "# proxy\n  <If \"%{HTTP:X-Forwarded-Proto} != 'https'\">\n    RedirectPermanent / https://example.com/\n  </If>"
        let found = Self.run("HT407", code)
        #expect(found.map { Self.position($0, in: code) } == [SourcePosition(line: 2, column: 3)])
        #expect(found.first?.severity == .note)
        #expect(found.first?.message.hasPrefix("the https redirect trusts the `X-Forwarded-Proto` header tested by this `<If>`") == true)
    }

    /// A redirect to http, a non-redirecting status and an enclosing address test stay quiet.
    @Test func ifFormsThatAreNotHTTPSRedirects() {
        #expect(Self.run("HT407", "<If \"%{HTTP:X-Forwarded-Proto} != 'https'\">\nRedirect 301 / http://example.com/\n</If>").isEmpty)
        #expect(Self.run("HT407", "<If \"%{HTTP:X-Forwarded-Proto} != 'https'\">\nRedirect 410 /old\n</If>").isEmpty)
        #expect(Self.run("HT407", "<If \"-R '10.0.0.0/8'\">\n<If \"%{HTTP:X-Forwarded-Proto} != 'https'\">\nRedirect 301 / https://example.com/\n</If>\n</If>").isEmpty)
        // A rewrite redirect inside the <If> counts too.
        let rewrite = "RewriteEngine On\n<If \"%{HTTP:CF-Visitor} =~ /http\\\"/\">\nRewriteRule ^ https://example.com%{REQUEST_URI} [R=301,L]\n</If>"
        #expect(Self.run("HT407", rewrite).map { Self.position($0, in: rewrite)?.line } == [2])
    }

    @Test func setEnvInsideForwardedIfPointsAtSetEnv() {
        let code = "<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\n    Header set X-Seen yes\n    SetEnv HTTPS on\n</If>"
        let found = Self.run("HT408", code)
        #expect(found.map { Self.position($0, in: code) } == [SourcePosition(line: 3, column: 5)])
        #expect(found.first?.message.hasPrefix("`HTTPS` is set inside an `<If>` that trusts the `X-Forwarded-Proto` header") == true)
        // SetEnvIf on the header inside such an <If> is reported once, as before.
        let both = "<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\nSetEnvIf X-Forwarded-Proto https HTTPS=on\n</If>"
        #expect(Self.run("HT408", both).count == 1)
        // `SetEnv HTTPS off` claims nothing.
        #expect(Self.run("HT408", "<If \"%{HTTP:X-Forwarded-Proto} == 'https'\">\nSetEnv HTTPS off\n</If>").isEmpty)
    }
}
