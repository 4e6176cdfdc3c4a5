import Testing
import HtlintDiagnostics
@testable import HtlintSyntax

// apache-semantics §2.1 and §2.2: physical lines, continuation, trimming.

@Test func lfAndCRLFBothEndLines() {
    #expect(logicalLines("a\nb\n").map(\.text) == ["a", "b"])
    #expect(logicalLines("a\r\nb\r\n").map(\.text) == ["a", "b"])
}

@Test func lastLineNeedsNoNewline() {
    let lines = logicalLines("RewriteEngine On\nRewriteRule ^a$ b")
    #expect(lines.map(\.text) == ["RewriteEngine On", "RewriteRule ^a$ b"])
    #expect(lines.map(\.line) == [1, 2])
}

@Test func emptyLinesAreKeptAsEmptyLogicalLines() {
    let lines = logicalLines("a\n\n   \nb")
    #expect(lines.map(\.text) == ["a", "", "", "b"])
    #expect(lines.map(\.line) == [1, 2, 3, 4])
}

@Test func logicalLineIsTrimmedButKeepsFileOffsets() {
    let line = firstLine("  \tRewriteEngine On \t\r\n")
    #expect(line.text == "RewriteEngine On")
    #expect(line.offsets.first == 3)
    #expect(line.endOffset == 19)
    #expect(line.fullRange == SourceRange(file: "/var/www/html/.htaccess", start: 3, end: 19))
}

@Test func continuationGluesTheNextLineWithoutASpace() {
    // CT-SYN-02: the flags become part of the substitution.
    let lines = logicalLines("RewriteRule ^a$ env.cgi?x=cont\\\n[L]\nRewriteEngine On")
    #expect(lines.map(\.text) == ["RewriteRule ^a$ env.cgi?x=cont[L]", "RewriteEngine On"])
    #expect(lines.map(\.line) == [1, 3])
}

@Test func continuationKeepsTheNextLinesLeadingWhitespace() {
    // CT-SYN-01: one space before the backslash plus three leading spaces.
    #expect(firstLine("RewriteRule ^a$ \\\n   env.cgi?x=cont [L]").text == "RewriteRule ^a$    env.cgi?x=cont [L]")
}

@Test func continuationWorksWithCRLF() {
    #expect(logicalLines("a\\\r\nb\r\nc").map(\.text) == ["ab", "c"])
}

@Test func doubleBackslashAtLineEndStillContinuesAndLosesOneBackslash() {
    // §2.1 rule 2: no escaped-backslash exception.
    #expect(firstLine("RewriteRule ^a$ env.cgi?x=a\\\\\nb [L]").text == "RewriteRule ^a$ env.cgi?x=a\\b [L]")
}

@Test func spaceAfterTheBackslashDisablesContinuation() {
    #expect(logicalLines("a\\ \nb").map(\.text) == ["a\\", "b"])
}

@Test func backslashOnTheLastLineWithoutNewlineIsKept() {
    #expect(logicalLines("a\\").map(\.text) == ["a\\"])
}

@Test func backslashBeforeTheFinalNewlineJoinsNothing() {
    #expect(logicalLines("a\\\n").map(\.text) == ["a"])
}

@Test func severalContinuationsMakeOneLine() {
    let lines = logicalLines("a\\\nb\\\nc\nd")
    #expect(lines.map(\.text) == ["abc", "d"])
    #expect(lines.map(\.line) == [1, 4])
}

@Test func commentLineEndingInBackslashSwallowsTheNextLine() {
    // CT-SYN-03.
    let lines = logicalLines("RewriteEngine On\n# comment \\\nRewriteRule ^a$ env.cgi?x=1 [L]")
    #expect(lines.map(\.text) == ["RewriteEngine On", "# comment RewriteRule ^a$ env.cgi?x=1 [L]"])
}

@Test func bytesOfAContinuedLinePointIntoBothPhysicalLines() {
    let text = "ab\\\ncd"
    let line = firstLine(text)
    #expect(line.offsets == [0, 1, 4, 5])
    #expect(line.range(1..<3) == SourceRange(file: "/var/www/html/.htaccess", start: 1, end: 5))
}

@Test func byteOrderMarkStaysInTheFirstLine() {
    // Apache reads it as part of the first word (fixtures/apache/syntax-utf8-bom).
    let file = SourceFile(path: "f", bytes: [0xEF, 0xBB, 0xBF] + Array("RewriteEngine On".utf8))
    let line = LineReader(file: file).lines()[0]
    #expect(line.text == "\u{FEFF}RewriteEngine On")
    #expect(line.offsets.first == 0)
}

@Test func readLengthCountsWhatApacheBuffersBeforeTrimming() {
    #expect(firstLine("  abc \r\n").readLength == 8)        // blanks, CR and LF included
    #expect(firstLine("ab\\\ncd").readLength == 4)          // "ab" joined with "cd" (no LF at the end)
    #expect(firstLine("abcd\\\nx").readLength == 6)         // the backslash line at its peak
}

@Test func emptyRangeOfALineIsAPointAtItsEnd() {
    let line = firstLine("abc")
    #expect(line.range(3..<3) == SourceRange.point("/var/www/html/.htaccess", 3))
}
