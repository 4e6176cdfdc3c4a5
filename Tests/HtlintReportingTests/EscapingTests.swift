import HtlintDiagnostics
@testable import HtlintReporting
import Testing

/// Escaping in the formats whose syntax a message or path could break.
struct EscapingTests {
    @Test func githubMessageEscapesPercentAndLineBreaksOnly() {
        #expect(GitHubFormatter.escapeData("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d")
        // `%` first, so the escapes themselves are not escaped again.
        #expect(GitHubFormatter.escapeData("%0A") == "%250A")
    }

    @Test func githubPropertiesAlsoEscapeColonAndComma() {
        #expect(GitHubFormatter.escapeProperty("a,b:c%d\ne") == "a%2Cb%3Ac%25d%0Ae")
    }

    @Test func githubCommandWithAnOddPathStaysOneCommand() {
        let d = Diagnostic(code: "HT1", severity: .note, message: "x\ny", range: .point("./sites/a,b:c/.htaccess", 0))
        let out = GitHubFormatter().format(Report(diagnostics: [d], sources: []))
        #expect(out == "::notice file=sites/a%2Cb%3Ac/.htaccess,line=1,col=1,endLine=1,endColumn=1,title=HT1::x%0Ay\n")
    }

    @Test func githubOmitsColumnsForARangeOverSeveralLines() {
        let out = GitHubFormatter().format(Fixture.report)
        #expect(out.contains("::warning file=public/.htaccess,line=6,endLine=7,title=HT207 mixed-alias-and-rewrite::"))
    }

    @Test func xmlEscapesMarkupQuotesAndLineBreaks() {
        #expect(CheckstyleFormatter.escape(#"<a href="x">Tom & Jerry's</a>"#)
            == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        #expect(CheckstyleFormatter.escape("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d")
    }

    @Test func xmlReplacesCharactersXMLCannotCarry() {
        #expect(CheckstyleFormatter.escape("a\u{0}b\u{1B}c\u{FFFF}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}")
        #expect(CheckstyleFormatter.escape("日本 é") == "日本 é")
    }

    @Test func checkstyleEscapesPathsAndCodes() {
        let d = Diagnostic(code: "HT<1>", severity: .note, message: "m", range: .point("a&b/.htaccess", 0))
        let out = CheckstyleFormatter().format(Report(diagnostics: [d], sources: []))
        #expect(out.contains(#"<file name="a&amp;b/.htaccess">"#))
        #expect(out.contains(#"severity="info" message="m" source="htlint.HT&lt;1&gt;"/>"#))
    }

    @Test func sarifURIsArePercentEncodedReferences() {
        #expect(SARIFFormatter.uri("public/.htaccess") == "public/.htaccess")
        #expect(SARIFFormatter.uri("my site/日.htaccess") == "my%20site/%E6%97%A5.htaccess")
        #expect(SARIFFormatter.uri("<stdin>") == "%3Cstdin%3E")
        #expect(SARIFFormatter.uri("a:b") == "a%3Ab")
        #expect(SARIFFormatter.uri("/srv/www/.htaccess") == "file:///srv/www/.htaccess")
        #expect(SARIFFormatter.uri("100%") == "100%25")
    }

    @Test func sarifKeepsOnlyAbsoluteHelpURIs() {
        #expect(SARIFFormatter.isAbsoluteURI("https://htlint.dev/rules/HT301"))
        #expect(!SARIFFormatter.isAbsoluteURI("docs/rules/HT207.md"))
        let sarif = SARIFFormatter().format(Fixture.report)
        #expect(!sarif.contains("\"helpUri\" : \"docs/rules/HT207.md\""))
        #expect(sarif.contains("See docs/rules/HT207.md"))
    }

    @Test func sarifLeavesOutDisplayOnlyFixes() {
        let sarif = SARIFFormatter().format(Fixture.report)
        #expect(sarif.contains("Add `L`"))
        #expect(!sarif.contains("Use `[END]`"))
    }
}
