import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Disagreements found by differential round 33 (core mod_rewrite); every expected value was
/// recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz33RegressionTests {
    func site(_ htaccess: String, files: [(String, Int)]) -> Origin {
        testOrigin(htaccess, files: files, serverName: "example.org")
    }

    /// fixtures/apache/recursion-limit-lookup-skips-path-check: a `-F` look-up of a relative
    /// name made by the 10th redirected request fails with 500 before its path is checked, so
    /// it logs AH00124 and no AH10244 (below the limit the name is looked up under the
    /// filename `/a.html/`, outside the document root: AH01630).
    @Test func fileLookupAtTheRecursionLimitLogsNoPathError() {
        let o = site("RewriteEngine On\nRewriteRule ^([^/]+)/?$ /$1/\nRewriteCond x/y -F\nRewriteRule ^(.*)/$ /t.html [L]\n",
                     files: [("/t.html", 0), ("/a.html", 0)])
        let r = respond(o, "/a.html")
        #expect(r.status == 500)
        #expect(r.errorCodes == Array(repeating: "AH01630", count: 10) + ["AH00124", "AH00124"])
    }

    /// fixtures/apache/recursion-limit-lookup-skips-path-check: a `-U` look-up with a bad
    /// escape logs AH10244 on each of the ten levels, but not on the one past the limit.
    @Test func uriLookupAtTheRecursionLimitLogsNoPathError() {
        let o = site("RewriteEngine On\nRewriteCond /%zz !-U\nRewriteRule ^(.*)$ /$1x\n", files: [])
        let r = respond(o, "/a")
        #expect(r.status == 500)
        #expect(r.errorCodes == Array(repeating: "AH10244", count: 10) + ["AH00124", "AH00124"])
    }

    /// fixtures/apache/rewrite-cond-lookup-file-relative-climbing-above-start: a `-F` look-up of
    /// a relative name fails (400, AH10244) when a `..` climbs above the name's start, escaped
    /// dots included; a `..` that takes back one of the name's own segments is looked up.
    @Test func relativeFileLookupClimbingAboveItsStartIsRefused() {
        let o = site("RewriteEngine On\nRewriteCond %{QUERY_STRING} ^f=(.*)$\nRewriteCond %1 -F\nRewriteRule ^d/go$ /yes.html [L]\nRewriteRule ^d/go$ /no.html [L]\n",
                     files: [("/yes.html", 0), ("/no.html", 0), ("/a.html", 0), ("/d/x.html", 0)])
        for (name, answer, codes) in [("../a.html", "/no.html", ["AH10244"]), ("q/../../a.html", "/no.html", ["AH10244"]),
                                      ("./../a.html", "/no.html", ["AH10244"]), ("%2e%2e/a.html", "/no.html", ["AH10244"]),
                                      (".%2e/a.html", "/no.html", ["AH10244"]), ("..", "/no.html", ["AH10244"]),
                                      ("x.html", "/yes.html", []), ("q/../x.html", "/yes.html", []),
                                      ("q/./../x.html", "/yes.html", []), ("q//../x.html", "/yes.html", [])] {
            let r = respond(o, "/d/go?f=\(name)")
            #expect(r.final.uri == answer, "\(name)")
            #expect(r.errorCodes == codes, "\(name)")
        }
    }

    /// fixtures/apache/recursion-limit-lookup-skips-path-check: past the limit only ap_parse_uri
    /// ran on the look-up, so `%{LA-U:REQUEST_URI}` keeps its escapes, `./` and `//` (below
    /// it the bad escape `%e` fails each look-up with AH10244).
    @Test func lookAheadURIAtTheRecursionLimitIsLeftAsParsed() {
        let o = site("RewriteEngine On\nRewriteRule ^(.*)$ x\\%41%%7e//a/./b\nRewriteCond %{LA-U:REQUEST_URI} (.*)\nRewriteRule ^ /y.html?m=%1 [L,B]\n",
                     files: [("/y.html", 0)])
        let r = respond(o, "/a")
        #expect(r.status == 500)
        #expect(r.final.query == "?m=%2fvar%2fwww%2fhtml%2fx%2541%25e%2f%2fa%2f%2e%2fb")
        #expect(r.errorCodes == Array(repeating: "AH10244", count: 10) + ["AH00124", "AH00124"])
    }

    /// fixtures/apache/rewrite-cond-lookup-file-relative-climbing-above-start: after an `[R]`
    /// without `[L]` the "filename" is the URL `http://example.org/r/b`; a name that the merge
    /// puts back in its directory (`../r/x.html`) is looked up beside the URI, where
    /// `<Directory />` denies `/http:` (AH01630); one that leaves it (`../x.html`) is parsed
    /// as its own URI and refused (AH10244).
    @Test func relativeNameMergedBackIntoARelativeDirectoryIsLookedUp() {
        let o = site("RewriteEngine On\nRewriteRule ^r/a$ /r/b [R=302]\nRewriteCond %{QUERY_STRING} ^f=(.*)$\nRewriteCond %1 -F\nRewriteRule ^ /yes.html [R=302,L]\n",
                     files: [("/yes.html", 0), ("/r/b", 0), ("/r/x.html", 0)])
        for (name, codes) in [("../r/x.html", ["AH01630"]), ("x.html", ["AH01630"]), ("q/../x.html", ["AH01630"]), ("../x.html", ["AH10244"])] {
            let r = respond(o, "/r/a?f=\(name)")
            #expect(r.status == 302, "\(name)")
            #expect(r.location == "http://example.org/r/b?f=\(name)", "\(name)")
            #expect(r.errorCodes == codes, "\(name)")
        }
        #expect(Origin.nameBeside("http://example.org/r/", "../r/x.html") == "x.html")
        #expect(Origin.nameBeside("http://example.org/r/", "..") == nil)
        #expect(Origin.nameBeside("http://example.org/r/", "x/") == nil)
    }

    /// fixtures/apache/recursion-limit-lookup-skips-path-check: the look-up refused past the
    /// limit was still made by make_sub_request, so it has its parent's environment: the
    /// 10th redirected request's `%{LA-U:ENV:REDIRECT_STATUS}` is 200 (leftmost `m=`, as
    /// [QSA] puts each level's query before the last one; the first request has none).
    @Test func lookUpAtTheRecursionLimitHasItsParentsEnvironment() {
        let o = site("RewriteEngine On\nRewriteRule ^(.*)$ $1x\nRewriteCond %{LA-U:ENV:REDIRECT_STATUS} (.*)\nRewriteRule ^ /y.html?m=%1 [L,QSA]\n",
                     files: [("/y.html", 0)])
        let r = respond(o, "/a")
        #expect(r.status == 500)
        #expect(r.final.query == "?" + Array(repeating: "m=200", count: 10).joined(separator: "&") + "&m=")
    }

    /// fixtures/apache/recursion-nesting-limit-lookup-keeps-parent-request-line: the look-up
    /// refused at the nesting limit (AH00125) is still made, so `%{LA-U:THE_REQUEST}` read
    /// through it is the request line: the look-up above rewrites its query with spaces and
    /// logs AH10411, before the main request does the same (403).
    @Test func lookUpRefusedAtTheNestingLimitKeepsTheRequestLine() {
        let o = testOrigin("RewriteEngine On\nRewriteRule ^(.*)$ $1x\nRewriteCond %{LA-U:THE_REQUEST} (.*)\nRewriteRule ^ /y.html?m=%1 [L]\n",
                           vhost: ["LimitInternalRecursion 10 1"], files: [("/y.html", 0)], serverName: "example.org")
        let r = respond(o, "/a")
        #expect(r.status == 403)
        #expect(r.final.query == "?m=GET /a HTTP/1.1")
        #expect(r.errorCodes == ["AH00125", "AH10411", "AH10411"])
    }
}
