import Testing
import HtlintBytes
import HtlintDiagnostics
@testable import HtlintSyntax

// Two tokenisers: `ap_getword_conf` for most directives (apache-semantics §2.4) and mod_rewrite's
// `parseargline` for RewriteRule/RewriteCond (§4.2).

// MARK: ap_getword_conf

/// The verified table of §2.4 (`Header always set X-T <source>` echoed the parsed word).
@Test(arguments: [
    (#""a \"b\" c""#, #"a "b" c"#),
    (#"'a \'b\' c'"#, #"a 'b' c"#),
    (#"a\\b"#, #"a\b"#),
    (#""a\\b""#, #"a\b"#),
    (#"a\"b"#, #"a\"b"#),
    (#""it's""#, #"it's"#),
    (#"'say "hi"'"#, #"say "hi""#),
    (#""unterminated"#, #"unterminated"#),
])
func genericTokenizerFollowsTheVerifiedQuotingTable(_ source: String, _ parsed: String) {
    #expect(genericWords(source) == [parsed])
}

@Test func genericClosingQuoteEndsTheWordEvenWhenTextFollows() {
    #expect(genericWords(#""abc"def"#) == ["abc", "def"])
    #expect(genericWords(#"'a b'"c d""#) == ["a b", "c d"])
}

@Test func genericKeepsOtherBackslashesLiterally() {
    #expect(genericWords(#""a\qb" c\d"#) == [#"a\qb"#, #"c\d"#])
    // Inside single quotes, \" is not the quote character: both characters stay.
    #expect(genericWords(#"'a\"b'"#) == [#"a\"b"#])
}

@Test func genericSplitsOnAnyApacheWhitespace() {
    #expect(genericWords("a\tb\u{0B}c\u{0C}d  e") == ["a", "b", "c", "d", "e"])
}

@Test func genericQuotesInsideAnUnquotedWordAreLiteral() {
    #expect(genericWords(#"a"b c"d"#) == [#"a"b"#, #"c"d"#])
}

@Test func genericEmptyQuotesMakeAnEmptyWord() {
    #expect(genericWords(#""" x"#) == ["", "x"])
}

@Test func genericWordRecordsItsRawSpanAndQuote() {
    let line = firstLine(#"Header set X "a b" 'c"#)
    let words = Tokenizer.generic(line, from: 0)
    #expect(words.map(\.value) == ["Header", "set", "X", "a b", "c"])
    #expect(words[3].lineRange == 13..<18)
    #expect(words[3].range == SourceRange(file: "/var/www/html/.htaccess", start: 13, end: 18))
    #expect(words[3].quote == "\"")
    #expect(words[3].innerStart == 14)
    #expect(words[3].unterminated == false)
    #expect(words[4].quote == "'")
    #expect(words[4].unterminated)
    #expect(words[2].quote == nil)
    #expect(words[2].innerStart == 11)
}

@Test func genericStartsAtTheRequestedIndex() {
    let line = firstLine("Redirect 301 /a /b")
    #expect(Tokenizer.generic(line, from: 9).map(\.value) == ["301", "/a", "/b"])
    #expect(Tokenizer.generic(line, from: 18).isEmpty)
}

// MARK: parseargline

@Test func rewriteBackslashSpaceStaysInsideAnUnquotedWord() {
    // `RewriteRule ^a\ b$ ...` matches `/a%20b` [V]: both characters stay.
    #expect(rewriteWords(#"^a\ b$ target [L]"#) == [#"^a\ b$"#, "target", "[L]"])
    #expect(rewriteWords("^a\\\tb$ t") == ["^a\\\tb$", "t"])
}

@Test func rewriteDoubleBackslashIsNotUnescaped() {
    #expect(rewriteWords(#"^a\\b$ x\\y"#) == [#"^a\\b$"#, #"x\\y"#])
}

@Test func rewriteBackslashDoesNotEscapeTheQuote() {
    // §4.2: the pattern ends at the quote after the backslash; `b"` becomes the flags.
    #expect(rewriteWords(#"%{QUERY_STRING} "=a\"b""#) == ["%{QUERY_STRING}", #"=a\"#, #"b""#])
}

@Test func rewriteQuoteEndsTheWordEvenIfTextFollows() {
    #expect(rewriteWords(#"%{QUERY_STRING} "=x"[NC]"#) == ["%{QUERY_STRING}", "=x", "[NC]"])
    #expect(rewriteWords(#"'^a b$'/x"#) == ["^a b$", "/x"])
}

@Test func rewriteQuotedWordsKeepTheirSpaces() {
    #expect(rewriteWords(#""^a b$" 'c d' "[B= ?]""#) == ["^a b$", "c d", "[B= ?]"])
}

@Test func rewriteIgnoresEverythingAfterTheThirdWord() {
    let line = firstLine("^a$ b [L] junk more")
    let (words, rest) = Tokenizer.rewrite(line, from: 0)
    #expect(words.map(\.value) == ["^a$", "b", "[L]"])
    #expect(rest.map { line.text($0) } == "junk more")
}

@Test func rewriteTrailingCommentIsJustIgnoredText() {
    let (words, rest) = Tokenizer.rewrite(firstLine("^a$ env.cgi?x=1 [L] # note"), from: 0)
    #expect(words.count == 3)
    #expect(rest == 20..<26)
}

@Test func rewriteWithoutRestReturnsNil() {
    #expect(Tokenizer.rewrite(firstLine("^a$ b [L]"), from: 0).rest == nil)
    #expect(Tokenizer.rewrite(firstLine("^a$ b"), from: 0).rest == nil)
}

@Test func rewriteUnterminatedQuoteRunsToTheEnd() {
    let words = Tokenizer.rewrite(firstLine(#"^a$ "b c"#), from: 0).words
    #expect(words.map(\.value) == ["^a$", "b c"])
    #expect(words[1].unterminated)
    #expect(words[0].unterminated == false)
}

@Test func rewriteClosedQuotedFirstWordAloneGetsAnEmptySecondWord() {
    // parseargline: after the closing quote the empty rest is argument 2, so Apache reads
    // `RewriteRule "^a$"` with an empty substitution instead of "bad argument line".
    let words = Tokenizer.rewrite(firstLine(#""^a$""#), from: 0).words
    #expect(words.map(\.value) == ["^a$", ""])
    #expect(words[1].range == SourceRange.point("/var/www/html/.htaccess", 5))
}

@Test func rewriteUnquotedOrUnterminatedFirstWordAloneStaysAlone() {
    #expect(rewriteWords("^a$") == ["^a$"])
    #expect(rewriteWords(#""^a$"#) == ["^a$"])
}

@Test func rewriteWordRangesIncludeTheQuotes() {
    let line = firstLine(#"RewriteCond %{HTTP_HOST} "!^www\." [NC]"#)
    let words = Tokenizer.rewrite(line, from: 12).words
    #expect(words.map(\.value) == ["%{HTTP_HOST}", #"!^www\."#, "[NC]"])
    #expect(words[1].lineRange == 25..<34)
    #expect(words[1].innerStart == 26)
    #expect(words[2].lineRange == 35..<39)
}

/// A file saved in Latin-1 (`RewriteRule ^caf\xE9$ …`): both tokenisers keep the byte (as its
/// reserved scalar, HtlintBytes), where decoding would replace it with U+FFFD and no request
/// could match it (recorded: rewrite-pattern-latin1-bytes).
@Test func wordsKeepBytesThatAreNotUTF8() {
    let bytes = Array("RewriteRule ^caf".utf8) + [0xE9] + Array("$ \"/x?v=1\" [E=V:caf".utf8) + [0xE9] + Array("]\n".utf8)
    let line = LineReader(file: SourceFile(path: "/var/www/html/.htaccess", bytes: bytes)).lines()[0]
    let pattern = Array("^caf".utf8) + [0xE9] + Array("$".utf8)
    let rewrite = Tokenizer.rewrite(line, from: 12).words.map(\.value.rawBytes)
    #expect(rewrite == [pattern, Array("/x?v=1".utf8), Array("[E=V:caf".utf8) + [0xE9] + Array("]".utf8)])
    #expect(Tokenizer.generic(line, from: 12).first?.value.rawBytes == pattern)
}
