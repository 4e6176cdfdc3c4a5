import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// mod_headers actions and conditions on the response (apache-semantics §13); each expected
/// value was recorded from Apache 2.4 (fixtures/apache/header-*).
struct HeaderDirectiveTests {
    func respond(_ htaccess: String, _ target: String, vhost: [String] = []) -> OriginResponse {
        var fs = SiteFileSystem(root: "/var/www/html")
        fs.addFile("/a.html")
        fs.addFile("/b.html")
        fs.addAccessFile("/", file: SourceFile(path: ".htaccess", bytes: Array(htaccess.utf8)))
        return Origin(site: Site(serverName: "example.org", files: fs, vhostLines: vhost))
            .respond(to: OriginRequest(target: target, headers: [HTTPHeader("Host", "example.org")]))
    }

    @Test func exprValueIsAStringExpressionNotAFormat() {
        let r = respond("""
            Header set X-Where "expr=%{HTTP_HOST}%{REQUEST_URI}?%{QUERY_STRING}"
            Header set X-Lit "expr=100%"
            """, "/a.html?q=1")
        #expect(r.combinedHeader("X-Where") == "example.org/a.html?q=1")
        #expect(r.combinedHeader("X-Lit") == "100%")
        #expect(respond(#"Header set X-Bad "expr=%{NO_SUCH_VAR}""#, "/a.html").status == 500)
    }

    @Test func appendMergeAndAddAccumulate() {
        let r = respond("""
            Header append X-Ap x
            Header append X-Ap y
            Header add X-Ad 1
            Header add X-Ad 2
            Header set X-M one
            Header merge X-M one
            Header merge X-M two
            """, "/a.html")
        #expect(r.combinedHeader("X-Ap") == "x, y")
        #expect(r.headers.filter { $0.name == "X-Ad" }.map(\.value) == ["1", "2"])
        #expect(r.combinedHeader("X-M") == "one, two")
    }

    @Test func mergeComparesWholeQuotedTokens() {
        let r = respond(#"""
            Header set X-Q "\"a,b\", c"
            Header merge X-Q c
            Header merge X-Q "\"a,b\""
            Header merge X-Q a
            """#, "/a.html")
        #expect(r.combinedHeader("X-Q") == #""a,b", c, a"#)
        #expect(headerTokens(#" "a,b" ,c,"#) == [#""a,b" "#, "c"])
    }

    @Test func editReplacesFirstMatchAndEditStarEveryOne() {
        let r = respond(#"""
            Header set X-E abc-def
            Header edit X-E -def$ -ghi
            Header edit* X-F a b
            Header set X-F aaa
            Header set X-Star a-a-a
            Header edit* X-Star a b
            Header set X-Anchor aaa
            Header edit* X-Anchor ^a b
            Header set X-Ref abc
            Header edit X-Ref (b) "[$1&\$2]"
            """#, "/a.html")
        #expect(r.combinedHeader("X-E") == "abc-ghi")
        #expect(r.combinedHeader("X-F") == "aaa") // edit before set finds nothing
        #expect(r.combinedHeader("X-Star") == "b-b-b")
        #expect(r.combinedHeader("X-Anchor") == "bbb") // each rest is searched afresh
        #expect(r.combinedHeader("X-Ref") == "a[b&$2]c")
    }

    @Test func alwaysAndOnSuccessAreSeparateTables() {
        let htaccess = """
            Header set X-T on
            Header always set X-T al
            Header always unset X-T
            Header setifempty X-S first
            Header setifempty X-S second
            Header always setifempty X-S always
            RewriteEngine On
            RewriteRule ^rw$ /a.html [R=302,L]
            """
        let ok = respond(htaccess, "/a.html")
        #expect(ok.combinedHeader("X-T") == "on")
        #expect(ok.combinedHeader("X-S") == "always, first")
        let redirect = respond(htaccess, "/rw")
        #expect(redirect.status == 302)
        #expect(redirect.combinedHeader("X-T") == nil)
        #expect(redirect.combinedHeader("X-S") == "always")
    }

    @Test func exprConditionSeesTheFinalStatusAndRequest() {
        let htaccess = """
            Header always set X-Cond c "expr=%{REQUEST_STATUS} == 301"
            Header set X-A yes "expr=%{REQUEST_URI} =~ m#^/a#"
            Header set X-False no expr=false
            RewriteEngine On
            RewriteRule ^rw$ /a.html [R=301,L]
            """
        let moved = respond(htaccess, "/rw")
        #expect(moved.status == 301)
        #expect(moved.combinedHeader("X-Cond") == "c")
        let a = respond(htaccess, "/a.html")
        #expect(a.combinedHeader("X-Cond") == nil)
        #expect(a.combinedHeader("X-A") == "yes")
        #expect(a.combinedHeader("X-False") == nil)
        #expect(respond(htaccess, "/b.html").combinedHeader("X-A") == nil)
    }

    @Test func virtualHostLinesComeFirstAndEarlyOnlyFromThere() {
        let vhost = [
            #"Header set X-Order vhost"#, #"Header always set X-VA v early"#,
            "RewriteEngine On", "RewriteRule ^/vr$ /a.html [R=302,L]",
        ]
        let htaccess = "Header append X-Order htaccess\nHeader always set X-Early v early\n"
        let ok = respond(htaccess, "/a.html", vhost: vhost)
        #expect(ok.combinedHeader("X-Order") == "vhost, htaccess")
        #expect(ok.combinedHeader("X-VA") == "v")
        #expect(ok.combinedHeader("X-Early") == nil)
        // Redirected before any directory was walked: the host's lines still apply.
        let redirect = respond(htaccess, "/vr", vhost: vhost)
        #expect(redirect.status == 302)
        #expect(redirect.combinedHeader("X-VA") == "v")
        #expect(redirect.combinedHeader("X-Order") == nil)
    }
}
