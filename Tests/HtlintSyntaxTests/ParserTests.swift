import Testing
import HtlintDiagnostics
@testable import HtlintSyntax

// apache-semantics §2.2, §2.3 and §2.7: comments, directive names, sections and the errors Apache
// reports while building the tree, with the exact line:column of each.

// MARK: Comments and directives

@Test func commentIsALineWhoseFirstNonBlankIsHash() throws {
    let tree = parse("# first\n   #indented\nRewriteEngine On")
    #expect(tree.nodes.compactMap(\.comment).map(\.text) == ["first", "indented"])
    #expect(outline(tree) == ["#first", "#indented", "RewriteEngine"])
}

@Test func hashLaterInALineIsAnArgument() throws {
    let tree = parse("RewriteRule ^a$ env.cgi?x=1 [L] # note")
    let rule = try #require(tree.nodes.first?.directive)
    #expect(rule.words.map(\.value).suffix(2) == ["#", "note"])
    #expect(rule.rewriteWords.words.map(\.value) == ["^a$", "env.cgi?x=1", "[L]"])
}

@Test func commentLineEndingInBackslashHidesTheNextDirective() throws {
    // CT-SYN-03: the RewriteRule is part of the comment, so GET /a is a 404.
    let tree = parse("RewriteEngine On\n# comment \\\nRewriteRule ^a$ env.cgi?x=1 [L]")
    #expect(outline(tree) == ["RewriteEngine", "#comment RewriteRule ^a$ env.cgi?x=1 [L]"])
    #expect(tree.diagnostics.isEmpty)
}

@Test func continuedRuleIsOneDirectiveWithJoinedArguments() throws {
    // CT-SYN-01.
    let tree = parse("RewriteEngine On\nRewriteRule ^a$ \\\n   env.cgi?x=cont [L]\nRewriteEngine Off")
    #expect(outline(tree) == ["RewriteEngine", "RewriteRule", "RewriteEngine"])
    let rule = try #require(tree.nodes[1].directive)
    let words = rule.rewriteWords.words
    #expect(words.map(\.value) == ["^a$", "env.cgi?x=cont", "[L]"])
    #expect(where_(words[1].range, in: tree) == "3:4")
    #expect(where_(rule.range, in: tree) == "2:1")
    #expect(rule.line.line == 2)
}

@Test func continuationGluesTheFlagsOntoTheSubstitution() throws {
    // CT-SYN-02: the rule has no flags.
    let rule = try #require(parse("RewriteRule ^a$ env.cgi?x=cont\\\n[L]").nodes.first?.directive)
    #expect(rule.rewriteWords.words.map(\.value) == ["^a$", "env.cgi?x=cont[L]"])
}

@Test func doubleBackslashAtLineEndContinuesAndKeepsOneBackslash() throws {
    let rule = try #require(parse("RewriteRule ^a$ env.cgi?x=a\\\\\nb [L]").nodes.first?.directive)
    #expect(rule.rewriteWords.words.map(\.value) == ["^a$", #"env.cgi?x=a\b"#, "[L]"])
}

@Test func directiveNameIsKeptAsWrittenAndKeyedLowercase() throws {
    let d = try #require(parse("REWRITERULE ^a$ b [l]").nodes.first?.directive)
    #expect(d.name == "REWRITERULE")
    #expect(d.key == "rewriterule")
    #expect(d.rawArguments == "^a$ b [l]")
    #expect(where_(d.nameRange, in: parse("REWRITERULE ^a$ b [l]")) == "1:1")
}

@Test func directiveNameIsTokenisedLikeAnArgument() throws {
    let d = try #require(parse(#""RewriteEngine" On"#).nodes.first?.directive)
    #expect(d.name == "RewriteEngine")
    #expect(d.words.map(\.value) == ["On"])
}

@Test func lineWhoseFirstWordIsEmptyIsSkipped() throws {
    // ap_build_config returns early when the first word is empty.
    let tree = parse("\"\" whatever\nRewriteEngine On")
    #expect(outline(tree) == ["RewriteEngine"])
}

@Test func trailingAngleBracketIsDroppedFromAnyDirectiveName() throws {
    let d = try #require(parse("RewriteEngine> On").nodes.first?.directive)
    #expect(d.name == "RewriteEngine")
}

@Test func argumentsOfADirectiveWithoutArgumentsAreAPointAfterItsName() throws {
    let tree = parse("  RewriteEngine  ")
    let d = try #require(tree.nodes.first?.directive)
    #expect(d.rawArguments == "")
    #expect(d.words.isEmpty)
    #expect(d.argumentsRange == SourceRange.point(tree.file.path, 15))
}

@Test func argumentsStartAfterTheNameAndItsBlanks() throws {
    let tree = parse("Redirect \t 301 /a /b")
    let d = try #require(tree.nodes.first?.directive)
    #expect(d.argumentStart == 11)
    #expect(d.words.map(\.value) == ["301", "/a", "/b"])
    #expect(where_(d.argumentsRange, in: tree) == "1:12")
}

@Test func unterminatedQuoteIsReportedAtTheWord() throws {
    let tree = parse("RewriteEngine On\nHeader set X \"abc def")
    #expect(tree.diagnostics.map(\.code) == [SyntaxCode.unterminatedQuote])
    #expect(located(tree) == [#"2:14 quoted argument has no closing `"`; Apache reads it to the end of the line"#])
    #expect(tree.nodes[1].directive?.words.last?.value == "abc def")
}

// MARK: Sections

@Test func sectionsNest() throws {
    let tree = parse("""
        <IfModule mod_rewrite.c>
            <Files "x.php">
                RewriteEngine On
            </Files>
            RewriteBase /
        </IfModule>
        Redirect /a /b
        """)
    #expect(outline(tree) == ["<IfModule mod_rewrite.c>[<Files \"x.php\">[RewriteEngine], RewriteBase]", "Redirect"])
    #expect(tree.diagnostics.isEmpty)
    let ifModule = try #require(tree.nodes.first?.section)
    #expect(where_(ifModule.openRange, in: tree) == "1:1")
    #expect(ifModule.closeRange.map { where_($0, in: tree) } == "6:1")
    let files = try #require(ifModule.children.first?.section)
    #expect(files.arguments.map(\.value) == ["x.php"])
    #expect(where_(files.argumentsRange, in: tree) == "2:12")
}

@Test func closingLineWithMoreThanTheCloserIsMarkedInexact() throws {
    // A true conditional section only ends at a line that is exactly `</Name>` (ap_build_cont_config).
    let tree = parse("<IfModule a>\n</IfModule> # end\n<IfModule b>\n  </ifmodule>  \n")
    #expect(tree.nodes.compactMap(\.section).map(\.inexactCloseWord) == ["</IfModule>", nil])
}

@Test func sectionNamesAreCaseInsensitive() throws {
    let tree = parse("<ifmodule mod_rewrite.c>\nRewriteEngine On\n</IFMODULE>")
    #expect(tree.diagnostics.isEmpty)
    let s = try #require(tree.nodes.first?.section)
    #expect(s.name == "ifmodule")
    #expect(s.key == "ifmodule")
    #expect(s.closeRange != nil)
}

@Test func sectionArgumentsEndAtTheLastAngleBracket() throws {
    let s = try #require(parse("<Files a>b> ignored\n</Files>").nodes.first?.section)
    #expect(s.argumentText == "a>b")
    let t = try #require(parse("<IfModule mod_rewrite.c>   trailing words\n</IfModule>").nodes.first?.section)
    #expect(t.argumentText == "mod_rewrite.c")
    #expect(t.arguments.map(\.value) == ["mod_rewrite.c"])
}

@Test func sectionArgumentsAreTokenisedTheGenericWay() throws {
    let s = try #require(parse(#"<FilesMatch "\.(php|cgi)$">"# + "\n</FilesMatch>").nodes.first?.section)
    #expect(s.argumentText == #""\.(php|cgi)$""#)
    #expect(s.arguments.map(\.value) == [#"\.(php|cgi)$"#])
    let i = try #require(parse(#"<If "%{HTTPS} != 'on'">"# + "\n</If>").nodes.first?.section)
    #expect(i.arguments.map(\.value) == ["%{HTTPS} != 'on'"])
}

@Test func elseWithoutArgumentsHasEmptyArguments() throws {
    let tree = parse("<If \"true\">\n</If>\n<Else>\nRewriteEngine On\n</Else>")
    #expect(tree.diagnostics.isEmpty)
    let e = try #require(tree.nodes.last?.section)
    #expect(e.name == "Else")
    #expect(e.argumentText == "")
    #expect(e.arguments.isEmpty)
    #expect(e.argumentsRange == SourceRange.point(tree.file.path, e.nameRange.end))
    #expect(e.children.count == 1)
}

@Test func openerWithoutBracketOrArgumentsIsGivenAnEmptyArgument() throws {
    // ap_build_config gives `<Name` with nothing after it the argument text ">".
    let tree = parse("<Else\n</Else>")
    #expect(tree.diagnostics.isEmpty)
    #expect(tree.nodes.first?.section?.argumentText == "")
}

@Test func elseWithAnArgumentKeepsIt() throws {
    let s = try #require(parse("<Else foo>\n</Else>").nodes.first?.section)
    #expect(s.argumentText == "foo")
}

@Test func mismatchedCloseNamesTheInnermostOpenSection() throws {
    let tree = parse("<IfModule mod_rewrite.c>\nRewriteEngine On\n</IfDefine>")
    #expect(located(tree) == ["3:1 Expected </IfModule> but saw </IfDefine>"])
    #expect(tree.diagnostics.map(\.code) == [SyntaxCode.section])
    #expect(outline(tree) == ["<IfModule mod_rewrite.c>[RewriteEngine] unclosed"])
}

@Test func mismatchedCloseOfAnOuterSectionRecoversByClosingTheInnerOne() throws {
    // The CLI's unclosed-section example: Apache stops at "Expected </Files> but saw </IfModule>".
    let tree = parse("RewriteEngine On\n<IfModule mod_rewrite.c>\n<Files \"x.php\">\nRewriteRule ^a$ /b [L]\n</IfModule>\nRedirect /a /b")
    #expect(located(tree) == ["5:1 Expected </Files> but saw </IfModule>"])
    #expect(outline(tree) == ["RewriteEngine", "<IfModule mod_rewrite.c>[<Files \"x.php\">[RewriteRule] unclosed]", "Redirect"])
}

@Test func strayCloseIsReportedWithApachesMessage() throws {
    let tree = parse("RewriteEngine On\n  </IfModule>")
    #expect(located(tree) == ["2:3 </IfModule> without matching <IfModule> section"])
    #expect(outline(tree) == ["RewriteEngine"])
}

@Test func strayCloseWithoutBracketQuotesTheNameAsWritten() throws {
    #expect(located(parse("</IfModule")) == ["1:1 </IfModule without matching <IfModule section"])
}

@Test func openerWithoutClosingBracketIsReported() throws {
    let tree = parse("RewriteEngine On\n<Files x.php\nRewriteEngine Off\n</Files>")
    #expect(located(tree) == ["2:1 <Files> directive missing closing '>'"])
    // Recovery keeps reading the section.
    #expect(outline(tree) == ["RewriteEngine", "<Files x.php>[RewriteEngine]"])
}

@Test func closerWithoutClosingBracketIsReported() throws {
    let tree = parse("<Files x>\n</Files junk>")
    #expect(located(tree) == ["2:1 </Files> directive missing closing '>'"])
}

@Test func sectionLeftOpenAtTheEndHasNoCloseRange() throws {
    // Whether that is an error depends on the section; the configuration reader decides.
    let tree = parse("<IfModule mod_rewrite.c>\nRewriteEngine On\n<Files x>\nRewriteBase /")
    #expect(tree.diagnostics.isEmpty)
    #expect(outline(tree) == ["<IfModule mod_rewrite.c>[RewriteEngine, <Files x>[RewriteBase] unclosed] unclosed"])
}

@Test func unclosedSectionRangeRunsToItsLastChild() throws {
    let tree = parse("<Files x>\nRewriteEngine On\n")
    let s = try #require(tree.nodes.first?.section)
    #expect(s.range == SourceRange(file: tree.file.path, start: 0, end: 26))
}

@Test func diagnosticsOnAContinuedLinePointAtTheRightPhysicalLine() throws {
    let tree = parse("RewriteEngine On\nHeader set \\\n  X \"abc")
    #expect(located(tree).map { String($0.prefix(4)) } == ["3:5 "])
}

@Test func crlfAndBOMDoNotMoveDiagnosticColumns() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("RewriteEngine On\r\n\t</Files>\r\n".utf8)
    let tree = Parser.parse(SourceFile(path: "f", bytes: bytes))
    #expect(located(tree) == ["2:2 </Files> without matching <Files> section"])
}
