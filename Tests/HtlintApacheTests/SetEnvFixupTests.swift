import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// mod_env's `SetEnv` / `UnsetEnv` run in the fixups after mod_rewrite and mod_alias; every
/// expected value was recorded from Apache 2.4 (fixtures/apache/env-setenv-fixup).
struct SetEnvFixupTests {
    func respond(_ root: String, _ target: String, sub: String? = nil) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/real.html", "/b.html", "/sub/real.html"] { fs.addFile(f) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(root.utf8)))
        if let sub { fs.addAccessFile("/sub", file: SourceFile(path: "sub/.htaccess", bytes: Array(sub.utf8))) }
        return Origin(site: Site(serverName: "example.org", files: fs))
            .respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org")]))
    }

    let root = """
        SetEnv APP_ENV prod
        SetEnv KEEP root
        RewriteEngine On
        RewriteCond %{ENV:APP_ENV} =prod
        RewriteRule ^x$ real.html [L]
        RewriteRule ^x$ b.html [L]
        RewriteRule ^p$ real.html [E=APP_ENV:fromrewrite]
        RewriteRule ^r$ /real.html [R=302,L]
        Redirect 301 /a /b.html
        Header always set X-A "%{APP_ENV}e|%{REDIRECT_APP_ENV}e|%{KEEP}e"
        """

    @Test func rewriteConditionsDoNotSeeSetEnvButTheFirstPassGetsIt() {
        let r = respond(root, "/x")
        #expect(r.served == "/b.html")
        #expect(r.combinedHeader("X-A") == "prod|prod|root")
    }

    @Test func anEarlierValueWinsButTheRedirectCopyTakesTheSetEnvOne() {
        #expect(respond(root, "/p").combinedHeader("X-A") == "prod|prod|root")
        #expect(respond("SetEnv V s\nRewriteEngine On\nRewriteRule ^p$ - [E=V:e]\nHeader always set X-A %{V}e\n", "/p")
            .combinedHeader("X-A") == "e")
    }

    @Test func rewriteAndAliasAnswersNeverGetTheVariables() {
        let r = respond(root, "/r")
        #expect(r.status == 302)
        #expect(r.combinedHeader("X-A") == "(null)|(null)|(null)")
        #expect(respond(root, "/a").combinedHeader("X-A") == "(null)|(null)|(null)")
        #expect(respond(root, "/missing").combinedHeader("X-A") == "prod|(null)|root")
    }

    @Test func unsetEnvInASubdirectoryDropsTheParentsVariable() {
        let r = respond(root, "/sub/real.html", sub: "SetEnv APP_ENV sub\nUnsetEnv KEEP\n")
        #expect(r.combinedHeader("X-A") == "sub|(null)|(null)")
    }

    /// `PassEnv` copies the process's value (Debian's envvars: LANG=C) as `SetEnv` would; an
    /// undefined name is skipped, and `UnsetEnv` below drops it (fixtures/apache/env-passenv-process-value).
    @Test func passEnvCopiesTheProcessValue() {
        let root = "PassEnv LANG HTLINT_NOT_SET\nHeader always set X-A \"%{LANG}e|%{HTLINT_NOT_SET}e\"\n"
        #expect(respond(root, "/real.html").header("X-A") == "C|(null)")
        #expect(respond(root, "/sub/real.html", sub: "UnsetEnv LANG\n").header("X-A") == "(null)|(null)")
    }
}

/// Environment names are case-insensitive (fixtures/apache/env-names-case-insensitive).
struct EnvironmentNameCaseTests {
    let htaccess = """
        SetEnv MixedCase one
        SetEnvIf Request_URI ^/q$ Gate=open
        RewriteEngine On
        RewriteRule ^p$ - [E=MIXEDCASE:two]
        RewriteCond %{ENV:GATE} =open
        RewriteRule ^q$ real.html [E=gate:closed,L]
        Header always set X-A "%{mixedcase}e|%{MixedCase}e"
        Header always set X-B "%{REDIRECT_GATE}e"
        """

    @Test func lookupsAndReplacementsIgnoreCase() {
        let t = SetEnvFixupTests()
        #expect(t.respond(htaccess, "/p").combinedHeader("X-A") == "two|two")
        #expect(t.respond(htaccess, "/real.html").combinedHeader("X-A") == "one|one")
        let q = t.respond(htaccess, "/q")
        #expect(q.served == "/real.html")
        #expect(q.combinedHeader("X-B") == "closed")
    }
}
