import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Issue 9 item 2: one request never costs unbounded work. `[N]` rounds over a rule set that
/// keeps matching, long inputs and nested subrequests stop at htlint's work budget with a 500
/// and a warning that says so.
struct WorkBudgetTests {
    /// `budget` nil: the product's own.
    func origin(_ htaccess: String, budget: Int? = nil, files: [String] = []) -> Origin {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/index.html")
        for f in files { fs.addFile(f) }
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
        let site = Site(serverName: "example.org", files: fs)
        guard let budget else { return Origin(site: site, tracing: true) }
        return Origin(site: site, tracing: true, ruleEvaluationBudget: budget)
    }

    @Test func nextRoundsOverManyRulesStopAtTheBudget() {
        // 100 negated rules always match; the last rule restarts the pass without changing
        // anything, so every one of 32,000 rounds evaluates 101 rules: 3.2 million evaluations,
        // over the default budget. The test sets a smaller one (same code path, less time).
        #expect(Origin(site: Site(serverName: "example.org", files: SiteFileSystem(root: "/srv"))).ruleEvaluationBudget == 1_000_000)
        var lines = ["RewriteEngine On"]
        for i in 0..<100 { lines.append("RewriteRule !^never-\(i)$ - [E=SEEN\(i):1]") }
        lines.append("RewriteRule ^(.*)$ $1 [N]")
        let response = origin(lines.joined(separator: "\n") + "\n", budget: 100_000)
            .respond(to: OriginRequest(target: "/page", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errors.contains { $0.contains("htlint stopped after 100000 units of work") })
        #expect(response.trace.contains { $0.detail.contains("work budget") && $0.detail.contains("real answer is unknown") })
    }

    /// Two look-ups per level make a tree of 2^10 subrequests per pass (16 units each and their rules); ten passes
    /// of it reach Apache's own end, the internal redirect limit, within the budget (half the
    /// budget stopped at pass 7). Recorded with Apache's default limits on 2026-12-03 (20,480
    /// AH00125 lines a request, too large to keep); the fixture
    /// recursion-la-u-two-lookups-per-level-redirect-limit repeats it with a nesting limit of 3.
    @Test func lookUpTreesOfTenPassesEndAtTheRedirectLimit() {
        let response = origin("RewriteEngine On\nRewriteRule ^(.*)$ r/w%{LA-U:REQUEST_FILENAME}|%{LA-U:NO_SUCH_VARIABLE} [L]\n")
            .respond(to: OriginRequest(target: "/p", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errorCodes.contains("AH00124"))
        #expect(response.final.filename == "redirect:/r/w|")
        #expect(!response.errors.contains { $0.contains("units of work") })
    }

    @Test func ordinaryNextLoopsStayWithinTheBudget() {
        // Apache's own round limit answers first when a rule set is small.
        let response = origin("RewriteEngine On\nRewriteRule ^(.*)$ $1 [N=50]\n")
            .respond(to: OriginRequest(target: "/page", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errorCodes.contains("AH02596"))
        #expect(!response.errors.contains { $0.contains("units of work") })
    }

    @Test func apacheLengthLimitEndsAGrowingLoopWithinTheBudget() {
        // fixtures/apache/recursion-next-growing-uri-length-limit: Apache ends the loop when the
        // path passes 16,380 bytes (after 16,368 rounds), logged without an AH number; it must be
        // that limit answering, not htlint's budget.
        let response = origin("RewriteEngine On\nRewriteRule ^x(.*)$ x$1y [N]\n")
            .respond(to: OriginRequest(target: "/x", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errors.contains { $0.contains("RewriteRule '^x(.*)$' and URI '/x' exceeded maximum length (16380)") })
        #expect(!response.errors.contains { $0.contains("units of work") })
        #expect(response.final.filename?.utf8.count == "/x".utf8.count + 16366)  // relative to the document root
    }

    @Test(arguments: ["RewriteRule .* /index.html?qs=%{QUERY_STRING}&n=1 [N]", "RewriteRule ^(.*)$ $1?x=1 [QSA,N]",
                      "RewriteRule ^ - [E=X:%{ENV:X}xxxxxxxx,N]"])
    func growingQueriesAndValuesStopAtTheBudget(_ rule: String) {
        // A query string or environment value that grows every round is bounded by no Apache
        // limit (Apache did not answer within ten seconds, hunt round 26); all 32,000 rounds
        // copied gigabytes for minutes before the growth was charged.
        // (A smaller budget than the product's: the same end, sooner.)
        let response = origin("RewriteEngine On\n\(rule)\n", budget: 100_000)
            .respond(to: OriginRequest(target: "/index.html", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errors.contains { $0.contains("htlint stopped after 100000 units of work") })
    }

    /// A budget that runs out inside a look-up subrequest only fails that look-up's condition;
    /// the request must still end in htlint's 500 with its note, not in an answer that looks
    /// normal (hunt round 34: this tree of look-ups answered 404 unrewritten, where Apache,
    /// walking all of it, rewrites to /xblogy first).
    @Test func budgetSpentInsideALookUpEndsTheRequest() {
        let htaccess = """
        RewriteEngine On
        RewriteCond %{LA-U:REQUEST_FILENAME} -U
        RewriteCond %{DOCUMENT_ROOT}/%1 -U
        RewriteRule ^(.*?)/+(.*)$ %{ENV:x}/x$1y [QSD,C,CO=k:v:site.example]

        """
        let response = origin(htaccess, budget: 100_000)
            .respond(to: OriginRequest(target: "/blog/guide/", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errors.contains { $0.contains("htlint stopped after 100000 units of work") })
    }

    @Test func nestedDirectoryIndexSubrequestsStop() {
        // Index names that lead back to the directory ("?x" keeps the path) make each level try
        // every name again, ten levels deep: 8^10 subrequests, 19 s before subrequests counted
        // (found by fuzz-simulate).
        let names = (0..<8).map { "?\($0)" }.joined(separator: " ")
        let response = origin("DirectoryIndex \(names)\n", budget: 100_000)
            .respond(to: OriginRequest(target: "/", headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        #expect(response.errors.filter { $0.contains("htlint stopped after 100000 units of work") }.count == 1)
    }

    @Test func longInputsCostMore() {
        // 60 rules copying a 7,000-byte path into the environment on every [N] round took a
        // minute before evaluations were weighted by input length (found by fuzz-expander).
        var lines = ["RewriteEngine On"]
        for i in 0..<60 { lines.append("RewriteRule ^(.*)$ - [E=X\(i):$1]") }
        lines.append("RewriteRule ^(.*)$ $1 [N]")
        // 4,000 bytes in 100-byte segments: a longer path no longer maps at all (AH00127,
        // APR_PATH_MAX), nor does a segment over 255 bytes (AH00036, ENAMETOOLONG).
        let path = "/" + String(repeating: String(repeating: "a", count: 99) + "/", count: 40)
        // The file exists: a missing one leaves path info, which each `[N]` round appends again
        // (as Apache does), so Apache's length limit would answer after four rounds instead.
        let response = origin(lines.joined(separator: "\n") + "\n", budget: 20_000, files: [path])
            .respond(to: OriginRequest(target: path, headers: [HTTPHeader("Host", "example.org")]))
        #expect(response.status == 500)
        // 2 units per evaluation of the 4,000-byte path (1 + 4000 / 2048): the budget stops it
        // after 10,000 evaluations, in the 164th round.
        #expect(response.errors.contains { $0.contains("htlint stopped after 20000 units") })
    }
}
