import Testing
import HtlintDiagnostics
import HtlintApache
import HtlintSimulation
@testable import HtlintRules

/// Loops and internal recursion recorded from real Apache 2.4 that the probe set did not request
/// (the lintx corpus comparison): lint said nothing although every visitor of such a URL hits them.
struct RecordedApacheProbeTests {
    static func run(_ id: String, _ code: String, files: [String] = []) -> [Diagnostic] {
        Linter(rules: [rule(named: id)!]).run(LintContext(htaccess: code, extraFiles: files))
    }

    /// Exactly one finding of rule `id`, its message naming `witness`, on line `line`.
    static func expectOneFinding(_ id: String, _ code: String, files: [String], naming witness: String, line: Int,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let found = run(id, code, files: files)
        #expect(found.count == 1, sourceLocation: sourceLocation)
        #expect(found.first?.message.contains(witness) == true, "\(found.map(\.message))", sourceLocation: sourceLocation)
        #expect(found.first.map { position(in: code, $0).line } == line, sourceLocation: sourceLocation)
    }

    /// `ErrorDocument 404 http://host/missing`: recorded, `/missing` → 302 `/nothere` → 302
    /// `/nothere` (ERR_TOO_MANY_REDIRECTS) for every URL no file serves. No probe was a 404.
    @Test func fullURLErrorDocumentToAMissingPageLoops() {
        let found = Self.run("HT301", "ErrorDocument 404 http://example.com/nothere\n")
        #expect(found.count == 1)
        #expect(found.first?.message.contains("/no-such-page leads to http://example.com/nothere, which redirects to itself") == true)
        #expect(found.first?.range.start == 0)
    }

    /// The same ErrorDocument to a page that exists does not loop.
    @Test func fullURLErrorDocumentToAnExistingPageDoesNotLoop() {
        #expect(Self.run("HT301", "ErrorDocument 404 http://example.com/nf.html\n", files: ["/nf.html"]).isEmpty)
    }

    /// Extension hiding: recorded, `/a/b` and `/c/` (with `a.php`, `c.php`) answer 500 after 10
    /// internal redirects (`/c/.php.php…`): the condition finds `c.php` through path info.
    @Test func extensionHidingRecursesOnASlashAfterTheName() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME}.php -f\nRewriteRule ^(.*)$ $1.php [L]\n"
        Self.expectOneFinding("HT302", code, files: ["/about.php"], naming: "http://example.com/about/ is rewritten", line: 3)
    }

    /// recursion-escaped-suffix-condition-rewrite-to-itself: `%{REQUEST_FILENAME}\.html` is the
    /// `.html` suffix (the backslash makes the dot literal); recorded, /about/ answers 500 after 10
    /// internal redirects. The probes only knew suffixes written without the backslash.
    @Test func escapedSuffixInTheConditionIsProbedToo() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME}\\.html -f\nRewriteRule ^([^/]+)/?$ $0\n"
        Self.expectOneFinding("HT302", code, files: ["/about.html"], naming: "http://example.com/about/ is rewritten", line: 3)
    }

    /// With `[END]` the rewrite runs once: `/about/` is a plain 404, no recursion.
    @Test func extensionHidingWithEndDoesNotRecurse() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME}.php -f\nRewriteRule ^(.*)$ $1.php [END]\n"
        #expect(Self.run("HT302", code, files: ["/about.php"]).isEmpty)
    }

    /// rewrite-to-itself-recurses-below-missing-directory: `^(.*)$ $1 [L]` leaves `/about.html`
    /// alone, but below a missing directory the rest is path info and every pass redirects
    /// internally (recorded 500, AH00124). No probe named a missing directory.
    @Test func rewriteToItselfRecursesBelowAMissingDirectory() {
        let code = "RewriteEngine On\nRewriteRule ^(.*)$ $1 [L]\n"
        Self.expectOneFinding("HT302", code, files: ["/about.html"], naming: "/no-such-dir/no-such-page", line: 2)
    }

    /// The same rule behind a front controller that skips files (`!-f`): below a missing
    /// directory it ends at index.php, but after an existing file (`/about.html/x`, recorded 500 in
    /// rewrite-to-itself-recurses-below-missing-directory) `-f` holds and the rule recurses. No
    /// probe put a segment after a file (lintcheck recall, snippets.py seed 4101).
    @Test func rewriteToItselfRecursesAfterAnExistingFile() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_FILENAME} !-f\nRewriteRule ^ index.php [L]\nRewriteRule ^(.*)$ $1 [L]\n"
        Self.expectOneFinding("HT302", code, files: ["/about.html", "/index.php"], naming: "/about.html/x", line: 4)
    }

    /// rewrite-strip-suffix-redirect-and-add-suffix-loop: recorded, /about.html → 301 /about →
    /// (internally about.html, whose pass redirects again) 301 /about. The witness is the bare
    /// stem visitors use, not only `/about/` (found through path info).
    @Test func strippingTheSuffixAndAddingItBackLoops() {
        let code = "RewriteEngine On\nRewriteRule ^(.*)\\.html$ /$1 [R=301,L]\nRewriteCond %{REQUEST_FILENAME}.html -f\nRewriteRule ^(.*)$ $1.html [L]\n"
        Self.expectOneFinding("HT301", code, files: ["/about.html"], naming: "redirect loop: http://example.com/about redirects to itself", line: 2)
    }

    /// recursion-method-condition-head-only: a rewrite into app/ guarded only by the method
    /// (`!^(GET|POST)$`); recorded, GET /page is a 404 and HEAD / or /page answers 500 after 10
    /// internal redirects. The probes sent GET alone.
    @Test func aLoopOnlyAnotherMethodReachesIsProbedWithIt() {
        let code = "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} !^(GET|POST)$\nRewriteRule ^(.*)$ app/$1 [L]\n"
        Self.expectOneFinding("HT302", code, files: ["/app/index.html"], naming: "HEAD http://example.com/ is rewritten", line: 3)
    }

    /// The methods probed are those the patterns name, then HEAD and POST, never GET; none when
    /// nothing reads the method.
    @Test func methodsProbedAreThoseTheConfigurationTellsApart() {
        func methods(_ code: String) -> [String] { ProbeSet.testedMethods(LintContext(htaccess: code)) }
        #expect(methods("RewriteEngine On\nRewriteCond %{REQUEST_METHOD} ^(TRACE|TRACK)\nRewriteRule ^ - [F]\n") == ["TRACE", "TRACK", "HEAD"])
        #expect(methods("RewriteEngine On\nRewriteCond %{REQUEST_METHOD} !=GET\nRewriteRule ^ - [F]\n") == ["HEAD", "POST"])
        #expect(methods("<If \"%{REQUEST_METHOD} == 'PUT' && %{HTTP_HOST} == 'x'\">\nRedirect /a /b\n</If>\n") == ["PUT", "HEAD", "POST"])
        #expect(methods("RewriteEngine On\nRewriteRule ^(.*)$ app/$1 [L]\n").isEmpty)
    }

    /// A loop GET shows already is not repeated by a method probe of the same URL.
    @Test func methodProbesAddOnlyWhatGETDoesNotShow() {
        let context = LintContext(htaccess: "RewriteEngine On\nRewriteCond %{REQUEST_METHOD} !=POST\nRewriteRule ^(.*)$ app/$1 [L]\n",
                                  extraFiles: ["/app/index.html"])
        #expect(ProbeSet.testedMethods(context) == ["POST", "HEAD"])
        #expect(context.probes.contains { $0.chain.loopsOrRecurses })
        #expect(context.loopProbes.count == context.probes.count)
    }

    /// rewrite-flags-redirect-to-itself-loops-for-a-file: recorded, /page.html → 301 itself (the
    /// next rule's `!\.html$` leaves it alone) while /page goes on to /index.html. The pattern's
    /// witness is /page; the probe naming the file the pattern matches finds the loop (lintcheck
    /// recall, pairs.py seed 4311).
    @Test func aRedirectToItselfLoopsForTheFileThePatternMatches() {
        let code = "RewriteEngine On\nRewriteRule ^page %{REQUEST_URI} [R=301]\nRewriteCond %{REQUEST_URI} !\\.html$\nRewriteRule . /index.html [R=302,L]\n"
        Self.expectOneFinding("HT301", code, files: ["/index.html", "/page.html"], naming: "http://example.com/page.html redirects to itself", line: 2)
    }

    /// recursion-the-request-condition-rewrites-every-pass: recorded, /go/x recurses to 500
    /// (AH00124): the request line is the same on every pass. No probe named /go/ (lintcheck
    /// recall, bytes.py seeds 4316 and 4317).
    @Test func aRequestLineConditionRecursesForThePathItNames() {
        let code = "RewriteEngine On\nRewriteCond %{THE_REQUEST} \\s/+go/(\\S*)\\s\nRewriteRule ^ /t.php?raw=%1 [L]\n"
        Self.expectOneFinding("HT302", code, files: ["/index.html", "/t.php"], naming: "/go/", line: 3)
    }

    /// A site that lists one file twice (an `AccessFileName` other than `.htaccess` next to a
    /// `.htaccess`) crashed the linter on a duplicate dictionary key.
    @Test func aFileListedTwiceDoesNotCrash() {
        let code = "RewriteEngine On\nRewriteRule ^a$ /b [R=301]\n# htlint disable=HT202\nRewriteRule ^c$ /d [R=301]\n"
        let context = LintContext(htaccess: code)
        var twice = context
        twice.files = context.files + context.files
        let found = Linter(rules: [rule(named: "HT202")!]).run(twice)
        // Each listing reports the unsuppressed rule (line 2); the comment still silences line 4.
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { position(in: code, $0).line == 2 })
    }
}

/// HT207 against Apache's recordings: a skip over the catch-all, or a catch-all in a chain.
struct UnreachableRuleRecordedTests {
    /// diffhunt2/h2-skip-past-end: `^b$ - [S=1]` jumps over `^ /skipped.html`; recorded,
    /// /b → 302 /yes.html from the last rule, which HT207 called unreachable.
    @Test func skipOverTheCatchAllKeepsLaterRulesReachable() {
        let code = "RewriteEngine On\nRewriteRule ^a$ - [S=5]\nRewriteRule ^a$ /no.html [R=302,L]\nRewriteRule ^b$ - [S=1]\nRewriteRule ^ /skipped.html [R=302,L]\nRewriteRule ^b$ /yes.html [R=302,L]\n"
        #expect(findings(of: "HT207", in: code).isEmpty)
    }

    /// Only the rules before the skip's landing point stay unreachable.
    @Test func rulesBeforeTheLandingPointStayUnreachable() {
        let code = "RewriteEngine On\nRewriteRule ^b$ - [S=2]\nRewriteRule ^ /all.html [L]\nRewriteRule ^c$ /c.html [L]\nRewriteRule ^b$ /b.html [L]\n"
        let found = findings(of: "HT207", in: code)
        #expect(found.map { position(in: code, $0).line } == [4])
    }

    /// A catch-all chained to a rule before it runs only when that rule matched.
    @Test func chainedCatchAllIsNotUnconditional() {
        let code = "RewriteEngine On\nRewriteRule ^x - [C]\nRewriteRule ^ /x.html [L]\nRewriteRule ^y$ /y.html [L]\n"
        #expect(findings(of: "HT207", in: code).isEmpty)
    }
}

/// HT215 ("rule never fires") against Apache's recordings: each of these rules fired in Apache.
struct DeadRuleRecordedTests {
    /// diffhunt4/h4-is-subreq-rule-in-index: recorded, GET / serves /other.html — the rule ran in
    /// mod_dir's index subrequest, where `%{IS_SUBREQ}` is `true`.
    @Test func isSubreqHoldsInTheIndexSubrequest() {
        #expect(findings(of: "HT215", in: "RewriteEngine On\nRewriteCond %{IS_SUBREQ} true\nRewriteRule ^index\\.html$ other.html [L]\n").isEmpty)
    }

    /// fixtures/apache/env-names-case-insensitive: recorded, /q serves /real.html — `Gate=open`
    /// from SetEnvIf is `%{ENV:GATE}` (Apache's environment ignores case).
    @Test func environmentNamesIgnoreCase() {
        let code = "SetEnvIf Request_Protocol ^HTTP Gate=open\nRewriteEngine On\nRewriteCond %{ENV:GATE} =open\nRewriteRule ^q$ real.html [L]\nRewriteCond %{ENV:GATE} =closed\nRewriteRule ^r$ real.html [L]\n"
        let found = findings(of: "HT215", in: code)
        // The rule whose condition holds is live; the one testing another value is still dead.
        #expect(found.map { position(in: code, $0).line } == [6])
        #expect(found.first?.message.contains("`%{ENV:GATE}` is always `open`") == true)
    }

    /// fixtures/apache/rewrite-cond-U-lookup-gone: recorded, /u is rewritten to show.html?no by
    /// the second rule — `/g -U` fails (`Redirect gone /g` answers 410 to the subrequest).
    @Test func urlLookupIsNotAlwaysTrue() {
        #expect(findings(of: "HT215", in: "Redirect gone /g\nRewriteEngine On\nRewriteCond /g -U\nRewriteRule ^u$ show.html?yes [L]\nRewriteRule ^u$ show.html?no [L]\n").isEmpty)
    }

    /// diffhunt5/h5-cond-l-symlink: `-l` on a symbolic link of the document root holds; `-L` on a
    /// plain file does not.
    @Test func symlinkTestOnAKnownPath() {
        let code = "RewriteEngine On\nRewriteCond %{DOCUMENT_ROOT}/link.html -l\nRewriteRule ^x$ yes.html [L]\nRewriteCond %{DOCUMENT_ROOT}/real.html -L\nRewriteRule ^y$ yes.html [L]\n"
        let source = SourceFile(path: ".htaccess", text: code)
        var fs = SiteFileSystem(root: "/var/www/html")
        for f in ["/index.html", "/real.html", "/yes.html"] { fs.addFile(f) }
        fs.addSymlink("/link.html", target: "real.html")
        fs.addAccessFile("/", file: source)
        let site = Site(serverName: "example.com", aliases: [], files: fs, vhostLines: [])
        let context = LintContext(files: [LintFile(source: source)], simulator: ChainSimulator(origin: Origin(site: site), edge: Edge(mode: .none)),
                                  hosts: ["example.com"])
        let found = Linter(rules: [rule(named: "HT215")!]).run(context)
        #expect(found.map { position(in: code, $0).line } == [5])
    }
}

/// HT307 against Apache's recordings: mod_alias redirects to a fixed missing page.
struct RedirectToMissingRecordedTests {
    /// Recorded (diffhunt/redirect-trailing-slash-mismatch: `Redirect 302 /g/ /y`, /g/ → 302 /y
    /// → 404; re-recorded `Redirect 301 /old /missing.html`: /old → 301 → 404): HT307 only
    /// looked at RewriteRules.
    @Test func aliasRedirectToAMissingPage() {
        let code = "Redirect 301 /old /missing.html\nRedirectMatch 301 ^/gone$ /missing2.html\n"
        let found = findings(of: "HT307", in: code)
        #expect(found.map { position(in: code, $0).line } == [1, 2])
        #expect(found.first?.message.contains("http://example.com/old is redirected to http://example.com/missing.html, which answers 404") == true)
    }

    /// Targets built from the request (the rest of a prefix, `$1`) and existing pages are no finding.
    @Test func aliasRedirectsBuiltFromTheRequestOrToAPage() {
        #expect(findings(of: "HT307", in: "Redirect 301 /old /index.html\nRedirectMatch 301 ^/a/(.*)$ /b/$1\n").isEmpty)
    }
}

/// Loops that only a query string reaches (fixtures/apache/nested-if-fnmatch-strcmatch:
/// recorded, /q?k=b → 302 /three.html?k=b → 302 /three.html?k=b): no probe had a query.
struct QueryProbeRecordedTests {
    @Test func ifOnTheQueryAroundARedirectThatKeepsItLoops() {
        let code = "<If \"%{QUERY_STRING} in { 'k=a', 'k=b' }\">\nRedirect 302 /three.html\n</If>\n"
        let found = Linter(rules: [rule(named: "HT301")!]).run(LintContext(htaccess: code, extraFiles: ["/three.html"]))
        #expect(found.count == 1)
        #expect(found.first?.message.contains("http://example.com/?k=a leads to http://example.com/three.html?k=a, which redirects to itself") == true)
        #expect(found.first.map { position(in: code, $0).line } == [2].first)
    }

    /// The same redirect dropping the query string (`?` at the end of the target) ends.
    @Test func redirectDroppingTheQueryDoesNotLoop() {
        let code = "<If \"%{QUERY_STRING} == 'k=a'\">\nRedirect 302 /three.html?\n</If>\n"
        #expect(Linter(rules: [rule(named: "HT301")!]).run(LintContext(htaccess: code, extraFiles: ["/three.html"])).isEmpty)
    }

    /// A RewriteCond on the query with a redirect that keeps it stays HT308's (re-recorded:
    /// /x?id=1 → 302 /item.html?id=1 → itself).
    @Test func rewriteCondOnTheQueryIsHT308s() {
        let code = "RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=\\d+$\nRewriteRule ^ /item.html [R=302,L]\n"
        let context = LintContext(htaccess: code, extraFiles: ["/item.html"])
        #expect(Linter(rules: [rule(named: "HT301")!]).run(context).isEmpty)
        #expect(Linter(rules: [rule(named: "HT308")!]).run(context).count == 1)
    }
}

/// HT312 left a redirect to HT307 whenever a probe landed on a 404 through it, but HT307 only
/// reports fixed targets: a probe reaching `/item/%1?` (built from the query) made it reported by
/// neither (recorded, diffhunt/query-backref-redirect-escaping: /p?id=a%20b → 302 /item/a%2520b → 404).
struct UnservedTargetRecordedTests {
    @Test func targetBuiltFromTheQueryStaysWithHT312() {
        let code = "RewriteEngine On\nRewriteCond %{QUERY_STRING} ^id=(.*)$\nRewriteRule ^p$ /item/%1? [R=302,L]\n"
        let context = LintContext(htaccess: code)
        #expect(Linter(rules: [rule(named: "HT307")!]).run(context).isEmpty)
        let found = Linter(rules: [rule(named: "HT312")!]).run(context)
        #expect(found.map { position(in: code, $0).line } == [3])
    }
}
