import HtlintBytes
import Testing
@testable import HtlintRegex

// Strings that stand for byte strings which are not UTF-8 (a decoded `/caf%e9`).

@Test func everyShortByteStringSurvivesTheRoundTrip() {
    // Lengths 1 to 3 over bytes that matter: ASCII, continuation bytes, every kind of lead
    // byte (overlong C0/C1, E0/ED edges, F4 and beyond) and the reserved scalars' own bytes.
    let alphabet: [UInt8] = [0x41, 0x2F, 0x80, 0x8F, 0xA9, 0xBE, 0xBF, 0xC0, 0xC3, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
    var strings: [[UInt8]] = alphabet.map { [$0] }
    for a in alphabet { for b in alphabet { strings.append([a, b]) } }
    for a in [UInt8(0xF4), 0xE0, 0xC3, 0x41] { for b in alphabet { for c in alphabet { strings.append([a, b, c]) } } }
    strings.append([0xF4, 0x8F, 0xBF, 0xA9])  // well-formed UTF-8 of a reserved scalar
    strings.append([0xF4, 0x8F, 0xBD, 0xBF])  // the scalar just below them: ordinary text
    for bytes in strings {
        #expect(String(preservingBytes: bytes).rawBytes == bytes, "\(bytes)")
    }
}

@Test func validUTF8IsTheOrdinaryString() {
    let text = "/café/日本/😀"
    #expect(String(preservingBytes: Array(text.utf8)) == text)
    #expect(text.rawBytes == Array(text.utf8))
    #expect(!"/plain".mayHoldRawBytes)
}

@Test func aLoneByteIsOneReservedScalar() {
    let s = String(preservingBytes: Array("/caf".utf8) + [0xE9])
    #expect(s.unicodeScalars.count == 5)
    #expect(s.unicodeScalars.last?.value == 0x10FFE9)
    #expect(s.showingRawBytes == "/caf\\xE9")
    // A truncated sequence is two raw bytes, not U+FFFD.
    #expect(String(preservingBytes: [0xC3]).rawBytes == [0xC3])
    #expect(!String(preservingBytes: [0xC3]).contains("\u{FFFD}"))
}

@Test func theRegexSeesTheBytes() throws {
    let subject = String(preservingBytes: Array("caf".utf8) + [0xE9])
    // No UTF mode, as in Apache: `.` is one byte, a byte class matches the raw byte.
    #expect(try Regex("^caf.$").matches(subject))
    #expect(try Regex("^caf\\xe9$").matches(subject))
    #expect(try Regex("^caf..$").matches(subject) == false)
    let match = try #require(try Regex("^ca(f.)$").firstMatch(in: subject))
    #expect(match.captureBytes[1] == [0x66, 0xE9])
    #expect(match[1].rawBytes == [0x66, 0xE9])
    #expect(match.ranges[1] == 2..<4)
}

/// A pattern read from a Latin-1 file holds the raw byte itself (`^caf` then 0xE9): PCRE2 gets
/// that byte, not the four bytes of the scalar that keeps it in the string.
@Test func aPatternHoldingARawByteMatchesThatByte() throws {
    let subject = String(preservingBytes: Array("caf".utf8) + [0xE9, 0xE9])
    let pattern = String(preservingBytes: Array("^caf".utf8) + [0xE9] + Array("(.)$".utf8))
    let match = try #require(try Regex(pattern).firstMatch(in: subject))
    #expect(match.captureBytes[1] == [0xE9])
}

@Test func rawByteCountCountsBytesAsApacheHasThem() {
    #expect("abc".rawByteCount == 3)
    #expect("é".rawByteCount == 2)
    #expect(String(preservingBytes: [0x61, 0xFF, 0xE9]).rawByteCount == 3)
    #expect(String(preservingBytes: [0x61, 0xFF]).utf8.count == 5)
}

@Test func halvesOfASplitCharacterJoinIntoIt() {
    // `^(.)(.*)$` on "é": two captures of one byte each.
    let first = String(preservingBytes: [0xC3]), second = String(preservingBytes: [0xA9])
    #expect(first + second != "é")
    #expect(String(preservingBytes: (first + second).rawBytes) == "é")
}
