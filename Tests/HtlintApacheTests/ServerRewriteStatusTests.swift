import Testing
@testable import HtlintApache

// Server-context rewrite answers found by the round-9 vhost fuzz (fixtures/apache/
// rewrite-flags-server-root-substitution, rewrite-flags-server-pt-absolute-url,
// rewrite-flags-status-flag-order).
struct ServerRewriteStatusTests {
    @Test func substitutionOfJustSlashIsTheFilesystemRoot() {
        // prefix_stat("/") succeeds: the filename is `/`, which <Directory /> denies.
        let r = respond("/a", vhost: ["RewriteEngine On", "RewriteRule ^/a$ / [L]"], files: ["/index.html"])
        #expect(r.status == 403)
        #expect(r.final.filename == "/")
    }

    @Test func passThroughOfAnAbsoluteURLIsABadRequest() {
        for rule in ["RewriteRule ^/a$ http://shop.example/x.html [PT]", "RewriteRule ^/a$ /x.html [R=302,PT]"] {
            let r = respond("/a", vhost: ["RewriteEngine On", rule], files: ["/x.html"])
            #expect(r.status == 400)
            #expect(r.location == nil)
            #expect(r.final.uri == "http://shop.example/x.html")
            #expect(r.final.filename == "passthrough:http://shop.example/x.html")
        }
    }

    @Test func lastStatusFlagWins() {
        let cases: [(String, Int, String?)] = [
            ("[F,R=303]", 303, nil), ("[G,F]", 403, nil), ("[F,G]", 410, nil), ("[R=303,F]", 403, nil),
            ("[R=301,R]", 301, "http://shop.example/x.html"),
        ]
        for (flags, status, location) in cases {
            let r = respond("/a", vhost: ["RewriteEngine On", "RewriteRule ^/a$ /x.html \(flags)"], files: ["/x.html"])
            #expect(r.status == status, "\(flags)")
            #expect(r.location == location, "\(flags)")
        }
    }
}

// mod_dir's fixup_dflt passes on a FallbackResource subrequest's answer other than 200/404
// (fixtures/apache/fallback-subrequest-status-propagates).
struct FallbackSubrequestStatusTests {
    @Test func refusedFallbackAnswers403() {
        let r = respond("/missing", vhost: ["<Directory /var/www/html>", "FallbackResource /index.php", "</Directory>",
                                            "<Files \"index.php\">", "Require all denied", "</Files>"],
                        files: ["/index.php"])
        #expect(r.status == 403)
    }
}

// fixtures/apache/header-onsuccess-served-with-redirect-status: a file the handler serves with
// the 303 an [R=303] without [L] left carries the onsuccess table too.
struct ServedRedirectStatusHeaderTests {
    @Test func plainHeaderSetReachesAServed303() {
        let r = respond("/a", vhost: ["RewriteEngine On", "RewriteRule ^/a$ /x/a [R=303]", "RewriteRule ^ /f.html",
                                      "Header set X-V v"], files: ["/f.html"])
        #expect(r.status == 303)
        #expect(r.location == nil)
        #expect(r.headers.contains { $0.name == "X-V" && $0.value == "v" })
    }
}

// fixtures/apache/header-location-on-server-rewrite-redirect: translate_name runs after the
// location and if walks, so a server-context answer carries <Location> headers; a URL refused
// while it is decoded does not.
struct ServerAnswerLocationHeaderTests {
    private let vhost = ["RewriteEngine On", "RewriteRule ^/al/x$ /page.html [R=301,L]",
                         "<LocationMatch \"^/al\">", "Header always set X-L loc", "</LocationMatch>"]

    @Test func serverRedirectCarriesLocationHeaders() {
        let r = respond("/al/x", vhost: vhost, files: ["/page.html"])
        #expect(r.status == 301)
        #expect(r.headers.contains { $0.name == "X-L" && $0.value == "loc" })
    }

    @Test func encodedSlashRefusalDoesNot() {
        let r = respond("/al%2Fx.html", vhost: vhost, files: ["/page.html"])
        #expect(r.status == 404)
        #expect(!r.headers.contains { $0.name == "X-L" })
    }
}

// fixtures/apache/env-subrequest-inherits-rewrite-env: make_sub_request copies the parent's
// environment, so the index subrequest sees an [E] the main request set.
struct SubrequestEnvironmentTests {
    @Test func indexSubrequestSeesTheParentsRewriteEnv() {
        let r = respond("/news2/", vhost: ["RewriteEngine On", "RewriteRule ^/news /%{ENV:FZ}/x/ [E=FZ:1]"],
                        files: ["/x/index.html", "/news2/index.html"])
        // Without the copy the subrequest maps to /x/ again and its DirectorySlash 301 is passed on.
        #expect(r.location == nil)
        #expect(r.status != 301)
        #expect(r.final.uri == "/news2/")
    }
}
