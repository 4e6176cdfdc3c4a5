import Testing
import HtlintApache
import HtlintDiagnostics
import HtlintSimulation
@testable import HtlintRules

/// Messages, positions and fix-its for the shared failure scenarios the end-to-end review found
/// wrong or missing: S31 (RedirectMatch in a subdirectory), S41 (a space in the substitution),
/// S28 (RedirectMatch whose target matches again), S12 (WordPress's own redirect in a loop).
struct ScenarioReviewTests {
    typealias T = WellKnownAndRedirectScopeTests

    // MARK: S31 — HT209 for mod_alias in a subdirectory

    @Test func redirectMatchWithoutTheDirectoryNeverMatches() {
        let code = "RedirectMatch 301 \"^/react/?$\" \"/sub/react/quick-start/\""
        let d = T.run("HT209", code, parent: "RewriteEngine On").first
        #expect(d?.message == "`^/react/?$` never matches in /sub/.htaccess: `RedirectMatch` compares the full URL-path, which starts with `/sub/` there (unlike `RewriteRule`, mod_alias does not strip the directory)")
        #expect(T.position(d, in: code).map { "\($0.line):\($0.column)" } == "1:19")
        #expect(T.applyingFix(d, to: code) == "RedirectMatch 301 \"^/sub/react/?$\" \"/sub/react/quick-start/\"")
    }

    @Test func redirectPrefixWithoutTheDirectoryNeverMatches() {
        let code = "Redirect 301 /react /sub/react/quick-start/"
        let d = T.run("HT209", code, parent: "RewriteEngine On").first
        #expect(d?.message.hasPrefix("`/react` never matches in /sub/.htaccess: `Redirect` compares the full URL-path") == true)
        #expect(T.position(d, in: code).map { "\($0.line):\($0.column)" } == "1:14")
        #expect(T.applyingFix(d, to: code) == "Redirect 301 /sub/react /sub/react/quick-start/")
    }

    @Test func aliasPatternsThatCanMatchAreQuiet() {
        for code in ["RedirectMatch 301 ^/sub/react/?$ /x", "RedirectMatch 301 ^/(.*)$ /x/$1", "RedirectMatch 301 react /x",
                     "Redirect 301 /sub /x", "RedirectMatch 301 ^/s?ub/x /y", "RedirectMatch 301 (?i)^/SUB/x /y"] {
            #expect(T.run("HT209", code, parent: "RewriteEngine On").isEmpty, "\(code)")
        }
        // In the root directory every URL-path starts with `/`.
        #expect(T.run("HT209", "RedirectMatch 301 ^/react/?$ /x").isEmpty)
    }

    @Test func literalPrefixStopsAtOptionalCharacters() {
        #expect(LeadingSlashPattern.literalPrefix("/react/?$") == "/react")
        #expect(LeadingSlashPattern.literalPrefix("/a\\.b(.*)") == "/a.b")
        #expect(LeadingSlashPattern.literalPrefix("/a\\d") == "/a")
        #expect(LeadingSlashPattern.literalPrefix("(?i)/a") == nil)
    }

    // MARK: S41 — HT113 says why the flags are wrong

    @Test func spaceInSubstitutionIsExplained() {
        let code = "RewriteEngine On\nRewriteRule ^authors/Foo\\+Foo$ /Bar Bar? [L,R=301]"
        let d = T.run("HT113", code).first
        #expect(d?.message == "RewriteRule: bad flag delimiters")
        #expect(T.position(d, in: code).map { "\($0.line):\($0.column)" } == "2:37")
        #expect(d?.notes.first?.message == "Apache reads `Bar?` as the flags: an unescaped space ends the substitution before it; escape the space (`\\ `) or quote the substitution")
        // A flag list that only lacks its closing bracket gets no such note.
        #expect(T.run("HT113", "RewriteEngine On\nRewriteRule ^a$ /b [L").first?.notes.isEmpty == true)
    }

    // MARK: S28 — RedirectMatch whose target matches again

    @Test func growingRedirectMatchIsALoopWithFewNotes() {
        let code = "RedirectMatch permanent ^/credits/(.*) /credits/software-credits/$1"
        let d = T.run("HT301", code).first
        #expect(d?.message.hasPrefix("redirect loop: http://example.com/credits/") == true)
        #expect(d?.message.contains("is redirected more than 20 times") == true)
        #expect(T.position(d, in: code).map { "\($0.line):\($0.column)" } == "1:1")
        #expect(d?.notes.count == 4)
        #expect(d?.notes.last?.message == "… 17 more redirects of the same kind, each URL longer than the last")
    }
}
