import Testing
import HtlintDiagnostics
@testable import HtlintSyntax

// Inputs that are not well-formed configuration must still produce a tree and diagnostics,
// never a crash; Apache's `.htaccess` line limit is enforced (apache-semantics §2.1 rule 4).

@Test func nulBytesAreReportedAndTheRestIsStillParsed() {
    var bytes = Array("RewriteEngine On\n".utf8)
    bytes += [0x52, 0x00, 0xFF, 0xFE, 0x0A, 0x00, 0x00, 0x0A]
    bytes += Array("Redirect /a /b\n".utf8)
    let tree = Parser.parse(SourceFile(path: "f", bytes: bytes))
    #expect(tree.diagnostics.first?.code == SyntaxCode.binaryContent)
    #expect(tree.diagnostics.first?.severity == .error)
    #expect(located(tree).first == "2:2 file contains a NUL byte; it does not look like a configuration file")
    #expect(tree.nodes.compactMap(\.directive).map(\.name).first == "RewriteEngine")
    #expect(tree.nodes.compactMap(\.directive).map(\.name).last == "Redirect")
}

@Test func randomBinaryGarbageNeverCrashes() {
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<50 {
        let bytes = (0..<2_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let tree = Parser.parse(SourceFile(path: "g", bytes: bytes))
        for d in tree.diagnostics {
            #expect(d.range.start >= 0 && d.range.end <= bytes.count)
        }
        // Every node's range lies inside the file.
        #expect(tree.nodes.allSatisfy { $0.range.start >= 0 && $0.range.end <= bytes.count })
    }
}

@Test func invalidUTF8IsAWarningAtTheFirstBadByte() {
    let bytes = Array("RewriteRule ^".utf8) + [0xFF] + Array("$ /b [L]".utf8)
    let tree = Parser.parse(SourceFile(path: "f", bytes: bytes))
    #expect(tree.diagnostics.map(\.code) == [SyntaxCode.binaryContent])
    #expect(tree.diagnostics.map(\.severity) == [.warning])
    #expect(located(tree).map { String($0.prefix(5)) } == ["1:14 "])
    let rule = tree.nodes.first?.directive
    #expect(rule?.rewriteWords.words.count == 3)
}

@Test func fiveMegabyteFileParsesIntoOneNodePerLine() {
    var text = ""
    text.reserveCapacity(5_300_000)
    var lines = 0
    while text.utf8.count < 5_000_000 {
        switch lines % 4 {
        case 0: text += "# rule group \(lines)\n"
        case 1: text += "RewriteCond %{HTTP_HOST} ^www\\.example\\.com$ [NC]\n"
        case 2: text += "RewriteRule ^old/\(lines)/(.*)$ /new/\(lines)/$1 [R=301,L]\n"
        default: text += "<IfModule mod_rewrite.c>\nRewriteEngine On\n</IfModule>\n"
        }
        lines += 1
    }
    let tree = parse(text)
    #expect(text.utf8.count >= 5_000_000)
    #expect(tree.diagnostics.isEmpty)
    #expect(tree.nodes.count == lines)
    #expect(tree.nodes.compactMap(\.section).count == lines / 4)
    #expect(tree.nodes.compactMap(\.section).allSatisfy { $0.children.count == 1 && $0.closeRange != nil })
}

@Test func htaccessLineOf8191BytesAndItsLineFeedIsAccepted() {
    let line = "Header set X " + String(repeating: "a", count: 8191 - 13)
    #expect(line.utf8.count == 8191)
    let tree = parse(line + "\n")
    #expect(tree.diagnostics.isEmpty)
    #expect(tree.nodes.count == 1)
}

@Test func htaccessLineOf8192BytesIsTooLong() {
    // Recorded: syntax-error-htaccess-line-limit-counts-the-line-end.
    let line = "Header set X " + String(repeating: "a", count: 8192 - 13)
    let tree = parse("RewriteEngine On\n" + line + "\nRewriteEngine Off")
    #expect(located(tree) == ["2:1 line too long (8193 bytes with its line end; Apache reads at most 8192 in .htaccess)"])
    #expect(tree.diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
    #expect(outline(tree) == ["RewriteEngine", "RewriteEngine"])
}

@Test func lineLimitCountsBlanksAndTheCarriageReturn() {
    // Apache's buffer holds the raw line: leading blanks and the CR before LF count.
    let body = String(repeating: "a", count: 8185)
    #expect(parse("      " + body + "\n").diagnostics.isEmpty)                   // 8192
    #expect(parse("       " + body + "\n").diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
    #expect(parse(String(repeating: "a", count: 8190) + "\r\n").diagnostics.isEmpty)
    #expect(parse(String(repeating: "a", count: 8191) + "\r\n").diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
    // The last line has no line end to count.
    #expect(parse("#" + String(repeating: "a", count: 8191)).diagnostics.isEmpty)
    #expect(parse("#" + String(repeating: "a", count: 8192)).diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
}

@Test func aNulByteEndsTheLineApacheReads() {
    // Recorded: syntax-error-nul-byte-ends-the-read. Apache takes `strlen` of what it read: the
    // rest of the physical line is lost, a backslash before the NUL continues nothing, and a line
    // that is only a NUL is blank.
    func lines(_ bytes: [UInt8]) -> [String] {
        LineReader(file: SourceFile(path: "f", bytes: bytes)).lines().map { String(decoding: $0.bytes, as: UTF8.self) }
    }
    #expect(lines(Array("Redirect /a /b".utf8) + [0] + Array(" junk\nX".utf8)) == ["Redirect /a /b", "X"])
    #expect(lines([0] + Array("Garbage\nX\n".utf8)) == ["", "X"])
    #expect(lines(Array("A b \\".utf8) + [0] + Array("\nX\n".utf8)) == ["A b \\", "X"])
    #expect(lines(Array("A \\\n".utf8) + [0] + Array("b\nX\n".utf8)) == ["A", "X"])
    // The first read takes 206 bytes: past them the physical line is read as a line of its own.
    let long = Array("#".utf8) + [0] + Array(repeating: UInt8(ascii: "x"), count: 206) + Array("\nX\n".utf8)
    #expect(lines(long) == ["#", "xx", "X"])
    #expect(lines(Array("#".utf8) + [0] + Array(repeating: UInt8(ascii: "x"), count: 204) + Array("\nX\n".utf8)) == ["#", "", "X"])
    // Once a long line has grown the buffer, its size is the pool's business: the rest is lost.
    let grown = Array(("#" + String(repeating: "a", count: 300) + "\n#").utf8) + [0]
        + Array(repeating: UInt8(ascii: "x"), count: 298) + Array("\nX\n".utf8)
    #expect(lines(grown) == ["#" + String(repeating: "a", count: 300), "#", "X"])
    // A UTF-16 file: each line ends at its first NUL.
    #expect(lines(Array("R\0e\0\r\0\n\0#\0\n\0".utf8)) == ["R", "", ""])
}

@Test func lineLimitAppliesToCommentsAndContinuedLines() {
    #expect(parse("# " + String(repeating: "c", count: 9000)).diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
    let continued = "Header set X \\\n" + String(repeating: "v", count: 8180)
    #expect(parse(continued).diagnostics.map(\.code) == [SyntaxCode.lineTooLong])
}

@Test func serverConfigurationHasNoEightKilobyteLimit() {
    let line = "Header set X " + String(repeating: "a", count: 20_000)
    let tree = parse(line, context: .server)
    #expect(tree.diagnostics.isEmpty)
    #expect(tree.nodes.count == 1)
}

/// A small deterministic generator, so the garbage test is reproducible.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
