import Testing
@testable import HtlintApache

/// Disagreements found by differential round 32 (randomised mod_rewrite programs); every
/// expected value was recorded from Apache 2.4 (the fixtures named on each test).
struct Hunt32RegressionTests {
    /// fixtures/apache/rewrite-flags-pt-absolute-url-query-space: `passthrough:http://…` is no
    /// absolute URL, so a space in its query is refused (403) before [PT]'s 400.
    @Test func passThroughAbsoluteURLQueryWithASpace() {
        let vhost = ["RewriteEngine On", "RewriteRule ^/s/(.*)$ http://shop.example/a.html?from=$1 [PT]"]
        let access = [("/", "RewriteEngine On\nRewriteRule ^(.*)$ http://shop.example/a.html?from=$1 [PT]\n")]
        func get(_ target: String) -> OriginResponse { respond(target, vhost: vhost, access: access, files: ["/a.html"]) }
        #expect(get("/s/x%20y").status == 403)
        #expect(get("/s/x%20y").errorCodes == ["AH10410"])
        #expect(get("/s/xy").status == 400)
        #expect(get("/x%20y").status == 403)
        #expect(get("/x%20y").errorCodes == ["AH10411"])
        #expect(get("/xy").status == 400)
    }

    /// fixtures/apache/recursion-limit-r-without-l-in-last-pass: ap_die(500) sends the status of the
    /// first request of the run of non-OK ones; [R] without [L] in the failing pass itself is 500.
    @Test func recursionLimitAfterRWithoutLInTheLastPass() {
        let access = [("/", """
            RewriteEngine On
            RewriteCond %{QUERY_STRING} =early [OR]
            RewriteCond %{ENV:REDIRECT_REDIRECT_STATUS} =200
            RewriteRule ^ /elsewhere.html [R=301]
            RewriteRule ^(.*)$ /x$1 [L]

            """)]
        let late = respond("/start", vhost: ["LimitInternalRecursion 2"], access: access)
        #expect(late.status == 500)
        #expect(late.errorCodes == ["AH00124"])
        #expect(respond("/start?early", vhost: ["LimitInternalRecursion 2"], access: access).status == 301)
    }

    /// fixtures/apache/alias-target-longer-than-path-max, alias-target-length-counts-server-root:
    /// an Alias mapping to more than 4080 bytes (APR_PATH_MAX less the ServerRoot /etc/apache2 and
    /// 4 bytes) does not apply; core's translate refuses the long URI (403, AH00127).
    @Test func aliasTargetLongerThanPathMax() {
        #expect(!Origin.aliasTargetTooLong(String(repeating: "a", count: 4080)))
        #expect(Origin.aliasTargetTooLong(String(repeating: "a", count: 4081)))
        let vhost = ["Alias /al \"${DOCROOT}/new\""]
        let long = "/al" + String(repeating: "/x", count: 2100) + "/x.html"
        let r = respond(long, vhost: vhost, files: ["/new/x.html"])
        #expect(r.status == 403)
        #expect(r.errorCodes == ["AH00127"])
        #expect(respond("/al/x.html", vhost: vhost, files: ["/new/x.html"]).status == 200)
    }
}
