import Testing
@testable import HtlintDiagnostics

// `LineIndex` turns the byte offsets every node carries into the `line:column` users read.
// Columns count characters (Unicode scalars), never bytes, and the BOM is invisible.

private func index(_ text: String) -> LineIndex { LineIndex(Array(text.utf8)) }
private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

private func at(_ line: Int, _ column: Int) -> SourcePosition { SourcePosition(line: line, column: column) }

@Test func lfStartsANewLineAtColumnOne() {
    let lines = index("ab\ncd")
    #expect(lines.lineStarts == [0, 3])
    #expect(lines.position(of: 0) == at(1, 1))
    #expect(lines.position(of: 1) == at(1, 2))
    #expect(lines.position(of: 2) == at(1, 3))   // the LF itself ends line 1
    #expect(lines.position(of: 3) == at(2, 1))
    #expect(lines.position(of: 4) == at(2, 2))
}

@Test func crBeforeLFStaysOnTheLineItEnds() {
    let lines = index("ab\r\ncd\r\n")
    #expect(lines.lineStarts == [0, 4, 8])
    #expect(lines.position(of: 2) == at(1, 3))   // CR
    #expect(lines.position(of: 3) == at(1, 4))   // LF
    #expect(lines.position(of: 4) == at(2, 1))
    #expect(lines.position(of: 5) == at(2, 2))
}

@Test func loneCRDoesNotEndALine() {
    let lines = index("a\rb")
    #expect(lines.lineCount == 1)
    #expect(lines.position(of: 2) == at(1, 3))
}

@Test func byteOrderMarkIsNotAColumn() {
    let lines = LineIndex(bom + Array("ab\ncd".utf8))
    #expect(lines.position(of: 3) == at(1, 1))
    #expect(lines.position(of: 4) == at(1, 2))
    #expect(lines.position(of: 6) == at(2, 1))
    #expect(lines.offset(line: 1, column: 1) == 3)
    #expect(lines.offset(line: 2, column: 2) == 7)
}

@Test func offsetsInsideTheByteOrderMarkStayAtColumnOne() {
    let lines = LineIndex(bom + Array("a".utf8))
    #expect(lines.position(of: 0) == at(1, 1))
}

@Test func tabIsOneColumn() {
    let lines = index("\t\tRewriteRule")
    #expect(lines.position(of: 1) == at(1, 2))
    #expect(lines.position(of: 2) == at(1, 3))
}

@Test func multiByteCharactersBeforeAPositionCountOnce() {
    // é is 2 bytes, → is 3 bytes, 😀 is 4 bytes.
    let lines = index("é→😀x\nyé z")
    #expect(lines.position(of: 2) == at(1, 2))
    #expect(lines.position(of: 5) == at(1, 3))
    #expect(lines.position(of: 9) == at(1, 4))    // x
    #expect(lines.position(of: 14) == at(2, 3))   // the space after é on line 2
    #expect(lines.offset(line: 1, column: 4) == 9)
    #expect(lines.offset(line: 2, column: 4) == 15)
}

@Test func invalidBytesAreOneColumnEach() {
    // Two stray continuation bytes display as two replacement characters.
    let lines = LineIndex([0x61, 0x80, 0x80, 0x62])
    #expect(lines.position(of: 3) == at(1, 4))
    #expect(lines.offset(line: 1, column: 4) == 3)
}

@Test func truncatedSequenceIsOneColumn() {
    // E2 82 is the start of a 3-byte character cut short before "a".
    let lines = LineIndex([0xE2, 0x82, 0x61])
    #expect(lines.position(of: 2) == at(1, 2))
}

@Test func lastLineWithoutNewlineCounts() {
    let lines = index("a\nbc")
    #expect(lines.lineCount == 2)
    #expect(lines.position(of: 4) == at(2, 3))   // end of file
}

@Test func emptyFileIsLineOneColumnOne() {
    let lines = index("")
    #expect(lines.lineCount == 1)
    #expect(lines.position(of: 0) == at(1, 1))
}

@Test func offsetsOutsideTheFileAreClamped() {
    let lines = index("ab\ncd")
    #expect(lines.position(of: -7) == at(1, 1))
    #expect(lines.position(of: 99) == at(2, 3))
}

@Test func offsetForColumnPastTheLineEndStopsAtTheLineEnd() {
    let lines = index("ab\ncd")
    #expect(lines.offset(line: 1, column: 40) == 2)
    #expect(lines.offset(line: 3, column: 1) == 5)
    #expect(lines.offset(line: 0, column: 1) == 5)
}

@Test(arguments: [
    ("LF", Array("RewriteEngine On\nRewriteRule ^a$ b [L]\n".utf8)),
    ("CRLF", Array("RewriteEngine On\r\nRewriteRule ^a$ b [L]\r\n".utf8)),
    ("BOM", bom + Array("# é\n\tRewriteRule ^(.*)$ /x→y [L]".utf8)),
    ("multi-byte", Array("# 😀 ünïcödé\r\nRedirect /ä /ö\n".utf8)),
])
func offsetAndPositionRoundTrip(_ name: String, _ bytes: [UInt8]) {
    let lines = LineIndex(bytes)
    let start = bytes.starts(with: bom) ? 3 : 0
    for offset in start...bytes.count where offset == bytes.count || bytes[offset] & 0xC0 != 0x80 {
        let position = lines.position(of: offset)
        #expect(lines.offset(line: position.line, column: position.column) == offset,
                "\(name): offset \(offset) → \(position.line):\(position.column)")
    }
}

@Test func sourceFileUsesOneIndexForItsBytes() {
    let file = SourceFile(path: "x/.htaccess", text: "a\r\nbé c")
    #expect(file.lines.position(of: 6) == at(2, 3))
    #expect(file.text(3..<6) == "bé")
    #expect(file.text(4..<99) == "é c")
    #expect(file.range(3, 4) == SourceRange(file: "x/.htaccess", start: 3, end: 4))
}

@Test func sourceRangeNeverEndsBeforeItStarts() {
    #expect(SourceRange(file: "f", start: 5, end: 2).end == 5)
    #expect(SourceRange.point("f", 4) == SourceRange(file: "f", start: 4, end: 4))
}
