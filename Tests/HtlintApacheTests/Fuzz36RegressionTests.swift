import Testing
import HtlintDiagnostics
@testable import HtlintApache

/// Fuzz 36: mutated copies of the shared corpus and the fixtures (tools/realistic/mutate.py),
/// each disagreement recorded from Apache 2.4 (the fixtures named on each test).
struct Fuzz36RegressionTests {
    func site(_ htaccess: String, files: [(String, Int)], modules: [String] = []) -> Origin {
        testOrigin(htaccess, files: files, serverName: "ex.test", modules: modules)
    }

    /// fixtures/apache/negotiation-none-negotiable-last-modified-epoch: files named `doc.*` none
    /// of which can be negotiated (AH00687) end the scan before r->mtime is set, so
    /// %{LAST_MODIFIED} stays the epoch; a name with no files at all goes on and sets it.
    @Test func noNegotiableVariantKeepsTheEpoch() {
        let o = site("Options +MultiViews\nHeader always set X-E epoch \"expr=%{LAST_MODIFIED} == '19700101000000'\"\n",
                     files: [("/doc.php", 0), ("/page.html", 0)], modules: ["negotiation"])
        let none = respond(o, "/doc")
        #expect(none.status == 404)
        #expect(none.errorCodes == ["AH00687"])
        #expect(header(none, "X-E") == "epoch")
        #expect(header(respond(o, "/doc", method: "OPTIONS"), "X-E") == "epoch")
        #expect(header(respond(o, "/missing"), "X-E") == nil)
        #expect(header(respond(o, "/page"), "X-E") == nil)
    }
}
