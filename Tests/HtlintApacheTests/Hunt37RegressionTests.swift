import Testing
@testable import HtlintApache

/// Disagreements found by differential round 37 (real-world CMS, plugin and hosting-panel
/// `.htaccess` files); every expected value was recorded from Apache 2.4 (the fixtures named on
/// each test).
struct Hunt37RegressionTests {
    /// fixtures/apache/syntax-error-options-all-none-placement: `All`/`None` must be the first word
    /// and unsigned; each misplacement is its own message and a 500.
    @Test func optionsAllAndNoneMustComeFirstUnsigned() {
        func get(_ options: String) -> OriginResponse {
            respond("/t.html", access: [("/", options + "\n")], files: ["/t.html"])
        }
        #expect(get("Options +All -Indexes").status == 500)
        #expect(get("Options +All -Indexes").errors == ["alert: /var/www/html/.htaccess: You may not use 'Options +All' or 'Options -All'."])
        #expect(get("Options -Indexes +All").errors == ["alert: /var/www/html/.htaccess: 'Options All' must be the first option given."])
        #expect(get("Options Indexes None").errors == ["alert: /var/www/html/.htaccess: 'Options None' must be the first Option given."])
        #expect(get("Options -None").errors == ["alert: /var/www/html/.htaccess: You may not use 'Options +None' or 'Options -None'."])
        #expect(get("Options None +Indexes").status == 200)
        #expect(get("Options RunScripts").status == 200)
    }

    /// fixtures/apache/negotiation-options-plain-words-add-up: plain words add up after the reset
    /// to None, so `All MultiViews` keeps MultiViews; `RunScripts` is MultiViews plus ExecCGI.
    @Test func plainOptionsWordsAddUp() {
        func get(_ options: String) -> Int {
            respond(testOrigin(options + "\n", files: [("/t.html", 0)], serverName: "example.com", modules: ["negotiation"]), "/t").status
        }
        #expect(get("Options All MultiViews") == 200)
        #expect(get("Options None MultiViews") == 200)
        #expect(get("Options RunScripts") == 200)
        #expect(get("Options All") == 404)
    }

    /// fixtures/apache/syntax-error-ifmodule-close-with-trailing-text: a true conditional section
    /// only ends at a line that is exactly `</Name>`; with a comment after it the line is a closer
    /// without an open section (500). A false section and `<Files>` close either way.
    @Test func trueConditionalSectionNeedsAnExactClosingLine() {
        func get(_ htaccess: String) -> OriginResponse {
            respond("/t.html", access: [("/", htaccess)], files: ["/t.html"])
        }
        let commented = get("<IfModule mod_headers.c>\nHeader set X-T a\n</IfModule> # end\n")
        #expect(commented.status == 500)
        #expect(commented.errors == ["alert: /var/www/html/.htaccess: </IfModule> without matching <IfModule> section"])
        #expect(get("<IfDefine !FOO>\nHeader set X-T a\n</IfDefine> # x\n").status == 500)
        #expect(header(get("<IfModule mod_nope.c>\nHeader set X-T a\n</IfModule> # end\nHeader set X-T b\n"), "X-T") == "b")
        #expect(header(get("<Files t.html>\nHeader set X-T a\n</Files> # end\n"), "X-T") == "a")
        #expect(header(get("  <IfModule mod_headers.c>\n  Header set X-T a\n  </ifmodule>  \n"), "X-T") == "a")
    }
}
