import Testing
import HtlintDiagnostics
import HtlintSyntax
@testable import HtlintApache

// `ConfigReader.read` must accept exactly what Apache accepts in `.htaccess` and reject the rest
// with Apache's own message, pointing at the offending column (apache-semantics §2.6–2.8, §4.1–4.3,
// §5, §7.1, §8.2, §13).

private let htaccessPath = "/var/www/html/.htaccess"

private func read(_ text: String) -> ConfigFile {
    ConfigReader.read(SourceFile(path: htaccessPath, text: text), context: .htaccess)
}

/// "line:column message" of each diagnostic of `severity`, in file order.
private func located(_ text: String, _ severity: Severity = .error) -> [String] {
    let file = SourceFile(path: htaccessPath, text: text)
    return ConfigReader.read(file, context: .htaccess).diagnostics.filter { $0.severity == severity }.map {
        let p = file.lines.position(of: $0.range.start)
        return "\(p.line):\(p.column) \($0.message)"
    }
}

private func rules(_ text: String) -> [RewriteRule] { read(text).block.rewrite?.rules ?? [] }

/// Flags of a single `RewriteRule ^a$ b <field>` line that must read without diagnostics.
private func flags(of field: String) -> RewriteFlags? {
    let config = read("RewriteRule ^a$ b \(field)")
    guard config.diagnostics.isEmpty else { return nil }
    return config.block.rewrite?.rules.first?.flags
}

private func flags(_ edit: (inout RewriteFlags) -> Void) -> RewriteFlags {
    var f = RewriteFlags()
    edit(&f)
    return f
}

// MARK: CT-SYN-04, the parse-error catalogue

@Test(arguments: [
    ("FooBar baz",
     "1:1 Invalid command 'FooBar', perhaps misspelled or defined by a module not included in the server configuration"),
    ("RewriteEngine yes", "1:15 RewriteEngine must be On or Off"),
    ("RewriteRule ^a$", "1:13 RewriteRule: bad argument line '^a$'"),
    ("RewriteRule ^a$ env.cgi [X]", "1:26 RewriteRule: unknown flag 'X'"),
    ("RewriteRule ^a$ env.cgi L", "1:25 RewriteRule: bad flag delimiters"),
    ("RewriteRule ^a$ env.cgi [ L , NC ]", "1:25 RewriteRule: bad flag delimiters"),
    ("RewriteRule ^a$ env.cgi [L,,NC]", "1:28 RewriteRule: unknown flag ''"),
    ("RewriteRule ^a$ env.cgi [L,R=999]", "1:28 RewriteRule: invalid HTTP response code '999' for flag 'R'"),
    ("RewriteCond %{QUERY_STRING} -gt 10", "1:33 RewriteCond: bad flag delimiters"),
    ("RewriteMap m txt:/x", "1:1 RewriteMap not allowed here"),
    ("ServerName foo", "1:1 ServerName not allowed here"),
    ("Alias /x /y", "1:1 Alias not allowed here"),
    ("LimitInternalRecursion 20", "1:1 LimitInternalRecursion not allowed here"),
    ("<Directory /x>\nRewriteEngine On\n</Directory>", "1:1 <Directory not allowed here"),
    ("<Location />\n</Location>", "1:1 <Location not allowed here"),
    ("<VirtualHost *>\nServerName x\n</VirtualHost>", "1:1 <VirtualHost not allowed here"),
    ("Redirect foo /a /b", "1:10 Redirect: invalid first argument (of three)"),
    ("Redirect /a b", "1:13 Redirect to non-URL"),
    ("<IfModule mod_nonexistent.c>\nFooBar baz", "1:1 Expected </IfModule> before end of configuration"),
    ("</IfModule>", "1:1 </IfModule> without matching <IfModule> section"),
])
func parseErrorHasApachesMessageAndColumn(_ htaccess: String, _ expected: String) {
    #expect(located(htaccess) == [expected])
    #expect(read(htaccess).fatal != nil)
}

@Test func badRegexQuotesThePatternAndPointsAtPCREsOffset() throws {
    let config = read("RewriteRule ^(a$ env.cgi")
    let error = try #require(config.fatal)
    #expect(error.message.hasPrefix("RewriteRule: cannot compile regular expression '^(a$'"))
    #expect(error.code == ConfigCode.badRegex)
    // PCRE2 reports the missing parenthesis at offset 4, the end of the pattern.
    #expect(located("RewriteRule ^(a$ env.cgi").map { String($0.prefix(5)) } == ["1:17 "])
}

@Test(arguments: [
    ("RewriteRule ^a**b$ x", "1:16"),     // offset 3 in the pattern
    ("RewriteRule \"^a**b$\" x", "1:17"), // after the opening quote
    ("RewriteRule !^a**b$ x", "1:17"),    // after the negation
    ("RewriteCond %{REQUEST_URI} ^a**b$", "1:31"),
])
func badRegexPointsInsideThePattern(_ htaccess: String, _ position: String) {
    let found = located(htaccess)
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix(position + " ") == true, "\(found)")
}

@Test func firstErrorIsTheFatalOne() {
    let config = read("RewriteEngine On\nRewriteRule ^a$ b [X]\nFooBar")
    #expect(config.fatal?.message == "RewriteRule: unknown flag 'X'")
    #expect(config.diagnostics.filter { $0.severity == .error }.count == 2)
}

@Test func redirectWithTooManyWordsNamesItsShape() {
    let message = "1:10 Redirect takes one, two or three arguments, an optional status, then document to be redirected and destination URL"
    #expect(located("Redirect 301 /sub/file.txt /x /y") == [message])
    // §2.2: a trailing comment is just more arguments.
    #expect(located("Redirect 301 /sub/file.txt /x # comment") == [message])
}

@Test func aByteOrderMarkIsPartOfTheFirstDirectiveName() {
    // Recorded: fixtures/apache/syntax-utf8-bom and syntax-utf8-bom-before-comment answer 500.
    #expect(located("\u{FEFF}RewriteEngine On\nRewriteRule ^a$ b.html") ==
            ["1:1 Invalid command '\\xef\\xbb\\xbfRewriteEngine', perhaps misspelled or defined by a module not included in the server configuration"])
    #expect(located("\u{FEFF}# BEGIN\nRewriteEngine On").first?.hasPrefix("1:1 Invalid command '\\xef\\xbb\\xbf#'") == true)
}

@Test func requireProvidersAreLookedUpAsWrittenAndMustBeLoaded() {
    // Recorded: fixtures/apache/allowoverride-require-unknown-provider.
    #expect(located("Require All granted") == ["1:9 Unknown Authz provider: All"])
    let oracleModules = ModuleSet(["authz_core", "authz_host", "rewrite", "alias", "dir", "mime", "headers", "setenvif"])
    let file = ConfigReader.read(SourceFile(path: htaccessPath, text: "<Files nope.html>\nRequire valid-user\n</Files>"),
                                 context: .htaccess, modules: oracleModules)
    #expect(file.diagnostics.map(\.message) == ["Unknown Authz provider: valid-user"])
    #expect(located("Require valid-user").isEmpty)  // Debian's stock modules include mod_authz_user
    #expect(located("<RequireAll>\nRequire local\nRequire not ip 10.0.0.1\n</RequireAll>").isEmpty)
}

@Test func authTypeNeedsAuthnCoreAndRequireAllNeedsItsArgument() {
    // Recorded: fixtures/apache/allowoverride-authtype-needs-authn-core.
    let withoutAuthn = ConfigReader.read(SourceFile(path: htaccessPath, text: "AuthType Basic"), context: .htaccess,
                                         modules: ModuleSet(["authz_core", "authz_host"]))
    #expect(withoutAuthn.diagnostics.first?.message.hasPrefix("Invalid command 'AuthType'") == true)
    #expect(located("Require all") == ["1:9 Argument for 'Require all' must be 'granted' or 'denied'"])
    #expect(located("Require all Granted").isEmpty)
}

@Test func unknownDirectiveInsideATrueSectionIsStillAnError() {
    #expect(located("<IfModule mod_rewrite.c>\n  FooBar\n</IfModule>") ==
            ["2:3 Invalid command 'FooBar', perhaps misspelled or defined by a module not included in the server configuration"])
}

@Test func unclosedRuntimeSectionIsAnError() {
    let found = located("<Files x.php>\nRewriteEngine On")
    #expect(found.count == 1)
    #expect(found.first?.hasPrefix("1:1 ") == true)
    #expect(found.first?.hasSuffix("<Files> was not closed.") == true)
}

// MARK: Accepted oddities

@Test func flagDirectiveIgnoresExtraWords() {
    let config = read("RewriteEngine On junk")
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.rewrite?.engine == true)
    #expect(read("rewriteengine OFF").block.rewrite?.engine == false)
}

@Test func ruleIgnoresWordsAfterItsFlags() {
    let config = read("RewriteRule ^a$ b [L] junk more")
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.rewrite?.rules.first?.flags == flags { $0.last = true })
}

@Test func flagsStartingWithDAreIgnored() {
    #expect(flags(of: "[L,dummy,Dx]") == flags { $0.last = true })
}

@Test func nonNumericRedirectValueIsA302() {
    #expect(flags(of: "[R=foo]")?.redirect == 302)
}

@Test func ifModuleIsCaseSensitiveSoItsContentIsSkipped() {
    let config = read("<IfModule mod_Rewrite.c>\nRewriteEngine On\nFooBar baz\n</IfModule>")
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.rewrite == nil)
}

@Test func trueIfModuleMayStayOpenToTheEnd() {
    let config = read("<IfModule mod_rewrite.c>\nRewriteEngine On\nRewriteRule ^a$ /b [L]")
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.rewrite?.engine == true)
    #expect(config.block.rewrite?.rules.count == 1)
}

@Test(arguments: [
    ("mod_rewrite.c", true), ("rewrite_module", true), ("!mod_rewrite.c", false),
    ("mod_nonexistent.c", false), ("!mod_nonexistent.c", true), ("mod_Rewrite.c", false),
    // A source file name or a symbol, exactly (section-ifmodule-source-and-symbol-names).
    ("event.c", true), ("mod_mpm_event.c", false), ("mpm_event_module", true), ("core.c", true),
    ("mod_core.c", false), ("http_core.c", true), ("http_module", true), ("http_core_module", false),
    ("rewrite.c", false), ("mod_rewrite_module", false), ("rewrite_module.c", false),
])
func ifModuleReadsItsContentOnlyWhenTrue(_ argument: String, _ contentRead: Bool) {
    let config = read("<IfModule \(argument)>\nRewriteEngine On\n</IfModule>")
    #expect(config.diagnostics.isEmpty)
    #expect((config.block.rewrite?.engine == true) == contentRead)
}

@Test func quotedPatternAloneIsARuleWithAnEmptySubstitution() throws {
    // parseargline takes the empty rest after a closing quote as the second argument.
    let config = read(#"RewriteRule "^a$""#)
    #expect(config.diagnostics.isEmpty)
    let rule = try #require(config.block.rewrite?.rules.first)
    #expect(rule.pattern == "^a$")
    #expect(rule.rawSubstitution == "")
}

// MARK: RewriteRule flags (§5)

private let flagCases: [(String, RewriteFlags)] = [
    ("[B]", flags { $0.escaping.all = true }),
    ("[backrefescaping]", flags { $0.escaping.all = true }),
    ("[B=?&]", flags { $0.escaping.only = Array("?&".utf8) }),
    (#""[B= ?]""#, flags { $0.escaping.only = Array(" ?".utf8) }),
    ("[BNP]", flags { $0.escaping.noPlus = true }),
    ("[BCTLS]", flags { $0.escaping.controls = true }),
    ("[BNE=/]", flags { $0.escaping.never = Array("/".utf8) }),
    ("[C]", flags { $0.chain = true }),
    ("[chain]", flags { $0.chain = true }),
    ("[CO=lang:fr:example.com]", flags { $0.cookies = [Template(parsing: "lang:fr:example.com")] }),
    ("[cookie=lang:fr:example.com]", flags { $0.cookies = [Template(parsing: "lang:fr:example.com")] }),
    ("[DPI]", flags { $0.discardPathInfo = true }),
    ("[discardpath]", flags { $0.discardPathInfo = true }),
    ("[E=FOO:bar]", flags { $0.env = [Template(parsing: "FOO:bar")] }),
    ("[env=FOO:bar,E=!BAZ]", flags { $0.env = [Template(parsing: "FOO:bar"), Template(parsing: "!BAZ")] }),
    ("[END]", flags { $0.end = true }),
    ("[F]", flags { $0.forbidden = true }),
    ("[forbidden]", flags { $0.forbidden = true }),
    ("[G]", flags { $0.gone = true }),
    ("[gone]", flags { $0.gone = true }),
    ("[H=application/x-httpd-php]", flags { $0.handler = Template(parsing: "application/x-httpd-php") }),
    ("[handler=cgi-script]", flags { $0.handler = Template(parsing: "cgi-script") }),
    ("[L]", flags { $0.last = true }),
    ("[last]", flags { $0.last = true }),
    ("[L=1]", flags { $0.last = true }),
    ("[N]", flags { $0.next = 32000 }),
    ("[next]", flags { $0.next = 32000 }),
    ("[N=5]", flags { $0.next = 5 }),
    ("[NC]", flags { $0.noCase = true }),
    ("[nocase]", flags { $0.noCase = true }),
    ("[NE]", flags { $0.noEscape = true }),
    ("[noescape]", flags { $0.noEscape = true }),
    ("[NS]", flags { $0.noSubrequest = true }),
    ("[nosubreq]", flags { $0.noSubrequest = true }),
    ("[P]", flags { $0.proxy = true }),
    ("[proxy]", flags { $0.proxy = true }),
    ("[PT]", flags { $0.passThrough = true }),
    ("[passthrough]", flags { $0.passThrough = true }),
    ("[QSA]", flags { $0.qsAppend = true }),
    ("[qsappend]", flags { $0.qsAppend = true }),
    ("[QSD]", flags { $0.qsDiscard = true }),
    ("[qsdiscard]", flags { $0.qsDiscard = true }),
    ("[QSL]", flags { $0.qsLast = true }),
    ("[qslast]", flags { $0.qsLast = true }),
    ("[R]", flags { $0.redirect = 302 }),
    ("[redirect]", flags { $0.redirect = 302 }),
    ("[R=301]", flags { $0.redirect = 301 }),
    ("[R=permanent]", flags { $0.redirect = 301 }),
    ("[R=temp]", flags { $0.redirect = 302 }),
    ("[R=seeother]", flags { $0.redirect = 303 }),
    ("[redirect=308]", flags { $0.redirect = 308 }),
    ("[R=404]", flags { $0.redirect = 404 }),
    ("[S=2]", flags { $0.skip = 2 }),
    ("[skip=3]", flags { $0.skip = 3 }),
    ("[T=text/plain]", flags { $0.type = Template(parsing: "text/plain") }),
    ("[type=image/png]", flags { $0.type = Template(parsing: "image/png") }),
    ("[UnsafeAllow3F]", flags { $0.unsafeAllow3F = true }),
    ("[UnsafePrefixStat]", flags { $0.unsafePrefixStat = true }),
    ("[UNC]", flags { $0.unc = true }),
    // Names are case-insensitive.
    ("[nc,l]", flags { $0.noCase = true; $0.last = true }),
    ("[qSa,eNd]", flags { $0.qsAppend = true; $0.end = true }),
    ("[r=PERMANENT]", flags { $0.redirect = 301 }),
    ("[unsafeallow3f,unc]", flags { $0.unsafeAllow3F = true; $0.unc = true }),
    // Several flags; blanks inside a quoted field are trimmed.
    ("[R=301,L,QSA]", flags { $0.redirect = 301; $0.last = true; $0.qsAppend = true }),
    (#""[ L , NC ]""#, flags { $0.last = true; $0.noCase = true }),
]

@Test(arguments: flagCases)
func flagSetsItsField(_ field: String, _ expected: RewriteFlags) {
    #expect(flags(of: field) == expected)
}

@Test func nonRedirectStatusStopsWithThatStatus() {
    #expect(flags(of: "[R=404]")?.statusOverride == 404)
    #expect(flags(of: "[F]")?.statusOverride == 403)
    #expect(flags(of: "[G]")?.statusOverride == 410)
    #expect(flags(of: "[R=301]")?.statusOverride == nil)
}

@Test func bneWithoutAListIsAnError() {
    #expect(located("RewriteRule ^a$ b [BNE]") == ["1:20 RewriteRule: flag 'BNE' wants a list of characters (i.e. [BNE=...])"])
}

@Test func unknownFlagIsQuotedWithoutItsValue() {
    #expect(located("RewriteRule ^a$ b [L,Foo=bar]") == ["1:22 RewriteRule: unknown flag 'Foo'"])
}

@Test func ruleRecordsPatternSubstitutionAndRanges() throws {
    let text = "RewriteEngine On\nRewriteRule !^old/(.*)$ - [L]"
    let file = SourceFile(path: htaccessPath, text: text)
    let rule = try #require(ConfigReader.read(file, context: .htaccess).block.rewrite?.rules.first)
    #expect(rule.pattern == "^old/(.*)$")
    #expect(rule.negated)
    #expect(rule.isDash)
    #expect(rule.rawSubstitution == "-")
    #expect(rule.line == 2)
    #expect(file.lines.position(of: rule.patternRange.start) == SourcePosition(line: 2, column: 13))
    #expect(file.lines.position(of: rule.substitutionRange.start) == SourcePosition(line: 2, column: 25))
    #expect(rule.flagsRange.map { file.lines.position(of: $0.start) } == SourcePosition(line: 2, column: 27))
}

@Test func noCaseFlagCompilesACaselessPattern() throws {
    let rule = try #require(rules("RewriteRule ^ABC$ x [NC]").first)
    #expect(rule.regex.matches("abc"))
    let plain = try #require(rules("RewriteRule ^ABC$ x").first)
    #expect(plain.regex.matches("abc") == false)
}

// MARK: RewriteCond (§7.1)

private func kind(_ condition: RewriteCondition) -> String {
    let not = condition.negated ? "!" : ""
    switch condition.test {
    case .regex(let r): return not + "regex " + r.pattern
    case .file(let c): return not + "file " + String(c)
    case .integer(let op, let operand): return not + "integer \(op) \(operand.literalText)"
    case .string(let op, let operand): return not + "string \(op) '\(operand.literalText)'"
    case .expression: return not + "expression"
    }
}

private func condition(_ text: String) -> RewriteCondition? {
    let config = read(text + "\nRewriteRule ^ x")
    guard config.diagnostics.isEmpty else { return nil }
    return config.block.rewrite?.rules.first?.conditions.first
}

@Test(arguments: [
    ("%{REQUEST_FILENAME} -f", "file f"),
    ("%{REQUEST_FILENAME} !-d", "!file d"),
    ("%{REQUEST_FILENAME} -s", "file s"),
    ("%{REQUEST_FILENAME} -l", "file l"),
    ("%{REQUEST_FILENAME} -L", "file L"),
    ("%{REQUEST_FILENAME} -h", "file h"),
    ("%{REQUEST_FILENAME} -x", "file x"),
    ("%{REQUEST_URI} -U", "file U"),
    ("%{REQUEST_FILENAME} -F", "file F"),
    ("%{QUERY_STRING} -lt5", "integer -lt 5"),
    ("%{QUERY_STRING} -le5", "integer -le 5"),
    ("%{QUERY_STRING} -ge10", "integer -ge 10"),
    ("%{QUERY_STRING} -eq0", "integer -eq 0"),
    ("%{QUERY_STRING} \"-gt 10\"", "integer -gt 10"),
    ("%{HTTP_HOST} =example.com", "string = 'example.com'"),
    ("%{QUERY_STRING} =\"\"", "string = ''"),
    ("%{QUERY_STRING} \"=a b\"", "string = 'a b'"),
    ("%{QUERY_STRING} <m", "string < 'm'"),
    ("%{QUERY_STRING} <=m", "string <= 'm'"),
    ("%{QUERY_STRING} >m", "string > 'm'"),
    ("%{QUERY_STRING} >=m", "string >= 'm'"),
    ("%{QUERY_STRING} !=x", "!string = 'x'"),
    // One-character patterns and `-` patterns that fit nothing else are regexes.
    ("%{QUERY_STRING} =", "regex ="),
    ("%{QUERY_STRING} !=", "!regex ="),
    ("%{QUERY_STRING} <", "regex <"),
    ("%{QUERY_STRING} -z", "regex -z"),
    ("%{QUERY_STRING} -lt", "regex -lt"),
    ("%{QUERY_STRING} -f5", "regex -f5"),
    ("%{HTTP_HOST} ^www\\.", "regex ^www\\."),
    ("expr \"%{HTTP_HOST} == 'example.com'\"", "expression"),
    ("EXPR \"%{HTTPS} != 'on'\"", "expression"),
])
func conditionPatternIsClassified(_ arguments: String, _ expected: String) {
    #expect(condition("RewriteCond " + arguments).map(kind) == expected)
}

@Test(arguments: [
    ("[NC]", true, false, false), ("[nocase]", true, false, false),
    ("[OR]", false, true, false), ("[ornext]", false, true, false),
    ("[NV]", false, false, true), ("[novary]", false, false, true),
    ("[nc,OR,nv]", true, true, true),
])
func conditionFlagsAreRead(_ field: String, _ noCase: Bool, _ orNext: Bool, _ noVary: Bool) {
    let c = condition("RewriteCond %{HTTP_HOST} ^x \(field)")
    #expect(c?.noCase == noCase)
    #expect(c?.orNext == orNext)
    #expect(c?.noVary == noVary)
}

@Test func quoteEndsTheConditionPatternSoFlagsMayFollowDirectly() {
    let c = condition(#"RewriteCond %{QUERY_STRING} "=x"[NC]"#)
    #expect(c.map(kind) == "string = 'x'")
    #expect(c?.noCase == true)
}

@Test func backslashQuoteInAConditionIsABadFlagField() {
    #expect(located(#"RewriteCond %{QUERY_STRING} "=a\"b""#) == [#"1:34 RewriteCond: bad flag delimiters"#])
}

@Test func conditionRejectsRuleFlags() {
    #expect(located("RewriteCond %{HTTP_HOST} ^x [NC,L]") == ["1:33 RewriteCond: unknown flag 'L'"])
}

@Test func conditionNeedsTwoArguments() {
    #expect(located("RewriteCond %{HTTP_HOST}") == ["1:13 RewriteCond: bad argument line '%{HTTP_HOST}'"])
}

@Test func conditionsAttachToTheNextRuleOnly() throws {
    let all = rules("""
        RewriteCond %{HTTP_HOST} ^a [OR]
        RewriteCond %{HTTP_HOST} ^b
        RewriteRule ^x$ /y
        RewriteRule ^z$ /w
        RewriteCond %{HTTP_HOST} ^dangling
        """)
    #expect(all.map(\.conditions.count) == [2, 0])
    #expect(all.first?.conditions.map(\.rawTestString) == ["%{HTTP_HOST}", "%{HTTP_HOST}"])
    #expect(all.first?.conditions.map(\.orNext) == [true, false])
}

// MARK: Redirect (§8.2)

private func describe(_ r: AliasRedirect) -> String {
    let matcher: String
    switch r.matcher {
    case .prefix(let p): matcher = "prefix " + p
    case .regex(let re): matcher = "regex " + re.pattern
    case .everything: matcher = "everything"
    }
    return "\(r.status) \(matcher) → \(r.target ?? "none")"
}

@Test(arguments: [
    ("Redirect /a /b", "302 prefix /a → /b"),
    ("Redirect permanent /a /b", "301 prefix /a → /b"),
    ("Redirect PERMANENT /a /b", "301 prefix /a → /b"),
    ("Redirect temp /a https://example.com/b", "302 prefix /a → https://example.com/b"),
    ("Redirect seeother /a /b", "303 prefix /a → /b"),
    ("Redirect 308 /a /b", "308 prefix /a → /b"),
    ("Redirect gone /old", "410 prefix /old → none"),
    ("Redirect 410 /old", "410 prefix /old → none"),
    ("Redirect 404 /old", "404 prefix /old → none"),
    // Expression form: in a directory context a status and one URL redirect every request.
    ("Redirect 301 /elsewhere", "301 everything → /elsewhere"),
    ("Redirect /elsewhere2", "302 everything → /elsewhere2"),
    ("Redirect permanent https://example.com/", "301 everything → https://example.com/"),
    ("Redirect gone", "410 everything → none"),
    ("Redirect 410", "410 everything → none"),
    ("RedirectPermanent /a /b", "301 prefix /a → /b"),
    ("RedirectTemp /a /b", "302 prefix /a → /b"),
    ("RedirectMatch 301 ^/a(.*)$ /b$1", "301 regex ^/a(.*)$ → /b$1"),
    ("RedirectMatch ^/a /b", "302 regex ^/a → /b"),
])
func redirectFormIsRead(_ line: String, _ expected: String) {
    let config = read(line)
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.redirects.map(describe) == [expected])
}

@Test(arguments: [
    ("Redirect permanent", "1:10 URL to redirect to is missing"),
    ("Redirect gone /a /b", "1:10 Redirect URL not valid for this status"),
    ("Redirect 301 /a b", "1:17 Redirect to non-URL"),
    ("RedirectPermanent /a", "1:19 RedirectPermanent takes two arguments, a document to be redirected, then the destination URL"),
    ("RedirectMatch ^/(a $1", "1:15 Regular expression could not be compiled."),
])
func redirectArgumentErrors(_ line: String, _ expected: String) {
    #expect(located(line) == [expected])
}

// MARK: Header (§13)

@Test func headerAlwaysSetIsReadWithAlways() throws {
    let config = read(#"Header always set Strict-Transport-Security "max-age=31536000; includeSubDomains""#)
    #expect(config.diagnostics.isEmpty)
    let header = try #require(config.block.headers.first)
    #expect(header.always)
    #expect(header.action == "set")
    #expect(header.name == "Strict-Transport-Security")
    #expect(header.value == "max-age=31536000; includeSubDomains")
}

@Test func headerWithoutAlwaysIsOnSuccess() throws {
    let set = try #require(read("Header set X-Frame-Options DENY").block.headers.first)
    #expect(set.always == false)
    #expect(set.value == "DENY")
    let unset = try #require(read("Header onsuccess unset X-Powered-By").block.headers.first)
    #expect(unset.always == false)
    #expect(unset.action == "unset")
    #expect(unset.name == "X-Powered-By")
}

@Test func headerNameIsCutAtItsFirstColon() throws {
    // mod_headers keeps the name up to the first colon (Really Simple SSL writes
    // `Header always set Strict-Transport-Security: "max-age=…" env=HTTPS`).
    let headers = read("Header always set Strict-Transport-Security: \"max-age=1\" env=HTTPS\nHeader set X-B:c v\nHeader unset X-D:").block.headers
    #expect(headers.map(\.name) == ["Strict-Transport-Security", "X-B", "X-D"])
    #expect(headers.first?.envCondition?.name == "HTTPS")
}

@Test func headerEnvConditionIsRead() throws {
    let header = try #require(read("Header set Cache-Control no-store env=!cacheable").block.headers.first)
    #expect(header.envCondition?.name == "cacheable")
    #expect(header.envCondition?.negated == true)
}

@Test func headerUnknownActionIsAnError() {
    #expect(located("Header always bogus X y") == [
        "1:15 first argument must be 'add', 'set', 'setifempty', 'append', 'merge', 'unset', 'echo', 'note', 'edit', or 'edit*'.",
    ])
}

@Test func headerExprConditionIsParsedWhenRead() throws {
    let config = read(#"Header always set X-Cond c "expr=%{REQUEST_STATUS} == 301""#)
    #expect(config.diagnostics.isEmpty)
    let header = try #require(config.block.headers.first)
    #expect(header.expression != nil)
    #expect(header.envCondition == nil)
}

@Test func headerEditKeepsPatternAndReplacement() throws {
    let header = try #require(read("Header edit* X-E -def$ -ghi").block.headers.first)
    #expect(header.action == "edit*")
    #expect(header.editPattern?.pattern == "-def$")
    #expect(header.value == "-ghi")
}

@Test(arguments: [
    (#"Header set X "v" "expr=%{NOPE} == 1""#, "1:18 Can't parse envclause/expression: Variable 'NOPE' does not exist"),
    ("Header set X v bogus", "1:16 Unknown parameter: bogus"),
    ("Header set X v env=", "1:16 error: missing environment variable name. envclause should be in the form env=envar "),
    ("Header edit X ^a", "1:8 Header edit requires a match and a substitution"),
    ("Header edit X ( b", "1:15 Header edit regex could not be compiled"),
    ("Header set X", "1:8 Header requires three arguments"),
    ("Header set X v w env=A", "1:8 Too many arguments to directive"),
    ("Header unset X env=A env=B", "1:8 header unset takes two arguments"),
    ("Header set X a b c d", "1:8 Header has too many arguments"),
])
func headerArgumentErrors(_ line: String, _ expected: String) {
    #expect(located(line) == [expected])
}

// MARK: RewriteOptions and RewriteBase (§4.1)

@Test func rewriteOptionsAccumulateKnownNamesCaseInsensitively() {
    let config = read("""
        RewriteOptions Inherit InheritBefore InheritDown InheritDownBefore IgnoreInherit AllowNoSlash
        RewriteOptions allowanyuri MERGEBASE IgnoreContextInfo LegacyPrefixDocRoot UnsafePrefixStat
        """)
    #expect(config.diagnostics.isEmpty)
    #expect(config.block.rewrite?.options == [
        "inherit", "inheritbefore", "inheritdown", "inheritdownbefore", "ignoreinherit", "allownoslash",
        "allowanyuri", "mergebase", "ignorecontextinfo", "legacyprefixdocroot", "unsafeprefixstat",
    ])
}

@Test func rewriteOptionsMaxRedirectsIsAWarningOnly() {
    let config = read("RewriteOptions MaxRedirects=10")
    #expect(config.fatal == nil)
    #expect(config.diagnostics.map(\.code) == [ConfigCode.ignored])
    #expect(config.block.rewrite?.options == [])
}

@Test func rewriteOptionsUnknownNameIsAnError() {
    #expect(located("RewriteOptions Inherit Bogus") == ["1:24 RewriteOptions: unknown option 'Bogus'"])
    #expect(located("RewriteOptions") == ["1:15 RewriteOptions requires at least one argument"])
}

@Test func rewriteBaseMustBeAURLPath() {
    #expect(read("RewriteBase /app/").block.rewrite?.base == "/app/")
    #expect(located("RewriteBase app") == ["1:13 RewriteBase: argument is not a valid URL"])
}

/// Rare flags live in a shared box: copies are independent, and flags set back to their
/// defaults equal flags never set.
@Test func rareFlagsAreValues() {
    var f = RewriteFlags()
    f.next = 5
    #expect(f != RewriteFlags())
    var g = f
    g.cookies = [Template(parsing: "lang:en:.example.com")]
    #expect(f.cookies.isEmpty)
    #expect(g.cookies.count == 1 && g.next == 5)
    f.next = nil
    #expect(f == RewriteFlags())
}

/// mod_dir's and core's messages for these directives, as `apache2 -t` prints them (2.4.71).
@Test(arguments: [
    ("DirectoryIndexRedirect", "1:23 DirectoryIndexRedirect takes one argument, On, Off, or a 3xx status code."),
    ("DirectoryIndexRedirect on off", "1:27 DirectoryIndexRedirect takes one argument, On, Off, or a 3xx status code."),
    ("DirectoryIndexRedirect foo", "1:24 DirectoryIndexRedirect ON|OFF|permanent|temp|seeother|3xx"),
    ("DirectoryIndexRedirect 200", "1:24 DirectoryIndexRedirect only accepts values between 300 and 399"),
    ("UseCanonicalPhysicalPort maybe", "1:26 parameter must be 'on' or 'off'"),
    ("UseCanonicalPhysicalPort", "1:25 UseCanonicalPhysicalPort takes one argument, Whether to use the physical Port when constructing URLs"),
])
func serverDirectiveArgumentErrors(_ line: String, _ expected: String) {
    let file = SourceFile(path: "/etc/apache2/sites-enabled/site.conf", text: line)
    let found = ConfigReader.read(file, context: .server).diagnostics.filter { $0.severity == .error }.map {
        let p = file.lines.position(of: $0.range.start)
        return "\(p.line):\(p.column) \($0.message)"
    }
    #expect(found == [expected])
}

/// syntax-error-build-errors-before-directive-errors: Apache builds the whole tree before it runs
/// a directive, so a section error after a misspelled directive is the one it reports; an unclosed
/// section is found at the end of the file, before its command could refuse missing arguments.
@Test(arguments: [
    ("RewriteRul ^a$ /b\n<FilesMatch \"x\">\nRequire all denied\n</Files>\n", "Expected </FilesMatch> but saw </Files>"),
    ("RewriteRul ^a$ /b\n<Files a.html>\n", "<Files> was not closed."),
    ("Options -Indexes +Multiviews\n<IfModule mod_rewrite.c>\nRewriteEngine On\n</IfModule\n", "</IfModule without matching <IfModule section"),
    ("<Files>\nRequire all denied\n", "<Files> was not closed."),
    ("SetEnvIf Host ^(a x=1\n", "SetEnvIf regex could not be compiled."),
    // Without a build error the first directive's error stands.
    ("RewriteRul ^a$ /b\nOptions -Indexes +Multiviews\n", "Invalid command 'RewriteRul', perhaps misspelled or defined by a module not included in the server configuration"),
])
func fatalErrorIsTheOneApacheMeetsFirst(_ htaccess: String, _ message: String) {
    #expect(read(htaccess).fatal?.message == message)
}
