import HtlintDiagnostics
@testable import HtlintReporting
import Testing

/// The code frame: the caret must sit under the range as a terminal shows the line.
struct TextFormatterTests {
    /// The frame's source line and caret line for a diagnostic on `needle` in a one-line file.
    func frame(_ line: String, _ needle: String, after: String? = nil) -> [String] {
        let file = SourceFile(path: "t/.htaccess", text: line + "\n")
        let d = Diagnostic(code: "HT999", severity: .warning, message: "m", range: range(of: needle, in: file, after: after))
        let out = TextFormatter().format(Report(diagnostics: [d], sources: [file]))
        return out.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2).prefix(2).map(String.init)
    }

    @Test func caretUnderAMultiByteCharacterCoversItsCells() {
        #expect(frame("RewriteRule ^café$ /x", "é") == [
            "1 | RewriteRule ^café$ /x",
            "  |                 ^",
        ])
        // Wide characters take two cells each, so `日本` is underlined with four.
        #expect(frame("RewriteRule ^日本$ /x", "日本") == [
            "1 | RewriteRule ^日本$ /x",
            "  |              ^~~~",
        ])
    }

    @Test func caretAfterMultiByteTextIsShiftedByCellsNotBytes() {
        #expect(frame("RewriteRule ^日本/(.*)$ /ja/$1 [R]", "[R]") == [
            "1 | RewriteRule ^日本/(.*)$ /ja/$1 [R]",
            "  |                                ^~~",
        ])
        // A combining accent takes no cell.
        #expect(frame("# e\u{301}x y", "y") == [
            "1 | # e\u{301}x y",
            "  |      ^",
        ])
    }

    @Test func tabsExpandToTabStopsInLineAndCaret() {
        #expect(frame("\tRewriteRule ^a$ /b [R]", "[R]") == [
            "1 |     RewriteRule ^a$ /b [R]",
            "  |                        ^~~",
        ])
        // A tab after two characters reaches the next stop (column 4), not four spaces further.
        #expect(frame("ab\tR", "R") == [
            "1 | ab  R",
            "  |     ^",
        ])
        // A range over a tab underlines the cells the tab takes.
        #expect(frame("a\tb", "\tb") == [
            "1 | a   b",
            "  |  ^~~~",
        ])
    }

    @Test func multiLineRangeMarksItsFirstLineToTheEnd() {
        #expect(frame("Redirect 301 /old \\\n    /new", "/old \\\n    /new") == [
            "1 | Redirect 301 /old \\",
            "  |              ^~~~~~",
        ])
    }

    @Test func emptyRangeAndRangeOverTheLineBreakGetOneCaretAtTheEnd() {
        let file = SourceFile(path: "t", text: "RewriteRule a b\r\nX\n")
        let atEnd = Diagnostic(code: "HT1", severity: .error, message: "m", range: .point("t", 15))
        let overCRLF = Diagnostic(code: "HT2", severity: .error, message: "m", range: file.range(15, 17))
        let out = TextFormatter().format(Report(diagnostics: [atEnd, overCRLF], sources: [file]))
        #expect(out.components(separatedBy: "  |" + String(repeating: " ", count: 16) + "^\n").count == 3)
        #expect(!out.contains("\r"))
    }

    @Test func controlCharactersAndTheBOMDoNotShiftTheCaret() {
        #expect(frame("\u{FEFF}a\u{1}b", "b") == [
            "1 | a␁b",
            "  |   ^",
        ])
    }

    @Test func noteWithoutSourceHasNoFrame() {
        let d = Diagnostic(code: "HT1", severity: .error, message: "m", range: .point("gone", 0),
                           notes: [Note(message: "n")])
        let out = TextFormatter().format(Report(diagnostics: [d], sources: [], checkedPaths: ["gone"]))
        #expect(out == "gone:1:1: error[HT1]: m\n  = note: n\n\nfound 1 error in 1 file\n")
    }

    @Test func summaryCountsAndPluralises() {
        let f = TextFormatter()
        #expect(f.format(Report(diagnostics: [], sources: [], checkedPaths: ["a", "b"])) == "no problems found in 2 files\n")
        let one = Diagnostic(code: "HT1", severity: .warning, message: "m", range: .point("a", 0))
        #expect(f.summary(Report(diagnostics: [one], sources: [], checkedPaths: ["a"])) == "found 1 warning in 1 file")
        #expect(f.summary(Fixture.report) == "found 2 errors, 3 warnings and 1 note in 3 files")
    }

    @Test func noEscapesWithoutColour() {
        #expect(!TextFormatter().format(Fixture.report).contains("\u{1B}"))
        #expect(TextFormatter(colour: true).format(Fixture.report).contains("\u{1B}[1;31merror[HT301]:\u{1B}[0m"))
    }
}
